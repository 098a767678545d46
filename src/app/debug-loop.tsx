/**
 * The debugging loop wired into the shell (loaded lazily by extensions.tsx, so the editor's
 * validator and the compare view stay out of the first load): the Bundle and Branches inspector tabs, the compare
 * view, the per-turn "Rerun from here" action and the bundle attached to sends. Thin adapters:
 * they turn the shell's context and URL into the features' plain props and callbacks.
 */
import { BranchTree } from '../features/branches';
import { BundleEditorPanel, bundleForRequest } from '../features/bundle-editor';
import type { Turn } from '../features/chat';
import { CompareMain, formatComparePair } from '../features/compare';
import { selectAgentId, selectHasKey, useConnectionStore } from '../features/connection';
import { RerunAction } from '../features/rerun';
import { useThreadsStore } from '../features/threads';
import type { InspectorContext, MainViewProps, TurnActionContext } from './extensions';
import { useSetSearch } from './use-set-search';

export function BundleTab({ taskId }: InspectorContext) {
  const threadAgent = useThreadsStore((s) => (taskId ? s.threads[taskId]?.agent_id : undefined));
  const connectionAgent = useConnectionStore(selectAgentId);
  const hasKey = useConnectionStore(selectHasKey);
  return <BundleEditorPanel defaultAgentId={threadAgent || connectionAgent.trim()} canFetch={hasKey} />;
}

export function BranchesTab({ taskId }: InspectorContext) {
  const setSearch = useSetSearch();
  return (
    <BranchTree
      taskId={taskId}
      onOpen={(task) => setSearch({ task, turn: undefined, node: undefined })}
      onCompare={(a, b) => setSearch({ compare: formatComparePair(a, b) })}
    />
  );
}

export function CompareMainView({ search, setSearch }: MainViewProps) {
  return (
    <CompareMain
      pair={search.compare}
      onPairChange={(compare) => setSearch({ compare })}
      onOpenTask={(task) => setSearch({ task, turn: undefined, node: undefined, compare: undefined })}
    />
  );
}

export function RerunTurnAction({ turn, ctx }: { turn: Turn; ctx: TurnActionContext }) {
  return <RerunAction turn={turn} taskId={ctx.taskId} onOpened={ctx.openTask} />;
}

/** The editor's bundle on every send while "Use this bundle" is on; throws (nothing sent) when it has errors. */
export function bundleMessageExtras() {
  const bundle = bundleForRequest();
  return bundle ? { agent_settings_bundle: bundle } : {};
}
