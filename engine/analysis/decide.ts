/**
 * A region decided by the engine itself: the tool run as a turn that chose it, with the region's
 * values as if the user had said them (`decideTurn`, the same step a turn and a what-if take after
 * understanding), under the turn's work budget. What the analysis reads of it: the decision, the
 * deciding rules, the rules that held, the tools invoked, the integrations called and the reply.
 */
import type { Bundle } from '../../src/contract/bundle';
import type { SideOutcome } from '../../src/contract/analysis';
import type { Trace } from '../../src/contract/trace';
import { decisionCause } from '../../src/lib/decision-cause';
import { intentOf, type ToolChoice } from '../choose-tool';
import type { EngineState, TurnOutput } from '../contract';
import { engine } from '../index';
import { guardedRun, TURN_WORK_LIMIT } from '../guard';
import { withWorkBudget } from '../../src/lib/bundle/work-budget';
import { decideTurn, startTurn, type TurnStart } from '../turn';
import type { CompiledTool } from '../types';
import { newValues } from '../values';

export interface Decided {
  decision: string;
  /** The deciding rules, the one the decision names first. */
  deciding: string[];
  /** Rules whose condition held (they triggered), each once. */
  held: Set<string>;
  /** The rules whose block was the one that stopped a tool (the first blocking rule of each tool blocked). */
  blockedBy: Set<string>;
  /** Rule id → its first result. */
  results: Map<string, string>;
  invoked: string[];
  /** Integrations called, in order. */
  calls: string[];
  reply: string;
  state: EngineState;
  trace: Trace;
}

const USER = 'analysis';

/** What the analysis reads of a turn's output. */
export function decidedTurn(out: TurnOutput): Decided {
  const { trace } = out;
  const cause = decisionCause(trace);
  const held = new Set<string>();
  const blockedBy = new Set<string>();
  const calls: string[] = [];
  for (const d of trace.decisions ?? []) {
    const rec = d as { type?: unknown; rule?: unknown; integration?: unknown };
    if (rec.type === 'rule_triggered' && typeof rec.rule === 'string') held.add(rec.rule);
    if (rec.type === 'block' && typeof rec.rule === 'string') blockedBy.add(rec.rule);
    if (rec.type === 'call_integration' && typeof rec.integration === 'string') calls.push(rec.integration);
  }
  const results = new Map<string, string>();
  for (const r of trace.rules_evaluated) if (!results.has(r.rule_id)) results.set(r.rule_id, r.result);
  return {
    decision: trace.decision,
    deciding: (cause?.ruleIndices ?? []).map((i) => trace.rules_evaluated[i]!.rule_id),
    held,
    blockedBy,
    results,
    invoked: [...new Set(trace.tools_invoked.map((t) => t.tool))],
    calls,
    reply: out.reply,
    state: out.state,
    trace,
  };
}

/**
 * Where a new request starts (the bundle compiled, the profile loaded), once per bundle and clock:
 * every region starts from a copy of it, as a turn of a new task does.
 */
const starts = new WeakMap<Bundle, Map<string, TurnStart>>();

function freshStart(bundle: Bundle, clock: string): TurnStart {
  let byClock = starts.get(bundle);
  if (!byClock) starts.set(bundle, (byClock = new Map()));
  let start = byClock.get(clock);
  if (!start) {
    start = startTurn({
      bundle,
      state: engine.initialState(bundle, clock, USER),
      text: '',
      clock,
      interactionId: 'region',
      userId: USER,
    });
    if (byClock.size > 16) byClock.clear();
    byClock.set(clock, start);
  }
  return {
    ...start,
    values: newValues(start.values),
    origins: Object.assign(Object.create(null) as Record<string, string>, start.origins),
    profileLoaded: [...start.profileLoaded],
  };
}

/** The values a new request starts with (the user profile's), before the user says anything. */
export const startingValues = (bundle: Bundle, clock: string): Readonly<Record<string, unknown>> =>
  freshStart(bundle, clock).values;

/** The tool's run on a new request with `values` given by the user, at `clock`. */
export function decideAt(
  bundle: Bundle,
  tool: CompiledTool,
  values: Record<string, unknown>,
  clock: string,
): Decided {
  return decidedTurn(
    withWorkBudget('deciding a region', TURN_WORK_LIMIT, () => {
      const choice: ToolChoice = {
        kind: 'new',
        tool,
        intent: intentOf(tool.code),
        considered: [tool.code],
        via: 'words',
      };
      return decideTurn(freshStart(bundle, clock), choice, newValues(values));
    }),
  );
}

/**
 * The next turn of the same request, once the tool waits: the user confirms (`confirm`) or gives
 * `values` (`provide_information`), with nothing else changed.
 */
export function continueAt(
  bundle: Bundle,
  before: Decided,
  intent: 'confirm' | 'provide_information',
  values: Record<string, unknown>,
  clock: string,
): Decided | null {
  return guardedRunOrNull(() => {
    const start = startTurn({
      bundle,
      state: before.state,
      text: '',
      clock,
      interactionId: 'next',
      userId: USER,
    });
    if (!start.pending || !start.pendingTool) return null;
    const choice: ToolChoice = {
      kind: 'continue',
      tool: start.pendingTool,
      intent,
      considered: [start.pendingTool.code],
    };
    return decideTurn(start, choice, newValues(values));
  });
}

function guardedRunOrNull(run: () => TurnOutput | null): Decided | null {
  let out: TurnOutput | null = null;
  guardedRun('deciding a region', () => {
    out = run();
    return out ?? { reply: '', suggestions: [], trace: emptyTrace, state: {} };
  });
  return out ? decidedTurn(out) : null;
}

const emptyTrace: Trace = {
  interaction_id: '',
  intent: '',
  entities: {},
  parameters_extracted: [],
  rules_evaluated: [],
  tools_considered: [],
  tools_invoked: [],
  decision: '',
};

/** What a side of a difference shows of a decided region. */
export const sideOf = (d: Decided): SideOutcome => ({
  decision: d.decision,
  rules: d.deciding,
  tools_invoked: d.invoked,
  reply: d.reply,
});

/** Whether two decided regions differ in what the diff compares. */
export function sameOutcome(a: Decided, b: Decided): boolean {
  return (
    a.decision === b.decision &&
    a.reply === b.reply &&
    a.deciding.join('\u0000') === b.deciding.join('\u0000') &&
    [...a.invoked].sort().join('\u0000') === [...b.invoked].sort().join('\u0000')
  );
}
