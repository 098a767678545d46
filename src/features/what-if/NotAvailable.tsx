/**
 * Why a turn has no what-if here, said on screen: the service did not answer for it. A deployed
 * service does not offer what if (its route is not there); the reference service answers for the
 * turns it stored, and says why not for others.
 */
import { toApiError } from '../../api/errors';
import { ErrorCallout } from '../../components/ui/ErrorCallout';

export function NotAvailable({ error, className }: { error: unknown; className?: string }) {
  return (
    <div className={`space-y-2 text-sm ${className ?? ''}`} role="note" aria-label="What if is not available">
      <ErrorCallout error={toApiError(error)} />
      <p className="text-zinc-600 dark:text-zinc-400">
        What if and why not are not available for this turn. They decide a turn again from the engine’s state
        just before it (the values of earlier turns, a question or confirmation pending, what the integrations
        loaded) and the clock it ran at; only the reference service keeps these, for the turns it stored. A
        deployed service’s trace gives the decision and the values at the end of the turn, not that state, so
        deciding its turns again here would be a guess rather than a prediction.
      </p>
    </div>
  );
}
