/**
 * Lint findings only a tool's run over its regions can show (the slow part of a lint); the others
 * come from the bundle's shape and each rule's condition alone, and a quick lint (`toolRuns: false`)
 * gives those first. A module of its own, without the schemas, for the editor's first chunk.
 */
export const TOOL_RUN_FINDINGS: readonly string[] = [
  'shadowed_rule',
  'rule_conflict',
  'unreachable_message',
  'repeated_call',
];
