/**
 * "Share": the trace link (identifiers only), a snapshot link (the thread, its traces and
 * optionally its bundle in the URL fragment, with values masked as chosen) and files (the thread
 * and its branches as JSON or as one self-contained HTML file, the transcript as Markdown). The
 * user sees what a share contains before it is made.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useMemo, useState } from 'react';
import { Button } from '../../components/ui/Button';
import { inputClass } from '../../components/ui/Field';
import { usePassingStatus } from '../../components/ui/use-passing-status';
import { plural } from '../../lib/format';
import { Modal } from '../../components/ui/Modal';
import { useLineage } from '../../domain/lineage/use-lineage';
import { wholeThread } from '../../api/trace-list';
import { useTranscript } from '../../domain/transcript/use-transcript';
import { useConnectionStore } from '../../domain/connection/connection-store';
import { useThreadsStore } from '../../domain/threads/threads-store';
import { buildShareDocument, describeDocument, fileSlug } from './build';
import { buildSnapshotLink, SNAPSHOT_LINK_LIMIT, type SnapshotLink } from './codec';
import { collectThreads, familyOf, shareBundleQueryOptions } from './collect';
import type { ShareDocument } from './document';
import { copyText, downloadText } from './files';
import { buildTraceLink } from './links';
import { maskCandidates, maskDocument, type MaskCandidate } from './mask';
import { buildOneFileSnapshot } from './one-file';
import { transcriptMarkdown } from './markdown';
import type { ShareTarget } from './share-target';
import { shareView } from './share-view';

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const sectionClass =
  'flex flex-col gap-2 border-b border-zinc-200 px-4 py-3 last:border-0 dark:border-zinc-800';

function useTraceLink({ taskId, turnId, nodeId, view }: ShareTarget): string {
  const baseUrl = useConnectionStore((s) => s.baseUrl);
  return buildTraceLink(location.href, {
    ...view,
    task: taskId,
    turn: turnId,
    node: nodeId,
    server: baseUrl,
  });
}

function CopyField({ label, value }: { label: string; value: string }) {
  const id = useId();
  const [status, setStatus] = usePassingStatus();
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-xs font-medium text-zinc-600 dark:text-zinc-300">
        {label}
      </label>
      <div className="flex gap-2">
        <input
          id={id}
          readOnly
          value={value}
          className={inputClass('h-9 w-full font-mono text-xs')}
          onFocus={(e) => e.target.select()}
        />
        <Button
          size="md"
          onClick={() =>
            void copyText(value).then((ok) =>
              setStatus(
                ok
                  ? 'Copied to the clipboard.'
                  : 'The clipboard is not available here: select the text and copy it.',
              ),
            )
          }
          aria-label={`Copy ${label.toLowerCase()}`}
        >
          Copy
        </Button>
      </div>
      <p role="status" className="text-xs text-zinc-600 empty:hidden dark:text-zinc-400">
        {status}
      </p>
    </div>
  );
}

function MaskList({
  candidates,
  chosen,
  onChange,
}: {
  candidates: MaskCandidate[];
  chosen: Set<string>;
  onChange: (next: Set<string>) => void;
}) {
  if (candidates.length === 0)
    return (
      <p className="text-xs text-zinc-500 dark:text-zinc-400">
        This thread's traces hold no entity or parameter values.
      </p>
    );
  const all = candidates.every((c) => chosen.has(c.value));
  return (
    <fieldset className="flex flex-col gap-1">
      <legend className="text-xs font-medium text-zinc-600 dark:text-zinc-300">
        Mask values (replaced everywhere: traces, rules, messages)
      </legend>
      <label className="flex items-center gap-2 text-sm">
        <input
          type="checkbox"
          checked={all}
          onChange={() => onChange(all ? new Set() : new Set(candidates.map((c) => c.value)))}
        />
        Mask all values
      </label>
      <ul className="max-h-40 overflow-y-auto rounded border border-zinc-200 p-1 dark:border-zinc-800">
        {candidates.map((c) => (
          <li key={c.value}>
            <label className="flex items-baseline gap-2 px-1 py-0.5 text-sm">
              <input
                type="checkbox"
                aria-label={`Mask ${c.fields[0] ?? c.name}`}
                checked={chosen.has(c.value)}
                onChange={() => {
                  const next = new Set(chosen);
                  if (next.has(c.value)) next.delete(c.value);
                  else next.add(c.value);
                  onChange(next);
                }}
              />
              <span className="font-mono text-xs">{c.fields.join(', ')}</span>
              <span className="truncate text-zinc-500 dark:text-zinc-400">
                = {chosen.has(c.value) ? `‹${c.name}›` : c.value}
              </span>
            </label>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}

function ShareBody({ target }: { target: ShareTarget }) {
  const { taskId, turnId, nodeId } = target;
  const queryClient = useQueryClient();
  const record = useThreadsStore((s) => s.threads.get(taskId));
  const transcript = useTranscript(taskId);
  // The export carries the family as the server keeps it, else as this browser recorded it.
  const { records: lineage } = useLineage(taskId);
  const traceLink = useTraceLink(target);

  // Only part of a long thread is held: the link (made from what is held) is not offered.
  const partial = transcript.window !== undefined && wholeThread(transcript.window) === undefined;
  const hashes = useMemo(() => transcript.turns.map((t) => t.bundleHash ?? null), [transcript.turns]);
  const agentId = record?.agent_id || undefined;
  const versionId = record?.version_id || undefined;
  const bundle = useQuery(shareBundleQueryOptions(taskId, hashes, agentId, versionId));
  const [includeBundle, setIncludeBundle] = useState(false);
  const [chosen, setChosen] = useState<Set<string>>(() => new Set());
  const [snapshot, setSnapshot] = useState<{
    link: SnapshotLink;
    doc: ShareDocument;
    copied: boolean;
  } | null>(null);
  const [fileStatus, setFileStatus] = useState<string | null>(null);

  const bundleChoice = includeBundle ? (bundle.data ?? undefined) : undefined;
  const base = useMemo(
    () =>
      buildShareDocument({
        kind: 'snapshot',
        focus: { task: taskId, turn: turnId, node: nodeId },
        threads: [{ id: taskId, record, turns: transcript.turns }],
        bundle: bundleChoice ? { hash: bundleChoice.hash, json: bundleChoice.json } : undefined,
      }),
    [taskId, turnId, nodeId, record, transcript.turns, bundleChoice],
  );
  const candidates = useMemo(() => maskCandidates(base), [base]);
  const chosenCandidates = useMemo(() => candidates.filter((c) => chosen.has(c.value)), [candidates, chosen]);
  const facts = describeDocument(base);
  const slug = fileSlug(record?.title ?? '', taskId);

  const createSnapshot = async () => {
    const doc = maskDocument(base, chosenCandidates);
    const link = buildSnapshotLink(location.href, doc);
    const copied = link.ok ? await copyText(link.url) : false;
    setSnapshot({ link, doc, copied });
  };

  /** Gathers the thread and its branches, makes a file of them (masked as chosen), and says what it holds. */
  const exportFile = async (
    kind: ShareDocument['kind'],
    write: (doc: ShareDocument) => Promise<void> | void,
  ) => {
    setFileStatus('Gathering the thread and its branches…');
    try {
      const ids = familyOf(taskId, lineage);
      const threads = await collectThreads(queryClient, ids, useThreadsStore.getState().threads);
      const doc = buildShareDocument({
        kind,
        focus: { task: taskId, turn: turnId, node: nodeId },
        threads,
        lineage,
        bundle: bundleChoice ? { hash: bundleChoice.hash, json: bundleChoice.json } : undefined,
      });
      const masked = maskDocument(doc, chosenCandidates);
      await write(masked);
      setFileStatus(
        `Exported ${plural(masked.threads.length, 'thread')} (${plural(
          masked.threads.reduce((n, t) => n + t.turns.length, 0),
          'turn',
        )}).`,
      );
    } catch (e) {
      setFileStatus(`The export failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  };
  const exportJson = () =>
    exportFile('export', (doc) =>
      downloadText(`threadline-${slug}.json`, JSON.stringify(doc, null, 2), 'application/json'),
    );
  const exportHtml = () =>
    exportFile('snapshot', async (doc) =>
      downloadText(`threadline-${slug}.html`, await buildOneFileSnapshot(doc), 'text/html'),
    );

  const exportMarkdown = () => {
    const doc = maskDocument(base, chosenCandidates);
    const thread = doc.threads[0]!;
    downloadText(
      `threadline-${slug}.md`,
      transcriptMarkdown(thread, { exportedAt: doc.created_at, masked: doc.masked }),
      'text/markdown',
    );
    setFileStatus('Exported the transcript as Markdown.');
  };

  const familySize = familyOf(taskId, lineage).length;

  return (
    <div className="max-h-[80vh] overflow-y-auto">
      <section aria-labelledby="share-link-h" className={sectionClass}>
        <h3 id="share-link-h" className="text-sm font-semibold">
          Trace link
        </h3>
        <p className="text-xs text-zinc-600 dark:text-zinc-400">
          Opens this thread, turn and node for someone with access to the same service. It carries identifiers
          only; they use their own key.
        </p>
        <CopyField label="Trace link" value={traceLink} />
      </section>

      <section aria-labelledby="share-snapshot-h" className={sectionClass}>
        <h3 id="share-snapshot-h" className="text-sm font-semibold">
          Snapshot link
        </h3>
        <p className="text-xs text-zinc-600 dark:text-zinc-400">
          A read-only copy inside the link itself (after the #, which browsers never send to a server). It
          opens without a key, on any page of this app (the service, or the built app served by anything).
          Anyone with the link can read it.
        </p>
        <p className="text-sm" aria-label="Snapshot contents">
          Contains: {plural(facts.turns, 'turn')} with messages, {plural(facts.traces, 'trace')}
          {record?.title ? `, the title “${record.title}”` : ''}
          {facts.bundle ? ', the bundle' : ''}. Never your key or connection settings.
        </p>
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            checked={includeBundle}
            disabled={!bundle.data}
            onChange={(e) => setIncludeBundle(e.target.checked)}
          />
          Include the bundle
          <span className="text-xs text-zinc-500 dark:text-zinc-400">
            {bundle.isPending
              ? '(looking for it…)'
              : bundle.data
                ? `(${bundle.data.source})`
                : '(none available)'}
          </span>
        </label>
        <MaskList candidates={candidates} chosen={chosen} onChange={setChosen} />
        <div>
          <Button
            variant="primary"
            onClick={() => void createSnapshot()}
            disabled={transcript.isLoading || partial}
          >
            Create snapshot link
          </Button>
        </div>
        {partial ? (
          // A link carries the turns held; a long thread's are only some of them: never a part as the whole.
          <p className="text-xs text-zinc-600 dark:text-zinc-400">
            This thread is long ({transcript.total.toLocaleString('en-US')} turns): a snapshot link cannot
            hold it. Export a file instead, which fetches every turn.
          </p>
        ) : null}
        {snapshot?.link.ok ? (
          <>
            <CopyField label="Snapshot link" value={snapshot.link.url} />
            <p role="status" className="text-xs text-zinc-600 dark:text-zinc-400">
              {snapshot.copied ? 'Snapshot link copied. ' : ''}
              {kb(snapshot.link.length)} of {kb(SNAPSHOT_LINK_LIMIT)}
              {snapshot.doc.masked.length ? ` · masked: ${snapshot.doc.masked.join(', ')}` : ''}
            </p>
          </>
        ) : snapshot ? (
          <div
            role="alert"
            className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950/50 dark:text-amber-100"
          >
            <p>
              This snapshot is too large for a link: {kb(snapshot.link.length)} compressed, and links are
              limited to {kb(SNAPSHOT_LINK_LIMIT)} (longer ones get cut by chat apps and mail). Share it as a
              file instead: it opens read-only in the same way.
            </p>
            <Button
              className="mt-2"
              onClick={() =>
                downloadText(
                  `threadline-${slug}-snapshot.json`,
                  JSON.stringify(snapshot.doc, null, 2),
                  'application/json',
                )
              }
            >
              Download the snapshot file
            </Button>
          </div>
        ) : null}
      </section>

      <section aria-labelledby="share-files-h" className={sectionClass}>
        <h3 id="share-files-h" className="text-sm font-semibold">
          Files
        </h3>
        <p className="text-xs text-zinc-600 dark:text-zinc-400">
          The JSON holds{' '}
          {familySize > 1 ? `this thread and its branches (${familySize} threads)` : 'this thread'} with
          traces and lineage; re-import it with Import (or drop it on the window) to read it here. The HTML
          file holds the same, read-only, with the viewer inside: it opens from disk in a browser, with no
          service and nothing fetched. Masked values above are masked in files too.
        </p>
        <div className="flex flex-wrap gap-2">
          <Button onClick={() => void exportJson()}>Export JSON</Button>
          <Button onClick={() => void exportHtml()}>Download as one HTML file</Button>
          <Button onClick={exportMarkdown}>Export transcript (Markdown)</Button>
        </div>
        {fileStatus ? (
          <p role="status" className="text-xs text-zinc-600 dark:text-zinc-400">
            {fileStatus}
          </p>
        ) : null}
      </section>
    </div>
  );
}

export default function ShareDialog({ target }: { target: ShareTarget | undefined }) {
  const open = shareView.useView((s) => s.dialogOpen);
  const close = shareView.useView((s) => s.closeDialog);
  return (
    <Modal
      open={open && Boolean(target)}
      onClose={close}
      label="Share this thread"
      className="w-[min(44rem,calc(100vw-2rem))]"
    >
      <div className="flex items-center justify-between border-b border-zinc-200 px-4 py-3 dark:border-zinc-800">
        <h2 className="text-sm font-semibold">Share this thread</h2>
        <Button size="sm" variant="ghost" onClick={close}>
          Close
        </Button>
      </div>
      {target ? <ShareBody target={target} /> : null}
    </Modal>
  );
}
