/**
 * A shared document, read-only: the same chat list and inspector (trace graph) as the live
 * workspace, fed from the document instead of the service; a document holding a thread and its
 * branches also shows the branch tree and opens the comparison of any two of them. No request
 * leaves: nothing here reads the connection or the API. Composer and rerun are shown disabled.
 */
import { useCallback, useMemo, useState, type ReactNode } from 'react';
import { Brand } from '../../components/ui/Brand';
import { Button } from '../../components/ui/Button';
import { inputClass } from '../../components/ui/Field';
import { formatRelative, plural, toPrettyJson } from '../../lib/format';
import { shortBundleHash } from '../../lib/short-hash';
import { BranchTreeView } from '../../features/branches';
import { buildBranchTree, flattenTree } from '../../domain/lineage/lineage';
import { MessageList } from '../../features/chat';
import { type Turn } from '../../domain/transcript/transcript';
import { useRegisterActions, type Action } from '../../domain/commands/registry';
import {
  CompareLayout,
  formatComparePair,
  parseComparePair,
  SideSummary,
  type ComparePair,
} from '../../features/compare';
import { describeDocument, fileSlug, toChatTurns } from '../../features/share/build';
import type { ShareDocument } from '../../features/share/document';
import {
  documentCompareSide,
  documentTraceLists,
  documentTree,
  documentTreeStatus,
  threadTitle,
} from './family';
import { downloadText } from '../../features/share/files';

/** What the inspector receives (the same shape as the workspace's inspector context). */
export interface SnapshotInspectorContext {
  taskId: string | undefined;
  turns: Turn[];
  turn: Turn | undefined;
  nodeId: string | undefined;
  selectNode: (nodeId: string | undefined) => void;
  selectTurn: (turnId: string) => void;
  isLoading: boolean;
}

export interface SnapshotViewProps {
  doc: ShareDocument;
  /** Back to the app; a one-file snapshot, which is all there is, has none. */
  onClose?: (() => void) | undefined;
  renderInspector: (ctx: SnapshotInspectorContext) => ReactNode;
}

const noop = () => {};

function threadOptions(doc: ShareDocument): Array<{ id: string; label: string }> {
  const titles = new Map(doc.threads.map((t) => [t.id, t.title || `Thread ${t.id}`]));
  const placed = new Set<string>();
  const out: Array<{ id: string; label: string }> = [];
  for (const t of doc.threads) {
    if (placed.has(t.id)) continue;
    for (const n of flattenTree(buildBranchTree(t.id, doc.lineage))) {
      if (placed.has(n.task_id) || !titles.has(n.task_id)) continue;
      placed.add(n.task_id);
      const how = n.record ? ` (rerun of turn: “${n.record.edited_text.slice(0, 40)}”)` : '';
      out.push({ id: n.task_id, label: `${'— '.repeat(n.depth)}${titles.get(n.task_id)}${how}` });
    }
  }
  return out;
}

export default function SnapshotView({ doc, onClose, renderInspector }: SnapshotViewProps) {
  const [taskId, setTaskId] = useState(doc.focus.task);
  const [selection, setSelection] = useState<{ turn?: string | undefined; node?: string | undefined }>({
    turn: doc.focus.turn,
    node: doc.focus.node,
  });
  const thread = doc.threads.find((t) => t.id === taskId) ?? doc.threads[0]!;
  const turns = useMemo(() => toChatTurns(thread), [thread]);
  // Suggestions are not clickable in a read-only copy: the list shows none.
  const listTurns = useMemo(() => turns.map((t) => ({ ...t, suggestions: [] })), [turns]);
  const turn = (selection.turn ? turns.find((t) => t.id === selection.turn) : undefined) ?? turns.at(-1);
  const facts = describeDocument(doc);
  const [showBundle, setShowBundle] = useState(false);
  const options = useMemo(() => threadOptions(doc), [doc]);
  const tree = useMemo(() => documentTree(doc, thread.id), [doc, thread.id]);
  const traceLists = useMemo(() => documentTraceLists(doc), [doc]);
  const [compare, setCompare] = useState<ComparePair | null>(null);
  const [onlyDifferences, setOnlyDifferences] = useState(false);
  const openThread = (id: string) => {
    setTaskId(id);
    setSelection({});
    setCompare(null);
  };
  const openCompare = (a: string, b: string) => {
    setCompare(parseComparePair(formatComparePair(a, b)));
    setShowBundle(false);
  };

  // Picking a turn shows its trace (leaving the bundle, if it was open).
  const selectTurn = useCallback(
    (id: string) => {
      setSelection({ turn: id, node: undefined });
      setShowBundle(false);
    },
    [setShowBundle],
  );
  const selectNode = useCallback(
    (node: string | undefined) => setSelection((s) => ({ turn: s.turn ?? turn?.id, node })),
    [turn?.id],
  );

  const download = useCallback(
    () =>
      downloadText(
        `threadline-${fileSlug(thread.title, thread.id)}-snapshot.json`,
        JSON.stringify(doc, null, 2),
        'application/json',
      ),
    [doc, thread.title, thread.id],
  );

  const index = turn ? turns.indexOf(turn) : -1;
  const actions = useMemo<Action[]>(
    () => [
      {
        id: 'turn.next',
        title: 'Next turn',
        group: 'Navigate',
        shortcut: 'j',
        enabled: index < turns.length - 1,
        run: () => selectTurn(turns[index + 1]!.id),
      },
      {
        id: 'turn.previous',
        title: 'Previous turn',
        group: 'Navigate',
        shortcut: 'k',
        enabled: index > 0,
        run: () => selectTurn(turns[index - 1]!.id),
      },
      { id: 'snapshot.download', title: 'Download this snapshot as a file', group: 'Share', run: download },
      ...(onClose
        ? [{ id: 'snapshot.close', title: 'Close the snapshot', group: 'View' as const, run: onClose }]
        : []),
    ],
    [index, turns, selectTurn, onClose, download],
  );
  useRegisterActions('snapshot', actions);

  const welcome = thread.welcome_message ? { text: thread.welcome_message, suggestions: [] } : undefined;
  const label = doc.kind === 'export' ? 'Exported file, read-only' : 'Snapshot, read-only';

  return (
    <div className="flex h-dvh flex-col bg-zinc-50 text-zinc-900 dark:bg-zinc-950 dark:text-zinc-100">
      <header className="flex h-11 shrink-0 items-center gap-3 border-b border-zinc-200 bg-white px-3 dark:border-zinc-800 dark:bg-zinc-900">
        <Brand />
        <p
          role="note"
          className="shrink-0 rounded-full whitespace-nowrap border border-amber-300 bg-amber-50 px-2.5 py-0.5 text-xs font-semibold text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
        >
          {label}
        </p>
        <span
          className="truncate text-xs text-zinc-500 dark:text-zinc-400"
          title={doc.masked.length ? `Masked: ${doc.masked.join(', ')}` : undefined}
        >
          {plural(facts.turns, 'turn')} · made {formatRelative(doc.created_at)}
          {doc.masked.length ? ` · ${plural(doc.masked.length, 'masked field')}` : ''}
          {doc.bundle ? ' · with bundle' : ''}
        </span>
        <div className="ml-auto flex shrink-0 items-center gap-1 whitespace-nowrap">
          {doc.bundle ? (
            <Button
              size="sm"
              variant="ghost"
              aria-pressed={showBundle}
              onClick={() => setShowBundle((v) => !v)}
            >
              Bundle
            </Button>
          ) : null}
          <Button size="sm" variant="ghost" onClick={download}>
            Download file
          </Button>
          {onClose ? (
            <Button size="sm" variant="ghost" onClick={onClose}>
              Close snapshot
            </Button>
          ) : null}
        </div>
      </header>
      {compare ? (
        <main className="min-h-0 flex-1">
          <DocumentCompare
            doc={doc}
            pair={compare}
            onlyDifferences={onlyDifferences}
            onOnlyDifferences={setOnlyDifferences}
            onPairChange={(value) => setCompare(parseComparePair(value))}
            onOpenTask={openThread}
          />
        </main>
      ) : (
        <main className="grid min-h-0 flex-1 grid-cols-1 md:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
          <section
            aria-label="Chat"
            className="flex min-h-0 flex-col border-r border-zinc-200 dark:border-zinc-800"
          >
            <header className="flex items-center gap-2 border-b border-zinc-200 px-4 py-2 dark:border-zinc-800">
              {options.length > 1 ? (
                <select
                  aria-label="Thread"
                  className={inputClass('h-8 w-full text-sm')}
                  value={thread.id}
                  onChange={(e) => openThread(e.target.value)}
                >
                  {options.map((o) => (
                    <option key={o.id} value={o.id}>
                      {o.label}
                    </option>
                  ))}
                </select>
              ) : (
                <h2 className="truncate text-sm font-semibold">{thread.title || `Thread ${thread.id}`}</h2>
              )}
              {thread.agent_id ? (
                <span className="truncate text-xs text-zinc-500 dark:text-zinc-400">· {thread.agent_id}</span>
              ) : null}
            </header>
            {tree ? (
              <details
                open
                className="max-h-[40%] shrink-0 overflow-y-auto border-b border-zinc-200 dark:border-zinc-800"
              >
                <summary className="cursor-pointer px-4 py-1.5 text-xs font-medium">Branches</summary>
                <BranchTreeView
                  tree={tree}
                  taskId={thread.id}
                  status={documentTreeStatus(tree)}
                  traceLists={traceLists}
                  title={(id) =>
                    threadTitle(
                      doc.threads.find((t) => t.id === id),
                      id,
                    )
                  }
                  onOpen={openThread}
                  onCompare={openCompare}
                />
              </details>
            ) : null}
            <div className="min-h-0 flex-1">
              <MessageList
                welcome={welcome}
                turns={listTurns}
                outbox={[]}
                selectedTurnId={turn?.id}
                onSelectTurn={selectTurn}
                onSend={noop}
                onRetry={noop}
                onDiscard={noop}
                renderTurnActions={(t) => (
                  <button
                    type="button"
                    disabled
                    aria-label={`Rerun from here (turn ${t.index + 1})`}
                    title="A snapshot is read-only"
                    className="rounded px-1.5 py-0.5 opacity-50"
                  >
                    Rerun from here
                  </button>
                )}
              />
            </div>
            <form
              className="flex items-end gap-2 border-t border-zinc-200 p-3 dark:border-zinc-800"
              onSubmit={(e) => e.preventDefault()}
            >
              <textarea
                aria-label="Message"
                disabled
                rows={2}
                placeholder="Read-only: a snapshot cannot send messages."
                className="min-h-[2.75rem] w-full flex-1 resize-none rounded-md border border-zinc-300 bg-zinc-100 px-3 py-2 text-sm dark:border-zinc-700 dark:bg-zinc-900"
              />
              <Button type="submit" variant="primary" disabled>
                Send
              </Button>
            </form>
          </section>
          <div className="min-h-0 bg-white dark:bg-zinc-900">
            {showBundle && doc.bundle ? (
              <BundleJson bundle={doc.bundle} onBack={() => setShowBundle(false)} />
            ) : (
              renderInspector({
                taskId: thread.id,
                turns,
                turn,
                nodeId: selection.node,
                selectNode,
                selectTurn,
                isLoading: false,
              })
            )}
          </div>
        </main>
      )}
    </div>
  );
}

/** Two threads of the document side by side; the bundles each ran with, as far as the file says. */
function DocumentCompare({
  doc,
  pair,
  ...rest
}: {
  doc: ShareDocument;
  pair: ComparePair;
  onlyDifferences: boolean;
  onOnlyDifferences: (on: boolean) => void;
  onPairChange: (pair: string | undefined) => void;
  onOpenTask: (taskId: string) => void;
}) {
  const a = useMemo(() => documentCompareSide(doc, pair.a), [doc, pair.a]);
  const b = useMemo(() => documentCompareSide(doc, pair.b), [doc, pair.b]);
  if (!a || !b) return null;
  return (
    <CompareLayout
      pair={pair}
      a={a}
      b={b}
      bundles={
        <section aria-label="Bundles used" className="flex flex-col gap-2">
          <h3 className="text-sm font-semibold">Bundles used</h3>
          <ul className="text-xs text-zinc-600 dark:text-zinc-400">
            <SideSummary side={{ label: 'A', turns: a.turns }} />
            <SideSummary side={{ label: 'B', turns: b.turns }} />
          </ul>
          <p className="text-xs text-zinc-500">
            A file holds at most one bundle, so the bundles are not diffed here; the live comparison diffs
            them.
          </p>
        </section>
      }
      {...rest}
    />
  );
}

/** The bundle the snapshot carries, read-only, as formatted JSON. */
function BundleJson({
  bundle,
  onBack,
}: {
  bundle: NonNullable<ShareDocument['bundle']>;
  onBack: () => void;
}) {
  const text = useMemo(() => toPrettyJson(bundle.json), [bundle.json]);
  return (
    <section aria-label="Bundle" className="flex h-full min-h-0 flex-col">
      <div className="flex items-center gap-2 border-b border-zinc-200 px-3 py-2 text-xs text-zinc-600 dark:border-zinc-800 dark:text-zinc-300">
        <Button size="sm" onClick={onBack}>
          ← Back to the trace
        </Button>
        <p>
          The bundle this snapshot was made with{bundle.hash ? ` (#${shortBundleHash(bundle.hash)})` : ''},
          read-only.
        </p>
      </div>
      <pre
        tabIndex={0}
        aria-label="Bundle JSON"
        className="min-h-0 flex-1 overflow-auto bg-zinc-50 px-3 py-2 font-mono text-xs dark:bg-zinc-950"
      >
        {text}
      </pre>
    </section>
  );
}
