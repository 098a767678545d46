/**
 * The Tests tab: the agent's saved cases (rename, delete with undo), import and export of a suite
 * folder (picker or drop), a run against the active version, a pinned version or the draft bundle
 * (progress, Cancel), the results case × turn and the coverage of the run.
 */
import { useMemo, useRef, useState, type DragEvent, type ReactNode } from 'react';
import { useAgents } from '../../api/agents';
import { Button } from '../../components/ui/Button';
import { inputClass } from '../../components/ui/Field';
import { cx } from '../../lib/format';
import { readDataTransfer, readFileList } from '../../domain/bundles/read-files';
import { useDraftSendState } from '../../domain/bundles/active-bundle';
import { useKeyReady } from '../../domain/connection/use-key-ready';
import { targetNames, useTarget } from '../../domain/commands/targets';
import { CoveragePanel } from './CoveragePanel';
import { exportSuiteFolder } from './folder-io';
import { ResultsTable } from './ResultsTable';
import { describeImport, readSuiteFolder, type PickedFile, type RefusedFile } from './suite-files';
import { cancelSuiteRun, selectRun, startSuiteRun, useSuiteRunStore, type RunTarget } from './suite-run';
import { loadRunTarget, saveRunTarget, type StoredTarget } from './suite-run-storage';
import { useSuiteEntries, useSuitesStore, type SuiteEntry } from '../../domain/suites/suites-store';

export interface SuitesPanelProps {
  agentId: string;
  /** Opens the compare view: the thread a case was saved from against the run's task. */
  onCompare: (sourceTaskId: string, runTaskId: string) => void;
  /** Shown above the suite when no thread picks the agent. */
  agentPicker?: ReactNode;
}

type Notice = { tone: 'ok' | 'error'; text: string; refused?: RefusedFile[]; undo?: () => void };

export function SuitesPanel({ agentId, onCompare, agentPicker }: SuitesPanelProps) {
  const entries = useSuiteEntries(agentId);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [dragging, setDragging] = useState(false);
  const folderInput = useRef<HTMLInputElement | null>(null);

  const importPicked = (files: PickedFile[]) => {
    const folder = readSuiteFolder(files, agentId);
    const outcome = folder.cases.length ? useSuitesStore.getState().importCases(agentId, folder.cases) : null;
    setNotice({
      tone: folder.refused.length || !folder.cases.length ? 'error' : 'ok',
      text: describeImport(folder, outcome),
      refused: folder.refused,
    });
  };

  const onDrop = async (e: DragEvent<HTMLElement>) => {
    e.preventDefault();
    setDragging(false);
    importPicked(await readDataTransfer(e.dataTransfer));
  };

  const onExport = async () => {
    try {
      const text = await exportSuiteFolder(agentId, entries);
      if (text) setNotice({ tone: 'ok', text });
    } catch (e) {
      setNotice({
        tone: 'error',
        text: `The folder could not be written: ${e instanceof Error ? e.message : String(e)}. Try another folder.`,
      });
    }
  };

  const onDelete = (entry: SuiteEntry) => {
    const removed = useSuitesStore.getState().removeCase(agentId, entry.id);
    if (!removed) return;
    setNotice({
      tone: 'ok',
      text: `Deleted “${entry.testCase.name}”.`,
      undo: () => {
        useSuitesStore.getState().restoreCase(agentId, removed.entry, removed.index);
        setNotice(null);
      },
    });
  };

  if (!agentId)
    return (
      <div className="flex flex-col gap-3 p-3 text-sm">
        {agentPicker}
        <p className="text-zinc-500">Choose an agent to see its tests.</p>
      </div>
    );

  return (
    <section
      aria-label={`Tests of ${agentId}`}
      className={cx(
        'flex h-full min-h-0 flex-col gap-3 overflow-y-auto p-3 text-sm',
        dragging && 'outline-2 -outline-offset-2 outline-indigo-500 outline-dashed',
      )}
      onDragOver={(e) => {
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={(e) => void onDrop(e)}
    >
      {agentPicker}
      <div className="flex flex-wrap items-center gap-2">
        <h2 className="mr-auto text-sm font-semibold">
          Tests of {agentId} <span className="font-normal text-zinc-500">({entries.length})</span>
        </h2>
        <Button size="sm" variant="ghost" onClick={() => folderInput.current?.click()}>
          Import folder
        </Button>
        <Button size="sm" variant="ghost" onClick={() => void onExport()} disabled={entries.length === 0}>
          Export folder
        </Button>
        <input
          ref={(el) => {
            el?.setAttribute('webkitdirectory', '');
            folderInput.current = el;
          }}
          type="file"
          multiple
          hidden
          aria-label="Test suite folder"
          onChange={(e) => {
            // The FileList is live: take the files before clearing the input.
            const files = Array.from(e.target.files ?? []);
            e.target.value = '';
            if (files.length) void readFileList(files).then(importPicked);
          }}
        />
      </div>
      <p className="text-xs text-zinc-500">
        Save a turn with “Save as test” under its reply, or drop a suite folder (*.case.json files) here.
      </p>
      {notice ? <NoticeView notice={notice} onDismiss={() => setNotice(null)} /> : null}
      <CaseList agentId={agentId} entries={entries} onDelete={onDelete} />
      {entries.length ? <RunSection agentId={agentId} entries={entries} onCompare={onCompare} /> : null}
      <CoveragePanel agentId={agentId} />
    </section>
  );
}

function NoticeView({ notice, onDismiss }: { notice: Notice; onDismiss: () => void }) {
  return (
    <div
      role={notice.tone === 'error' ? 'alert' : 'status'}
      className={cx(
        'rounded border p-2 text-xs',
        notice.tone === 'error'
          ? 'border-red-300 bg-red-50 text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200'
          : 'border-emerald-300 bg-emerald-50 text-emerald-900 dark:border-emerald-800 dark:bg-emerald-950 dark:text-emerald-200',
      )}
    >
      <p>{notice.text}</p>
      {notice.refused?.length ? (
        <>
          <p className="mt-1 font-medium">
            {notice.refused.length} file{notice.refused.length === 1 ? '' : 's'} refused (fix and import
            again; the valid cases were kept):
          </p>
          <ul className="list-disc pl-4">
            {notice.refused.map((r) => (
              <li key={r.file}>
                <span className="font-mono">{r.file}</span>: {r.problems.slice(0, 3).join('; ')}
                {r.problems.length > 3 ? ` (and ${r.problems.length - 3} more)` : ''}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <div className="mt-1 flex gap-2">
        {notice.undo ? (
          <Button size="sm" onClick={notice.undo}>
            Undo
          </Button>
        ) : null}
        <Button size="sm" variant="ghost" onClick={onDismiss}>
          Dismiss
        </Button>
      </div>
    </div>
  );
}

function CaseList({
  agentId,
  entries,
  onDelete,
}: {
  agentId: string;
  entries: readonly SuiteEntry[];
  onDelete: (entry: SuiteEntry) => void;
}) {
  const [renaming, setRenaming] = useState<{ id: string; name: string } | null>(null);
  const run = useSuiteRunStore(selectRun(agentId));
  if (entries.length === 0) return <p className="text-zinc-500">No tests for {agentId} yet.</p>;
  return (
    <ul aria-label="Test cases" className="flex flex-col divide-y divide-zinc-100 dark:divide-zinc-800">
      {entries.map((e) => {
        const result = run?.results.get(e.id);
        return (
          <li key={e.id} className="flex flex-wrap items-center gap-2 py-1.5">
            {renaming?.id === e.id ? (
              <form
                className="flex flex-1 items-center gap-1"
                onSubmit={(ev) => {
                  ev.preventDefault();
                  useSuitesStore.getState().renameCase(agentId, e.id, renaming.name);
                  setRenaming(null);
                }}
              >
                <input
                  className={inputClass('h-7 w-full text-xs')}
                  aria-label={`New name for ${e.testCase.name}`}
                  value={renaming.name}
                  autoFocus
                  onChange={(ev) => setRenaming({ id: e.id, name: ev.target.value })}
                  onKeyDown={(ev) => {
                    if (ev.key === 'Escape') {
                      ev.preventDefault();
                      setRenaming(null);
                    }
                  }}
                />
                <Button size="sm" type="submit" disabled={!renaming.name.trim()}>
                  Save name
                </Button>
              </form>
            ) : (
              <div className="min-w-0 flex-1">
                <p className="truncate font-medium">{e.testCase.name}</p>
                <p className="truncate text-xs text-zinc-500">
                  {e.file} · {e.testCase.turns.length} turn{e.testCase.turns.length === 1 ? '' : 's'} · clock{' '}
                  {e.testCase.clock}
                  {result ? ` · ${result.status}` : ''}
                </p>
              </div>
            )}
            <Button
              size="sm"
              variant="ghost"
              aria-label={`Rename ${e.testCase.name}`}
              onClick={() => setRenaming({ id: e.id, name: e.testCase.name })}
            >
              Rename
            </Button>
            <Button
              size="sm"
              variant="ghost"
              aria-label={`Delete ${e.testCase.name}`}
              onClick={() => onDelete(e)}
            >
              Delete
            </Button>
          </li>
        );
      })}
    </ul>
  );
}

type TargetKind = RunTarget['kind'];

function RunSection({
  agentId,
  entries,
  onCompare,
}: {
  agentId: string;
  entries: readonly SuiteEntry[];
  onCompare: (a: string, b: string) => void;
}) {
  // The choice is kept per agent across reloads.
  const [choice, setChoice] = useState(() => ({ agentId, ...loadRunTarget(agentId) }));
  const current = choice.agentId === agentId ? choice : { agentId, ...loadRunTarget(agentId) };
  const { kind, versionId } = current;
  const choose = (next: Partial<StoredTarget>) => {
    const merged = { kind, versionId, ...next };
    saveRunTarget(agentId, merged);
    setChoice({ agentId, ...merged });
  };
  const setKind = (k: TargetKind) => choose({ kind: k });
  const setVersionId = (v: string) => choose({ versionId: v });
  const [onlyFailures, setOnlyFailures] = useState(false);
  const keyReady = useKeyReady();
  const agents = useAgents(keyReady);
  const versions = agents.data?.find((a) => a.id === agentId)?.versions ?? [];
  const draft = useDraftSendState(agentId);
  const run = useSuiteRunStore(selectRun(agentId));
  const cases = useMemo(() => new Map(entries.map((e) => [e.id, e.testCase])), [entries]);
  const running = run?.status === 'running';

  const target: RunTarget | string =
    kind === 'active'
      ? { kind: 'active' }
      : kind === 'version'
        ? versionId.trim()
          ? { kind: 'version', versionId: versionId.trim() }
          : 'Choose the version to run against.'
        : draft.status === 'ready'
          ? { kind: 'draft', bundle: draft.bundle, hash: draft.hash }
          : draft.reason;
  const canRun = !running && typeof target !== 'string' && keyReady;
  const runSuite = () => {
    if (canRun) void startSuiteRun(agentId, entries, target);
  };
  // "Run the test suite" from the palette runs this button's action once it can run.
  useTarget(targetNames.runSuite, canRun ? runSuite : undefined);

  const summary = run ? summarizeRun(run.results) : null;

  return (
    <section
      aria-label="Run the suite"
      className="flex flex-col gap-2 rounded border border-zinc-200 p-2 dark:border-zinc-800"
    >
      <fieldset className="flex flex-wrap items-center gap-3 text-xs">
        <legend className="mb-1 text-sm font-semibold">Run against</legend>
        <label className="flex items-center gap-1">
          <input
            type="radio"
            name={`target-${agentId}`}
            checked={kind === 'active'}
            onChange={() => setKind('active')}
          />
          The active version
        </label>
        <label className="flex items-center gap-1">
          <input
            type="radio"
            name={`target-${agentId}`}
            checked={kind === 'version'}
            onChange={() => setKind('version')}
          />
          A version
        </label>
        {kind === 'version' ? (
          versions.length ? (
            <select
              aria-label="Version to run against"
              className={inputClass('h-7 w-auto text-xs')}
              value={versionId}
              onChange={(e) => setVersionId(e.target.value)}
            >
              <option value="">Choose…</option>
              {versions.map((v) => (
                <option key={v.id} value={v.id}>
                  {v.tag ? `${v.tag} · ` : ''}
                  {v.id}
                </option>
              ))}
            </select>
          ) : (
            <input
              aria-label="Version to run against"
              className={inputClass('h-7 w-40 text-xs')}
              value={versionId}
              onChange={(e) => setVersionId(e.target.value)}
            />
          )
        ) : null}
        <label className="flex items-center gap-1">
          <input
            type="radio"
            name={`target-${agentId}`}
            checked={kind === 'draft'}
            onChange={() => setKind('draft')}
          />
          The draft bundle
        </label>
      </fieldset>
      {typeof target === 'string' ? (
        <p className="text-xs text-amber-800 dark:text-amber-300">{target}</p>
      ) : null}
      <div className="flex flex-wrap items-center gap-2">
        <Button size="sm" variant="primary" disabled={!canRun} onClick={runSuite}>
          Run {entries.length} test{entries.length === 1 ? '' : 's'}
        </Button>
        {running ? (
          <Button size="sm" onClick={() => cancelSuiteRun(agentId)}>
            Cancel
          </Button>
        ) : null}
        {!keyReady ? (
          <span className="text-xs text-zinc-500">Set the API key (Connection) to run.</span>
        ) : null}
        {run ? (
          <>
            <progress
              aria-label="Suite run progress"
              className="h-2 w-32"
              max={Math.max(1, run.total)}
              value={run.done}
            />
            <span className="text-xs text-zinc-600 dark:text-zinc-400">
              {run.done} of {run.total} cases
            </span>
          </>
        ) : null}
      </div>
      {run && summary ? (
        <p role="status" className="text-xs">
          {run.status === 'running'
            ? `Running against ${run.target}…`
            : `${run.status === 'cancelled' ? 'Cancelled' : 'Done'} against ${run.target}:`}{' '}
          {summary.passed} passed, {summary.failed} failed, {summary.errors} could not run
          {run.status === 'cancelled' ? `, ${run.total - run.results.size} not started` : ''}.
        </p>
      ) : null}
      {run && run.results.size ? (
        <>
          <label className="flex items-center gap-1 text-xs">
            <input
              type="checkbox"
              checked={onlyFailures}
              onChange={(e) => setOnlyFailures(e.target.checked)}
            />
            Only failures
          </label>
          <div className="overflow-x-auto">
            <ResultsTable run={run} cases={cases} onlyFailures={onlyFailures} onCompare={onCompare} />
          </div>
        </>
      ) : null}
    </section>
  );
}

function summarizeRun(results: ReadonlyMap<string, { status: string }>) {
  let passed = 0;
  let failed = 0;
  let errors = 0;
  for (const r of results.values()) {
    if (r.status === 'passed') passed += 1;
    else if (r.status === 'failed') failed += 1;
    else errors += 1;
  }
  return { passed, failed, errors };
}
