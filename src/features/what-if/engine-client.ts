/**
 * Deciding a turn again in this browser: the reference engine runs in a Web Worker (Vite
 * `?worker`, its own chunk, loaded when the first what-if is asked), so an edit is answered
 * without a round trip and the page never waits on it. Each bundle is sent to the worker once,
 * by key. An answer the engine refuses rejects with its message (an edit it cannot take); a
 * worker that cannot start or crashes rejects every pending request and marks the worker as
 * unavailable, and the panel asks the service instead.
 */
import type { Bundle } from '../../contract/bundle';
import type { EngineAnswer, EngineRequest } from './engine.worker';
import EngineWorker from './engine.worker?worker';

type Decided = Extract<EngineAnswer, { ok: true }>;

let worker: Worker | null = null;
let broken = typeof Worker === 'undefined';
let nextId = 1;
const sent = new Set<string>();
const pending = new Map<number, { resolve: (a: Decided) => void; reject: (e: Error) => void }>();

/** False once the worker failed (or where there is none): ask the service instead. */
export const engineWorkerAvailable = () => !broken;

function ensureWorker(): Worker {
  if (worker) return worker;
  worker = new EngineWorker();
  worker.onmessage = (e: MessageEvent<EngineAnswer>) => {
    const p = pending.get(e.data.id);
    if (!p) return;
    pending.delete(e.data.id);
    if (e.data.ok) p.resolve(e.data);
    else p.reject(new Error(e.data.message));
  };
  worker.onerror = () => {
    broken = true;
    worker?.terminate();
    worker = null;
    sent.clear();
    for (const p of pending.values()) p.reject(new Error('The engine could not run in this browser'));
    pending.clear();
  };
  return worker;
}

export function decideInBrowser(
  key: string,
  bundle: Bundle,
  input: EngineRequest['input'],
  recordedReply: string,
): Promise<Decided> {
  if (broken) return Promise.reject(new Error('The engine cannot run in this browser'));
  const w = ensureWorker();
  const id = nextId++;
  const request: EngineRequest = { id, key, input, recordedReply, ...(sent.has(key) ? {} : { bundle }) };
  sent.add(key);
  return new Promise<Decided>((resolve, reject) => {
    pending.set(id, { resolve, reject });
    w.postMessage(request);
  });
}
