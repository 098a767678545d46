/**
 * What an edit changes, asked of the engine in a Web Worker (edit-analysis.worker.ts, started on
 * first use): `bundleDiffQueryOptions(base, head)` is the semantic diff of two bundle texts as a
 * query (kept while it is shown, asked again for other texts), `replayWitness` runs a witness's
 * messages with a bundle and answers each turn's decision. Where no Worker exists (jsdom, a
 * blocked script) both fail with a reason in words: the engine never runs on the page's thread.
 */
import { queryOptions } from '@tanstack/react-query';
import type { DiffResult } from '../../contract/analysis';
import type { EditAnalysisAnswer, EditAnalysisRequest, ReplayedTurn } from './edit-analysis.worker';
import EditAnalysisWorker from './edit-analysis.worker?worker';

export type { ReplayedTurn };

type Pending = { resolve: (a: EditAnalysisAnswer) => void; reject: (e: Error) => void };
type RequestBody = EditAnalysisRequest extends infer R ? (R extends unknown ? Omit<R, 'id'> : never) : never;

let worker: Worker | null = null;
let nextId = 1;
const pending = new Map<number, Pending>();

function failAll(message: string): void {
  for (const p of pending.values()) p.reject(new Error(message));
  pending.clear();
}

function ask(body: RequestBody): Promise<EditAnalysisAnswer> {
  if (typeof Worker === 'undefined')
    return Promise.reject(
      new Error('This browser cannot start a Web Worker, so the engine cannot analyse bundles here.'),
    );
  if (!worker) {
    worker = new EditAnalysisWorker();
    worker.onmessage = (e: MessageEvent<EditAnalysisAnswer>) => {
      const p = pending.get(e.data.id);
      pending.delete(e.data.id);
      p?.resolve(e.data);
    };
    worker.onerror = (e) => {
      e.preventDefault();
      worker?.terminate();
      worker = null;
      failAll(`the analysis worker stopped (${e.message || 'no reason given'})`);
    };
  }
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    worker!.postMessage({ ...body, id });
  });
}

async function diffInWorker(base: string, head: string): Promise<DiffResult> {
  const a = await ask({ kind: 'diff', base, head, clock: new Date().toISOString() });
  if (!a.ok) throw new Error(a.message);
  if (a.kind !== 'diff') throw new Error('The analysis worker answered another question.');
  return a.result;
}

/** The engine's semantic diff from `base` to `head` (bundle texts), computed in the worker. */
export const bundleDiffQueryOptions = (base: string, head: string) =>
  queryOptions({
    // The texts themselves are the key: a diff belongs to exactly these two bundles.
    queryKey: ['bundle-diff', base, head] as const,
    queryFn: () => diffInWorker(base, head),
    staleTime: Infinity,
    gcTime: 60_000,
    retry: false,
  });

/** Each turn the engine decides when `messages` are sent in order to a new task running `bundle`. */
export async function replayWitness(
  bundle: string,
  messages: readonly string[],
  clock: string,
): Promise<ReplayedTurn[]> {
  const a = await ask({ kind: 'replay', bundle, messages, clock });
  if (!a.ok) throw new Error(a.message);
  if (a.kind !== 'replay') throw new Error('The analysis worker answered another question.');
  return a.turns;
}
