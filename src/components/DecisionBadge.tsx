import { Badge } from './ui/Badge';
import { decisionCause } from '../lib/decision-cause';
import { showDecision } from '../lib/trace-tones';
import type { TolerantTrace } from '../contract/trace';

/** proceed / blocked / needs confirmation / needs information, anything else as it is. */
export function DecisionBadge({ decision }: { decision: string | undefined }) {
  const shown = showDecision(decision);
  if (!shown) return null;
  return (
    <Badge tone={shown.tone} title={`Decision: ${decision}`}>
      <span className="sr-only">Decision: </span>
      {shown.label}
    </Badge>
  );
}

/** The rule(s) that decided and the reason, after the badge: "by DISPUTE_WINDOW: days_since(…) = 10 > 8". */
export function DecisionCauseText({ trace }: { trace: TolerantTrace | undefined }) {
  const cause = trace ? decisionCause(trace) : null;
  if (!cause) return null;
  return (
    <span className="min-w-0 truncate text-zinc-700 dark:text-zinc-300" title={cause.sentence}>
      {cause.because}
    </span>
  );
}
