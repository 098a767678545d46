/**
 * `POST /v1/messaging/messages?include_trace=true`: one turn. The answer is parsed tolerantly
 * (MessageIn) and comes with the measured round trip.
 */
import { MessageIn, type SendMessageRequest } from '../contract/api';
import { apiRequestTimed } from './client';

export type SendMessageInput = Omit<SendMessageRequest, 'type'>;

export interface SentMessage {
  message: MessageIn;
  rttMs: number;
}

let unidentified = 0;

/**
 * A reply the service sent without any id (neither `id` nor its trace's `interaction_id`) is
 * still shown: it gets a stand-in id, unknown to the server (its `_unread` says the id is missing).
 */
export function withUsableId(message: MessageIn): MessageIn {
  if (message.id) return message;
  unidentified += 1;
  return { ...message, id: `unidentified-${Date.now().toString(36)}-${unidentified}` };
}

export async function sendMessage(
  input: SendMessageInput,
  opts: { includeTrace?: boolean; signal?: AbortSignal } = {},
): Promise<SentMessage> {
  const { data, ms } = await apiRequestTimed({
    method: 'POST',
    path: '/v1/messaging/messages',
    query: { include_trace: opts.includeTrace ?? true },
    body: { type: 'message', ...input },
    schema: MessageIn,
    what: 'reply',
    signal: opts.signal,
  });
  return { message: withUsableId(data), rttMs: ms };
}
