/**
 * Said wherever a predicted turn is shown (a deployed service's turn, predicted with the user's
 * bundle): it is the reference engine's prediction with that bundle, not what the deployed
 * service would decide; which bundle (the draft, its name and hash); how it was made (earlier
 * messages replayed, the clock, where the messages were read); the deployed service's own
 * decision beside the engine's, with a prominent warning when they differ; and each earlier turn
 * the replay decided otherwise than the deployed service (or could not check).
 */
import { Badge } from '../../components/ui/Badge';
import { shortBundleHash } from '../../lib/short-hash';
import { predictionAgreement } from './prediction-model';
import type { PredictionFacts } from './use-prediction';
import { DecisionBadge } from './ValueEditor';

export const PREDICTION_LABEL = 'Prediction of the reference engine with your bundle';

const turnList = (turns: readonly number[]) => `${turns.length === 1 ? 'Turn' : 'Turns'} ${turns.join(', ')}`;

/** The bundle predicted with: the draft (where an imported project goes), its own name and hash. */
function BundleUsed({ facts }: { facts: PredictionFacts }) {
  return (
    <>
      your draft of {facts.agentId} in the Bundle tab (where an imported project or bundle file goes)
      {facts.bundleName ? `, ${facts.bundleName}` : ''}, hash{' '}
      <code title={facts.bundleHash}>{shortBundleHash(facts.bundleHash)}</code>
    </>
  );
}

/** Earlier turns whose replay did not give the deployed service's decision, one line each. */
function ReplayDiffers({ facts }: { facts: PredictionFacts }) {
  const { mismatches, unchecked } = facts.replay;
  if (mismatches.length === 0 && unchecked.length === 0) return null;
  return (
    <div
      role="note"
      aria-label="Earlier turns replayed differently"
      className="space-y-1 rounded-md border border-amber-400 bg-amber-50 p-2 text-xs text-amber-950 dark:border-amber-600 dark:bg-amber-950/60 dark:text-amber-100"
    >
      {mismatches.length > 0 ? (
        <>
          <p className="font-semibold">
            The replay with your bundle did not decide every earlier turn as the deployed service did, so this
            prediction may start from a state the deployed service never had:
          </p>
          <ul className="list-disc pl-4">
            {mismatches.map((m) => (
              <li key={m.turn}>
                Turn {m.turn}: the deployed service decided {m.deployed}, the replay decided {m.replayed}.
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {unchecked.length > 0 ? (
        <p>
          {turnList(unchecked)}: the deployed service’s trace gives no decision, so the replay of{' '}
          {unchecked.length === 1 ? 'it' : 'them'} could not be checked.
        </p>
      ) : null}
    </div>
  );
}

/** Where the replayed messages were read. */
function messagesRead({ fromService, fromBrowser }: PredictionFacts['messages']): string {
  const parts = [
    fromService ? `${fromService} from the deployed service’s traces` : '',
    fromBrowser ? `${fromBrowser} from this browser’s record of what it sent` : '',
  ].filter(Boolean);
  return `The messages replayed were read ${parts.join(' and ')}.`;
}

export function PredictionNote({
  facts,
  engineDecision,
  compact = false,
}: {
  facts: PredictionFacts;
  engineDecision: string;
  compact?: boolean;
}) {
  const agreement = predictionAgreement(engineDecision, facts.deployed.decision);
  return (
    <div className="space-y-1.5" role="group" aria-label={PREDICTION_LABEL}>
      <p className="text-xs text-zinc-700 dark:text-zinc-300">
        <Badge tone="confirm">prediction with your bundle</Badge>{' '}
        <span className="font-semibold">{PREDICTION_LABEL}</span>, not what the deployed service would decide.
        {compact ? (
          <>
            {' '}
            Bundle: <code title={facts.bundleHash}>{shortBundleHash(facts.bundleHash)}</code>.
          </>
        ) : (
          <>
            {' '}
            The bundle: <BundleUsed facts={facts} />.
            {` This service does not expose the state before a turn, so the thread’s ${
              facts.replayed === 1 ? 'earlier message was' : `${facts.replayed} earlier messages were`
            } replayed with your bundle of ${facts.agentId} at this turn’s clock, the reply’s time (${facts.clock}). `}
            {messagesRead(facts.messages)}
          </>
        )}
      </p>
      <p className="flex flex-wrap items-center gap-1 text-xs">
        <span>The deployed service decided</span>
        {facts.deployed.decision ? (
          <DecisionBadge decision={facts.deployed.decision} />
        ) : (
          <span>nothing it recorded</span>
        )}
        <span>· the reference engine with your bundle decides</span>
        <DecisionBadge decision={engineDecision} />
      </p>
      {agreement === 'differs' ? (
        <p
          role="note"
          aria-label="The prediction differs from the deployed service"
          className="rounded-md border border-amber-400 bg-amber-50 p-2 text-xs font-semibold text-amber-950 dark:border-amber-600 dark:bg-amber-950/60 dark:text-amber-100"
        >
          The reference engine with your bundle decides this turn differently from the deployed service (
          {engineDecision} here, {facts.deployed.decision} there). Your bundle, or the engine, is not what the
          deployed service ran: every answer below is about your bundle, not about the deployed service.
        </p>
      ) : agreement === 'deployed-unknown' ? (
        <p role="note" className="text-xs font-semibold">
          The deployed service’s trace gives no decision for this turn: the prediction cannot be checked
          against it.
        </p>
      ) : null}
      {facts.sentWith && facts.sentWith !== facts.bundleHash ? (
        <p role="note" className="text-xs font-semibold">
          This turn was sent to the deployed service with the bundle {shortBundleHash(facts.sentWith)}, not
          with this draft: the prediction is about the draft.
        </p>
      ) : null}
      <ReplayDiffers facts={facts} />
    </div>
  );
}
