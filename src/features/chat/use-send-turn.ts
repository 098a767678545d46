/**
 * Sending one message in a thread: the user's bubble at once (outbox), the request with
 * include_trace=true (plus what the thread runs with, from `extras`), then the reply recorded
 * locally with the bundle hash and version it ran with, and its trace added to the thread's trace
 * list (no refetch), or an inline error with a retry. A sent message never renames the thread.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { toApiError } from '../../api/errors';
import { apiKeys } from '../../api/keys';
import { sendMessage, type SendMessageInput } from '../../api/send-message';
import type { TolerantTrace } from '../../contract/trace';
import { appended, replacedAt } from '../../lib/array-change';
import { recordLocalTurn } from '../../domain/threads/local-turns';
import { useThreadsStore } from '../../domain/threads/threads-store';
import { messageTooLong } from '../../lib/message-limit';
import { selectDraft, useDraftsStore } from './drafts-store';
import { useOutboxStore, type OutboxEntry } from './outbox-store';
import { newLocalMessageId } from '../../domain/transcript/transcript';

/** Extra request fields for a send (e.g. the bundle editor's `agent_settings_bundle`); may load lazily. */
export type MessageExtras = (
  taskId: string,
) =>
  | Partial<Omit<SendMessageInput, 'task_id' | 'text'>>
  | Promise<Partial<Omit<SendMessageInput, 'task_id' | 'text'>>>;

interface SendVars {
  localId: string;
  taskId: string;
  text: string;
}

let counter = 0;
const newLocalId = () => newLocalMessageId(Date.now(), (counter += 1));

export function useSendTurn(
  taskId: string,
  extras?: MessageExtras,
  onSendError?: (taskId: string, error: unknown) => void,
) {
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationKey: ['chat', 'send'],
    mutationFn: async (v: SendVars) =>
      sendMessage({ ...((await extras?.(v.taskId)) ?? {}), task_id: v.taskId, text: v.text }),
    onSuccess: async ({ message, rttMs }, v) => {
      const trace = message.trace_info ?? undefined;
      // The trace, the outbox and the thread list change together, before any storage write, so
      // the turn is drawn once, with its graph, as soon as the answer is in.
      if (trace) {
        const withId: TolerantTrace = { ...trace, interaction_id: trace.interaction_id || message.id };
        // One item added (or replaced in place): the shared transcript follows it turn by turn.
        queryClient.setQueryData<TolerantTrace[]>(apiKeys.traces(v.taskId), (old) => {
          if (!old) return old;
          const at = old.findIndex((t) => t.interaction_id === withId.interaction_id);
          return at === -1 ? appended(old, withId) : replacedAt(old, at, withId);
        });
      }
      const recorded = recordLocalTurn(queryClient, v.taskId, {
        id: message.id,
        user_text: v.text,
        reply_text: message.text,
        suggestions: message.followup_suggestions,
        ...(trace?.decision ? { decision: trace.decision } : {}),
        created_at: message.created_at ?? new Date().toISOString(),
        rtt_ms: rttMs,
        ...(message.bundle_hash !== undefined ? { bundle_hash: message.bundle_hash } : {}),
        ...(message.version_id ? { version_id: message.version_id } : {}),
        ...(message._unread ? { unread: message._unread } : {}),
        ...(trace?.interaction_id && trace.interaction_id !== message.id
          ? { trace_id: trace.interaction_id }
          : {}),
      });
      useOutboxStore.getState().remove(v.taskId, v.localId);
      useThreadsStore.getState().touchThread(v.taskId);
      await recorded;
      if (!trace) await queryClient.invalidateQueries({ queryKey: apiKeys.traces(v.taskId) });
    },
    onError: (error, v) => {
      useOutboxStore.getState().fail(v.taskId, v.localId, toApiError(error));
      onSendError?.(v.taskId, error);
    },
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
