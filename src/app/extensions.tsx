/**
 * The shell's extension points. Adding an inspector tab, a per-turn action, a main view (such as
 * the compare view) or extra send-message fields is a one-line change here; features stay
 * unaware of the URL and of each other.
 */
import { lazy, Suspense, type ComponentType, type LazyExoticComponent, type ReactNode } from 'react';
import type { MessageExtras, Turn } from '../features/chat';
import type { WorkspaceSearch } from './search';

const debugLoop = () => import('./debug-loop');
const BundleTab = lazy(() => debugLoop().then((m) => ({ default: m.BundleTab })));
const BranchesTab = lazy(() => debugLoop().then((m) => ({ default: m.BranchesTab })));
const LazyCompareMainView = lazy(() => debugLoop().then((m) => ({ default: m.CompareMainView })));
const RerunTurnAction = lazy(() => debugLoop().then((m) => ({ default: m.RerunTurnAction })));

function CompareMainView(props: MainViewProps) {
  return (
    <Suspense fallback={<p className="p-6 text-sm text-slate-500">Loading the comparison…</p>}>
      <LazyCompareMainView {...props} />
    </Suspense>
  );
}

/** What every inspector tab receives (a tab may use any subset). */
export interface InspectorContext {
  taskId: string | undefined;
  turns: Turn[];
  /** The selected turn (the URL's `turn`, else the latest). */
  turn: Turn | undefined;
  nodeId: string | undefined;
  selectNode: (nodeId: string | undefined) => void;
  selectTurn: (turnId: string) => void;
  isLoading: boolean;
}

export interface InspectorTab {
  id: string;
  label: string;
  Panel: ComponentType<InspectorContext> | LazyExoticComponent<ComponentType<InspectorContext>>;
}

export const inspectorTabs: InspectorTab[] = [
  { id: 'trace', label: 'Trace', Panel: lazy(() => import('../features/trace-graph/TracePanel')) },
  { id: 'thread', label: 'Thread', Panel: lazy(() => import('../features/thread-view/ThreadView')) },
  { id: 'bundle', label: 'Bundle', Panel: BundleTab },
  { id: 'branches', label: 'Branches', Panel: BranchesTab },
];

export interface MainViewProps {
  search: WorkspaceSearch;
  setSearch: (patch: Partial<WorkspaceSearch>) => void;
}

/** Views that replace the chat and inspector when their search parameter is present. */
export const mainViews: Array<{
  id: string;
  when: (s: WorkspaceSearch) => boolean;
  View: ComponentType<MainViewProps>;
}> = [{ id: 'compare', when: (s) => Boolean(s.compare), View: CompareMainView }];

export interface TurnActionContext {
  taskId: string;
  selectTurn: (turnId: string) => void;
  openTask: (taskId: string, turnId?: string) => void;
}

/** Per-turn actions shown under each reply (e.g. "Rerun from here", a local bundle badge). */
export const turnActions: Array<(turn: Turn, ctx: TurnActionContext) => ReactNode> = [
  (turn, ctx) => (
    <Suspense fallback={null}>
      <RerunTurnAction turn={turn} ctx={ctx} />
    </Suspense>
  ),
];

/** Extra fields for every sent message (e.g. the bundle editor's `agent_settings_bundle`). */
export const messageExtras: MessageExtras[] = [async () => (await debugLoop()).bundleMessageExtras()];
