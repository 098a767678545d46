/**
 * A trace → a graph model, causal path first. Pure, framework-free, linear in the trace (names are
 * matched through a `NameIndex`, every lookup is a `Map`): built once per trace (`graphOf`), at
 * once or in slices of bounded work (`graphSteps`, driven by `graph-in-slices.ts`) for a huge trace.
 *
 * The causal path (nodes without a `group`, drawn by default): intent → the values the deciding
 * rules read → the rules that decided (each naming the tool it concerns) → the decision, which
 * names them ("blocked by DISPUTE_WINDOW: …", see lib/decision-cause). When no rule decided, the
 * invoked tools (and the values passed to them) stand in for the rules.
 * Everything else sits in collapsed groups (see graph-view.ts): `params`, `entities`, `tools`, and
 * the other rules by what they did: `rules:blocked`, `rules:needs-information`,
 * `rules:needs-confirmation`, `rules:allowed`, `rules:not-applicable`, `rules:other` (an `error`
 * or any unknown result, shown as it is).
 *
 * Node ids are STABLE and derived from content, so two traces can be compared node by node:
 * `intent`, `param:<code>`, `entity:<key>`, `rule:<rule_id>`, `tool:<name>`, `decision`, and the
 * group ids above. (A repeated id gets `#2`, `#3`… in order of appearance.)
 *
 * Content edges: intent → each value; a value → the rules that mention it; a rule → the tool it
 * concerns (from the trace's `decisions`, else the tools it mentions); a deciding rule → its tool
 * → the decision (or the rule → the decision when it concerns no tool); an invoked tool → the
 * decision. Unknown fields are kept for the inspector; unknown values are drawn in the neutral tone.
 */
import type { TolerantTrace } from '../../contract/trace';
import { decisionCause } from '../../lib/decision-cause';
import { plural } from '../../lib/format';
import { ruleTone, showDecision, TONE_LABEL, type Tone } from '../../lib/trace-tones';
import { NameIndex } from './name-index';

export { mentions } from './name-index';

export type NodeKind = 'intent' | 'param' | 'entity' | 'rule' | 'tool' | 'decision' | 'group';

export interface GraphNodeModel {
  id: string;
  kind: NodeKind;
  label: string;
  sublabel?: string;
  tone: Tone;
  /** Drawn faded: a tool considered but not invoked, a rule that did not apply. */
  dimmed: boolean;
  /** A short marker drawn on the node ("invoked", "blocked", "12 rules"). */
  badge?: string;
  /** Inspector fields, in display order; unknown source fields included. */
  details: Array<[string, unknown]>;
  /** The search filter for turns like this one at this node ("rule DISPUTE_WINDOW blocked"). */
  find?: { field: 'intent' | 'param' | 'tool' | 'rule' | 'decision'; value: string };
  /** The collapsed group holding this node; none: on the causal path, drawn by default. */
  group?: string;
  /** A group's members (node ids, in trace order) and their kind. */
  members?: readonly string[];
  memberKind?: NodeKind;
}

export interface GraphEdgeModel {
  id: string;
  source: string;
  target: string;
}

export interface GraphModel {
  /** Every node (path, group members, the groups themselves), in a stable order. */
  nodes: GraphNodeModel[];
  /** Content edges between the trace's nodes (group edges are added by the view). */
  edges: GraphEdgeModel[];
  byId: ReadonlyMap<string, GraphNodeModel>;
  /** Content edges into each node: the view draws those whose source is drawn. */
  into: ReadonlyMap<string, readonly GraphEdgeModel[]>;
  /** The causal path: the nodes drawn whatever is open, in model order. */
  path: readonly GraphNodeModel[];
  /** The groups, in drawing order. */
  groups: readonly GraphNodeModel[];
  /** A member's position in its group's `members`. */
  indexInGroup: ReadonlyMap<string, number>;
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
const RULE_FIELDS = new Set(['rule_id', 'rule_type', 'predicate', 'result', 'reason']);
const CALL_FIELDS = new Set(['tool', 'parameters', 'result']);

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

function extras(obj: Record<string, unknown>, known: ReadonlySet<string>): Array<[string, unknown]> {
  return Object.entries(obj).filter(([k]) => !known.has(k));
}

/** Most deciding rules (or invoked tools) drawn on the causal path (the decision node counts them all). */
const MAX_PATH_RULES = 6;

/** The rule groups, in drawing order, by the tone of their rules. */
const RULE_GROUPS: Array<{ tone: Tone; id: string }> = [
  { tone: 'error', id: 'rules:error' },
  { tone: 'blocked', id: 'rules:blocked' },
  { tone: 'info', id: 'rules:needs-information' },
  { tone: 'confirm', id: 'rules:needs-confirmation' },
  { tone: 'neutral', id: 'rules:other' },
  { tone: 'ok', id: 'rules:allowed' },
  { tone: 'muted', id: 'rules:not-applicable' },
];

/** Counts by key, in first-seen order, as "a 3, b 1" (the first `limit`). */
function countsText(counts: Map<string, number>, limit = 3): string {
  const parts: string[] = [];
  for (const [k, n] of counts) {
    if (parts.length === limit) {
      parts.push('…');
      break;
    }
    parts.push(`${k || '(none)'} ${n.toLocaleString('en')}`);
  }
  return parts.join(', ');
}

function bump(counts: Map<string, number>, key: string) {
  counts.set(key, (counts.get(key) ?? 0) + 1);
}

/** traceToGraph in one go. */
export function traceToGraph(trace: TolerantTrace): GraphModel {
  const steps = graphSteps(trace, Infinity);
  for (let step = steps.next(); ; step = steps.next()) if (step.done) return step.value;
}

/**
 * The model built step by step: it pauses (yields the number of rules read so far) after every
 * `slice` units of work, one unit being one item of the trace handled in one loop (a value, a
 * tool, a decision, a rule, a group member). With `slice` = Infinity it never pauses. The result
 * is the same whatever `slice` is.
 */
export function* graphSteps(trace: TolerantTrace, slice: number): Generator<number, GraphModel, void> {
  let work = 0;
  /** Counts one unit of work; true when a slice is done (the caller then yields). */
  const due = () => ++work % slice === 0;
  let rulesRead = 0;
  const nodes: GraphNodeModel[] = [];
  const byId = new Map<string, GraphNodeModel>();
  const edges: GraphEdgeModel[] = [];
  const into = new Map<string, GraphEdgeModel[]>();
  const used = new Map<string, number>();
  const edgeIds = new Set<string>();

  const uniqueId = (base: string) => {
    const n = (used.get(base) ?? 0) + 1;
    used.set(base, n);
    return n === 1 ? base : `${base}#${n}`;
  };
  const add = (node: GraphNodeModel) => {
    nodes.push(node);
    byId.set(node.id, node);
    return node;
  };
  const link = (source: string, target: string) => {
    const id = `${source}->${target}`;
    if (source === target || edgeIds.has(id)) return;
    edgeIds.add(id);
    const edge = { id, source, target };
    edges.push(edge);
    const list = into.get(target);
    if (list) list.push(edge);
    else into.set(target, [edge]);
  };

  const t = trace as TolerantTrace & Record<string, unknown>;
  const understanding = isRecord(t.understanding) ? t.understanding : undefined;
  const paramValues = isRecord(understanding?.extracted_params) ? understanding.extracted_params : {};
  const otherTraceFields = Object.entries(t).filter(([k]) => !SPEC_TRACE_FIELDS.has(k));

  // intent
  const intentText = asText(t.intent);
  const intent = add({
    id: uniqueId('intent'),
    kind: 'intent',
    label: intentText || 'no intent',
    sublabel: 'intent',
    tone: 'neutral',
    dimmed: !intentText,
    details: [['intent', t.intent], ['interaction_id', t.interaction_id], ...otherTraceFields],
    ...(intentText ? { find: { field: 'intent', value: intentText } } : {}),
  });

  // Every name a rule may mention (values and tools), found in one pass over each rule's text.
  const names = new NameIndex<{ id: string; tool: boolean }>();
  const values = { add: (name: string, id: string) => names.add(name, { id, tool: false }) };
  // values: parameters (with their extracted values) and entities
  const valueNodes: GraphNodeModel[] = [];
  const seenParams = new Set<string>();
  const paramCodes = [
    ...(Array.isArray(t.parameters_extracted) ? t.parameters_extracted : []),
    ...Object.keys(paramValues),
  ];
  for (const raw of paramCodes) {
    if (due()) yield rulesRead;
    const code = asText(raw);
    if (seenParams.has(code)) continue;
    seenParams.add(code);
    const hasValue = Object.hasOwn(paramValues, code);
    const node = add({
      id: uniqueId(`param:${code}`),
      kind: 'param',
      label: code || '(unnamed parameter)',
      sublabel: hasValue ? asText(paramValues[code]) : 'parameter',
      tone: 'neutral',
      dimmed: false,
      details: [
        ['parameter', code],
        ...(hasValue ? ([['value', paramValues[code]]] as Array<[string, unknown]>) : []),
      ],
      ...(code ? { find: valueFilter(code, hasValue ? paramValues[code] : undefined) } : {}),
    });
    values.add(code, node.id);
    valueNodes.push(node);
  }
  const entities = isRecord(t.entities) ? t.entities : {};
  for (const [key, value] of Object.entries(entities)) {
    if (due()) yield rulesRead;
    const node = add({
      id: uniqueId(`entity:${key}`),
      kind: 'entity',
      label: key,
      sublabel: asText(value),
      tone: 'neutral',
      dimmed: false,
      details: [
        ['entity', key],
        ['value', value],
      ],
      find: valueFilter(key, value),
    });
    values.add(key, node.id);
    // "transaction.transaction-date" is also read as "transaction-date" when no parameter has that name.
    const dot = key.lastIndexOf('.');
    if (dot > 0 && !seenParams.has(key.slice(dot + 1))) values.add(key.slice(dot + 1), node.id);
    valueNodes.push(node);
  }
  for (const v of valueNodes) {
    if (due()) yield rulesRead;
    link(intent.id, v.id);
  }

  // tools: considered ∪ invoked, each once
  const invoked = Array.isArray(t.tools_invoked) ? (t.tools_invoked as Array<Record<string, unknown>>) : [];
  const callsOf = new Map<string, Array<Record<string, unknown>>>();
  for (const call of invoked) {
    if (due()) yield rulesRead;
    const name = asText(call.tool);
    const list = callsOf.get(name);
    if (list) list.push(call);
    else callsOf.set(name, [call]);
  }
  const toolNames = new Set<string>(Array.isArray(t.tools_considered) ? t.tools_considered.map(asText) : []);
  for (const name of callsOf.keys()) toolNames.add(name);
  const toolNodes: GraphNodeModel[] = [];
  const toolIdOf = new Map<string, string>();
  for (const name of toolNames) {
    if (due()) yield rulesRead;
    const calls = callsOf.get(name) ?? [];
    const isInvoked = calls.length > 0;
    const results = calls.map((c) => asText(c.result)).filter(Boolean);
    const tone: Tone = !isInvoked
      ? 'muted'
      : results.every((r) => r === 'success')
        ? 'ok'
        : results.length
          ? 'neutral'
          : 'ok';
    const node = add({
      id: uniqueId(`tool:${name || '(unnamed)'}`),
      kind: 'tool',
      label: name || '(unnamed tool)',
      sublabel: isInvoked ? results.join(', ') || 'invoked' : 'considered, not invoked',
      tone,
      dimmed: !isInvoked,
      badge: isInvoked ? (calls.length > 1 ? `invoked ×${calls.length}` : 'invoked') : 'considered',
      ...(name ? { find: { field: 'tool', value: isInvoked ? `${name}:invoked` : name } } : {}),
      details: [
        ['tool', name],
        ['invoked', isInvoked],
        ...(calls.length === 1
          ? ([
              ['parameters', calls[0]?.parameters],
              ['result', calls[0]?.result],
              ...extras(calls[0] ?? {}, CALL_FIELDS),
            ] as Array<[string, unknown]>)
          : calls.length > 1
            ? ([['calls', calls]] as Array<[string, unknown]>)
            : []),
      ],
    });
    names.add(name, { id: node.id, tool: true });
    toolIdOf.set(name, node.id);
    toolNodes.push(node);
  }

  // rule → tool, as the trace's `decisions` state it (`rule_triggered`, `block`, `params_check`)
  const toolOfRule = new Map<string, string>();
  for (const d of Array.isArray(t.decisions) ? (t.decisions as unknown[]) : []) {
    if (due()) yield rulesRead;
    if (!isRecord(d) || typeof d.tool !== 'string') continue;
    const toolId = toolIdOf.get(d.tool);
    if (!toolId) continue;
    if (typeof d.rule === 'string' && !toolOfRule.has(d.rule)) toolOfRule.set(d.rule, toolId);
    if (d.type === 'params_check') toolOfRule.set(`${d.tool}.params.required`, toolId);
  }

  // rules
  const cause = decisionCause(t);
  // The first deciding rules are drawn on the path; more (hundreds of blocks) wait in their group.
  const deciding = new Set(cause?.ruleIndices.slice(0, MAX_PATH_RULES) ?? []);
  const rules = Array.isArray(t.rules_evaluated) ? t.rules_evaluated : [];
  const ruleNodes: GraphNodeModel[] = [];
  const ruleMeta = new Map<string, { type: string; result: string }>();
  const pathIds = new Set<string>([intent.id]);
  const decidingToolIds = new Set<string>();
  const decidingRuleIds: string[] = [];
  for (const [index, rule] of rules.entries()) {
    if (due()) yield rulesRead;
    rulesRead = index;
    const r = rule as Record<string, unknown>;
    const ruleId = asText(r.rule_id);
    const result = asText(r.result);
    const tone = ruleTone({ rule_id: ruleId, result }, asText(t.decision));
    const text = `${ruleId} ${asText(r.predicate)} ${asText(r.reason)}`;
    const id = uniqueId(`rule:${ruleId || '(unnamed)'}`);
    const mentioned = names.find(text);
    const mentionedTools = mentioned.filter((m) => m.tool).map((m) => m.id);
    const toolId = toolOfRule.get(ruleId) ?? (mentionedTools.length === 1 ? mentionedTools[0] : undefined);
    const toolName = toolId ? byId.get(toolId)?.label : undefined;
    const node = add({
      id,
      kind: 'rule',
      label: ruleId || '(unnamed rule)',
      sublabel: toolName ? `on ${toolName}` : asText(r.rule_type) || 'rule',
      tone,
      dimmed: tone === 'muted',
      badge: tone === 'neutral' ? result || 'no result' : TONE_LABEL[tone],
      ...(ruleId && result ? { find: { field: 'rule', value: `${ruleId}:${result}` } } : {}),
      details: [
        ['rule_id', r.rule_id],
        ['rule_type', r.rule_type],
        ['predicate', r.predicate],
        ['result', r.result],
        ['reason', r.reason],
        ...(toolName ? ([['tool', toolName]] as Array<[string, unknown]>) : []),
        ...extras(r, RULE_FIELDS),
      ],
    });
    ruleNodes.push(node);
    ruleMeta.set(id, { type: asText(r.rule_type), result });
    const reads = mentioned.filter((m) => !m.tool).map((m) => m.id);
    for (const v of reads) link(v, id);
    if (toolId) link(id, toolId);
    for (const other of mentionedTools) link(id, other);
    if (deciding.has(index)) {
      decidingRuleIds.push(id);
      pathIds.add(id);
      for (const v of reads) pathIds.add(v);
      if (reads.length === 0) link(intent.id, id);
      if (toolId) decidingToolIds.add(toolId);
    }
  }
  rulesRead = rules.length;

  // decision
  const decisionText = asText(t.decision);
  const shown = showDecision(decisionText);
  // Each of the label, the badge and the raw value is shown once: a `proceed` reads "proceed".
  const decisionLabel = cause?.sentence ?? shown?.label ?? 'no decision';
  const decisionSub = decisionText || 'decision';
  const decision = add({
    id: uniqueId('decision'),
    kind: 'decision',
    label: decisionLabel,
    ...(decisionSub !== decisionLabel && decisionSub !== shown?.label ? { sublabel: decisionSub } : {}),
    tone: shown?.tone ?? 'muted',
    dimmed: !decisionText,
    ...(shown && shown.label !== decisionLabel ? { badge: shown.label } : {}),
    ...(decisionText ? { find: { field: 'decision', value: decisionText } } : {}),
    details: [
      ['decision', t.decision],
      ...(cause
        ? ([
            ['decided by', cause.ruleIndices.map((i) => asText(rules[i]?.rule_id))],
            ['reason', cause.reason],
          ] as Array<[string, unknown]>)
        : []),
    ],
  });
  pathIds.add(decision.id);
  // A deciding rule leads to the decision directly; the tool it concerns is named on the rule
  // node (and drawn, with its edges, when the tools group is opened).
  for (const id of decidingRuleIds) link(id, decision.id);
  for (const id of decidingToolIds) link(id, decision.id);
  const invokedToolIds = toolNodes.filter((n) => !n.dimmed).map((n) => n.id);
  for (const id of invokedToolIds) link(id, decision.id);
  if (decidingRuleIds.length === 0) {
    // No rule decided: the (first) invoked tools and the values passed to them are the path.
    for (const id of invokedToolIds.slice(0, MAX_PATH_RULES)) {
      pathIds.add(id);
      const params = byId.get(id)?.details.find(([k]) => k === 'parameters')?.[1];
      const reads = isRecord(params)
        ? Object.keys(params).flatMap((k) =>
            names
              .find(k)
              .filter((m) => !m.tool)
              .map((m) => m.id),
          )
        : [];
      for (const v of reads) {
        pathIds.add(v);
        link(v, id);
      }
      if (reads.length === 0) link(intent.id, id);
    }
    if (invokedToolIds.length === 0) link(intent.id, decision.id);
  }

  // groups: everything off the path, one click away
  const groups: GraphNodeModel[] = [];
  const indexInGroup = new Map<string, number>();
  const group = function* (
    id: string,
    memberKind: NodeKind,
    members: GraphNodeModel[],
    make: (n: number) => Pick<GraphNodeModel, 'label' | 'sublabel' | 'tone' | 'details'>,
  ): Generator<number, void, void> {
    if (members.length === 0) return;
    const ids: string[] = [];
    for (const [i, m] of members.entries()) {
      if (due()) yield rulesRead;
      ids.push(m.id);
      m.group = id;
      indexInGroup.set(m.id, i);
    }
    groups.push(
      add({
        id: uniqueId(id),
        kind: 'group',
        memberKind,
        members: ids,
        dimmed: false,
        badge: 'show',
        ...make(ids.length),
      }),
    );
  };
  /** The nodes of `list` (of that kind) off the path, a unit of work each. */
  const offPath = function* (list: GraphNodeModel[], kind?: NodeKind) {
    const out: GraphNodeModel[] = [];
    for (const n of list) {
      if (due()) yield rulesRead;
      if ((!kind || n.kind === kind) && !pathIds.has(n.id)) out.push(n);
    }
    return out;
  };
  yield* group('params', 'param', yield* offPath(valueNodes, 'param'), (n) => ({
    label: plural(n, 'parameter'),
    sublabel: 'not read by the deciding rules',
    tone: 'neutral',
    details: [['parameters', n]],
  }));
  yield* group('entities', 'entity', yield* offPath(valueNodes, 'entity'), (n) => ({
    label: plural(n, 'entity', 'entities'),
    sublabel: 'not read by the deciding rules',
    tone: 'neutral',
    details: [['entities', n]],
  }));
  const rulesByTone = new Map<Tone, GraphNodeModel[]>();
  for (const n of ruleNodes) {
    if (due()) yield rulesRead;
    if (pathIds.has(n.id)) continue;
    const list = rulesByTone.get(n.tone);
    if (list) list.push(n);
    else rulesByTone.set(n.tone, [n]);
  }
  for (const { tone, id } of RULE_GROUPS) {
    const members = rulesByTone.get(tone) ?? [];
    const types = new Map<string, number>();
    const results = new Map<string, number>();
    for (const m of members) {
      if (due()) yield rulesRead;
      const meta = ruleMeta.get(m.id);
      bump(types, meta?.type ?? '');
      bump(results, meta?.result ?? '');
    }
    yield* group(id, 'rule', members, (n) => ({
      label: `${plural(n, 'rule')} ${tone === 'neutral' ? 'with other results' : TONE_LABEL[tone]}`,
      sublabel: tone === 'neutral' ? countsText(results) : countsText(types),
      tone,
      details: [
        ['rules', n],
        ['results', Object.fromEntries(results)],
        ['rule types', Object.fromEntries(types)],
      ],
    }));
  }
  yield* group('tools', 'tool', yield* offPath(toolNodes), (n) => ({
    label: plural(n, 'tool'),
    sublabel: 'considered',
    tone: 'muted',
    details: [['tools', n]],
  }));

  const path: GraphNodeModel[] = [];
  for (const n of nodes) {
    if (due()) yield rulesRead;
    if (!n.group && n.kind !== 'group') path.push(n);
  }
  return { nodes, edges, byId, into, path, groups, indexInGroup };
}

const graphs = new WeakMap<object, GraphModel>();

/** traceToGraph, memoised per trace object (traces are immutable query data): the panel and the graph share one model. */
/** Turns where a value was this one (`code=value`), or had any value when it is not plain. */
function valueFilter(code: string, value: unknown): { field: 'param'; value: string } {
  const plain = typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
  return { field: 'param', value: plain && String(value) !== '' ? `${code}=${String(value)}` : code };
}

/** The model already built for this trace object, if any. */
export function knownGraph(trace: TolerantTrace): GraphModel | undefined {
  return graphs.get(trace);
}

/** Keeps a model built elsewhere (in slices) as this trace's, for `graphOf`. */
export function rememberGraph(trace: TolerantTrace, model: GraphModel): void {
  graphs.set(trace, model);
}

export function graphOf(trace: TolerantTrace): GraphModel {
  let model = graphs.get(trace);
  if (!model) {
    model = traceToGraph(trace);
    graphs.set(trace, model);
  }
  return model;
}
