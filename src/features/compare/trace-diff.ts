/**
 * Decision diff of two traces (one aligned turn of two threads), and its mapping onto the trace
 * graph's node ids so both graphs can highlight what changed.
 *
 * Rules are matched by `rule_id` (the n-th evaluation of an id on one side with the n-th on the
 * other); tools invoked by name, likewise. Pure and framework-free.
 */
import type { TolerantTrace } from '../../contract/trace';
import { ownValue } from '../../lib/own-records';

type Rule = TolerantTrace['rules_evaluated'][number];
type ToolCall = TolerantTrace['tools_invoked'][number];

export interface RuleSide {
  result: string;
  predicate: string;
  reason: string;
}

export interface RulePair {
  rule_id: string;
  rule_type: string;
  a: RuleSide;
  b: RuleSide;
}

export interface OneSidedRule {
  rule_id: string;
  rule_type: string;
  side: RuleSide;
}

export interface ValueChange {
  key: string;
  /** undefined when the key is absent on that side. */
  a: unknown;
  b: unknown;
}

export interface ToolChange {
  tool: string;
  a: { result: string; parameters: Record<string, unknown> };
  b: { result: string; parameters: Record<string, unknown> };
}

export interface TraceDiff {
  decision: { a: string | null; b: string | null; changed: boolean };
  intent: { a: string | null; b: string | null; changed: boolean };
  /** Rules on both sides whose result differs. */
  rulesFlipped: RulePair[];
  /** Rules on both sides with the same result but a different predicate or reason. */
  rulesReworded: RulePair[];
  rulesOnlyA: OneSidedRule[];
  rulesOnlyB: OneSidedRule[];
  /** Tool names invoked on B and not on A (one entry per extra call). */
  toolsAdded: string[];
  toolsRemoved: string[];
  /** The same tool invoked on both sides with a different result or different parameters. */
  toolsChanged: ToolChange[];
  paramsAdded: string[];
  paramsRemoved: string[];
  /** Extracted parameter values that differ (from the richer `understanding.extracted_params`). */
  paramValues: ValueChange[];
  entities: ValueChange[];
  /** True when anything above differs. */
  changed: boolean;
}

const sideOf = (r: Rule): RuleSide => ({ result: r.result, predicate: r.predicate, reason: r.reason });

/** Occurrence-keyed map: the n-th item with key k becomes `k#n`, keeping first-seen order. */
function occurrences<T>(items: readonly T[], key: (t: T) => string): Map<string, T> {
  const counts = new Map<string, number>();
  const out = new Map<string, T>();
  for (const item of items) {
    const k = key(item);
    const n = counts.get(k) ?? 0;
    counts.set(k, n + 1);
    out.set(`${k}#${n}`, item);
  }
  return out;
}

/** Structural equality of JSON-like values, object key order ignored. */
export function sameValue(x: unknown, y: unknown): boolean {
  if (Object.is(x, y)) return true;
  if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null) return false;
  if (Array.isArray(x) !== Array.isArray(y)) return false;
  if (Array.isArray(x) && Array.isArray(y))
    return x.length === y.length && x.every((v, i) => sameValue(v, y[i]));
  const xo = x as Record<string, unknown>;
  const yo = y as Record<string, unknown>;
  const keys = new Set([...Object.keys(xo), ...Object.keys(yo)]);
  for (const k of keys) if (!sameValue(xo[k], yo[k])) return false;
  return true;
}

/** Entities and parameters are named by the bundle: only a side's own entries count. */
function recordDiff(a: Record<string, unknown>, b: Record<string, unknown>): ValueChange[] {
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
  return keys
    .map((key) => ({ key, a: ownValue(a, key), b: ownValue(b, key) }))
    .filter((c) => !sameValue(c.a, c.b));
}

function extractedParams(t: TolerantTrace | null | undefined): Record<string, unknown> {
  const understanding = (t as { understanding?: { extracted_params?: unknown } } | null | undefined)
    ?.understanding;
  const ep = understanding?.extracted_params;
  return typeof ep === 'object' && ep !== null && !Array.isArray(ep) ? (ep as Record<string, unknown>) : {};
}

function multisetMinus(xs: readonly string[], ys: readonly string[]): string[] {
  const left = new Map<string, number>();
  for (const y of ys) left.set(y, (left.get(y) ?? 0) + 1);
  const out: string[] = [];
  for (const x of xs) {
    const n = left.get(x) ?? 0;
    if (n > 0) left.set(x, n - 1);
    else out.push(x);
  }
  return out;
}

/** Diff of two traces; a missing trace counts as an empty one. */
export function diffTraces(
  a: TolerantTrace | null | undefined,
  b: TolerantTrace | null | undefined,
): TraceDiff {
  const rulesA = occurrences(a?.rules_evaluated ?? [], (r) => r.rule_id);
  const rulesB = occurrences(b?.rules_evaluated ?? [], (r) => r.rule_id);
  const rulesFlipped: RulePair[] = [];
  const rulesReworded: RulePair[] = [];
  const rulesOnlyA: OneSidedRule[] = [];
  const rulesOnlyB: OneSidedRule[] = [];
  for (const [k, ra] of rulesA) {
    const rb = rulesB.get(k);
    if (!rb) {
      rulesOnlyA.push({ rule_id: ra.rule_id, rule_type: ra.rule_type, side: sideOf(ra) });
      continue;
    }
    const pair = {
      rule_id: ra.rule_id,
      rule_type: rb.rule_type || ra.rule_type,
      a: sideOf(ra),
      b: sideOf(rb),
    };
    if (ra.result !== rb.result) rulesFlipped.push(pair);
    else if (ra.predicate !== rb.predicate || ra.reason !== rb.reason) rulesReworded.push(pair);
  }
  for (const [k, rb] of rulesB) {
    if (!rulesA.has(k)) rulesOnlyB.push({ rule_id: rb.rule_id, rule_type: rb.rule_type, side: sideOf(rb) });
  }

  const toolsA = a?.tools_invoked ?? [];
  const toolsB = b?.tools_invoked ?? [];
  const namesA = toolsA.map((t) => t.tool);
  const namesB = toolsB.map((t) => t.tool);
  const callsA = occurrences<ToolCall>(toolsA, (t) => t.tool);
  const callsB = occurrences<ToolCall>(toolsB, (t) => t.tool);
  const toolsChanged: ToolChange[] = [];
  for (const [k, ta] of callsA) {
    const tb = callsB.get(k);
    if (tb && (ta.result !== tb.result || !sameValue(ta.parameters, tb.parameters))) {
      toolsChanged.push({
        tool: ta.tool,
        a: { result: ta.result, parameters: ta.parameters },
        b: { result: tb.result, parameters: tb.parameters },
      });
    }
  }

  const paramsA = a?.parameters_extracted ?? [];
  const paramsB = b?.parameters_extracted ?? [];
  const decisionA = a?.decision ?? null;
  const decisionB = b?.decision ?? null;
  const intentA = a?.intent ?? null;
  const intentB = b?.intent ?? null;

  const diff: Omit<TraceDiff, 'changed'> = {
    decision: { a: decisionA, b: decisionB, changed: decisionA !== decisionB },
    intent: { a: intentA, b: intentB, changed: intentA !== intentB },
    rulesFlipped,
    rulesReworded,
    rulesOnlyA,
    rulesOnlyB,
    toolsAdded: multisetMinus(namesB, namesA),
    toolsRemoved: multisetMinus(namesA, namesB),
    toolsChanged,
    paramsAdded: paramsB.filter((p) => !paramsA.includes(p)),
    paramsRemoved: paramsA.filter((p) => !paramsB.includes(p)),
    paramValues: recordDiff(extractedParams(a), extractedParams(b)),
    entities: recordDiff(a?.entities ?? {}, b?.entities ?? {}),
  };
  const changed =
    diff.decision.changed ||
    diff.intent.changed ||
    [
      diff.rulesFlipped,
      diff.rulesReworded,
      diff.rulesOnlyA,
      diff.rulesOnlyB,
      diff.toolsAdded,
      diff.toolsRemoved,
      diff.toolsChanged,
      diff.paramsAdded,
      diff.paramsRemoved,
      diff.paramValues,
      diff.entities,
    ].some((list) => list.length > 0);
  return { ...diff, changed };
}

export type HighlightKind = 'added' | 'removed' | 'changed';
export type Highlight = Record<string, HighlightKind>;

/**
 * Graph node ids to highlight on one side of a diff. Ids follow the trace graph: `intent`,
 * `param:<code>`, `entity:<key>`, `rules:<rule_type>`, `rule:<rule_id>`, `tool:<name>`, `decision`.
 * Something only on A is `removed` on A's graph; only on B is `added` on B's graph; on both but
 * different is `changed` on both. A rule group is `changed` when any of its rules is marked.
 */
export function highlightFor(diff: TraceDiff, side: 'a' | 'b'): Highlight {
  const h: Highlight = {};
  const mark = (id: string, kind: HighlightKind) => {
    if (!h[id]) h[id] = kind;
  };
  const oneSided: HighlightKind = side === 'a' ? 'removed' : 'added';
  const groups = new Set<string>();

  if (diff.decision.changed) mark('decision', 'changed');
  if (diff.intent.changed) mark('intent', 'changed');
  for (const r of [...diff.rulesFlipped, ...diff.rulesReworded]) {
    mark(`rule:${r.rule_id}`, 'changed');
    groups.add(r.rule_type);
  }
  for (const r of side === 'a' ? diff.rulesOnlyA : diff.rulesOnlyB) {
    mark(`rule:${r.rule_id}`, oneSided);
    groups.add(r.rule_type);
  }
  for (const t of side === 'a' ? diff.toolsRemoved : diff.toolsAdded) mark(`tool:${t}`, oneSided);
  for (const t of diff.toolsChanged) mark(`tool:${t.tool}`, 'changed');
  for (const p of side === 'a' ? diff.paramsRemoved : diff.paramsAdded) mark(`param:${p}`, oneSided);
  for (const v of diff.paramValues) {
    const present = side === 'a' ? v.a !== undefined : v.b !== undefined;
    const other = side === 'a' ? v.b !== undefined : v.a !== undefined;
    if (present) mark(`param:${v.key}`, other ? 'changed' : oneSided);
  }
  for (const e of diff.entities) {
    const present = side === 'a' ? e.a !== undefined : e.b !== undefined;
    const other = side === 'a' ? e.b !== undefined : e.a !== undefined;
    if (present) mark(`entity:${e.key}`, other ? 'changed' : oneSided);
  }
  for (const g of groups) if (g) mark(`rules:${g}`, 'changed');
  return h;
}

/** How many distinct differences a diff holds (for the row headers and the filter). */
export function countDifferences(diff: TraceDiff): number {
  return (
    Number(diff.decision.changed) +
    Number(diff.intent.changed) +
    diff.rulesFlipped.length +
    diff.rulesReworded.length +
    diff.rulesOnlyA.length +
    diff.rulesOnlyB.length +
    diff.toolsAdded.length +
    diff.toolsRemoved.length +
    diff.toolsChanged.length +
    diff.paramsAdded.length +
    diff.paramsRemoved.length +
    diff.paramValues.length +
    diff.entities.length
  );
}
