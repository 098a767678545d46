/**
 * The live thread's family as a tree. Data flow: lineage (useLineage: the server's, else this
 * browser's and the link's) → buildBranchTree → each row's trace list (TanStack Query) →
 * BranchTreeView (rows, decisions after each fork point, picks for comparison).
 */
import { useQueries } from '@tanstack/react-query';
import { useMemo } from 'react';
import { toApiError } from '../../api/errors';
import { traceListQueryOptions, wholeThread } from '../../api/trace-list';
import { EmptyState } from '../../components/ui/EmptyState';
import { plural, shortId } from '../../lib/format';
import { useChangeFromOwn } from '../../domain/bundles/bundle-change';
import { describeRun, runConfigOf } from '../../domain/threads/run-config';
import { selectVersion, useThreadsStore } from '../../domain/threads/threads-store';
import { BranchTreeView, type TraceListState } from './BranchTreeView';
import { buildBranchTree, flattenTree } from '../../domain/lineage/lineage';
import { useLineage } from '../../domain/lineage/use-lineage';

export interface BranchTreeProps {
  /** The thread in view; its whole family is shown. */
  taskId: string | undefined;
  /** A branch's origin carried by a link, for servers that do not keep lineage. */
  linkParent?: { task_id: string; interaction_id: string } | undefined;
  onOpen: (taskId: string) => void;
  onCompare: (a: string, b: string) => void;
}

/** What a branch's bundle changes from the agent's own, in words (when the server offers that bundle). */
function BundleChange({ agentId, hash }: { agentId: string | undefined; hash: string }) {
  const change = useChangeFromOwn(agentId, { hash });
  if (change === undefined) return null;
  return <span>{change === null ? ' (the agent’s own bundle, unchanged)' : `: ${change}`}</span>;
}

const errorFacts = ({ status, title }: { status: number; title: string }) => ({ status, title });

export function BranchTree({ taskId, linkParent, onOpen, onCompare }: BranchTreeProps) {
  const lineage = useLineage(taskId, linkParent);
  const records = lineage.records;
  // Any thread's title or agent may be shown: redrawn when a record changes.
  useThreadsStore(selectVersion);
  const threads = useThreadsStore.getState().threads;
  const tree = useMemo(() => (taskId ? buildBranchTree(taskId, records) : null), [taskId, records]);
  const rows = useMemo(() => (tree ? flattenTree(tree) : []), [tree]);
  // combine's result is structurally shared: a new array only when some trace list changed.
  const lists = useQueries({
    queries: rows.map((r) => traceListQueryOptions(r.task_id)),
    combine: (results) =>
      results.map((q): TraceListState => ({
        // Where each branch forked is read from whole threads (a long thread's window is not one).
        data: wholeThread(q.data),
        loading: q.isPending,
        error: q.error ? errorFacts(toApiError(q.error)) : undefined,
      })),
  });
  const traceLists = useMemo(
    () => new Map(rows.map((r, i): [string, TraceListState] => [r.task_id, lists[i] ?? { loading: true }])),
    [rows, lists],
  );

  if (!taskId || !tree) {
    return (
      <EmptyState title="Branches">
        Open a thread to see its branches. “Rerun from here” on any turn makes one.
      </EmptyState>
    );
  }

  const status = `${
    lineage.source === 'pending'
      ? 'Loading the branches…'
      : rows.length === 1
        ? 'No branches yet.'
        : `${plural(rows.length - 1, 'branch', 'branches')}.`
  }${lineage.source === 'browser' ? ' (as recorded in this browser)' : ''}`;

  return (
    <BranchTreeView
      tree={tree}
      taskId={taskId}
      status={status}
      traceLists={traceLists}
      title={(id) => threads.get(id)?.title || lineage.titles.get(id) || `Thread ${shortId(id)}`}
      runsWith={(id) => {
        const t = threads.get(id);
        return t ? describeRun(t.agent_id, runConfigOf(t), t.version_id) : null;
      }}
      renderBundleChange={(node) => (
        <BundleChange
          agentId={threads.get(node.task_id)?.agent_id ?? threads.get(taskId)?.agent_id}
          hash={node.record!.bundle_hash!}
        />
      )}
      onOpen={onOpen}
      onCompare={onCompare}
    />
  );
}
