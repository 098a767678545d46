/**
 * The Trace tab's content once a turn's trace is at hand: its graph above, the selected node's
 * details (or the raw JSON) below. React Flow and the graph model live here, in a chunk of their
 * own that TracePanel loads lazily: the welcome screen and threads without turns never fetch them.
 */
import { Fragment, Suspense, useCallback, useContext, useState } from 'react';
import { EmptyState } from '../../components/ui/EmptyState';
import { SplitPanes } from '../../components/ui/SplitPanes';
import { TabList } from '../../components/ui/Tabs';
import type { TolerantTrace } from '../../contract/trace';
import { NodeInspector, type FindLike, type OpenRule } from './NodeInspector';
import { RawJson } from './RawJson';
import TraceGraph from './TraceGraph';
import { GraphBuilding } from './GraphBuilding';
import { nodeOf } from './graph-view';
import type { GraphNodeModel } from './trace-to-graph';
import { useGraphModel } from './use-graph-model';
import type { Highlight } from './TraceNode';
import { WhatIfSlot } from './what-if-slot';

export interface TraceViewProps {
  trace: TolerantTrace;
  turn: { id: string; index: number };
  turns?: readonly unknown[] | undefined;
  /** Turns in the thread, when `turns` holds only part of a long one. */
  turnCount?: number | undefined;
  nodeId: string | undefined;
  selectNode: (nodeId: string | undefined) => void;
  pinned: boolean;
  followLatest?: (() => void) | undefined;
  /** Search for turns like this one at the selected node (absent: no search offered). */
  findLike?: FindLike | undefined;
  /** Opens a rule's page (absent: none offered). */
  openRule?: OpenRule | undefined;
  /** The thread, for the what-if tab (absent: no what-if offered). */
  taskId?: string | undefined;
  /** Opens an inspector tab (a why-not bundle change opens the Bundle tab). */
  openTab?: ((id: string) => void) | undefined;
}

const DETAIL_TABS = [
  { id: 'details', label: 'Details' },
  { id: 'json', label: 'Raw JSON' },
] as const;
const WHAT_IF_TAB = { id: 'what-if', label: 'What would change this?' } as const;
const noWhatIf = () => false;

export default function TraceView({
  trace,
  turn,
  turns,
  turnCount,
  nodeId,
  selectNode,
  pinned,
  followLatest,
  findLike,
  openRule,
  taskId,
  openTab,
}: TraceViewProps) {
  const [detailTab, setDetailTab] = useState<string>('details');
  // The graph nodes a what-if changes, marked on the graph while it is shown.
  const [whatIfChanged, setWhatIfChanged] = useState<Record<string, Highlight> | undefined>(undefined);
  const whatIf = useContext(WhatIfSlot);
  const useHasWhatIf = whatIf?.useHasWhatIf ?? noWhatIf;
  const hasWhatIf = useHasWhatIf(taskId, turn.id);
  // A value's node offers the what-if's editor of its value (the what-if's own chunk).
  const nodeTools = useCallback(
    (node: GraphNodeModel) =>
      whatIf && taskId && (node.kind === 'param' || node.kind === 'entity') ? (
        <Suspense fallback={null}>{whatIf.nodeEditor({ taskId, interactionId: turn.id, node })}</Suspense>
      ) : null,
    [whatIf, taskId, turn.id],
  );
  const tabs = taskId && whatIf ? [...DETAIL_TABS, WHAT_IF_TAB] : DETAIL_TABS;
  // A huge trace's model is built in slices; meanwhile the decision and the progress are shown.
  const build = useGraphModel(trace);
  const model = build.model;
  const node = nodeId && model ? nodeOf(model, nodeId) : undefined;

  return (
    <SplitPanes
      orientation="vertical"
      className="h-full"
      storageKey="threadline:layout:trace"
      separatorLabels={['Resize details']}
      panes={[
        {
          id: 'graph',
          defaultSize: 72,
          minSize: 20,
          children: (
            <div className="flex h-full flex-col">
              <p
                className="flex items-center gap-1 px-3 pt-2 text-xs text-zinc-500 dark:text-zinc-400"
                data-testid="trace-turn"
              >
                <span>
                  Turn {turn.index + 1}
                  {turns ? ` of ${turnCount ?? turns.length}` : ''} · {trace.intent || 'no intent'}
                </span>
                {/* "Follow latest" only where there is a later turn to follow. */}
                {pinned && followLatest && turns && turn.index < (turnCount ?? turns.length) - 1 ? (
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
                ) : pinned ? (
                  <span>· the newest turn</span>
                ) : (
                  <span>· following the newest turn</span>
                )}
              </p>
              {whatIf && hasWhatIf && taskId ? (
                <Suspense fallback={null}>
                  <Fragment key={turn.id}>
                    {whatIf.strip({
                      taskId,
                      interactionId: turn.id,
                      turnNumber: turn.index + 1,
                      onChangedNodes: setWhatIfChanged,
                    })}
                  </Fragment>
                </Suspense>
              ) : null}
              <div className="min-h-0 flex-1">
                {build.model ? (
                  <TraceGraph
                    key={turn.id}
                    trace={trace}
                    selectedNodeId={nodeId}
                    onSelectNode={selectNode}
                    highlight={hasWhatIf ? whatIfChanged : undefined}
                    label={`Trace graph of turn ${turn.index + 1}`}
                    nodeTools={taskId && whatIf ? nodeTools : undefined}
                  />
                ) : (
                  <GraphBuilding trace={trace} rulesRead={build.rulesRead} rules={build.rules} />
                )}
              </div>
            </div>
          ),
        },
        {
          id: 'node-details',
          defaultSize: 28,
          minSize: 10,
          children: (
            <div className="flex h-full min-h-0 flex-col">
              <TabList
                tabs={tabs}
                value={detailTab}
                onChange={setDetailTab}
                label="Trace details"
                idPrefix="trace-details"
              />
              <div
                id="trace-details-panel"
                role="tabpanel"
                aria-labelledby={`trace-details-tab-${detailTab}`}
                // Scrolls on its own: keyboard users reach it to scroll it with the arrow keys.
                tabIndex={0}
                className="min-h-0 flex-1 overflow-y-auto focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-indigo-500"
              >
                {detailTab === WHAT_IF_TAB.id && taskId && whatIf ? (
                  <Suspense fallback={<p className="p-3 text-sm text-zinc-500">Loading…</p>}>
                    <Fragment key={turn.id}>
                      {whatIf.panel({ taskId, interactionId: turn.id, openTab })}
                    </Fragment>
                  </Suspense>
                ) : detailTab === 'json' ? (
                  <RawJson value={trace} label="Trace JSON" />
                ) : node ? (
                  <NodeInspector node={node} findLike={findLike} openRule={openRule} />
                ) : !model ? (
                  <EmptyState title="The graph is being drawn">
                    A node&apos;s details can be read once the graph of this turn is drawn.
                  </EmptyState>
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
