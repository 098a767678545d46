/**
 * The Trace tab: the selected turn's graph above, the selected node's details (or the raw JSON)
 * below (TraceView). The trace comes with the turn; a turn known only locally fetches its own. The
 * view follows the newest turn unless the user pinned one; a pinned view says which turn of how
 * many it shows, with a way back to following. This module stays small: the graph (React Flow)
 * loads once a thread is open, so the welcome screen never fetches it.
 */
import { Suspense, useEffect } from 'react';
import { useInteractionTrace } from '../../api/interaction-trace';
import { toApiError } from '../../api/errors';
import { EmptyState } from '../../components/ui/EmptyState';
import { ErrorCallout } from '../../components/ui/ErrorCallout';
import { Spinner } from '../../components/ui/Spinner';
import type { TolerantTrace } from '../../contract/trace';
import { useKeyReady } from '../../domain/connection/use-key-ready';
import { lazyComponent } from '../../components/ui/lazy-component';

import type { FindLike, OpenRule } from './NodeInspector';

const TraceView = lazyComponent(() => import('./TraceView'));
/** Fetches and evaluates the graph's code (React Flow) ahead of the first trace. */
export const preloadTraceView = TraceView.preload;

export interface TracePanelProps {
  taskId: string | undefined;
  turn: { id: string; index: number; trace?: TolerantTrace | undefined } | undefined;
  nodeId: string | undefined;
  selectNode: (nodeId: string | undefined) => void;
  isLoading: boolean;
  turns?: readonly unknown[];
  /** Of a long thread, how many turns it has (`turns` holds part of it). */
  part?: { total: number } | undefined;
  pinned?: boolean;
  followLatest?: () => void;
  findLike?: FindLike;
  openRule?: OpenRule;
  openTab?: (id: string) => void;
}

function Loading({ what }: { what: string }) {
  return (
    <div className="flex h-full items-center justify-center gap-2 text-sm text-zinc-500">
      <Spinner label={`Loading ${what}`} /> Loading {what}…
    </div>
  );
}

export default function TracePanel({
  taskId,
  turn,
  nodeId,
  selectNode,
  isLoading,
  turns,
  part,
  pinned = false,
  followLatest,
  findLike,
  openRule,
  openTab,
}: TracePanelProps) {
  const keyReady = useKeyReady();
  const fetched = useInteractionTrace(turn && !turn.trace ? taskId : undefined, turn?.id, keyReady);
  const trace = turn?.trace ?? fetched.data;
  // Once a thread is open its first trace is near: fetch the graph's code now, not after the reply.
  useEffect(() => {
    if (taskId) void preloadTraceView().catch(() => undefined);
  }, [taskId]);

  if (!taskId)
    return (
      <EmptyState title="No thread open">
        Send a message and its reasoning trace appears here as a graph.
      </EmptyState>
    );
  if (!turn)
    return isLoading ? (
      <Loading what="the traces" />
    ) : !keyReady ? (
      <EmptyState title="Waiting for the API key">
        This thread’s traces load once the API key is entered.
      </EmptyState>
    ) : (
      <EmptyState title="No turns yet">
        Each reply's trace is drawn here: intent, rules, tools, decision.
      </EmptyState>
    );
  if (!trace) {
    if (!keyReady)
      return <EmptyState title="No API key">Enter the API key to load this turn's trace.</EmptyState>;
    if (fetched.error)
      return (
        <div className="p-3">
          <ErrorCallout error={toApiError(fetched.error)} />
        </div>
      );
    return <Loading what="the trace" />;
  }

  return (
    <Suspense fallback={<Loading what="the trace graph" />}>
      <TraceView
        trace={trace}
        turn={turn}
        turns={turns}
        turnCount={part?.total}
        nodeId={nodeId}
        selectNode={selectNode}
        pinned={pinned}
        followLatest={followLatest}
        findLike={findLike}
        openRule={openRule}
        taskId={taskId}
        openTab={openTab}
      />
    </Suspense>
  );
}
