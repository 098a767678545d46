/**
 * "Runs with", beside the composer: what this thread's next messages are sent with (the agent's
 * own bundle, the bundle it has been running with, or this agent's current draft) and the version
 * pin. Changing it changes this thread only; every turn still shows what it actually ran with.
 */
import { useMemo } from 'react';
import { useAgents } from '../../api/agents';
import { inputClass } from '../../components/ui/Field';
import { cx } from '../../lib/format';
import { rememberBundle } from '../../domain/bundles/bundle-archive';
import { shortBundleHash } from '../../lib/short-hash';
import { useDraftSendState, type DraftSendState } from '../../domain/bundles/active-bundle';
import { useRegisterActions, type Action } from '../../domain/commands/registry';
import { useKeyReady } from '../../domain/connection/use-key-ready';
import { runConfigOf, withDraft, type RunConfig } from '../../domain/threads/run-config';
import { useThreadsStore, type ThreadRecord } from '../../domain/threads/threads-store';

const OWN = 'own';
const CURRENT = 'current';
const DRAFT = 'draft';

/** Switches the thread to its agent's current draft (kept by hash first, so it can be sent later). */
async function runThreadWithDraft(thread: ThreadRecord, draft: DraftSendState): Promise<string | null> {
  if (draft.status !== 'ready') return draft.reason;
  const use = withDraft(thread, runConfigOf(thread), { agentId: draft.agentId, hash: draft.hash });
  if (!use.ok) return use.reason;
  await rememberBundle(draft.hash, draft.bundle);
  useThreadsStore.getState().setRunConfig(thread.id, use.config);
  return null;
}

/** The palette's "Run this thread with this draft", for the open thread (beside whose composer this lives). */
function useRunWithDraftAction(thread: ThreadRecord | undefined, draft: DraftSendState): void {
  const actions = useMemo<Action[]>(() => {
    if (!thread) return [];
    const using = draft.status === 'ready' && runConfigOf(thread).bundle_hash === draft.hash;
    return [
      {
        id: 'thread.run-draft',
        title: 'Run this thread with this draft',
        group: 'Editor',
        keywords: ['bundle', 'runs with', 'use'],
        ...(draft.status !== 'ready'
          ? { enabled: false, hint: draft.reason }
          : using
            ? { enabled: false, hint: 'This thread already runs with this draft' }
            : {}),
        run: () => void runThreadWithDraft(thread, draft),
      },
    ];
  }, [thread, draft]);
  useRegisterActions('runs-with', actions);
}

export function RunsWithControl({ taskId, className }: { taskId: string; className?: string }) {
  const thread = useThreadsStore((s) => s.threads.get(taskId));
  const agentId = thread?.agent_id ?? '';
  const config = runConfigOf(thread);
  const draft = useDraftSendState(agentId);
  useRunWithDraftAction(thread, draft);
  const keyReady = useKeyReady();
  const agents = useAgents(keyReady && Boolean(agentId));
  if (!thread) return null;

  const set = (next: RunConfig) => useThreadsStore.getState().setRunConfig(taskId, next);
  const draftHash = draft.status === 'ready' ? draft.hash : null;
  const bundleValue = config.bundle_hash === null ? OWN : config.bundle_hash === draftHash ? DRAFT : CURRENT;
  const versions = agents.data?.find((a) => a.id === agentId)?.versions ?? null;
  const draftChanged = bundleValue === CURRENT && draftHash !== null;

  return (
    <div
      role="group"
      aria-label="Runs with"
      className={cx(
        'flex flex-wrap items-center gap-1.5 text-xs text-zinc-600 dark:text-zinc-300',
        className,
      )}
    >
      <span className="font-medium">Runs with</span>
      <span className="text-zinc-500">{agentId || 'unknown agent'} ·</span>
      <select
        aria-label="Runs with bundle"
        value={bundleValue}
        className={inputClass('h-7 w-auto py-0 text-xs')}
        onChange={(e) => {
          const v = e.target.value;
          if (v === OWN) set({ ...config, bundle_hash: null });
          else if (v === DRAFT) void runThreadWithDraft(thread, draft);
        }}
      >
        <option value={OWN}>the agent’s own bundle</option>
        {config.bundle_hash && bundleValue === CURRENT ? (
          <option value={CURRENT}>local bundle #{shortBundleHash(config.bundle_hash)}</option>
        ) : null}
        <option value={DRAFT} disabled={draft.status !== 'ready'}>
          {draft.status === 'ready'
            ? `${agentId} draft #${shortBundleHash(draft.hash)}`
            : `${agentId} draft (not sendable)`}
        </option>
      </select>
      <span className="text-zinc-500">·</span>
      {versions && versions.length > 0 ? (
        <select
          aria-label="Runs with version"
          value={config.version_id ?? ''}
          className={inputClass('h-7 w-auto py-0 text-xs')}
          onChange={(e) => set({ ...config, version_id: e.target.value || null, version_tag: null })}
        >
          <option value="">thread’s version{thread.version_id ? ` (${thread.version_id})` : ''}</option>
          {versions.map((v) => (
            <option key={v.id} value={v.id}>
              version {v.id}
              {v.tag ? ` (${v.tag})` : ''}
            </option>
          ))}
        </select>
      ) : (
        <input
          aria-label="Runs with version"
          value={config.version_id ?? ''}
          placeholder={thread.version_id ? `thread’s version (${thread.version_id})` : 'thread’s version'}
          className={inputClass('h-7 w-48 text-xs')}
          onChange={(e) => set({ ...config, version_id: e.target.value.trim() || null, version_tag: null })}
        />
      )}
      {draftChanged ? (
        <span className="text-amber-700 dark:text-amber-300">
          The draft changed since (now #{shortBundleHash(draftHash)}): choose it to run with it.
        </span>
      ) : null}
    </div>
  );
}

/** For the bundle editor's toolbar: what the open thread runs with, and the switch to this draft. */
export function ThreadDraftControls({ taskId }: { taskId: string }) {
  const thread = useThreadsStore((s) => s.threads.get(taskId));
  const agentId = thread?.agent_id ?? '';
  const draft = useDraftSendState(agentId);
  if (!thread) return null;
  const config = runConfigOf(thread);
  const using = draft.status === 'ready' && config.bundle_hash === draft.hash;
  return (
    <div className="flex flex-wrap items-center gap-2">
      <span data-testid="thread-runs-with">
        This thread runs with{' '}
        {config.bundle_hash
          ? `local bundle #${shortBundleHash(config.bundle_hash)}${using ? ' (this draft)' : ''}`
          : 'the agent’s own bundle'}
        .
      </span>
      {/* Only a draft that exists and has problems is an error; no draft yet is the normal start. */}
      {draft.status === 'blocked' && !draft.missing && !draft.checking ? (
        <span role="alert" className="text-red-700 dark:text-red-300">
          {draft.reason}
        </span>
      ) : null}
      {using ? null : (
        <button
          type="button"
          disabled={draft.status !== 'ready'}
          title={draft.status === 'ready' ? undefined : draft.reason}
          onClick={() => void runThreadWithDraft(thread, draft)}
          className="rounded border border-indigo-300 px-1.5 py-0.5 text-indigo-700 hover:bg-indigo-50 disabled:opacity-50 dark:border-indigo-700 dark:text-indigo-300 dark:hover:bg-indigo-950"
        >
          Run this thread with this draft
        </button>
      )}
      {config.bundle_hash ? (
        <button
          type="button"
          onClick={() => useThreadsStore.getState().setRunConfig(taskId, { ...config, bundle_hash: null })}
          className="rounded px-1.5 py-0.5 text-zinc-600 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800"
        >
          Back to the agent’s own bundle
        </button>
      ) : null}
    </div>
  );
}
