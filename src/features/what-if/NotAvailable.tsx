/**
 * Why a turn has no what-if here, said on screen. On the reference service: the service did not
 * answer for the turn (it answers for the turns it stored). On a deployed service: there is no
 * bundle of the thread's agent to predict with (and what to do about it), the bundle cannot be
 * run, the turn cannot be replayed (and why), or this browser has no record of the thread's agent
 * (and what to do instead of a guess).
 */
import { toApiError } from '../../api/errors';
import { Button } from '../../components/ui/Button';
import { ErrorCallout } from '../../components/ui/ErrorCallout';
import type { Unpredicted } from './use-what-if';

const muted = 'text-zinc-600 dark:text-zinc-400';

function WhyUnpredicted({
  why,
  openTab,
}: {
  why: Unpredicted;
  openTab?: ((id: string) => void) | undefined;
}) {
  const agent = why.kind === 'cannot' || why.kind === 'unknown-agent' ? '' : why.agentId;
  const openBundle = openTab ? (
    <Button size="sm" variant="secondary" onClick={() => openTab('bundle')}>
      Open the Bundle tab
    </Button>
  ) : null;
  switch (why.kind) {
    case 'unknown-agent':
      return (
        <>
          <p className="font-semibold">The agent this thread ran is not known here.</p>
          <p className={muted}>
            What if and why not on this service need your bundle of the thread’s agent, and only this
            browser’s record of a thread says which agent it ran: the deployed service does not, and the agent
            you are connected with now may be another one, so none is assumed. Open the thread in the browser
            that started it, or start a thread with the agent from this browser; then import the agent’s
            project folder or bundle file in the Bundle tab.
          </p>
        </>
      );
    case 'no-bundle':
      return (
        <>
          <p className="font-semibold">What if and why not need your bundle of {agent}.</p>
          <p className={muted}>
            This service does not expose the engine’s state before a turn, so its turns cannot be decided
            again as they ran. With a bundle of {agent} in this browser, the reference engine predicts the
            turn instead: it replays the thread’s earlier messages with your bundle and decides the turn from
            there. Open the Bundle tab and import the agent’s project folder or bundle file (or paste the
            bundle). The answers are then the reference engine’s prediction with your bundle, not what the
            deployed service would decide.
          </p>
          {openBundle}
        </>
      );
    case 'invalid-bundle':
      return why.checking ? (
        <p className={muted}>Checking your bundle of {agent}…</p>
      ) : (
        <>
          <p className="font-semibold">Your bundle of {agent} cannot be run, so the turn is not predicted.</p>
          <p className={muted}>{why.reason}</p>
          {openBundle}
        </>
      );
    case 'cannot':
      return (
        <>
          <p className="font-semibold">This turn cannot be predicted with your bundle.</p>
          <p className={muted}>{why.message}</p>
        </>
      );
  }
}

export function NotAvailable({
  error,
  unpredicted,
  openTab,
  className,
}: {
  error?: unknown;
  /** A deployed service's turn that is not predicted, and why. */
  unpredicted?: Unpredicted | undefined;
  openTab?: ((id: string) => void) | undefined;
  className?: string;
}) {
  return (
    <div className={`space-y-2 text-sm ${className ?? ''}`} role="note" aria-label="What if is not available">
      {unpredicted ? (
        <WhyUnpredicted why={unpredicted} openTab={openTab} />
      ) : (
        <>
          <ErrorCallout error={toApiError(error)} />
          <p className={muted}>
            What if and why not are not available for this turn. They decide a turn again from the engine’s
            state just before it (the values of earlier turns, a question or confirmation pending, what the
            integrations loaded) and the clock it ran at, which the reference service keeps for the turns it
            stored.
          </p>
        </>
      )}
    </div>
  );
}
