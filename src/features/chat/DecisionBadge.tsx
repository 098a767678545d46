import { Badge } from '../../components/ui/Badge';
import { showDecision } from '../../lib/trace-tones';

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
