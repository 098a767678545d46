/**
 * The branch tree as rows, from what it is given: the tree, each row's trace list and how to
 * name a thread. No queries here: the live tab (`BranchTree.tsx`) feeds it from the service and
 * this browser, a shared document feeds it from the file. Keyboard: ↑/↓/Home/End move, Enter
 * opens, Space picks for comparison; two picks → Compare.
 */
import { useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { Badge } from '../../components/ui/Badge';
import { Button } from '../../components/ui/Button';
import { cx, shortId, titleFrom } from '../../lib/format';
import { shortBundleHash } from '../../lib/short-hash';
import { DecisionBadge } from '../../components/DecisionBadge';
import {
  decisionsAlong,
  describeForkPoint,
  type ParentTraces,
  type TraceLike,
} from '../../domain/lineage/decisions';
import { flattenTree, textChanged, type BranchNode } from '../../domain/lineage/lineage';

/** One row's trace list as known: its traces when read, else loading or why it could not be read. */
export interface TraceListState extends ParentTraces {
  data?: readonly TraceLike[] | undefined;
}

export interface BranchTreeViewProps {
  tree: BranchNode;
  /** The thread in view (marked "open"). */
  taskId: string;
  /** The header's words about where the lineage comes from ("3 branches. …"). */
  status: string;
  traceLists: ReadonlyMap<string, TraceListState>;
  title: (taskId: string) => string;
  /** "Runs with …" under a row, when known. */
  runsWith?: ((taskId: string) => string | null) | undefined;
  /** What a branch's bundle changes, in words, after its change line (the live tab asks the service). */
  renderBundleChange?: ((node: BranchNode) => ReactNode) | undefined;
  onOpen: (taskId: string) => void;
  onCompare: (a: string, b: string) => void;
}

function changeOf(node: BranchNode): string {
  const r = node.record;
  if (!r) return 'original thread';
  if (r.from_link) return 'a branch (from the link: what changed is not known here)';
  const parts: string[] = [];
  if (textChanged(r)) parts.push(`text edited: “${titleFrom(r.edited_text, 60)}”`);
  else parts.push('same text');
  const short = shortBundleHash(r.bundle_hash);
  if (short) parts.push(`bundle #${short}`);
  if (r.version_id || r.version_tag)
    parts.push(`pinned to ${[r.version_id, r.version_tag].filter(Boolean).join(' / ')}`);
  return parts.join(' · ');
}

const UNKNOWN: TraceListState = { loading: true };

export function BranchTreeView({
  tree,
  taskId,
  status,
  traceLists,
  title,
  runsWith,
  renderBundleChange,
  onOpen,
  onCompare,
}: BranchTreeViewProps) {
  const rows = useMemo(() => flattenTree(tree), [tree]);
  const along = useMemo(
    () => decisionsAlong(tree, new Map(rows.map((r) => [r.task_id, traceLists.get(r.task_id)?.data]))),
    [tree, rows, traceLists],
  );
  const listOf = (id: string): ParentTraces => traceLists.get(id) ?? UNKNOWN;

  const [picked, setPicked] = useState<string[]>([]);
  const [focused, setFocused] = useState(0);
  const itemRefs = useRef<Array<HTMLLIElement | null>>([]);

  const togglePick = (id: string) =>
    setPicked((p) => (p.includes(id) ? p.filter((x) => x !== id) : [...p.slice(-1), id]));
  const focusRow = (i: number) => {
    const next = Math.max(0, Math.min(rows.length - 1, i));
    setFocused(next);
    itemRefs.current[next]?.focus();
  };
  const onKeyDown = (e: KeyboardEvent<HTMLLIElement>, i: number, node: BranchNode) => {
    if (e.target !== e.currentTarget) return;
    if (e.key === 'ArrowDown') focusRow(i + 1);
    else if (e.key === 'ArrowUp') focusRow(i - 1);
    else if (e.key === 'Home') focusRow(0);
    else if (e.key === 'End') focusRow(rows.length - 1);
    else if (e.key === 'Enter') onOpen(node.task_id);
    else if (e.key === ' ') togglePick(node.task_id);
    else return;
    e.preventDefault();
  };
  const [pa, pb] = picked;

  return (
    <section aria-label="Branches" className="flex h-full min-h-0 flex-col">
      <div className="flex items-center gap-2 border-b border-zinc-200 px-3 py-2 text-xs dark:border-zinc-800">
        <span className="text-zinc-600 dark:text-zinc-300">{status} Pick two to compare.</span>
        <Button
          size="sm"
          variant="primary"
          className="ml-auto"
          disabled={!pa || !pb}
          onClick={() => pa && pb && onCompare(pa, pb)}
        >
          Compare picked
        </Button>
      </div>
      <ul role="tree" aria-label="Branch tree" className="min-h-0 flex-1 overflow-y-auto py-1">
        {rows.map((node, i) => {
          const info = along.get(node.task_id);
          const current = node.task_id === taskId;
          const isPicked = picked.includes(node.task_id);
          const parentId = node.record?.parent_task_id;
          const runs = runsWith?.(node.task_id);
          return (
            <li
              key={node.task_id}
              ref={(el) => {
                itemRefs.current[i] = el;
              }}
              role="treeitem"
              aria-level={node.depth + 1}
              aria-selected={current}
              aria-expanded={node.children.length > 0 ? true : undefined}
              data-task-id={node.task_id}
              tabIndex={i === focused ? 0 : -1}
              onFocus={() => setFocused(i)}
              onKeyDown={(e) => onKeyDown(e, i, node)}
              onClick={(e) => {
                if ((e.target as HTMLElement).closest('button, input')) return;
                onOpen(node.task_id);
              }}
              style={{ paddingLeft: `${0.75 + node.depth * 1.25}rem` }}
              className={cx(
                'cursor-pointer border-l-2 py-1.5 pr-3 text-sm outline-none hover:bg-zinc-50 focus-visible:bg-indigo-50 dark:hover:bg-zinc-800 dark:focus-visible:bg-indigo-950',
                current ? 'border-indigo-500 bg-indigo-50/50 dark:bg-indigo-950/30' : 'border-transparent',
              )}
            >
              <div className="flex items-center gap-2">
                <input
                  type="checkbox"
                  tabIndex={-1}
                  aria-label={`Pick ${title(node.task_id)} for comparison`}
                  checked={isPicked}
                  onChange={() => togglePick(node.task_id)}
                  className="size-3.5 accent-indigo-600"
                />
                <span className="truncate font-medium">
                  {node.depth > 0 ? '↳ ' : ''}
                  {title(node.task_id)}
                </span>
                <span className="text-xs text-zinc-500">#{shortId(node.task_id)}</span>
                {current ? <Badge tone="info">open</Badge> : null}
                {parentId ? (
                  <button
                    type="button"
                    tabIndex={-1}
                    onClick={() => onCompare(parentId, node.task_id)}
                    className="ml-auto rounded px-1.5 py-0.5 text-xs text-indigo-700 hover:bg-indigo-50 dark:text-indigo-300 dark:hover:bg-indigo-950"
                  >
                    Compare with parent
                  </button>
                ) : null}
              </div>
              <p className="mt-0.5 text-xs text-zinc-600 dark:text-zinc-400">
                {node.record
                  ? `${describeForkPoint(info?.forkIndex ?? null, node.record.parent_interaction_id, listOf(node.record.parent_task_id))} · `
                  : ''}
                {changeOf(node)}
                {node.record?.bundle_hash ? renderBundleChange?.(node) : null}
              </p>
              {runs ? <p className="text-xs text-zinc-500 dark:text-zinc-400">Runs with {runs}</p> : null}
              {info && info.decisions.length > 0 ? (
                <ol aria-label="Decisions" className="mt-1 flex flex-wrap items-center gap-1">
                  {info.decisions.map((d, k) => (
                    <li key={k}>
                      <DecisionBadge decision={d} />
                    </li>
                  ))}
                </ol>
              ) : null}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
