/**
 * Rule lint: what in a bundle is dead, shadowed, contradictory or unreachable, each finding with a
 * witness the engine confirms where one exists. Three kinds of check:
 * - on the bundle's shape: a tool nothing reaches, a parameter nothing uses, a required parameter
 *   nothing can fill, and the validator's warnings;
 * - on one rule's condition, over the regions of the values it reads, decided by the engine's own
 *   condition evaluator: a condition that never holds, or always holds;
 * - on a tool's run, over every region of its scope, each decided by the engine: a rule that never
 *   decides (shadowed), two rules whose order silently decides, a message that never reaches a
 *   reply, an integration called again on the next turn of the same request.
 */
import {
  ANALYSIS_LIMITS,
  type LintFinding,
  type LintResponse,
  type NotAnalysed,
} from '../../src/contract/analysis';
import type { Bundle } from '../../src/contract/bundle';
import { placeholders } from '../../src/lib/bundle/placeholders';
import { readResponseMapping } from '../../src/lib/bundle/response-mapping';
import { validateBundle } from '../../src/lib/bundle/validate';
import { withWorkBudget } from '../../src/lib/bundle/work-budget';
import { parseClock, type Clock } from '../clock';
import { compileBundle } from '../compile';
import { applyComputations } from '../computations';
import { conditionReads, evaluateCondition, renderCondition } from '../conditions';
import { engine } from '../index';
import { activationTarget, isActivating, isBlocking, stopsWhenBroken } from '../rules';
import type { CompiledBundle, CompiledTool, StagedRule } from '../types';
import { newValues } from '../values';
import { continueAt, startingValues } from './decide';
import { paramLoc, ruleLoc, toolLoc } from './locate';
import { regionCount, regionsOf, valuesAt } from './regions';
import {
  affordable,
  decideRegions,
  newBudget,
  unitsFor,
  type DecidedRegion,
  type RegionBudget,
} from './tool-regions';
import { rulesOf } from './rules-of';
import { toolScope, variablesOf } from './variables';
import { witnessOf } from './witness';

/** Steps one rule's condition check may take over all its regions. */
const CONDITION_WORK_LIMIT = 2_000_000;

const SEVERITY_ORDER = { error: 0, warning: 1, info: 2 } as const;
const UNDERSTOOD_TYPES = new Set(['string', 'numeric', 'date', 'boolean', 'enum']);

interface Lint {
  raw: Bundle;
  compiled: CompiledBundle;
  clock: string;
  clk: Clock;
  findings: LintFinding[];
  notAnalysed: NotAnalysed[];
  capped: boolean;
  regions: number;
  budget: RegionBudget;
}

export function lint(raw: Bundle, clock: string, toolRuns: boolean): LintResponse {
  const compiled = compileBundle(raw);
  const l: Lint = {
    raw,
    compiled,
    clock,
    clk: parseClock(clock),
    findings: [],
    notAnalysed: [],
    capped: false,
    regions: 0,
    budget: newBudget(),
  };
  // The validator's `unreachable_message` (after a rule with no condition) is found again by the
  // tool's run, with its witness: a tool-run finding, so the quick lint has none.
  for (const issue of validateBundle(raw))
    if (issue.severity === 'warning' && issue.code !== 'unreachable_message')
      l.findings.push({
        code: issue.code,
        severity: 'warning',
        message: issue.message,
        loc: { path: issue.loc },
      });
  unreachableTools(l);
  unusedParameters(l);
  unfillableRequirements(l);
  conditions(l);
  if (toolRuns)
    for (const tool of compiled.tools) if (tool.enabled && reachable(l, tool)) toolChecks(l, tool);

  const seen = new Set<string>();
  const notAnalysed = l.notAnalysed.filter((n) => {
    const key = JSON.stringify(n);
    return seen.has(key) ? false : (seen.add(key), true);
  });
  const findings = l.findings.sort(
    (a, b) =>
      SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] ||
      a.loc.path.join('.').localeCompare(b.loc.path.join('.')),
  );
  return {
    findings: findings.slice(0, ANALYSIS_LIMITS.items),
    capped: l.capped || findings.length > ANALYSIS_LIMITS.items,
    not_analysed: notAnalysed,
    regions: l.regions,
  };
}

// ------------------------------------------------------------------ the bundle's shape

/** Tools some rule activates, by code. */
function activated(compiled: CompiledBundle): Set<string> {
  const out = new Set<string>();
  const all = [...compiled.tools.flatMap(rulesOf)];
  for (const r of all) {
    if (!isActivating(r) && r.rule.then?.action !== 'BLOCK_AND_ACTIVATE_ANOTHER_TOOL') continue;
    const target = activationTarget(r, compiled).code;
    if (target !== undefined) out.add(target);
  }
  return out;
}

const reachable = (l: Lint, tool: CompiledTool) => tool.main || activated(l.compiled).has(tool.code);

function unreachableTools(l: Lint): void {
  const reached = activated(l.compiled);
  for (const tool of l.compiled.tools) {
    if (!tool.enabled || tool.main || reached.has(tool.code)) continue;
    l.findings.push({
      code: 'unreachable_tool',
      severity: 'warning',
      message: `${tool.code} can never run: it is not a main tool (main_tool is not true), so no message chooses it, and no rule activates it.`,
      loc: { path: toolLoc(l.raw, tool.code) },
      tool: tool.code,
    });
  }
}

/** Every text of the bundle but its parameter and entity lists (which only declare codes). */
function textsInUse(raw: Bundle): { whole: Set<string>; placed: Set<string> } {
  const whole = new Set<string>();
  const placed = new Set<string>();
  const stack: unknown[] = Object.entries(raw as Record<string, unknown>)
    .filter(([k]) => k !== 'parameters' && k !== 'entities')
    .map(([, v]) => v);
  let steps = 0;
  while (stack.length > 0 && steps++ < 2_000_000) {
    const x = stack.pop();
    if (typeof x === 'string') {
      whole.add(x);
      if (x.includes('{{')) for (const p of placeholders(x)) placed.add(p);
    } else if (Array.isArray(x)) stack.push(...x);
    else if (x && typeof x === 'object')
      for (const [k, v] of Object.entries(x)) {
        whole.add(k);
        stack.push(v);
      }
  }
  // A parameter's own question and formula count as use of what they name.
  for (const p of raw.parameters ?? []) {
    for (const text of [p.computation, p.question])
      if (typeof text === 'string') for (const c of placeholders(text)) placed.add(c);
  }
  return { whole, placed };
}

function unusedParameters(l: Lint): void {
  const { whole, placed } = textsInUse(l.raw);
  for (const code of l.compiled.params.keys()) {
    if (whole.has(code) || placed.has(code)) continue;
    l.findings.push({
      code: 'unused_parameter',
      severity: 'warning',
      message: `${code} is never used: no tool asks for it, no rule reads it, no formula, integration or message uses it.`,
      loc: { path: paramLoc(l.raw, code) },
    });
  }
}

/** Parameters an integration's answer fills. */
function filledByIntegrations(compiled: CompiledBundle): Set<string> {
  const out = new Set<string>();
  for (const i of compiled.integrations.values())
    for (const e of readResponseMapping(i.settings?.response_mapping).entries) out.add(e.param);
  return out;
}

function unfillableRequirements(l: Lint): void {
  const { compiled } = l;
  const filled = filledByIntegrations(compiled);
  const computed = new Set((compiled.bundle.computations ?? []).map((c) => c.parameter));
  const fillable = (code: string): boolean => {
    const p = compiled.params.get(code);
    if (!p) return true; // an undeclared parameter is the validator's finding
    if (p.usage === 'computed' || computed.has(code) || filled.has(code)) return true;
    const input = p.usage === undefined || p.usage === 'input' || p.usage === 'all';
    return input && UNDERSTOOD_TYPES.has(p.type);
  };
  for (const tool of compiled.tools) {
    if (!tool.enabled) continue;
    tool.required.forEach((req, i) => {
      const codes = Array.isArray(req) ? req : [req];
      if (codes.some(fillable)) return;
      const why = codes
        .map((c) => {
          const p = compiled.params.get(c)!;
          return p.usage === 'output'
            ? `${c} is an output no integration fills`
            : `${c} is of type ${p.type}, which no message is read as`;
        })
        .join('; ');
      l.findings.push({
        code: 'unfillable_required',
        severity: 'error',
        message: `${tool.code} requires ${codes.join(' or ')}, which nothing can fill (${why}): the tool can never go on past asking for it.`,
        loc: { path: [...toolLoc(l.raw, tool.code), 'config', 'params', 'required', i] },
        tool: tool.code,
      });
    });
  }
}

// ------------------------------------------------------------------ one rule's condition

function conditions(l: Lint): void {
  const done = new Set<StagedRule>();
  for (const tool of l.compiled.tools) {
    if (!tool.enabled) continue;
    for (const r of rulesOf(tool)) {
      if (done.has(r) || r.rule.when == null) continue;
      done.add(r);
      conditionCheck(l, tool, r);
    }
  }
}

function conditionCheck(l: Lint, tool: CompiledTool, r: StagedRule): void {
  const { compiled, clk } = l;
  const scope = variablesOf(compiled, tool.code, [{ staged: r }], [], clk);
  if (scope.notAnalysed.length > 0) {
    l.notAnalysed.push(...scope.notAnalysed);
    return;
  }
  const units = unitsFor(scope.variables);
  if (regionCount(units, ANALYSIS_LIMITS.regionsPerTool) > ANALYSIS_LIMITS.regionsPerTool) {
    l.capped = true;
    l.notAnalysed.push({
      tool: tool.code,
      rule: r.id,
      reason: `its condition has more than ${ANALYSIS_LIMITS.regionsPerTool} regions`,
    });
    return;
  }
  let holds = 0;
  let known = 0;
  let undecided = 0;
  let first: Record<string, unknown> | null = null;
  withWorkBudget('checking a condition', CONDITION_WORK_LIMIT, () => {
    for (const choice of regionsOf(units)) {
      const given = valuesAt(units, choice);
      const values = newValues(given);
      const failed: Record<string, string> = Object.create(null) as Record<string, string>;
      applyComputations(compiled, tool.code, values, clk, failed);
      const res = evaluateCondition(r.rule.when, {
        compiled,
        values,
        current: values,
        message: '',
        clock: clk,
        failed,
      });
      if (res.error !== undefined) continue;
      if (!res.known) {
        undecided++;
        continue;
      }
      known++;
      if (res.holds) {
        holds++;
        first ??= given;
      }
    }
  });
  const path = ruleLoc(l.raw, compiled, r, tool.code);
  const predicate = renderCondition(r.rule.when);
  const reads = conditionReads(r.rule.when);
  if (known > 0 && holds === 0) {
    const stops = stopsWhenBroken(r);
    l.findings.push({
      code: 'dead_rule',
      severity: stops ? 'error' : 'warning',
      message: `${r.id} can never apply: no value of ${reads.join(', ') || 'what it reads'} makes "${predicate}" hold, so its ${r.rule.then?.action ?? 'action'} never happens.`,
      loc: { path },
      rule: r.id,
      tool: tool.code,
    });
  } else if (known > 0 && holds === known && undecided > 0 && first !== null) {
    l.findings.push({
      code: 'always_holds',
      severity: 'warning',
      message: `${r.id}'s condition "${predicate}" holds for every value of ${reads.join(', ')} once known: it decides nothing (the rule acts on every request where the values are given).`,
      loc: { path: [...path, 'when'] },
      rule: r.id,
      tool: tool.code,
      witness: { tool: tool.code, clock: l.clock, values: first },
    });
  }
}

// ------------------------------------------------------------------ a tool's run

function toolChecks(l: Lint, tool: CompiledTool): void {
  const { compiled, raw, clock } = l;
  const scope = toolScope(compiled, tool, l.clk, startingValues(raw, clock));
  l.notAnalysed.push(...scope.notAnalysed);
  const units = unitsFor(scope.variables, scope.presence);
  const n = affordable(units, l.budget);
  if (n === null) {
    l.capped = true;
    l.notAnalysed.push({
      tool: tool.code,
      reason: `${tool.code} has more regions than the analysis decides (${ANALYSIS_LIMITS.regionsPerTool} per tool, ${ANALYSIS_LIMITS.regions} in all): its rules are checked one by one only`,
    });
    return;
  }
  const regions = decideRegions(raw, tool, units, clock);
  l.regions += regions.length;
  const own = scope.rules.filter((r) => r.tool === tool.code).map((r) => r.staged);
  const at = (r: StagedRule) => ruleLoc(raw, compiled, r, tool.code);
  const witness = (region: DecidedRegion) =>
    witnessOf(raw, compiled, tool, region.values, clock, region.decided);

  // Shadowed: a blocking rule that holds somewhere but never decides.
  for (const r of own.filter(isBlocking)) {
    const held = regions.filter((g) => g.decided.held.has(r.id));
    if (held.length === 0 || held.some((g) => g.decided.blockedBy.has(r.id))) continue;
    const by = [...held[0]!.decided.blockedBy][0] ?? held[0]!.decided.deciding[0];
    l.findings.push({
      code: 'shadowed_rule',
      severity: 'warning',
      message: `${r.id} never decides: wherever it holds, ${by ?? 'an earlier rule'} has already stopped ${tool.code}, so its message is never the reply.`,
      loc: { path: at(r) },
      rule: r.id,
      tool: tool.code,
      witness: witness(held[0]!),
    });
  }
  conflicts(l, tool, own, regions, at, witness);
  unreachableMessages(l, tool, regions, at, witness);
  repeatedCalls(l, tool, regions);
}

/** Two blocking rules leading to different next tools that hold together: the order decides which. */
function conflicts(
  l: Lint,
  tool: CompiledTool,
  own: StagedRule[],
  regions: DecidedRegion[],
  at: (r: StagedRule) => (string | number)[],
  witness: (g: DecidedRegion) => LintFinding['witness'],
): void {
  const blocking = own.filter(isBlocking);
  const decides = new Set(regions.flatMap((g) => [...g.decided.blockedBy]));
  const reported = new Set<string>();
  for (let i = 0; i < blocking.length; i++) {
    for (let j = i + 1; j < blocking.length; j++) {
      const a = blocking[i]!;
      const b = blocking[j]!;
      if (!decides.has(a.id) || !decides.has(b.id)) continue;
      // Blocked either way: only the words differ, and the first rule's are said by design.
      const next = (r: StagedRule) =>
        r.rule.then?.action === 'BLOCK_AND_ACTIVATE_ANOTHER_TOOL'
          ? (activationTarget(r, l.compiled).code ?? '')
          : '';
      if (next(a) === next(b)) continue;
      const both = regions.find((g) => g.decided.held.has(a.id) && g.decided.held.has(b.id));
      if (!both || reported.has(`${a.id}\u0000${b.id}`)) continue;
      reported.add(`${a.id}\u0000${b.id}`);
      l.findings.push({
        code: 'rule_conflict',
        severity: 'warning',
        message: `${a.id} and ${b.id} both hold for some requests and lead to different tools (${next(a) || 'none'} and ${next(b) || 'none'}); ${a.id} comes first, so there its outcome wins silently. Narrow one of them, or order them on purpose.`,
        loc: { path: at(b) },
        rule: b.id,
        tool: tool.code,
        witness: witness(both),
      });
    }
  }
}

/** A summary message that holds somewhere, but only where an earlier message already closes the tool. */
function unreachableMessages(
  l: Lint,
  tool: CompiledTool,
  regions: DecidedRegion[],
  at: (r: StagedRule) => (string | number)[],
  witness: (g: DecidedRegion) => LintFinding['witness'],
): void {
  for (const list of [tool.success, tool.fail]) {
    const withMessage = list.filter(
      (r) =>
        !isBlocking(r) &&
        !isActivating(r) &&
        typeof r.rule.then?.message === 'string' &&
        r.rule.then.message.trim(),
    );
    withMessage.forEach((r, k) => {
      const earlier = withMessage.slice(0, k);
      const held = regions.filter((g) => g.decided.held.has(r.id));
      if (held.length === 0 || earlier.length === 0) return;
      if (!held.every((g) => earlier.some((e) => g.decided.held.has(e.id)))) return;
      const first = earlier.find((e) => held[0]!.decided.held.has(e.id))!;
      l.findings.push({
        code: 'unreachable_message',
        severity: 'warning',
        message: `${r.id}'s message never reaches a reply: wherever it holds, ${first.id}'s message comes first and closes ${tool.code} (only the first message of the summary is said).`,
        loc: { path: [...at(r), 'then', 'message'] },
        rule: r.id,
        tool: tool.code,
        witness: witness(held[0]!),
      });
    });
  }
}

/** An integration a waiting turn called (an API rule's: a sub-tool runs once per request) that the next turn calls again. */
function repeatedCalls(l: Lint, tool: CompiledTool, regions: DecidedRegion[]): void {
  const reported = new Set<string>();
  for (const g of regions) {
    const d = g.decided;
    if (d.calls.length === 0) continue;
    if (d.decision !== 'request_confirmation') continue;
    const next = continueAt(l.raw, d, 'confirm', {}, l.clock);
    if (!next) continue;
    for (const code of new Set(d.calls)) {
      if (!next.calls.includes(code) || reported.has(code)) continue;
      reported.add(code);
      const w = witnessOf(l.raw, l.compiled, tool, g.values, l.clock, d);
      const messages = w.messages && confirmsAgain(l, w.messages, code) ? [...w.messages, 'yes'] : undefined;
      const { messages: _dropped, ...values } = w;
      l.findings.push({
        code: 'repeated_call',
        severity: 'warning',
        message: `${code} is called again when the user confirms: ${tool.code} calls it and then waits for a yes, and the yes runs it a second time for the same request (an API rule calls its integration on every turn its condition holds).`,
        loc: { path: toolLoc(l.raw, tool.code) },
        tool: tool.code,
        witness: messages ? { ...values, messages } : values,
      });
    }
  }
}

/** Whether the conversation followed by "yes" calls `integration` in its last turn. */
function confirmsAgain(l: Lint, messages: string[], integration: string): boolean {
  let state = engine.initialState(l.raw, l.clock, 'witness');
  let last: unknown[] = [];
  for (const [i, text] of [...messages, 'yes'].entries()) {
    const out = engine.runTurn({
      bundle: l.raw,
      state,
      text,
      clock: l.clock,
      interactionId: `w-${i}`,
      userId: 'witness',
    });
    state = out.state;
    last = out.trace.decisions ?? [];
  }
  return last.some(
    (d) =>
      (d as { type?: unknown; integration?: unknown }).type === 'call_integration' &&
      (d as { integration?: unknown }).integration === integration,
  );
}
