/**
 * "Open as thread" for a witness conversation (bundle editor): a new thread of the agent, made
 * with the app's new-thread flow, running the head bundle (kept by hash, as a draft the thread
 * runs with is), opened on its trace, then the witness's messages sent in order through the
 * chat's send (`sendTurn`, from the thread-run unit loaded on first use), each waiting for the
 * previous answer. A failure rejects with its error.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { rememberBundle } from '../domain/bundles/bundle-archive';
import { loadThreadRun } from '../domain/thread-run/load';
import { useThreadsStore } from '../domain/threads/threads-store';
import { bundleHash } from '../lib/bundle/hash';
import type { OpenWitnessThread } from '../features/bundle-editor';
import { useStartThread } from '../features/threads/use-start-thread';
import { useSetSearch } from './use-set-search';

export function useOpenWitnessThread(): OpenWitnessThread {
  const queryClient = useQueryClient();
  const { mutateAsync: startThread } = useStartThread();
  const setSearch = useSetSearch();
  return useCallback<OpenWitnessThread>(
    async ({ agentId, bundle, messages }) => {
      const hash = bundleHash(bundle);
      await rememberBundle(hash, bundle);
      const task = await startThread({ agentId, versionId: '', versionTag: '' });
      useThreadsStore
        .getState()
        .setRunConfig(task.id, { bundle_hash: hash, version_id: null, version_tag: null });
      setSearch({
        task: task.id,
        turn: undefined,
        node: undefined,
        compare: undefined,
        only: undefined,
        tab: 'trace',
      });
      const { sendTurn } = await loadThreadRun();
      for (const text of messages) await sendTurn(queryClient, { taskId: task.id, text });
    },
    [queryClient, startThread, setSearch],
  );
}
