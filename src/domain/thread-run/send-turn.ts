/**
 * Sending one message in a thread: the request with include_trace=true and what the thread runs
 * with, then the answer's trace added to the thread's trace list (no refetch) and the answer
 * recorded as a local turn (with the bundle hash and version it ran with). A 422 about the draft
 * the thread runs with puts the service's issues on the editor's markers. A sent message never
 * renames the thread.
 */
import type { QueryClient } from '@tanstack/react-query';
import { apiKeys } from '../../api/keys';
import { sendMessage, type SentMessage } from '../../api/send-message';
import type { TolerantTrace } from '../../contract/trace';
import { withSentTrace, type TraceWindow } from '../../api/trace-window';
import { useThreadsStore } from '../threads/threads-store';
import { recordAnswer } from './record-answer';
import { draftThreadRunsWith, putRefusalOnMarkers } from './refusal';
import { runExtrasFor } from './run-extras';

export interface SendTurnInput {
  taskId: string;
  text: string;
}

/**
 * Sends `text` in a thread and records the answer. `onAnswered` runs in the same tick as the trace
 * list and the thread list change, before any storage write (the chat drops its pending bubble
 * there, so the turn is drawn once, with its graph).
 */
export async function sendTurn(
  queryClient: QueryClient,
  { taskId, text }: SendTurnInput,
  onAnswered?: () => void,
): Promise<SentMessage> {
  let sent: SentMessage;
  try {
    sent = await sendMessage({ ...(await runExtrasFor(queryClient, taskId)), task_id: taskId, text });
  } catch (error) {
    putRefusalOnMarkers(error, draftThreadRunsWith(taskId));
    throw error;
  }
  const { message, rttMs } = sent;
  const trace = message.trace_info ?? undefined;
  if (trace) {
    const withId: TolerantTrace = { ...trace, interaction_id: trace.interaction_id || message.id };
    // One item added (or replaced in place): the shared transcript follows it turn by turn.
    queryClient.setQueryData<TraceWindow>(apiKeys.traces(taskId), (old) =>
      old ? withSentTrace(old, withId) : old,
    );
  }
  const recorded = recordAnswer(queryClient, taskId, {
    userText: text,
    message,
    rttMs,
    bundleHash: message.bundle_hash,
  });
  onAnswered?.();
  useThreadsStore.getState().touchThread(taskId);
  await recorded;
  if (!trace) await queryClient.invalidateQueries({ queryKey: apiKeys.traces(taskId) });
  return sent;
}
