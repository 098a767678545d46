/**
 * What the what-if panel computes (pure): the editor a parameter gets, the value an editor's
 * text gives, the edits sent, the graph nodes a what-if changes, and a difference in words.
 */
import type { ValueEditBody, WhatIfParameter } from '../../contract/what-if';
import type { OutcomeDifference } from '../../contract/impact';

/** What the engine holds fixed in a what-if, said wherever one is shown. */
export const HELD_FIXED =
  'Decided again by the reference engine, the turn’s understanding and tool choice held fixed.';

export type EditorKind = 'date' | 'number' | 'enum' | 'boolean' | 'text';

/** A value given in the what-if, or `missing` (not known). */
export type EditValue = string | number | boolean | { missing: true };

export function editorKind(p: Pick<WhatIfParameter, 'type' | 'values'>): EditorKind {
  if (Array.isArray(p.values) && p.values.length > 0) return 'enum';
  if (p.type === 'date') return 'date';
  if (p.type === 'numeric') return 'number';
  if (p.type === 'boolean') return 'boolean';
  return 'text';
}

/**
 * The value an editor's text stands for: empty means not known; a number must be one; an enum
 * value keeps the type it has in the bundle (`values` may hold numbers). `undefined`: not a value
 * yet (half-typed), nothing is sent.
 */
export function editorValue(
  kind: EditorKind,
  text: string,
  values?: readonly (string | number)[],
): EditValue | undefined {
  if (text.trim() === '') return { missing: true };
  switch (kind) {
    case 'number': {
      const n = Number(text.trim());
      return Number.isFinite(n) ? n : undefined;
    }
    case 'boolean':
      return text === 'true' ? true : text === 'false' ? false : undefined;
    case 'date':
      return /^\d{4}-\d{2}-\d{2}$/.test(text.trim()) ? text.trim() : undefined;
    case 'enum':
      return values?.find((v) => String(v) === text) ?? undefined;
    case 'text':
      return text;
  }
}

/** The text an editor shows for a value (empty for not known). */
export function editorText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'object') return 'missing' in value ? '' : JSON.stringify(value);
  return String(value);
}

/** The edits to send, in the order the parameters are listed. */
export function editsToSend(
  edits: Readonly<Record<string, EditValue>>,
  order: readonly string[],
): ValueEditBody[] {
  const out: ValueEditBody[] = [];
  const seen = new Set<string>();
  for (const code of [...order, ...Object.keys(edits)]) {
    if (seen.has(code) || !Object.prototype.hasOwnProperty.call(edits, code)) continue;
    seen.add(code);
    const v = edits[code]!;
    out.push(typeof v === 'object' ? { code, missing: true } : { code, value: v });
  }
  return out;
}

/** The graph nodes a what-if changes (ids of the trace graph: `decision`, `rule:<id>`, `tool:<name>`). */
export function changedNodes(differences: readonly OutcomeDifference[]): Record<string, 'changed'> {
  const out: Record<string, 'changed'> = {};
  for (const d of differences) {
    if (d.kind === 'decision') out.decision = 'changed';
    else if (d.kind === 'rule') out[`rule:${d.subject}`] = 'changed';
    else out[`tool:${d.subject}`] = 'changed';
  }
  return out;
}

/** One difference in words: `DISPUTE_WINDOW blocked → allowed`. */
export function differenceText(d: OutcomeDifference): string {
  if (d.kind === 'decision') return `decision ${d.before} → ${d.after}`;
  return `${d.subject} ${d.before} → ${d.after}`;
}

/**
 * The parameter a graph node stands for, among those a what-if may edit: a parameter node by its
 * code; an entity node (`transaction.transaction-date`) by its key when a parameter has that
 * code, else by the part after the last dot. Undefined: the node holds no editable value.
 */
export function parameterOfNode<P extends Pick<WhatIfParameter, 'code'>>(
  node: { kind: string; label: string },
  parameters: readonly P[],
): P | undefined {
  if (node.kind !== 'param' && node.kind !== 'entity') return undefined;
  const byCode = (code: string) => parameters.find((p) => p.code === code);
  const exact = byCode(node.label);
  if (exact || node.kind === 'param') return exact;
  const dot = node.label.lastIndexOf('.');
  return dot > 0 ? byCode(node.label.slice(dot + 1)) : undefined;
}

/** A parameter code as words: `transaction-date` → `transaction date`. */
const words = (code: string) => code.replace(/[-_.]+/g, ' ').trim();

/** The edits in short: `transaction-date = 2025-03-07; merchant-name not known`. */
export function editsText(edits: readonly ValueEditBody[]): string {
  return edits
    .map((e) => ('missing' in e ? `${e.code} not known` : `${e.code} = ${JSON.stringify(e.value)}`))
    .join('; ');
}

/**
 * The edited values said as a user would say them, one sentence each ("My transaction date is
 * 2025-03-07."). A what-if holds the understanding fixed; a message can only state the value and
 * leave it to the understanding, so whoever sends this must say the turn may be understood otherwise.
 */
export function statementOf(edits: readonly ValueEditBody[]): string {
  return edits
    .map((e) =>
      'missing' in e
        ? `I don't know my ${words(e.code)}.`
        : `My ${words(e.code)} is ${typeof e.value === 'string' ? e.value : String(e.value)}.`,
    )
    .join(' ');
}

/**
 * The message that opens a what-if as a conversation: the statement first, then the turn's own
 * message, so that the stated value is the first of its kind the message holds (before, say, the
 * "10 days ago" of the original).
 */
export function messageStatingEdits(edits: readonly ValueEditBody[], original: string): string {
  const statement = statementOf(edits);
  return [statement, original.trim()].filter(Boolean).join(' ');
}
