/**
 * The Trace tab: the selected turn's graph above, the selected node's details (or the raw JSON)
 * below. The trace comes with the turn; a turn known only locally fetches its own. The view
 * follows the newest turn unless the user pinned one; a pinned view says which turn of how many
 * it shows, with a way back to following.
 */
import { useMemo, useState } from 'react';
import { useInteractionTrace } from '../../api/interaction-trace';
import { toApiError } from '../../api/errors';
import { EmptyState } from '../../components/ui/EmptyState';
import { SplitPanes } from '../../components/ui/SplitPanes';
import { ErrorCallout } from '../../components/ui/ErrorCallout';
import { Spinner } from '../../components/ui/Spinner';
import { TabList } from '../../components/ui/Tabs';
import type { TolerantTrace } from '../../contract/trace';
import { useKeyReady } from '../connection';
import { NodeInspector } from './NodeInspector';
import { RawJson } from './RawJson';
import TraceGraph from './TraceGraph';
import { graphOf } from './trace-to-graph';

export interface TracePanelProps {
  taskId: string | undefined;
  turn: { id: string; index: number; trace?: TolerantTrace | undefined } | undefined;
  nodeId: string | undefined;
  selectNode: (nodeId: string | undefined) => void;
  isLoading: boolean;
  turns?: readonly unknown[];
  pinned?: boolean;
  followLatest?: () => void;
}

const DETAIL_TABS = [
  { id: 'details', label: 'Details' },
  { id: 'json', label: 'Raw JSON' },
] as const;

export default function TracePanel({
  taskId,
  turn,
  nodeId,
  selectNode,
  isLoading,
  turns,
  pinned = false,
  followLatest,
}: TracePanelProps) {
  const keyReady = useKeyReady();
  const fetched = useInteractionTrace(turn && !turn.trace ? taskId : undefined, turn?.id, keyReady);
  const trace = turn?.trace ?? fetched.data;
  const [detailTab, setDetailTab] = useState<string>('details');
  const model = useMemo(() => (trace ? graphOf(trace) : undefined), [trace]);
  const node = nodeId ? model?.nodes.find((n) => n.id === nodeId) : undefined;

  if (!taskId)
    return (
      <EmptyState title="No thread open">
        Send a message and its reasoning trace appears here as a graph.
      </EmptyState>
    );
  if (!turn)
    return isLoading ? (
      <div className="flex h-full items-center justify-center gap-2 text-sm text-zinc-500">
        <Spinner label="Loading the traces" /> Loading the traces…
      </div>
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
    return (
      <div className="flex h-full items-center justify-center gap-2 text-sm text-zinc-500">
        <Spinner label="Loading the trace" /> Loading the trace…
      </div>
    );
  }

  return (
    <SplitPanes
      orientation="vertical"
      className="h-full"
      storageKey="threadline:layout:trace"
      separatorLabels={['Resize details']}
      panes={[
        {
          id: 'graph',
          defaultSize: 62,
          minSize: 20,
          children: (
            <div className="flex h-full flex-col">
              <p
                className="flex items-center gap-1 px-3 pt-2 text-xs text-zinc-500 dark:text-zinc-400"
                data-testid="trace-turn"
              >
                <span>
                  Turn {turn.index + 1}
                  {turns ? ` of ${turns.length}` : ''} · {trace.intent || 'no intent'}
                </span>
                {pinned && followLatest ? (
                  <>
                    <span aria-hidden="true">·</span>
                    <button
                      type="button"
                      onClick={followLatest}
                      className="rounded px-1 text-indigo-700 hover:bg-indigo-50 dark:text-indigo-300 dark:hover:bg-indigo-950"
                    >
                      Follow latest
                    </button>
                  </>
                ) : (
                  <span>· following the newest turn</span>
                )}
              </p>
              <div className="min-h-0 flex-1">
                <TraceGraph
                  key={turn.id}
                  trace={trace}
                  selectedNodeId={nodeId}
                  onSelectNode={selectNode}
                  label={`Trace graph of turn ${turn.index + 1}`}
                />
              </div>
            </div>
          ),
        },
        {
          id: 'node-details',
          defaultSize: 38,
          minSize: 10,
          children: (
            <div className="flex h-full min-h-0 flex-col">
              <TabList
                tabs={DETAIL_TABS}
                value={detailTab}
                onChange={setDetailTab}
                label="Trace details"
                idPrefix="trace-details"
              />
              <div
                id="trace-details-panel"
                role="tabpanel"
                aria-labelledby={`trace-details-tab-${detailTab}`}
                className="min-h-0 flex-1 overflow-y-auto"
              >
                {detailTab === 'json' ? (
                  <RawJson value={trace} label="Trace JSON" />
                ) : node ? (
                  <NodeInspector node={node} />
                ) : (
                  <EmptyState title={nodeId ? 'That node is not in this turn' : 'Select a node'}>
                    Click a node, or focus the graph and use the arrow keys, to read its details.
                  </EmptyState>
                )}
              </div>
            </div>
          ),
        },
      ]}
    />
  );
}
