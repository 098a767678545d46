/**
 * Lint as you type: a draft that validates is linted by the engine in a Web Worker of its own
 * (lint.worker.ts), so a slow lint never holds up the validator's markers or a send. Latest text
 * wins: one lint runs at a time, and while it runs only the latest text asked about waits; a lint
 * still running after `STALE_AFTER_MS` when a newer text comes is abandoned (its worker ended, a
 * fresh one started), so one slow bundle never holds up the lint of the next edit. Answers
 * are kept for the few most recent texts; components re-render when one lands (`useDraftLint`).
 * While a text is being linted, the last findings of the same draft (by key: the agent) come with
 * it as `previous`, so the markers stay in place rather than blink on every keystroke; once the
 * worker's quick lint of the text is in (its shape and conditions, milliseconds), it comes as
 * `quick` while the tools' runs are still decided.
 * The engine never runs on the page's thread: where there is no Worker (jsdom), the lint is
 * `unavailable` and says so.
 */
import { create } from 'zustand';
import type { LintAnswer, LintOutcome } from './lint.worker';
import LintWorker from './lint.worker?worker';

export type DraftLint =
  /** Nothing to lint: the draft does not validate (or is not known yet). */
  | { kind: 'off' }
  | {
      kind: 'linting';
      previous?: Extract<LintOutcome, { kind: 'done' }>;
      /** This text's findings without the tools' runs (none of `TOOL_RUN_FINDINGS`), once known. */
      quick?: Extract<LintOutcome, { kind: 'done' }>;
    }
  /** No Web Worker here, so the engine cannot run without freezing the page. */
  | { kind: 'unavailable' }
  | LintOutcome;

const KEEP = 8;
const answers = new Map<string, LintOutcome>();
/** The quick lint of the text being linted, while its tools' runs are decided. */
let quickOfRunning: { text: string; outcome: Extract<LintOutcome, { kind: 'done' }> } | null = null;
/** The last findings answered per key (the draft's agent). */
const lastDone = new Map<string, Extract<LintOutcome, { kind: 'done' }>>();
const keys = new Map<string, string>();
const useAnswers = create<{ version: number }>(() => ({ version: 0 }));

let worker: Worker | null = null;
const unavailable = typeof Worker === 'undefined';
let running: string | null = null;
let runningSince = 0;
let waiting: string | null = null;
/** How long a lint may keep a newer text waiting before it is abandoned. */
const STALE_AFTER_MS = 300;

function quickDone(text: string, outcome: LintOutcome): void {
  if (text !== running || outcome.kind !== 'done') return;
  quickOfRunning = { text, outcome };
  useAnswers.setState((s) => ({ version: s.version + 1 }));
}

function finished(text: string, outcome: LintOutcome): void {
  if (quickOfRunning?.text === text) quickOfRunning = null;
  answers.delete(text);
  answers.set(text, outcome);
  if (answers.size > KEEP) answers.delete(answers.keys().next().value!);
  const key = keys.get(text);
  if (key !== undefined && outcome.kind === 'done') lastDone.set(key, outcome);
  running = null;
  const next = waiting;
  waiting = null;
  if (next !== null && !answers.has(next)) start(next);
  useAnswers.setState((s) => ({ version: s.version + 1 }));
}

function start(text: string): void {
  running = text;
  quickOfRunning = null;
  runningSince = performance.now();
  if (!worker) {
    worker = new LintWorker();
    worker.onmessage = (e: MessageEvent<LintAnswer>) =>
      e.data.partial ? quickDone(e.data.text, e.data.outcome) : finished(e.data.text, e.data.outcome);
    worker.onerror = (e) => {
      // The worker itself died (out of memory, a blocked script): say so for this text, start
      // a fresh worker for the next one.
      e.preventDefault();
      worker?.terminate();
      worker = null;
      const message = e.message || 'the lint worker stopped';
      if (running !== null) finished(running, { kind: 'failed', message });
    };
  }
  worker.postMessage({ text, clock: new Date().toISOString() });
}

/** The lint of `text` (a draft of `key` that validates; null when there is nothing to lint). */
function lintDraft(text: string | null, key: string): DraftLint {
  if (text === null) return { kind: 'off' };
  const known = answers.get(text);
  if (known) return known;
  if (unavailable) return { kind: 'unavailable' };
  keys.set(text, key);
  if (keys.size > KEEP * 4) keys.delete(keys.keys().next().value!);
  if (running === null) start(text);
  else if (running !== text) {
    if (performance.now() - runningSince > STALE_AFTER_MS) {
      worker?.terminate();
      worker = null;
      waiting = null;
      start(text);
    } else waiting = text;
  }
  const previous = lastDone.get(key);
  const quick = quickOfRunning?.text === text ? quickOfRunning.outcome : undefined;
  return { kind: 'linting', ...(previous ? { previous } : {}), ...(quick ? { quick } : {}) };
}

/** `lintDraft` for components: re-renders when the answer arrives. */
export function useDraftLint(text: string | null, key: string): DraftLint {
  useAnswers((s) => s.version);
  return lintDraft(text, key);
}
