/**
 * Bundle drafts are analysed off the main thread: a Web Worker (Vite `?worker`, its own chunk)
 * runs `analyzeText`, so a huge or hostile bundle never freezes the tab. Answers are kept for the
 * few most recent texts. Asking about a text not analysed yet answers `{ kind: 'checking' }` and
 * starts its analysis (one at a time; while one runs, only the latest text asked about waits);
 * components re-render when an answer lands (`useDraftAnalysis`). Where there is no Worker
 * (jsdom tests), or it fails to start, `analyzeText` runs in place: the same code either way.
 */
import { create } from 'zustand';
import { analyzeText, type DraftAnalysis } from './analysis';
import AnalysisWorker from './analysis.worker?worker';

const KEEP = 8;
const answers = new Map<string, DraftAnalysis>();
/** Bumped when an answer arrives from the worker, so subscribed components re-render. */
const useAnswers = create<{ version: number }>(() => ({ version: 0 }));

let worker: Worker | null = null;
let workerFailed = typeof Worker === 'undefined';
let running: string | null = null;
let waiting: string | null = null;

function keep(text: string, analysis: DraftAnalysis): void {
  answers.delete(text);
  answers.set(text, analysis);
  if (answers.size > KEEP) answers.delete(answers.keys().next().value!);
}

function finished(text: string, analysis: DraftAnalysis): void {
  keep(text, analysis);
  running = null;
  const next = waiting;
  waiting = null;
  if (next !== null && !answers.has(next)) start(next);
  useAnswers.setState((s) => ({ version: s.version + 1 }));
}

/** Starts the worker (its chunk fetched and evaluated) before the first draft is analysed. */
export function startAnalysisWorker(): void {
  if (!worker && !workerFailed) createWorker();
}

function createWorker(): void {
  worker = new AnalysisWorker();
  worker.onmessage = (e: MessageEvent<{ text: string; analysis: DraftAnalysis }>) =>
    finished(e.data.text, e.data.analysis);
  worker.onerror = () => {
    // The worker could not run (blocked script, out of memory): analyse in place from now on.
    worker?.terminate();
    worker = null;
    workerFailed = true;
    if (running !== null) finished(running, analyzeText(running));
  };
}

function start(text: string): void {
  running = text;
  if (!worker) createWorker();
  worker!.postMessage(text);
}

/** The analysis of `text`, or `checking` while the worker works on it. */
export function analyzeDraft(text: string): DraftAnalysis {
  const known = answers.get(text);
  if (known) return known;
  if (workerFailed) {
    const analysis = analyzeText(text);
    keep(text, analysis);
    return analysis;
  }
  if (running === null) start(text);
  else if (running !== text) waiting = text;
  return { kind: 'checking' };
}

/** `analyzeDraft` for components: re-renders when the answer arrives. */
export function useDraftAnalysis(text: string): DraftAnalysis {
  useAnswers((s) => s.version);
  return analyzeDraft(text);
}

/** Re-renders the caller whenever an analysis arrives (for hooks deriving state from drafts). */
export function useAnalysisVersion(): number {
  return useAnswers((s) => s.version);
}
