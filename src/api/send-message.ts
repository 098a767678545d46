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
  return { message: data, rttMs: ms };
}
