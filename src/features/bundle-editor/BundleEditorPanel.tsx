/**
 * The bundle editor panel: the agent whose draft is edited (the open thread's agent; any agent
 * when no thread is open), the Monaco editor (or the diff against the baseline), import / export
 * / reset, and the problems. Which bundle a thread runs with is the thread's choice: the caller
 * puts that control in `threadControls`. Monaco itself is loaded lazily on first show.
 */
import { useQuery } from '@tanstack/react-query';
import {
  lazy,
  Suspense,
  useCallback,
  useDeferredValue,
  useMemo,
  useRef,
  useState,
  type DragEvent,
  type ReactNode,
} from 'react';
import { useAgentBundle } from '../../api/agent-bundle';
import { agentsQueryOptions } from '../../api/agents';
import { toApiError } from '../../api/errors';
import { Button } from '../../components/ui/Button';
import { inputClass } from '../../components/ui/Field';
import { Spinner } from '../../components/ui/Spinner';
import { cx, plural } from '../../lib/format';
import { bundleText } from '../../domain/bundles/analysis';
import { useDraftAnalysis } from '../../domain/bundles/analysis-runner';
import {
  selectDrafts,
  selectHydrated,
  selectServerIssues,
  useBundleDraftStore,
} from '../../domain/bundles/draft-store';
import { exportFileName, importFiles, type ImportResult } from '../../domain/bundles/import-files';
import { blockingProblems, problemsOf, markerProblems, type Problem } from './markers';
import { useDraftLint, type DraftLint } from '../../domain/bundles/lint-runner';
import { LazyEditChanges, LazyFindingWitness } from './lazy-views';
import { LazyVersionActions } from './lazy-version-actions';
import type { OpenWitnessThread } from './witness-thread';
import type { Witness } from '../../contract/analysis';
import type { EditorHandle } from './monaco/MonacoBundleEditor';
import { ProblemsList } from './ProblemsList';
import { readDataTransfer, readFileList } from '../../domain/bundles/read-files';
import { useDarkClass as useDarkMode } from '../../components/ui/use-dark';
import { useServerDraftSync } from './server-draft';
import { ownValue } from '../../lib/own-records';
import { lazyComponent } from '../../components/ui/lazy-component';

const MonacoBundleEditor = lazyComponent(() => import('./monaco/MonacoBundleEditor'));
/** Loads the editor's code (and Monaco) ahead of the first showing, which then does not suspend. */
export const preloadBundleEditor = MonacoBundleEditor.preload;
const MonacoBundleDiff = lazy(() => import('../../components/monaco/MonacoBundleDiff'));

export interface BundleEditorPanelProps {
  /** The agent whose draft is edited. */
  agentId: string;
  /** Given when the editor may switch agents (no thread open): an agent picker is shown. */
  onAgentChange?: ((agentId: string) => void) | undefined;
  /** False while the service cannot be asked (no API key yet): no baseline, no agent list. */
  canFetch?: boolean;
  /** The open thread's "runs with" controls, shown in the toolbar. */
  threadControls?: ReactNode;
  /** What the draft changes in the saved cases, shown under the toolbar. */
  impact?: ReactNode;
  /** Opens a witness conversation as a new thread (the app's new-thread and send flow). */
  onOpenAsThread?: OpenWitnessThread | undefined;
}

type Notice = { tone: 'ok' | 'error'; text: string } | null;

function download(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

function describeImport(r: Extract<ImportResult, { ok: true }>): string {
  const what =
    r.kind === 'project'
      ? `Imported the agent project (${plural(r.fileCount, 'file')})`
      : 'Imported the bundle file';
  const warnings = r.issues.filter((i) => i.severity === 'warning');
  return warnings.length ? `${what}; ${warnings.map((w) => w.message).join(' ')}` : `${what}.`;
}

export function BundleEditorPanel({
  agentId,
  onAgentChange,
  canFetch = true,
  threadControls,
  impact,
  onOpenAsThread,
}: BundleEditorPanelProps) {
  const drafts = useBundleDraftStore(selectDrafts);
  const hydrated = useBundleDraftStore(selectHydrated);
  const serverIssues = useBundleDraftStore(selectServerIssues);
  const { setDraft, resetDraft } = useBundleDraftStore.getState();
  const agents = useQuery({ ...agentsQueryOptions(), enabled: canFetch });
  // The baseline comes from the reference helpers: asked only when they answer for this key.
  const helpers = agents.isSuccess && agents.data !== null;
  const noBaselineHere = canFetch && agents.isSuccess && agents.data === null;
  const baseline = useAgentBundle(canFetch && helpers && agentId ? agentId : undefined);
  const loadingBaseline = (agents.isLoading || baseline.isLoading) && canFetch;
  const dark = useDarkMode();

  const baselineText = useMemo(
    () => (baseline.data ? bundleText(baseline.data.bundle) : null),
    [baseline.data],
  );
  const draft = ownValue(drafts, agentId);
  const text = draft ?? baselineText ?? '';
  const deferredText = useDeferredValue(text);
  const analysis = useDraftAnalysis(deferredText);
  // A draft that validates is linted too, in a worker of its own (latest text wins).
  const lint = useDraftLint(
    analysis.kind === 'parsed' && analysis.errors === 0 ? deferredText : null,
    agentId,
  );
  const problems = useMemo(
    () =>
      problemsOf(
        deferredText,
        analysis,
        serverIssues && serverIssues.agentId === agentId && serverIssues.text === deferredText
          ? serverIssues.issues
          : null,
        lint,
      ),
    [deferredText, analysis, serverIssues, agentId, lint],
  );
  const markers = useMemo(() => markerProblems(problems), [problems]);
  const blocking = blockingProblems(problems);
  const errors = blocking.filter((p) => p.severity === 'error').length;
  const warnings = blocking.filter((p) => p.severity === 'warning').length;
  const witnessView = useCallback(
    (p: Problem, witness: Witness) => (
      <LazyFindingWitness
        agentId={agentId}
        headText={deferredText}
        witness={witness}
        name={`${p.code}: ${p.lint?.rule ?? p.lint?.tool ?? p.message}`}
        description={p.message}
        onOpenAsThread={onOpenAsThread}
      />
    ),
    [agentId, deferredText, onOpenAsThread],
  );

  const [showDiff, setShowDiff] = useState(false);
  const [ready, setReady] = useState(false);
  const [notice, setNotice] = useState<Notice>(null);
  const [undo, setUndo] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const handleRef = useRef<EditorHandle | null>(null);
  const pendingJump = useRef<Problem | null>(null);
  const folderInput = useRef<HTMLInputElement | null>(null);
  const fileInput = useRef<HTMLInputElement | null>(null);

  const onChange = useCallback((next: string) => setDraft(agentId, next), [agentId, setDraft]);

  const onReady = useCallback(() => {
    setReady(true);
    const jump = pendingJump.current;
    pendingJump.current = null;
    if (jump) handleRef.current?.reveal(jump);
  }, []);

  const onJump = useCallback(
    (p: Problem) => {
      if (handleRef.current && !showDiff) handleRef.current.reveal(p);
      else {
        pendingJump.current = p;
        setShowDiff(false);
      }
    },
    [showDiff, setShowDiff],
  );

  const applyImport = (r: ImportResult) => {
    if (!r.ok) {
      setNotice({ tone: 'error', text: r.message });
      return;
    }
    setUndo(text);
    setDraft(agentId, r.text);
    setNotice({ tone: 'ok', text: describeImport(r) });
  };

  const onPicked = async (list: FileList | null) => {
    if (!list || list.length === 0) return;
    applyImport(importFiles(await readFileList(list)));
  };

  const onDrop = async (e: DragEvent<HTMLDivElement>) => {
    e.preventDefault();
    setDragging(false);
    applyImport(importFiles(await readDataTransfer(e.dataTransfer)));
  };

  const onReset = () => {
    if (draft === undefined) return;
    setUndo(draft);
    resetDraft(agentId);
    setNotice({ tone: 'ok', text: 'The draft was reset to the baseline.' });
  };

  const onUndo = () => {
    if (undo === null) return;
    setDraft(agentId, undo);
    setUndo(null);
    setNotice(null);
  };

  const onFormat = () => {
    if (analysis.kind === 'parsed') setDraft(agentId, bundleText(analysis.doc));
    else handleRef.current?.format();
  };

  const baselineError = baseline.error
    ? toApiError(baseline.error)
    : agents.error
      ? toApiError(agents.error)
      : null;
  const sameAsBaseline = baselineText !== null && text === baselineText;
  const agentList = agents.data;
  // An agent created on the reference service: its draft is kept there too, and it is published here.
  const created = agentList?.find((a) => a.id === agentId && a.source === 'created');
  useServerDraftSync(created ? agentId : undefined, draft, baselineText);

  return (
    <section aria-label="Bundle" className="flex h-full min-h-0 flex-col text-sm">
      <div className="flex flex-wrap items-center gap-2 border-b border-zinc-200 px-3 py-2 dark:border-zinc-800">
        {onAgentChange ? (
          <label className="flex items-center gap-1.5 text-xs font-medium text-zinc-600 dark:text-zinc-300">
            Agent
            {agentList && agentList.length > 0 ? (
              <select
                value={agentId}
                onChange={(e) => onAgentChange(e.target.value)}
                className={inputClass('h-7 w-auto py-0 text-xs')}
              >
                {agentList.some((a) => a.id === agentId) ? null : <option value={agentId}>{agentId}</option>}
                {agentList.map((a) => (
                  <option key={a.id} value={a.id}>
                    {a.name || a.id}
                  </option>
                ))}
              </select>
            ) : (
              <input
                value={agentId}
                onChange={(e) => onAgentChange(e.target.value)}
                className={inputClass('h-7 w-40 text-xs')}
              />
            )}
          </label>
        ) : (
          <span className="text-xs font-medium text-zinc-600 dark:text-zinc-300" data-testid="editor-agent">
            {agentId} draft <span className="font-normal text-zinc-500">(this thread’s agent)</span>
          </span>
        )}
        <span
          aria-live="polite"
          className="text-xs text-zinc-500 dark:text-zinc-400"
          data-testid="bundle-status"
        >
          {!hydrated || (loadingBaseline && draft === undefined)
            ? 'Loading…'
            : analysis.kind === 'empty'
              ? 'Empty'
              : analysis.kind === 'checking'
                ? 'Checking…'
                : errors > 0
                  ? `${plural(errors, 'error')}${warnings ? `, ${plural(warnings, 'warning')}` : ''}`
                  : `Valid${warnings ? ` (${plural(warnings, 'warning')})` : ''}${sameAsBaseline ? ' · same as baseline' : draft !== undefined ? ' · edited' : ''}${lintStatusWords(lint, problems)}`}
        </span>
        <div className="ml-auto flex flex-wrap gap-1">
          <Button size="sm" variant="ghost" onClick={onFormat} disabled={analysis.kind === 'empty'}>
            Format
          </Button>
          <Button
            size="sm"
            variant="ghost"
            aria-pressed={showDiff}
            onClick={() => setShowDiff((v) => !v)}
            disabled={baselineText === null}
          >
            Diff with baseline
          </Button>
          <Button
            size="sm"
            variant="ghost"
            onClick={onReset}
            disabled={draft === undefined || baselineText === null}
          >
            Reset to baseline
          </Button>
          <Button size="sm" variant="ghost" onClick={() => folderInput.current?.click()}>
            Import project folder
          </Button>
          <Button size="sm" variant="ghost" onClick={() => fileInput.current?.click()}>
            Import bundle file
          </Button>
          <Button
            size="sm"
            variant="ghost"
            onClick={() =>
              download(exportFileName(agentId), analysis.kind === 'parsed' ? bundleText(analysis.doc) : text)
            }
            disabled={analysis.kind === 'empty'}
          >
            Export
          </Button>
          {created ? (
            <LazyVersionActions
              agent={created}
              text={text}
              activeText={baselineText}
              valid={analysis.kind === 'parsed' && errors === 0}
              onDone={(message) => setNotice({ tone: 'ok', text: message })}
              onOpenAsThread={onOpenAsThread}
            />
          ) : null}
        </div>
        <input
          ref={(el) => {
            folderInput.current = el;
            el?.setAttribute('webkitdirectory', '');
          }}
          type="file"
          multiple
          hidden
          aria-label="Agent project folder"
          onChange={(e) => {
            void onPicked(e.target.files);
            e.target.value = '';
          }}
        />
        <input
          ref={fileInput}
          type="file"
          accept=".json,application/json"
          multiple
          hidden
          aria-label="Bundle file"
          onChange={(e) => {
            void onPicked(e.target.files);
            e.target.value = '';
          }}
        />
      </div>

      {threadControls ? (
        <div className="border-b border-zinc-200 px-3 py-1.5 text-xs dark:border-zinc-800">
          {threadControls}
        </div>
      ) : null}
      {impact}
      {!canFetch && draft === undefined ? (
        <p className="border-b border-amber-200 bg-amber-50 px-3 py-1.5 text-xs text-amber-900 dark:border-amber-900 dark:bg-amber-950/60 dark:text-amber-100">
          Add the API key in Connection to load {agentId || 'the agent'}’s bundle as the baseline, or import
          or paste a bundle.
        </p>
      ) : null}
      {noBaselineHere ? (
        <p
          data-testid="no-baseline"
          className="border-b border-amber-200 bg-amber-50 px-3 py-1.5 text-xs text-amber-900 dark:border-amber-900 dark:bg-amber-950/60 dark:text-amber-100"
        >
          This service offers no baseline bundle: the Messaging API has no way to read an agent’s bundle, and
          only the reference service adds one. Import a project folder or a bundle file, or paste a bundle, to
          start.
        </p>
      ) : null}
      {baselineError && draft === undefined ? (
        <p className="border-b border-amber-200 bg-amber-50 px-3 py-1.5 text-xs text-amber-900 dark:border-amber-900 dark:bg-amber-950/60 dark:text-amber-100">
          No baseline for {agentId || 'this agent'}: {baselineError.message} Import or paste a bundle to
          start.
        </p>
      ) : null}
      {notice ? (
        <p
          role={notice.tone === 'error' ? 'alert' : 'status'}
          className={cx(
            'flex items-center gap-2 border-b px-3 py-1.5 text-xs',
            notice.tone === 'error'
              ? 'border-red-200 bg-red-50 text-red-900 dark:border-red-900 dark:bg-red-950/60 dark:text-red-100'
              : 'border-emerald-200 bg-emerald-50 text-emerald-900 dark:border-emerald-900 dark:bg-emerald-950/60 dark:text-emerald-100',
          )}
        >
          <span className="flex-1">{notice.text}</span>
          {undo !== null ? (
            <Button size="sm" variant="ghost" onClick={onUndo}>
              Undo
            </Button>
          ) : null}
          <Button size="sm" variant="ghost" aria-label="Dismiss" onClick={() => setNotice(null)}>
            ×
          </Button>
        </p>
      ) : null}

      <div
        className={cx(
          'relative min-h-0 flex-1',
          dragging && 'outline-2 -outline-offset-2 outline-indigo-500 outline-dashed',
        )}
        data-editor-ready={ready && !showDiff ? 'true' : 'false'}
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(e) => void onDrop(e)}
      >
        {!hydrated || (loadingBaseline && draft === undefined) ? (
          <div className="flex h-full items-center justify-center gap-2 text-zinc-500">
            <Spinner label="Loading the bundle" /> Loading the bundle…
          </div>
        ) : (
          <Suspense
            fallback={
              <div className="flex h-full items-center justify-center gap-2 text-zinc-500">
                <Spinner label="Loading the editor" /> Loading the editor…
              </div>
            }
          >
            {showDiff && baselineText !== null ? (
              <div className="flex h-full min-h-0 flex-col">
                <div className="max-h-[45%] shrink-0 overflow-y-auto px-3 py-2">
                  <LazyEditChanges
                    agentId={agentId}
                    baseText={baselineText}
                    headText={text}
                    headValid={analysis.kind === 'parsed' && errors === 0 && deferredText === text}
                    label="What this edit changes from the baseline"
                    onOpenAsThread={onOpenAsThread}
                  />
                </div>
                <div className="min-h-0 flex-1">
                  <MonacoBundleDiff
                    original={baselineText}
                    modified={text}
                    id="draft-vs-baseline"
                    label="Bundle diff against the baseline"
                    dark={dark}
                  />
                </div>
              </div>
            ) : (
              <MonacoBundleEditor
                value={text}
                onChange={onChange}
                problems={markers}
                handleRef={handleRef}
                dark={dark}
                onReady={onReady}
                viewKey={agentId}
              />
            )}
          </Suspense>
        )}
      </div>

      <div className="border-t border-zinc-200 dark:border-zinc-800">
        <h3 className="px-3 pt-2 text-xs font-semibold text-zinc-600 dark:text-zinc-300">
          Problems {problems.length ? <span className="font-normal">({problems.length})</span> : null}
        </h3>
        <ProblemsList problems={problems} onJump={onJump} witnessView={witnessView} />
      </div>
    </section>
  );
}

/** The lint's part of the status line: " · Linting…", " · Linting each tool’s runs…", " · 2 lint findings". */
function lintStatusWords(lint: DraftLint, problems: readonly Problem[]): string {
  if (lint.kind === 'linting') return lint.quick ? ' · Linting each tool’s runs…' : ' · Linting…';
  if (lint.kind === 'failed') return ' · lint could not run';
  if (lint.kind !== 'done') return '';
  const found = problems.filter((p) => p.source === 'lint').length;
  return found > 0 ? ` · ${plural(found, 'lint finding')}` : ' · lint clean';
}
