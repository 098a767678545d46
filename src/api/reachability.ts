/**
 * Whether the configured service answers: every request of the client reports here (any HTTP
 * answer is contact, even an error status; a network failure or a timeout is not), and the header
 * shows it, so cached views never pass for a healthy connection. A tiny external store.
 */
export interface Reachability {
  /** When the service last answered (ms since the epoch); null before its first answer. */
  lastContact: number | null;
  /** The request failure since that answer, if any; cleared by the next answer. */
  failure: { at: number; message: string } | null;
}

let state: Reachability = { lastContact: null, failure: null };
const listeners = new Set<() => void>();

function set(next: Reachability): void {
  state = next;
  for (const l of listeners) l();
}

/** The service answered (any status). */
export function noteContact(now = Date.now()): void {
  // One update per second at most while all is well: the header shows the time to the second.
  if (state.failure === null && state.lastContact !== null && now - state.lastContact < 1000) return;
  set({ lastContact: now, failure: null });
}

/** A request did not reach the service, or got no answer in time. */
export function noteFailure(message: string, now = Date.now()): void {
  set({ lastContact: state.lastContact, failure: { at: now, message } });
}

export function getReachability(): Reachability {
  return state;
}

export function subscribeReachability(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
