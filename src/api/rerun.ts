/**
 * `POST /v1/messaging/messages/rerun?include_trace=true`: regenerate an interaction with the
 * original or an edited text (and optionally another bundle); the answer is a new task (branch).
 */
import { RerunIn, type RerunRequest } from '../contract/api';
import { apiRequestTimed } from './client';
import { withUsableId } from './send-message';

/** wire-compat: a rerun carries the acting user in `x-aui-user-id`. */
const USER_ID_HEADER = 'x-aui-user-id';

export interface RerunResult {
  rerun: RerunIn;
  rttMs: number;
}

export async function rerunMessage(
  body: RerunRequest,
  opts: { includeTrace?: boolean; signal?: AbortSignal; userId?: string | undefined } = {},
): Promise<RerunResult> {
  const { data, ms } = await apiRequestTimed({
    method: 'POST',
    path: '/v1/messaging/messages/rerun',
    query: { include_trace: opts.includeTrace ?? true },
    body,
    schema: RerunIn,
    what: 'rerun result',
    signal: opts.signal,
    headers: opts.userId ? { [USER_ID_HEADER]: opts.userId } : {},
  });
  return { rerun: { ...data, message: withUsableId(data.message) }, rttMs: ms };
}
