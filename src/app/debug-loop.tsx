/**
 * The debugging loop wired into the shell (loaded lazily by extensions.tsx, so the editor's
 * validator and the compare view stay out of the first load): the Bundle and Branches inspector
 * tabs, the compare view, and the per-turn "Rerun from here" action. Thin adapters: they turn the shell's context and URL into the
 * features' plain props and callbacks.
 */
import { useState } from 'react';
import { BranchTree } from '../features/branches/BranchTree';
import { BundleEditorPanel } from '../features/bundle-editor';
// Prepared ahead of the first click (extensions.tsx: prefetchSteps).
export { prepareMonaco } from '../features/bundle-editor';
export { startAnalysisWorker } from '../domain/bundles/analysis-runner';
export { preloadCompareView } from '../features/compare/preload';
import type { Turn } from '../domain/transcript/transcript';
import { CompareMain } from '../features/compare/CompareMain';
import { formatComparePair } from '../features/compare/pair';
import { ImpactPreview } from '../features/impact-preview';
import { selectAgentId, selectHasKey, useConnectionStore } from '../domain/connection/connection-store';
import { LazyRerunDialog, RerunAction } from '../features/rerun';
export { preloadRerunDialog } from '../features/rerun';
import { RuleLinks } from '../features/search/RuleLinks';
import { CoveragePanel, SaveAsTestAction, SaveWhatIfAsTest, SuitesPanel } from '../features/test-suites';
import { RunsWithControl, ThreadDraftControls } from '../features/runs-with';
import { useThreadsStore } from '../domain/threads/threads-store';
import { runConfigOf } from '../domain/threads/run-config';
import type { BranchRequest, SaveAsTestRequest } from '../features/what-if';
import type { InspectorContext, MainViewProps, TurnActionContext } from './extensions';
import { useSetSearch } from './use-set-search';
import { useOpenWitnessThread } from './open-witness-thread';

export function BundleTab({ taskId }: InspectorContext) {
  const threadAgent = useThreadsStore((s) => (taskId ? s.threads.get(taskId)?.agent_id : undefined));
  const lastAgent = useConnectionStore(selectAgentId);
  const hasKey = useConnectionStore(selectHasKey);
  const [picked, setPicked] = useState<string | null>(null);
  // An open thread's editor edits that thread's agent's draft; with no thread open, any agent's.
  const agentId = taskId && threadAgent ? threadAgent : (picked ?? lastAgent.trim());
  const openAsThread = useOpenWitnessThread();
  return (
    <div className="flex h-full min-h-0 flex-col">
      <div className="min-h-0 flex-1">
        {taskId && threadAgent ? (
          <BundleEditorPanel
            agentId={threadAgent}
            canFetch={hasKey}
            threadControls={<ThreadDraftControls taskId={taskId} />}
            impact={<ImpactPreview agentId={threadAgent} canFetch={hasKey} />}
            onOpenAsThread={openAsThread}
          />
        ) : (
          <BundleEditorPanel
            agentId={agentId}
            onAgentChange={setPicked}
            canFetch={hasKey}
            impact={<ImpactPreview agentId={agentId} canFetch={hasKey} />}
            onOpenAsThread={openAsThread}
          />
        )}
      </div>
      {agentId && hasKey ? <RulePagesBeside agentId={agentId} /> : null}
      {agentId ? <SuiteCoverageBeside agentId={agentId} /> : null}
    </div>
  );
}

/** The bundle's rules, each opening its page (definition, counts, latest turns). */
function RulePagesBeside({ agentId }: { agentId: string }) {
  const setSearch = useSetSearch();
  return (
    <details className="max-h-[30%] shrink-0 overflow-y-auto border-t border-zinc-200 px-3 py-1.5 dark:border-zinc-800">
      <summary className="cursor-pointer text-xs font-medium">Rules: how often each was evaluated</summary>
      <RuleLinks agentId={agentId} openRule={(rule) => setSearch({ view: 'rule', agent: agentId, rule })} />
    </details>
  );
}

/** The last suite run's coverage, folded under the editor (open it to see what the tests miss). */
function SuiteCoverageBeside({ agentId }: { agentId: string }) {
  return (
    <details className="max-h-[40%] shrink-0 overflow-y-auto border-t border-zinc-200 px-3 py-1.5 dark:border-zinc-800">
      <summary className="cursor-pointer text-xs font-medium">What the tests do not reach</summary>
      <CoveragePanel agentId={agentId} />
    </details>
  );
}

export function TestsTab({ taskId }: InspectorContext) {
  const threadAgent = useThreadsStore((s) => (taskId ? s.threads.get(taskId)?.agent_id : undefined));
  const lastAgent = useConnectionStore(selectAgentId);
  const setSearch = useSetSearch();
  return (
    <SuitesPanel
      agentId={threadAgent ?? lastAgent.trim()}
      onCompare={(a, b) => setSearch({ compare: formatComparePair(a, b), only: undefined })}
    />
  );
}

export function SaveAsTestTurnAction({ turn, ctx }: { turn: Turn; ctx: TurnActionContext }) {
  return <SaveAsTestAction turn={turn} taskId={ctx.taskId} />;
}

export function BranchesTab({ taskId, linkParent }: InspectorContext) {
  const setSearch = useSetSearch();
  return (
    <BranchTree
      taskId={taskId}
      linkParent={linkParent}
      onOpen={(task) =>
        setSearch({ task, turn: undefined, node: undefined, parent: undefined, fork: undefined })
      }
      onCompare={(a, b) => setSearch({ compare: formatComparePair(a, b) })}
    />
  );
}

export function CompareMainView({ search, setSearch }: MainViewProps) {
  return (
    <CompareMain
      pair={search.compare}
      onlyDifferences={search.only === 'differences'}
      onOnlyDifferences={(on) => setSearch({ only: on ? 'differences' : undefined }, true)}
      onPairChange={(compare) => setSearch({ compare, only: undefined })}
      onOpenTask={(task) =>
        setSearch({ task, turn: undefined, node: undefined, compare: undefined, only: undefined })
      }
    />
  );
}

/** A branch opens on its trace: what the rerun changed is what the user came to see. */
const branchOnTrace = (task: string, turnId: string) => ({
  task,
  turn: turnId,
  tab: 'trace' as const,
  node: undefined,
  compare: undefined,
  only: undefined,
  parent: undefined,
  fork: undefined,
});

export function RerunTurnAction({ turn, ctx }: { turn: Turn; ctx: TurnActionContext }) {
  const setSearch = useSetSearch();
  const opened = (task: string, turnId: string) => setSearch(branchOnTrace(task, turnId));
  return <RerunAction turn={turn} taskId={ctx.taskId} onOpened={opened} />;
}

/** A what-if opened as a branch: the rerun dialog with the message stating its values. */
export function WhatIfBranch(request: BranchRequest) {
  const setSearch = useSetSearch();
  const thread = useThreadsStore((s) => s.threads.get(request.taskId));
  const config = runConfigOf(thread);
  return (
    <LazyRerunDialog
      target={{
        taskId: request.taskId,
        interactionId: request.interactionId,
        originalText: request.originalText,
        ...(thread?.agent_id ? { agentId: thread.agent_id } : {}),
      }}
      turnNumber={request.turnNumber}
      threadConfig={config}
      // What the what-if ran with: the thread's own bundle, not a draft.
      defaultBundle={config.bundle_hash ? 'thread' : 'none'}
      initialText={request.text}
      notice={request.notice}
      onClose={request.onClose}
      onOpened={(task, turnId) => {
        request.onOpened();
        setSearch(branchOnTrace(task, turnId));
      }}
    />
  );
}

/** A what-if saved as a test case of the thread's agent. */
export function WhatIfTestAction(request: SaveAsTestRequest) {
  return <SaveWhatIfAsTest {...request} />;
}

export function RunsWith({ taskId }: { taskId: string }) {
  return <RunsWithControl taskId={taskId} />;
}
