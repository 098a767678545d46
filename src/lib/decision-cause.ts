/**
 * Why a turn ended as it did, in one line: the rules that decided and the first one's reason
 * ("blocked by DISPUTE_WINDOW: days_since(transaction-date) = 10 > 8"). Pure, linear in the trace,
 * memoised per trace object (traces are immutable query data). Shared by the chat bubble and the
 * trace graph's decision node.
 */
import { ruleTone, showDecision, type Tone } from './trace-tones';

interface RuleLike {
  rule_id: string;
  predicate: string;
  result: string;
  reason: string;
}
interface TraceLike {
  decision: string;
  rules_evaluated: readonly RuleLike[];
  decisions?: unknown;
}

export interface DecisionCause {
  /** The decision's tone and words ("blocked", "needs information", …). */
  tone: Tone;
  label: string;
  /** Indices in `rules_evaluated` of the rules that decided, the one the trace names first. */
  ruleIndices: number[];
  /** The first deciding rule's reason, cut to one line. */
  reason: string;
  /** The line after the decision's words: "by DISPUTE_WINDOW: days_since(transaction-date) = 10 > 8". */
  because: string;
  /** The whole line: "blocked by DISPUTE_WINDOW: days_since(transaction-date) = 10 > 8". */
  sentence: string;
}

/** Longest reason kept in the one-line summary (the full text is in the rule's details). */
const MAX_REASON = 140;

/**
 * A reason in one short line. The reference engine's reasons read "X is V (detail), so P holds";
 * that becomes P with V written after X ("days_since(transaction-date) = 10 > 8"). Any other
 * reason is kept up to its first ";". Plain string searches: no regex over service text.
 */
export function briefReason(reason: string): string {
  const clause = (reason.split(';')[0] ?? '').trim();
  let brief = clause;
  const so = clause.indexOf(', so ');
  const is = clause.indexOf(' is ');
  if (so > 0 && is > 0 && is < so && clause.endsWith(' holds')) {
    const expr = clause.slice(0, is);
    let value = clause.slice(is + 4, so);
    const paren = value.indexOf(' (');
    if (paren > 0 && value.endsWith(')')) value = value.slice(0, paren);
    const condition = clause.slice(so + 5, clause.length - ' holds'.length);
    if (condition.startsWith(expr)) brief = `${expr} = ${value}${condition.slice(expr.length)}`;
  }
  return brief.length > MAX_REASON ? `${brief.slice(0, MAX_REASON - 1)}…` : brief;
}

/** Rule ids the trace's `decisions` list names as the cause (`block` and `rule_triggered` entries). */
function namedRules(decisions: unknown): Set<string> {
  const named = new Set<string>();
  if (!Array.isArray(decisions)) return named;
  for (const d of decisions) {
    const rule = (d as { type?: unknown; rule?: unknown } | null)?.rule;
    if ((d as { type?: unknown }).type === 'block' && typeof rule === 'string') named.add(rule);
  }
  return named;
}

function computeCause(trace: TraceLike): DecisionCause | null {
  const shown = showDecision(trace.decision);
  if (!shown) return null;
  const rules = trace.rules_evaluated;
  // The rules whose own tone is the decision's: a block is decided by the blocking rules, a
  // question by the missing-information checks, a confirmation by the rules asking for one.
  const indices: number[] = [];
  if (shown.tone === 'blocked' || shown.tone === 'info' || shown.tone === 'confirm')
    rules.forEach((r, i) => {
      const tone = ruleTone(r, trace.decision);
      // A gating rule that could not be evaluated blocks as well (never counts as allowed).
      if (tone === shown.tone || (shown.tone === 'blocked' && tone === 'error')) indices.push(i);
    });
  if (indices.length === 0) return null;
  // The rule the trace itself names as the block comes first.
  const named = namedRules(trace.decisions);
  const first = indices.findIndex((i) => named.has(rules[i]?.rule_id ?? ''));
  if (first > 0) indices.unshift(...indices.splice(first, 1));
  const lead = rules[indices[0]!]!;
  const ids = `${lead.rule_id || '(unnamed rule)'}${indices.length > 1 ? ` and ${indices.length - 1} more` : ''}`;
  const reason = briefReason(lead.reason || lead.predicate);
  const because = `${shown.tone === 'blocked' ? 'by' : 'from'} ${ids}${reason ? `: ${reason}` : ''}`;
  return {
    tone: shown.tone,
    label: shown.label,
    ruleIndices: indices,
    reason,
    because,
    sentence: `${shown.label} ${because}`,
  };
}

const causes = new WeakMap<object, DecisionCause | null>();

/** The deciding rules of a trace and the one-line sentence naming them; null when no rule decided. */
export function decisionCause(trace: TraceLike): DecisionCause | null {
  let cause = causes.get(trace);
  if (cause === undefined) {
    cause = computeCause(trace);
    causes.set(trace, cause);
  }
  return cause;
}
