/**
 * What every trace the engine produces must satisfy (checked by the engine's tests over the
 * example agents and over generated bundles): the decision is the one its rule results give, and
 * every reason says in words which outcome happened.
 *
 * - `proceed`: no rule `blocked` or `requires_confirmation`, and no rule in `error` that stops its tool.
 * - `block_with_explanation`: some rule `blocked`, or in `error` and stopping its tool.
 * - `request_information`: some rule `blocked` (a requirement missing, or a tool that must finish first).
 * - `request_confirmation`: some rule `requires_confirmation`.
 */
import type { RuleEvaluation, Trace } from '../src/contract/trace';

/** The words a reason uses to say its result. */
const OUTCOME_WORDS: Record<string, RegExp> = {
  allowed: /\ballowed\b/,
  blocked: /\bblocked\b/,
  requires_confirmation: /\brequires confirmation\b/,
  not_applicable: /\bnot applicable\b/,
  error: /\bcould not be evaluated\b/,
};

const stopsTool = (r: RuleEvaluation) => r.result === 'error' && /the tool is blocked/.test(r.reason);

export function traceViolations(trace: Pick<Trace, 'decision' | 'rules_evaluated'>): string[] {
  const out: string[] = [];
  const rules = trace.rules_evaluated;
  const some = (p: (r: RuleEvaluation) => boolean) => rules.some(p);
  const ids = (p: (r: RuleEvaluation) => boolean) =>
    rules
      .filter(p)
      .map((r) => `${r.rule_id} ${r.result}`)
      .join(', ');
  switch (trace.decision) {
    case 'proceed': {
      const stopping = (r: RuleEvaluation) =>
        r.result === 'blocked' || r.result === 'requires_confirmation' || stopsTool(r);
      if (some(stopping)) out.push(`decision proceed, yet ${ids(stopping)}`);
      break;
    }
    case 'block_with_explanation':
      if (!some((r) => r.result === 'blocked' || stopsTool(r)))
        out.push('decision block_with_explanation, yet no rule blocked');
      break;
    case 'request_information':
      if (!some((r) => r.result === 'blocked')) out.push('decision request_information, yet no rule blocked');
      break;
    case 'request_confirmation':
      if (!some((r) => r.result === 'requires_confirmation'))
        out.push('decision request_confirmation, yet no rule requires confirmation');
      break;
    default:
      out.push(`unknown decision ${trace.decision}`);
  }
  for (const r of rules) {
    const words = OUTCOME_WORDS[r.result];
    if (!words) out.push(`${r.rule_id}: unknown result ${r.result}`);
    else if (!words.test(r.reason))
      out.push(`${r.rule_id}: result ${r.result}, reason ${JSON.stringify(r.reason)}`);
  }
  return out;
}
