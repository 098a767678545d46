/**
 * Said wherever a predicted turn is shown (a deployed service's turn, predicted with the user's
 * bundle): it is the reference engine's prediction with that bundle, not what the deployed
 * service would decide; how it was made (earlier messages replayed, the clock); and the deployed
 * service's own decision beside the engine's, with a prominent warning when they differ.
 */
import { Badge } from '../../components/ui/Badge';
import { predictionAgreement } from './prediction-model';
import type { PredictionFacts } from './use-prediction';
import { DecisionBadge } from './ValueEditor';

export const PREDICTION_LABEL = 'Prediction of the reference engine with your bundle';

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
        {compact
          ? null
          : ` This service does not expose the state before a turn, so the thread’s ${
              facts.replayed === 1 ? 'earlier message was' : `${facts.replayed} earlier messages were`
            } replayed with your bundle of ${facts.agentId} (its draft in the Bundle tab) at this turn’s clock, the reply’s time (${facts.clock}).`}
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
    </div>
  );
}
