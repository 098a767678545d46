/**
 * A trace → a graph model: intent → extracted parameters and entities → rules grouped by type
 * (coloured by result) → tools considered (invoked ones marked with their parameters; the others
 * dimmed) → the decision. Pure and framework-free.
 *
 * Node ids are STABLE and derived from content, so two traces can be compared node by node:
 * `intent`, `param:<code>`, `entity:<key>`, `rules:<rule_type>`, `rule:<rule_id>`, `tool:<name>`,
 * `decision`. (A repeated id gets `#2`, `#3`… in order of appearance.)
 *
 * Edges follow the content: a rule group hangs from the parameters and entities its predicates
 * mention (else from the intent); a tool from the rules that mention it (else from the intent);
 * the decision from the invoked tools and the rules that did not simply allow (else the intent).
 * Unknown fields are kept for the inspector; unknown values are drawn in the neutral tone.
 */
import type { TolerantTrace } from '../../contract/trace';
import { resultTone, showDecision, worstTone, type Tone } from '../../lib/trace-tones';

export type NodeKind = 'intent' | 'param' | 'entity' | 'rule-group' | 'rule' | 'tool' | 'decision';

export interface GraphNodeModel {
  id: string;
  kind: NodeKind;
  label: string;
  sublabel?: string;
  tone: Tone;
  /** Considered but not invoked, or a rule that did not apply. */
  dimmed: boolean;
  /** A short marker drawn on the node ("invoked", "blocked", "3 rules"). */
  badge?: string;
  /** Inspector fields, in display order; unknown source fields included. */
  details: Array<[string, unknown]>;
}

export interface GraphEdgeModel {
  id: string;
  source: string;
  target: string;
}

export interface GraphModel {
  nodes: GraphNodeModel[];
  edges: GraphEdgeModel[];
}

const SPEC_TRACE_FIELDS = new Set([
  'interaction_id',
  'intent',
  'entities',
  'parameters_extracted',
  'rules_evaluated',
  'tools_considered',
  'tools_invoked',
  'decision',
]);

function isRecord(v: unknown): v is Record<string, unknown> {
  return Boolean(v) && typeof v === 'object' && !Array.isArray(v);
}

function asText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  try {
    return JSON.stringify(v);
  } catch {
    return String(v);
  }
}

function extras(obj: Record<string, unknown>, known: readonly string[]): Array<[string, unknown]> {
  return Object.entries(obj).filter(([k]) => !known.includes(k));
}

/** Does `text` mention `name` as a whole token (case-insensitive; `-`/`_` are word characters)? */
export function mentions(text: string, name: string): boolean {
  if (!name || !text) return false;
  const hay = text.toLowerCase();
  const needle = name.toLowerCase();
  let from = 0;
  for (;;) {
    const i = hay.indexOf(needle, from);
    if (i < 0) return false;
    const before = hay[i - 1];
    const after = hay[i + needle.length];
    const word = (c: string | undefined) => c !== undefined && /[a-z0-9_-]/.test(c);
    if (!word(before) && !word(after)) return true;
    from = i + 1;
  }
}

export function traceToGraph(trace: TolerantTrace): GraphModel {
  const nodes: GraphNodeModel[] = [];
  const edges: GraphEdgeModel[] = [];
  const used = new Map<string, number>();
  const edgeIds = new Set<string>();

  const uniqueId = (base: string) => {
    const n = (used.get(base) ?? 0) + 1;
    used.set(base, n);
    return n === 1 ? base : `${base}#${n}`;
  };
  const link = (source: string, target: string) => {
    const id = `${source}->${target}`;
    if (source === target || edgeIds.has(id)) return;
    edgeIds.add(id);
    edges.push({ id, source, target });
  };

  const t = trace as TolerantTrace & Record<string, unknown>;
  const understanding = isRecord(t.understanding) ? t.understanding : undefined;
  const paramValues = isRecord(understanding?.extracted_params) ? understanding.extracted_params : {};
  const otherTraceFields = Object.entries(t).filter(([k]) => !SPEC_TRACE_FIELDS.has(k));

  // intent
  const intentText = asText(t.intent);
  nodes.push({
    id: uniqueId('intent'),
    kind: 'intent',
    label: intentText || 'no intent',
    sublabel: 'intent',
    tone: intentText ? 'info' : 'muted',
    dimmed: !intentText,
    details: [['intent', t.intent], ['interaction_id', t.interaction_id], ...otherTraceFields],
  });

  // parameters and entities
  const stage1: Array<{ id: string; name: string }> = [];
  const seenParams = new Set<string>();
  const paramCodes = [
    ...(Array.isArray(t.parameters_extracted) ? t.parameters_extracted : []),
    ...Object.keys(paramValues),
  ];
  for (const raw of paramCodes) {
    const code = asText(raw);
    if (seenParams.has(code)) continue;
    seenParams.add(code);
    const id = uniqueId(`param:${code}`);
    const hasValue = Object.hasOwn(paramValues, code);
    nodes.push({
      id,
      kind: 'param',
      label: code || '(unnamed parameter)',
      ...(hasValue ? { sublabel: asText(paramValues[code]) } : { sublabel: 'parameter' }),
      tone: 'neutral',
      dimmed: false,
      details: [
        ['parameter', code],
        ...(hasValue ? ([['value', paramValues[code]]] as Array<[string, unknown]>) : []),
      ],
    });
    link('intent', id);
    stage1.push({ id, name: code });
  }
  const entities = isRecord(t.entities) ? t.entities : {};
  for (const [key, value] of Object.entries(entities)) {
    const id = uniqueId(`entity:${key}`);
    nodes.push({
      id,
      kind: 'entity',
      label: key,
      sublabel: asText(value),
      tone: 'neutral',
      dimmed: false,
      details: [
        ['entity', key],
        ['value', value],
      ],
    });
    link('intent', id);
    stage1.push({ id, name: key });
  }

  // rules, grouped by type
  const rules = Array.isArray(t.rules_evaluated) ? t.rules_evaluated : [];
  const groups = new Map<string, { id: string; ruleIds: string[]; tones: Tone[]; texts: string[] }>();
  const ruleNodes: Array<{ id: string; text: string; result: string; tone: Tone }> = [];
  for (const rule of rules) {
    const r = rule as Record<string, unknown>;
    const type = asText(r.rule_type) || 'other';
    let group = groups.get(type);
    if (!group) {
      group = { id: uniqueId(`rules:${type}`), ruleIds: [], tones: [], texts: [] };
      groups.set(type, group);
    }
    const ruleId = asText(r.rule_id);
    const result = asText(r.result);
    const tone = resultTone(result);
    const id = uniqueId(`rule:${ruleId || '(unnamed)'}`);
    const text = [ruleId, asText(r.predicate), asText(r.reason)].join(' ');
    nodes.push({
      id,
      kind: 'rule',
      label: ruleId || '(unnamed rule)',
      sublabel: result || 'no result',
      tone,
      dimmed: result === 'not_applicable',
      ...(result ? { badge: result } : {}),
      details: [
        ['rule_id', r.rule_id],
        ['rule_type', r.rule_type],
        ['predicate', r.predicate],
        ['result', r.result],
        ['reason', r.reason],
        ...extras(r, ['rule_id', 'rule_type', 'predicate', 'result', 'reason']),
      ],
    });
    group.ruleIds.push(id);
    group.tones.push(tone);
    group.texts.push(text);
    ruleNodes.push({ id, text, result, tone });
  }
  for (const [type, group] of groups) {
    const counts = new Map<string, number>();
    for (const rid of group.ruleIds) {
      const n = nodes.find((x) => x.id === rid);
      const key = n?.badge ?? 'no result';
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    const summary = [...counts.entries()].map(([k, n]) => `${n} ${k}`).join(', ');
    nodes.push({
      id: group.id,
      kind: 'rule-group',
      label: `${type} rules`,
      sublabel: summary,
      tone: worstTone(group.tones),
      dimmed: false,
      badge: `${group.ruleIds.length} rule${group.ruleIds.length === 1 ? '' : 's'}`,
      details: [
        ['rule_type', type],
        ['rules', group.ruleIds.length],
        ['results', Object.fromEntries(counts)],
      ],
    });
    const text = group.texts.join(' ');
    const sources = stage1.filter((s) => mentions(text, s.name));
    if (sources.length === 0) link('intent', group.id);
    for (const s of sources) link(s.id, group.id);
    for (const rid of group.ruleIds) link(group.id, rid);
  }

  // tools: considered ∪ invoked
  const invoked = Array.isArray(t.tools_invoked) ? t.tools_invoked : [];
  const considered = Array.isArray(t.tools_considered) ? t.tools_considered.map(asText) : [];
  const toolOrder: string[] = [];
  for (const name of [...considered, ...invoked.map((i) => asText((i as Record<string, unknown>).tool))]) {
    if (!toolOrder.includes(name)) toolOrder.push(name);
  }
  const invokedToolIds: string[] = [];
  for (const name of toolOrder) {
    const calls = invoked.filter((i) => asText((i as Record<string, unknown>).tool) === name) as Array<
      Record<string, unknown>
    >;
    const isInvoked = calls.length > 0;
    const id = uniqueId(`tool:${name || '(unnamed)'}`);
    const results = calls.map((c) => asText(c.result)).filter(Boolean);
    const tone: Tone = !isInvoked
      ? 'muted'
      : results.every((r) => r === 'success')
        ? 'ok'
        : results.length
          ? 'neutral'
          : 'ok';
    nodes.push({
      id,
      kind: 'tool',
      label: name || '(unnamed tool)',
      sublabel: isInvoked ? results.join(', ') || 'invoked' : 'considered, not invoked',
      tone,
      dimmed: !isInvoked,
      badge: isInvoked ? (calls.length > 1 ? `invoked ×${calls.length}` : 'invoked') : 'considered',
      details: [
        ['tool', name],
        ['invoked', isInvoked],
        ...(calls.length === 1
          ? ([
              ['parameters', calls[0]?.parameters],
              ['result', calls[0]?.result],
              ...extras(calls[0] ?? {}, ['tool', 'parameters', 'result']),
            ] as Array<[string, unknown]>)
          : calls.length > 1
            ? ([['calls', calls]] as Array<[string, unknown]>)
            : []),
      ],
    });
    if (isInvoked) invokedToolIds.push(id);
    const fromRules = ruleNodes.filter((r) => mentions(r.text, name));
    if (fromRules.length === 0) link('intent', id);
    for (const r of fromRules) link(r.id, id);
  }

  // decision
  const decision = asText(t.decision);
  const shown = showDecision(decision);
  nodes.push({
    id: uniqueId('decision'),
    kind: 'decision',
    label: shown?.label ?? 'no decision',
    sublabel: decision && shown?.label !== decision ? decision : 'decision',
    tone: shown?.tone ?? 'muted',
    dimmed: !decision,
    details: [['decision', t.decision]],
  });
  const deciding = ruleNodes.filter((r) => r.tone !== 'ok' && r.tone !== 'muted');
  for (const r of deciding) link(r.id, 'decision');
  for (const id of invokedToolIds) link(id, 'decision');
  if (deciding.length === 0 && invokedToolIds.length === 0) {
    // Nothing decisive: the decision follows from the whole evaluation.
    const groupIds = [...groups.values()].map((g) => g.id);
    if (groupIds.length) for (const g of groupIds) link(g, 'decision');
    else link('intent', 'decision');
  }

  return { nodes, edges };
}

const graphs = new WeakMap<object, GraphModel>();

/** traceToGraph, memoised per trace object (traces are immutable query data): the panel and the graph share one model. */
export function graphOf(trace: TolerantTrace): GraphModel {
  let model = graphs.get(trace);
  if (!model) {
    model = traceToGraph(trace);
    graphs.set(trace, model);
  }
  return model;
}
