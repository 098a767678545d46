/**
 * A turn's what-if above its graph, wherever its values were edited (a graph node or the panel):
 * marked "not a conversation turn", the edited values, the real turn and the what-if side by side
 * (decision and reply), what changed (also marked on the graph), Reset, and the two ways to keep
 * it: a test case, or a branch that states the values in a message.
 */
import { useEffect, useState, type ReactNode } from 'react';
import { toApiError } from '../../api/errors';
import { Badge } from '../../components/ui/Badge';
import { Button } from '../../components/ui/Button';
import { ErrorCallout } from '../../components/ui/ErrorCallout';
import { Spinner } from '../../components/ui/Spinner';
import { useWhatIfDecided } from './use-what-if';
import { PredictionNote } from './PredictionNote';
import { DecisionBadge } from './ValueEditor';
import { whatIfCaseTurn, type WhatIfCaseTurn } from './what-if-case';
import { changedNodes, differenceText, editsText, HELD_FIXED, messageStatingEdits } from './what-if-model';
import { useWhatIfStore } from './what-if-store';

/**
 * A what-if opened as a branch: *Rerun from here* on the turn with `text` offered. The app draws
 * the rerun dialog (it owns the rerun path and opening a thread); `onOpened` runs once the branch
 * is open.
 */
export interface BranchRequest {
  taskId: string;
  interactionId: string;
  turnNumber: number;
  /** The turn's own message. */
  originalText: string;
  /** The message offered: the edited values stated, then the turn's message. */
  text: string;
  /** Said in the dialog: the branch is understood again and may differ from the what-if. */
  notice: ReactNode;
  onClose: () => void;
  onOpened: () => void;
}

export interface WhatIfStripProps {
  taskId: string;
  interactionId: string;
  /** The turn's number in its thread (1-based). */
  turnNumber: number;
  /** The graph nodes the what-if changes (undefined: none). */
  onChangedNodes: (nodes: Record<string, 'changed'> | undefined) => void;
  /** Draws the rerun dialog that opens the what-if as a branch; absent: no branch offered. */
  renderBranch?: ((request: BranchRequest) => ReactNode) | undefined;
  /** Draws the action that saves the what-if as a test case; absent: not offered. */
  renderSaveAsTest?: ((request: SaveAsTestRequest) => ReactNode) | undefined;
}

/** A what-if to save as a test case: the turn it changes and the case's turn stating its values. */
export interface SaveAsTestRequest {
  taskId: string;
  turnId: string;
  turnNumber: number;
  whatIf: WhatIfCaseTurn;
}

export default function WhatIfStrip({
  taskId,
  interactionId,
  turnNumber,
  onChangedNodes,
  renderBranch,
  renderSaveAsTest,
}: WhatIfStripProps) {
  const { base, sent, result, error, settled } = useWhatIfDecided(taskId, interactionId);
  const reset = useWhatIfStore((s) => s.reset);
  const [branching, setBranching] = useState(false);

  useEffect(() => {
    onChangedNodes(result && result.differences.length > 0 ? changedNodes(result.differences) : undefined);
  }, [result, onChangedNodes]);
  useEffect(() => () => onChangedNodes(undefined), [onChangedNodes]);

  const recorded = base.data?.recorded;
  const trace = base.data?.engine_input?.recorded as { input?: { message?: unknown } } | undefined;
  const message = typeof trace?.input?.message === 'string' ? trace.input.message : '';
  const caseTurn =
    result && recorded && message && settled
      ? whatIfCaseTurn({ edits: sent, message, turnNumber, recordedDecision: recorded.decision, result })
      : undefined;

  return (
    <section
      aria-label="What if (not a conversation turn)"
      data-testid="what-if-strip"
      className="shrink-0 space-y-1.5 border-b border-dashed border-indigo-300 bg-indigo-50/40 px-3 py-2 text-sm dark:border-indigo-700 dark:bg-indigo-950/30"
    >
      <div className="flex flex-wrap items-center gap-x-2">
        <h3 className="font-semibold">What if</h3>
        <Badge tone="muted">not a conversation turn</Badge>
        <span className="font-mono text-xs break-all">{editsText(sent)}</span>
        <span className="ml-auto flex flex-wrap items-center">
          {caseTurn && renderSaveAsTest
            ? renderSaveAsTest({ taskId, turnId: interactionId, turnNumber, whatIf: caseTurn })
            : null}
          {renderBranch && message && sent.length > 0 ? (
            <Button size="sm" variant="ghost" onClick={() => setBranching(true)}>
              Open as branch
            </Button>
          ) : null}
          <Button size="sm" variant="ghost" onClick={reset}>
            Reset
          </Button>
        </span>
      </div>
      <p className="text-xs text-zinc-600 dark:text-zinc-400">
        {HELD_FIXED} Nothing is sent to the conversation.
      </p>
      {base.prediction && recorded ? (
        <PredictionNote facts={base.prediction} engineDecision={recorded.decision} compact />
      ) : null}
      {error ? (
        <ErrorCallout error={toApiError(error)} />
      ) : (
        <div
          className="grid grid-cols-2 gap-2"
          role="group"
          aria-label="This turn and the what-if, side by side"
        >
          <article aria-label="This turn" className="min-w-0">
            {recorded ? (
              <>
                <h4 className="text-xs font-semibold">
                  {base.prediction ? 'This turn, predicted' : 'This turn'}{' '}
                  <DecisionBadge decision={recorded.decision} />
                </h4>
                <p className="line-clamp-2 text-xs whitespace-pre-wrap">{recorded.reply}</p>
              </>
            ) : null}
          </article>
          <article aria-label="The what-if" className="min-w-0">
            {!result ? (
              <Spinner label="Deciding the turn again" />
            ) : (
              <>
                <h4 className="text-xs font-semibold">
                  What if <DecisionBadge decision={result.decision} />
                </h4>
                <p className="line-clamp-2 text-xs whitespace-pre-wrap">{result.reply}</p>
              </>
            )}
          </article>
        </div>
      )}
      {result ? (
        <p className="text-xs" aria-label="What the what-if changes" role="note">
          <span className="font-semibold">Changes: </span>
          {result.differences.length === 0
            ? 'nothing (the same decision, rules and tools)'
            : result.differences.map(differenceText).join('; ')}
          {result.overridden.length > 0
            ? ` · produced again during the turn (edit what it comes from): ${result.overridden.join(', ')}`
            : ''}
          {result.where === 'service' ? ' · decided by the reference service' : ' · decided in this browser'}
        </p>
      ) : null}
      {branching && renderBranch
        ? renderBranch({
            taskId,
            interactionId,
            turnNumber,
            originalText: message,
            text: messageStatingEdits(sent, message),
            notice: (
              <p>
                A branch is a conversation: its turn is understood again from this message, which states the
                what-if’s values. What it understands, and so its decision, may differ from the what-if, which
                held the understanding fixed.
              </p>
            ),
            onClose: () => setBranching(false),
            onOpened: reset,
          })
        : null}
    </section>
  );
}
