/**
 * Every issue code the bundle validator can report, with its fixed severity and a one-line
 * explanation. Codes are stable: clients may match on them. (Assembly of a project folder has its
 * own codes: `ASSEMBLY_ISSUE_CODES` in assemble.ts.)
 */
import type { BundleIssue } from '../../contract/api';

export const BUNDLE_ISSUE_CODES = {
  not_an_object: { severity: 'error', explanation: 'The bundle is not a JSON object.' },
  missing_field: {
    severity: 'error',
    explanation: 'A required field is absent (e.g. a tool without code, a rule without then).',
  },
  wrong_type: {
    severity: 'error',
    explanation: 'A field has the wrong JSON type (e.g. a string where a list is expected).',
  },
  invalid_value: {
    severity: 'error',
    explanation:
      'A field holds a value outside its allowed set (e.g. an unknown rule action or parameter type).',
  },
  alias_conflict: {
    severity: 'error',
    explanation:
      'A key and its accepted alias are both given (agent_tools and tools, applied_to and applies_to).',
  },
  duplicate_parameter: { severity: 'error', explanation: 'Two parameters share one code.' },
  duplicate_entity: { severity: 'error', explanation: 'Two entities share one name.' },
  duplicate_tool: { severity: 'error', explanation: 'Two tools share one code.' },
  duplicate_integration: { severity: 'error', explanation: 'Two integrations share one code.' },
  duplicate_rule: {
    severity: 'error',
    explanation: 'Two rules share one code (rule codes identify rules in traces).',
  },
  unknown_parameter: {
    severity: 'error',
    explanation: 'A reference to a parameter code that no parameter defines.',
  },
  unknown_entity: { severity: 'error', explanation: 'A reference to an entity name that no entity defines.' },
  unknown_tool: { severity: 'error', explanation: 'A reference to a tool code that no tool defines.' },
  unknown_integration: {
    severity: 'error',
    explanation: 'A reference to an integration code that no integration defines.',
  },
  unknown_method: {
    severity: 'error',
    explanation: 'A condition leaf uses a method that is neither a bundle-mode nor a legacy method.',
  },
  method_outside_summary: {
    severity: 'error',
    explanation: 'number_of_entities or entity_param_value used outside a summary rule.',
  },
  unknown_operation: {
    severity: 'error',
    explanation: 'A condition leaf uses an operation that does not exist.',
  },
  operation_type_mismatch: {
    severity: 'error',
    explanation:
      "An operation that does not fit the parameter's type (gt on an enum, more_than_x_days on a string).",
  },
  operand_type_mismatch: {
    severity: 'error',
    explanation:
      'A condition compares a parameter with a value of another type ("thirty" where a number of days is read, a number where a date is).',
  },
  between_arity: {
    severity: 'error',
    explanation: 'A between condition whose value is not a list of exactly two values.',
  },
  between_order: {
    severity: 'error',
    explanation: 'A between condition whose low bound is above its high bound (between 100 and 5).',
  },
  missing_operand: {
    severity: 'error',
    explanation: 'A comparison (eq, gt, more_than_x_days, contains...) without the value it compares with.',
  },
  unknown_entity_parameter: {
    severity: 'error',
    explanation: 'An entity condition reads a parameter that its entity does not hold.',
  },
  formula_invalid: {
    severity: 'error',
    explanation:
      'A formula that cannot run: a syntax error, an unknown word or function, a wrong argument count, a division by zero.',
  },
  computation_conflict: {
    severity: 'error',
    explanation:
      'Two different formulas compute one parameter for the same tool (computation and computations[]).',
  },
  computed_without_computation: {
    severity: 'error',
    explanation: 'A parameter with usage computed has no computation (inline or in computations).',
  },
  computation_cycle: {
    severity: 'error',
    explanation: 'Computed parameters that depend on each other in a cycle.',
  },
  non_finite_number: {
    severity: 'error',
    explanation:
      'A number too large for JSON to hold as a number (1e309 reads as Infinity); write a smaller number.',
  },
  bundle_too_complex: {
    severity: 'error',
    explanation:
      'Checking the bundle took more work than one request may use; make it smaller (nothing after that point was checked).',
  },
  value_not_in_enum: {
    severity: 'warning',
    explanation:
      'A condition compares an enum parameter with a value not among its values: it can never match.',
  },
  enum_without_values: {
    severity: 'warning',
    explanation: 'An enum parameter lists no values, so nothing can be extracted for it.',
  },
  computation_ignored: {
    severity: 'warning',
    explanation: 'A parameter has a computation but its usage is not computed, so it is never computed.',
  },
  activation_without_tool: {
    severity: 'warning',
    explanation:
      'An ACTIVATE_* rule names no tool (settings.tools or settings.tool), so it activates nothing.',
  },
  unreachable_message: {
    severity: 'warning',
    explanation:
      'A summary message after a rule that always holds and closes the tool with its own message: only the first summary message that holds is said, so it never shows.',
  },
  starter_never_offered: {
    severity: 'warning',
    explanation:
      'A starter suggestion past the first four: a new thread offers four at most, so it never shows.',
  },
  unknown_placeholder: {
    severity: 'warning',
    explanation: 'A message has a {{placeholder}} that names no parameter; it is left as written.',
  },
  tool_code_style: { severity: 'warning', explanation: 'A tool code that is not SCREAMING_SNAKE_CASE.' },
  parameter_code_style: { severity: 'warning', explanation: 'A parameter code that is not kebab-case.' },
  integration_code_style: { severity: 'warning', explanation: 'An integration code that is not kebab-case.' },
} as const satisfies Record<string, { severity: BundleIssue['severity']; explanation: string }>;

export type BundleIssueCode = keyof typeof BUNDLE_ISSUE_CODES;
export type Loc = (string | number)[];

export function bundleIssue(code: BundleIssueCode, message: string, loc: Loc): BundleIssue {
  return { code, message, loc, severity: BUNDLE_ISSUE_CODES[code].severity };
}

/** `["agent_tools", 2, "rules"]` → `agent_tools[2].rules`; the empty path is `the bundle`. */
export function formatLoc(loc: Loc): string {
  if (loc.length === 0) return 'the bundle';
  let out = '';
  for (const seg of loc) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else out += out ? `.${seg}` : seg;
  }
  return out;
}
