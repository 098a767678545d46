/**
 * How one turn's outcome differs between two runs (pure). The outcome is the decision, every
 * rule's result and the tools invoked; the reply's wording and the values held are not part of
 * it. Linear in the rules and tools of the two traces.
 */
import type { Trace } from '../../src/contract/trace';
import type { OutcomeDifference, TurnOutcome } from '../../src/contract/impact';

const NOT_EVALUATED = 'not evaluated';

/** The parts of an engine turn the impact answer carries. */
export function turnOutcome(reply: string, trace: Trace): TurnOutcome {
  return {
    reply,
    trace: {
      decision: trace.decision,
      rules_evaluated: trace.rules_evaluated.map((r) => ({
        rule_id: r.rule_id,
        result: r.result,
        reason: r.reason,
      })),
      tools_invoked: trace.tools_invoked.map((t) => ({ tool: t.tool, result: t.result })),
      entities: trace.entities,
    },
  };
}

/** rule id → result, the first evaluation of a rule counting (as expectations read it). */
function ruleResults(outcome: TurnOutcome): Map<string, string> {
  const out = new Map<string, string>();
  for (const r of outcome.trace.rules_evaluated) if (!out.has(r.rule_id)) out.set(r.rule_id, r.result);
  return out;
}

const toolsOf = (outcome: TurnOutcome) => new Set(outcome.trace.tools_invoked.map((t) => t.tool));

/**
 * Every difference between two outcomes of the same turn: the decision first, then the rules in
 * the order the baseline evaluated them (rules only the draft evaluated after), then the tools.
 * Empty when the outcome is the same.
 */
export function diffOutcomes(before: TurnOutcome, after: TurnOutcome): OutcomeDifference[] {
  const out: OutcomeDifference[] = [];
  if (before.trace.decision !== after.trace.decision)
    out.push({ kind: 'decision', subject: '', before: before.trace.decision, after: after.trace.decision });

  const rulesBefore = ruleResults(before);
  const rulesAfter = ruleResults(after);
  for (const [rule, result] of rulesBefore) {
    const now = rulesAfter.get(rule) ?? NOT_EVALUATED;
    if (now !== result) out.push({ kind: 'rule', subject: rule, before: result, after: now });
  }
  for (const [rule, result] of rulesAfter)
    if (!rulesBefore.has(rule))
      out.push({ kind: 'rule', subject: rule, before: NOT_EVALUATED, after: result });

  const toolsBefore = toolsOf(before);
  const toolsAfter = toolsOf(after);
  for (const tool of toolsBefore)
    if (!toolsAfter.has(tool))
      out.push({ kind: 'tool', subject: tool, before: 'invoked', after: 'not invoked' });
  for (const tool of toolsAfter)
    if (!toolsBefore.has(tool))
      out.push({ kind: 'tool', subject: tool, before: 'not invoked', after: 'invoked' });
  return out;
}
