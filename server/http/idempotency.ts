/**
 * `Idempotency-Key` on sends: a client that did not get an answer (a cut connection, a timeout of
 * its own) sends again with the same key and gets the first answer, instead of a second turn. The
 * answers are remembered by this process, per API key, for a day, least recently used out beyond
 * 10,000 answers or 64 million characters; a retry arriving while the first is still being worked
 * on waits for it. Only successful answers are remembered: after an error a retry runs again. The
 * same key with another request is a 422.
 */
import { createHash } from 'node:crypto';
import { ApiError } from './errors';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
const LIMITS = { entries: 10_000, chars: 64_000_000, ttlMs: 24 * 60 * 60 * 1000 };
const KEY_PATTERN = /^[\x21-\x7e]{1,200}$/;

interface Entry {
  fingerprint: string;
  answer: Promise<unknown>;
  chars: number;
  at: number;
}

export interface Idempotency {
  /** `work()`'s answer, or the answer remembered for the same `key` and request. */
  run<T>(scope: string, key: string | undefined, request: unknown, work: () => Promise<T>): Promise<T>;
}

const unprocessable = (msg: string, type: string) =>
  new ApiError(422, {
    error: 'Unprocessable Entity',
    message: msg,
    detail: [{ loc: ['header', IDEMPOTENCY_HEADER], msg, type }],
  });

export function createIdempotency(now: () => number = Date.now): Idempotency {
  const entries = new Map<string, Entry>();
  let chars = 0;
  const drop = (id: string) => {
    const e = entries.get(id);
    if (!e) return;
    entries.delete(id);
    chars -= e.chars;
  };
  const trim = () => {
    for (const [id, e] of entries) {
      if (entries.size <= LIMITS.entries && chars <= LIMITS.chars && now() - e.at <= LIMITS.ttlMs) break;
      drop(id);
    }
  };
  return {
    async run(scope, key, request, work) {
      if (key === undefined) return work();
      if (!KEY_PATTERN.test(key))
        throw unprocessable(
          'Idempotency-Key must be 1 to 200 printable ASCII characters without spaces (e.g. a UUID).',
          'invalid_idempotency_key',
        );
      const id = createHash('sha256').update(scope).update('\u0000').update(key).digest('hex');
      const fingerprint = createHash('sha256').update(JSON.stringify(request)).digest('hex');
      trim();
      const known = entries.get(id);
      if (known && now() - known.at <= LIMITS.ttlMs) {
        if (known.fingerprint !== fingerprint)
          throw unprocessable(
            'This Idempotency-Key was used for another request; use a new key for a new message.',
            'idempotency_key_reused',
          );
        entries.delete(id);
        entries.set(id, known);
        return (await known.answer) as Awaited<ReturnType<typeof work>>;
      }
      const answer = work();
      const entry: Entry = { fingerprint, answer, chars: 0, at: now() };
      entries.set(id, entry);
      try {
        const value = await answer;
        entry.chars = typeof value === 'string' ? value.length : (JSON.stringify(value)?.length ?? 0);
        chars += entry.chars;
        trim();
        return value;
      } catch (error) {
        if (entries.get(id) === entry) drop(id);
        throw error;
      }
    },
  };
}
