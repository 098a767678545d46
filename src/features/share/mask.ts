/**
 * Masking entity and parameter values before sharing. `maskCandidates` lists the values a
 * document holds (trace entities, tool parameters, extracted parameters), each with the fields
 * it came from; `maskDocument` replaces the chosen values everywhere they appear as data:
 * entities, tool parameters, rule reasons and predicates, extracted parameters, message texts,
 * suggestions, titles, lineage texts and the bundle. Identifiers (task, turn, rule ids, hashes)
 * and object keys (entity and parameter names) are kept, so the copy still renders.
 *
 * Values of MIN_SUBSTRING characters or more are replaced inside longer texts too; shorter ones
 * (such as "2") only where a value is exactly that, so "Turn 2" is not mangled. Pure.
 */
import type { ShareDocument } from './document';

const MIN_SUBSTRING = 3;

export interface MaskCandidate {
  /** The value as text (numbers as their decimal form). */
  value: string;
  /** Where it appears, e.g. "entity card_last4", "DISPUTE_CHARGE.amount", "parameter amount". */
  fields: string[];
  /** The name the mask shows, e.g. ‹card_last4›. */
  name: string;
}

const ID_KEYS = new Set([
  'id',
  'task_id',
  'parent_task_id',
  'parent_interaction_id',
  'interaction_id',
  'rule_id',
  'code',
  'hash',
  'bundle_hash',
  'created_at',
  'format',
  'version',
  'kind',
  'focus',
  'masked',
  'agent_id',
  'version_id',
  'version_tag',
]);

function obj(v: unknown): Record<string, unknown> | undefined {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

function scalarText(v: unknown): string | undefined {
  if (typeof v === 'string') return v.trim() ? v : undefined;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return undefined;
}

/** Leaf values of a parameter object, with dotted paths (objects and arrays are walked). */
function leaves(value: unknown, path: string, out: Array<[string, string]>): void {
  const text = scalarText(value);
  if (text !== undefined) {
    out.push([path, text]);
    return;
  }
  if (Array.isArray(value)) value.forEach((v, i) => leaves(v, `${path}[${i}]`, out));
  else {
    const o = obj(value);
    if (o) for (const [k, v] of Object.entries(o)) leaves(v, path ? `${path}.${k}` : k, out);
  }
}

function lastName(path: string): string {
  const tail = path.split('.').pop() ?? path;
  return tail.replace(/\[\d+\]$/, '') || path;
}

export function maskCandidates(doc: ShareDocument): MaskCandidate[] {
  const byValue = new Map<string, MaskCandidate>();
  const add = (value: string, field: string) => {
    const seen = byValue.get(value);
    if (seen) {
      if (!seen.fields.includes(field)) seen.fields.push(field);
      return;
    }
    byValue.set(value, { value, fields: [field], name: lastName(field.split(' ').pop() ?? field) });
  };
  for (const thread of doc.threads) {
    for (const turn of thread.turns) {
      const trace = turn.trace;
      if (!trace) continue;
      const found: Array<[string, string]> = [];
      for (const [name, v] of Object.entries(trace.entities)) {
        const list: Array<[string, string]> = [];
        leaves(v, name, list);
        for (const [p, t] of list) found.push([`entity ${p}`, t]);
      }
      for (const inv of trace.tools_invoked) {
        const list: Array<[string, string]> = [];
        leaves(inv.parameters, '', list);
        for (const [p, t] of list) found.push([`${inv.tool || 'tool'}.${p}`, t]);
      }
      const extracted = obj(obj(trace.understanding)?.extracted_params);
      if (extracted) {
        const list: Array<[string, string]> = [];
        leaves(extracted, '', list);
        for (const [p, t] of list) found.push([`parameter ${p}`, t]);
      }
      for (const [field, value] of found) add(value, field);
    }
  }
  return [...byValue.values()];
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export interface Masker {
  text: (s: string) => string;
  /** The replacement for a whole value, or undefined when it is not masked. */
  whole: (s: string) => string | undefined;
}

function makeMasker(chosen: readonly MaskCandidate[]): Masker {
  const token = new Map(chosen.map((c) => [c.value, `‹${c.name}›`]));
  const long = chosen.map((c) => c.value).filter((v) => v.length >= MIN_SUBSTRING);
  long.sort((a, b) => b.length - a.length);
  const pattern = long.length ? new RegExp(long.map(escapeRegExp).join('|'), 'g') : null;
  return {
    whole: (s) => token.get(s),
    text: (s) => {
      const exact = token.get(s);
      if (exact !== undefined) return exact;
      return pattern ? s.replace(pattern, (m) => token.get(m) ?? '‹masked›') : s;
    },
  };
}

function maskValue(value: unknown, masker: Masker, key: string | undefined): unknown {
  if (key !== undefined && ID_KEYS.has(key)) return value;
  if (typeof value === 'string') return masker.text(value);
  if (typeof value === 'number') return masker.whole(String(value)) ?? value;
  if (Array.isArray(value)) return value.map((v) => maskValue(v, masker, undefined));
  const o = obj(value);
  if (o) return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, maskValue(v, masker, k)]));
  return value;
}

/** A copy of the document with the chosen values replaced; `masked` lists the fields, not values. */
export function maskDocument(doc: ShareDocument, chosen: readonly MaskCandidate[]): ShareDocument {
  if (chosen.length === 0) return doc;
  const masker = makeMasker(chosen);
  const masked = maskValue(doc, masker, undefined) as ShareDocument;
  const fields = new Set([...doc.masked, ...chosen.flatMap((c) => c.fields)]);
  return { ...masked, masked: [...fields].sort() };
}

/** Chosen values still present in the document's data, outside identifiers (a last check). */
export function findLeaks(doc: ShareDocument, values: readonly string[]): string[] {
  const strings: string[] = [];
  const walk = (v: unknown, key?: string) => {
    if (key !== undefined && ID_KEYS.has(key)) return;
    if (typeof v === 'string') strings.push(v);
    else if (typeof v === 'number') strings.push(String(v));
    else if (Array.isArray(v)) v.forEach((x) => walk(x));
    else {
      const o = obj(v);
      if (o) for (const [k, x] of Object.entries(o)) walk(x, k);
    }
  };
  walk(doc);
  return values.filter((v) =>
    v.length >= MIN_SUBSTRING ? strings.some((s) => s.includes(v)) : strings.includes(v),
  );
}
