/**
 * Sending one message in a thread, as the chat shows it: the user's bubble at once (outbox), then
 * the thread-run unit's `sendTurn` (the request with what the thread runs with, the answer recorded
 * as a local turn, a refusal's issues on the editor's markers), or an inline error with a retry.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { toApiError } from '../../api/errors';
import { loadThreadRun } from '../../domain/thread-run/load';
import { messageTooLong } from '../../lib/message-limit';
import { selectDraft, useDraftsStore } from './drafts-store';
import { useOutboxStore, type OutboxEntry } from './outbox-store';
import { newLocalMessageId } from '../../domain/transcript/transcript';

interface SendVars {
  localId: string;
  taskId: string;
  text: string;
}

let counter = 0;
const newLocalId = () => newLocalMessageId(Date.now(), (counter += 1));

export function useSendTurn(taskId: string) {
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationKey: ['chat', 'send'],
    // The answer's turn replaces the pending bubble in the same tick (drawn once, with its graph).
    mutationFn: async (v: SendVars) =>
      (await loadThreadRun()).sendTurn(queryClient, v, () =>
        useOutboxStore.getState().remove(v.taskId, v.localId),
      ),
    onError: (error, v) => useOutboxStore.getState().fail(v.taskId, v.localId, toApiError(error)),
  });
  const { mutate } = mutation;

  const send = useCallback(
    (text: string) => {
      const trimmed = text.trim();
      // The composer refuses an over-long message with its count; nothing else may send one.
      if (!trimmed || !taskId || messageTooLong(trimmed)) return false;
      const vars = { localId: newLocalId(), taskId, text: trimmed };
      if (!useOutboxStore.getState().begin(vars)) return false;
      mutate(vars);
      return true;
    },
    [mutate, taskId],
  );

  const retry = useCallback(
    (entry: OutboxEntry) => {
      if (entry.status !== 'error') return;
      const vars = { localId: entry.localId, taskId: entry.taskId, text: entry.text };
      if (!useOutboxStore.getState().begin(vars)) return;
      mutate(vars);
    },
    [mutate],
  );

  const discard = useCallback(
    (entry: OutboxEntry) => useOutboxStore.getState().remove(entry.taskId, entry.localId),
    [],
  );

  /** Puts a refused message back into the (empty) message box and drops the failed send. */
  const edit = useCallback((entry: OutboxEntry) => {
    const drafts = useDraftsStore.getState();
    if (!selectDraft(entry.taskId)(drafts).trim()) drafts.setDraft(entry.taskId, entry.text);
    useOutboxStore.getState().remove(entry.taskId, entry.localId);
  }, []);

  return { send, retry, discard, edit };
}
