/**
 * What the what-if panel computes (pure): the editor a parameter gets, the value an editor's
 * text gives, the edits sent, the graph nodes a what-if changes, and a difference in words.
 */
import type { ValueEditBody, WhatIfParameter } from '../../contract/what-if';
import type { OutcomeDifference } from '../../contract/impact';

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
