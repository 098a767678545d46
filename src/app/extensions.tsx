/**
 * The shell's extension points. Adding an inspector tab, a per-turn action or a main view (such
 * as the compare view) is a one-line change here; features stay unaware of the URL and of each
 * other.
 */
import { lazy, Suspense, type ComponentType, type LazyExoticComponent, type ReactNode } from 'react';
import { lazyComponent } from '../components/ui/lazy-component';
import { preloadMarkdown } from '../features/chat';
import { loadThreadRun } from '../domain/thread-run/load';
import { type Turn } from '../domain/transcript/transcript';
import type { TranscriptPart } from '../domain/transcript/use-transcript';
import { preloadTraceGraph, warmUpTraceGraph } from '../features/trace-graph';
import type { PrefetchStep } from './prefetch';
import { preloadReadOnlyTabs, readOnlyTabs } from './read-only-tabs';
import type { WorkspaceSearch } from './search';

const debugLoop = () => import('./debug-loop');
const BundleTab = lazyComponent(() => debugLoop().then((m) => ({ default: m.BundleTab })));
const BranchesTab = lazyComponent(() => debugLoop().then((m) => ({ default: m.BranchesTab })));
const LazyCompareMainView = lazyComponent(() => debugLoop().then((m) => ({ default: m.CompareMainView })));
const RerunTurnAction = lazyComponent(() => debugLoop().then((m) => ({ default: m.RerunTurnAction })));
const TestsTab = lazyComponent(() => debugLoop().then((m) => ({ default: m.TestsTab })));
const SaveAsTestTurnAction = lazyComponent(() =>
  debugLoop().then((m) => ({ default: m.SaveAsTestTurnAction })),
);
const LazyRunsWith = lazyComponent(() => debugLoop().then((m) => ({ default: m.RunsWith })));
/** The debug loop's views loaded ahead: each then shows without suspending (lazy-component.ts). */
const preloadDebugLoop = () =>
  Promise.all(
    [
      BundleTab,
      BranchesTab,
      LazyCompareMainView,
      RerunTurnAction,
      TestsTab,
      SaveAsTestTurnAction,
      LazyRunsWith,
    ].map((view) => view.preload()),
  );

const LazySearchMainView = lazy(() => import('./SearchMainView'));
const LazyRuleMainView = lazy(() => import('./RuleMainView'));

function RuleMainView(props: MainViewProps) {
  return (
    <Suspense fallback={<p className="p-6 text-sm text-slate-500">Loading the rule…</p>}>
      <LazyRuleMainView {...props} />
    </Suspense>
  );
}

function SearchMainView(props: MainViewProps) {
  return (
    <Suspense fallback={<p className="p-6 text-sm text-slate-500">Loading the search…</p>}>
      <LazySearchMainView {...props} />
    </Suspense>
  );
}

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
  turns: readonly Turn[];
  /** Of a long thread, which part `turns` are (the turns held) and how to ask for more. */
  part?: TranscriptPart | undefined;
  /** The selected turn (the URL's `turn`, else the latest). */
  turn: Turn | undefined;
  /** True when the user pinned a turn (the URL's `turn`); else the view follows the newest. */
  pinned?: boolean;
  followLatest?: () => void;
  /** A branch's origin carried by a link (for servers that do not keep lineage). */
  linkParent?: { task_id: string; interaction_id: string } | undefined;
  nodeId: string | undefined;
  selectNode: (nodeId: string | undefined) => void;
  selectTurn: (turnId: string) => void;
  isLoading: boolean;
  /** Why the thread's turns could not be read, and a way to try again. */
  error?: unknown;
  retry?: (() => void) | undefined;
  /** Opens the search for turns like this one (a rule's result, a tool, a value, the decision). */
  findLike?: (filter: { field: string; value: string }) => void;
  /** Opens the page of a rule of the thread's agent (its definition, counts and latest turns). */
  openRule?: (ruleId: string) => void;
  /** Shows another inspector tab (a why-not bundle change opens the Bundle tab). */
  openTab?: (id: string) => void;
}

export interface InspectorTab {
  id: string;
  label: string;
  Panel: ComponentType<InspectorContext> | LazyExoticComponent<ComponentType<InspectorContext>>;
}

export const inspectorTabs: InspectorTab[] = [
  ...readOnlyTabs,
  { id: 'bundle', label: 'Bundle', Panel: BundleTab },
  { id: 'branches', label: 'Branches', Panel: BranchesTab },
  { id: 'tests', label: 'Tests', Panel: TestsTab },
];

export interface MainViewProps {
  search: WorkspaceSearch;
  setSearch: (patch: Partial<WorkspaceSearch>, replace?: boolean) => void;
}

/** Views that replace the chat and inspector when their search parameter is present. */
export const mainViews: Array<{
  id: string;
  when: (s: WorkspaceSearch) => boolean;
  View: ComponentType<MainViewProps>;
}> = [
  { id: 'compare', when: (s) => Boolean(s.compare), View: CompareMainView },
  { id: 'search', when: (s) => s.view === 'search', View: SearchMainView },
  { id: 'rule', when: (s) => s.view === 'rule' && Boolean(s.agent && s.rule), View: RuleMainView },
];

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
  (turn, ctx) => (
    <Suspense fallback={null}>
      <SaveAsTestTurnAction turn={turn} ctx={ctx} />
    </Suspense>
  ),
];

/**
 * What the first send, the first Bundle tab and the first comparison need, in the order a user is
 * likely to need them: fetched and prepared while the first screen is read (see prefetch.ts).
 */
export const prefetchSteps: PrefetchStep[] = [
  preloadDebugLoop,
  loadThreadRun,
  preloadReadOnlyTabs,
  preloadTraceGraph,
  preloadMarkdown,
  warmUpTraceGraph,
  () => debugLoop().then((m) => m.preloadRerunDialog()),
  () => debugLoop().then((m) => m.startAnalysisWorker()),
  () => debugLoop().then((m) => m.preloadCompareView()),
  () => debugLoop().then((m) => m.prepareMonaco()),
];

/** Beside the composer: what the thread runs with. */
export function ComposerAddon({ taskId }: { taskId: string }) {
  return (
    <Suspense fallback={<p className="text-xs text-zinc-500">Runs with…</p>}>
      <LazyRunsWith taskId={taskId} />
    </Suspense>
  );
}
