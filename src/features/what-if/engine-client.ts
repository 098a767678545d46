/**
 * The reference engine in this browser: it runs in a Web Worker (Vite `?worker`, its own chunk,
 * loaded when the first what-if or prediction is asked), so an edit is answered without a round
 * trip and the page never waits on it. Each bundle is sent to the worker once, by key (again if
 * the worker no longer keeps it). An answer the engine refuses rejects with its message (an edit
 * it cannot take); a worker that cannot start or crashes rejects every pending request and marks
 * the worker as unavailable, and the panel asks the service instead (where there is one).
 */
import type { Bundle } from '../../contract/bundle';
import type {
  DecidedInWorker,
  EngineAnswer,
  EngineRequest,
  PredictedBase,
  PredictionQuestion,
  WhatIfInputForWorker,
} from './engine.worker';
import EngineWorker from './engine.worker?worker';

type Answered = Extract<EngineAnswer, { ok: true }>;
type Ask = EngineRequest extends infer R ? (R extends unknown ? Omit<R, 'id' | 'bundle'> : never) : never;

let worker: Worker | null = null;
let broken = typeof Worker === 'undefined';
let nextId = 1;
const sent = new Set<string>();
const pending = new Map<
  number,
  { resolve: (a: Answered) => void; reject: (e: Error) => void; resend: () => void }
>();

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
    else if (e.data.unknownBundle) p.resend();
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

function ask(q: Ask, bundle: Bundle, resent = false): Promise<Answered> {
  if (broken) return Promise.reject(new Error('The engine cannot run in this browser'));
  const w = ensureWorker();
  const id = nextId++;
  const withBundle = resent || !sent.has(q.key);
  const request = { ...q, id, ...(withBundle ? { bundle } : {}) };
  sent.add(q.key);
  return new Promise<Answered>((resolve, reject) => {
    pending.set(id, {
      resolve,
      reject,
      resend: () => {
        if (resent) reject(new Error('The engine could not keep the bundle of this turn'));
        else ask(q, bundle, true).then(resolve, reject);
      },
    });
    w.postMessage(request);
  });
}

/** A turn decided again with edits (`input.edits`), from its recorded state and trace. */
export async function decideInBrowser(
  key: string,
  bundle: Bundle,
  input: WhatIfInputForWorker,
  recordedReply: string,
): Promise<DecidedInWorker> {
  const out = await ask({ kind: 'what-if', key, input, recordedReply }, bundle);
  if (out.kind !== 'what-if') throw new Error('The engine answered another question');
  const { id: _id, ok: _ok, kind: _kind, ...decided } = out;
  return decided;
}

/** A turn the engine did not run, predicted from its thread's messages with `bundle`. */
export async function predictInBrowser(
  key: string,
  bundle: Bundle,
  question: PredictionQuestion,
): Promise<PredictedBase> {
  const out = await ask({ kind: 'predict', key, question }, bundle);
  if (out.kind !== 'predict') throw new Error('The engine answered another question');
  return out.predicted;
}
