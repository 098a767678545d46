/**
 * Runs test cases through a driver (the embedded engine, or a Messaging API service over HTTP)
 * and compares every turn with its expectations. Cases run with bounded concurrency; a run can be
 * cancelled between turns with an AbortSignal.
 */
import {
  compareTurn,
  compareWelcome,
  type Mismatch,
  type ObservedTurn,
  type ObservedWelcome,
} from './compare';
import type { TestCase, TurnExpectation } from './format';

export interface Conversation {
  say(text: string): Promise<ObservedTurn>;
}

export interface StartedConversation {
  conversation: Conversation;
  /** Hash of the bundle the turns run with, when the driver knows it. */
  bundleHash: string | null;
  /** What the reader must know about this run of the case (e.g. the clock was not honoured). */
  notes: string[];
  /** The task the conversation runs in, when the driver has one (a service's task id). */
  taskId?: string;
  /** What the new thread greeted with, when the driver knows it for the bundle under test. */
  welcome?: ObservedWelcome;
}

export interface Driver {
  start(testCase: TestCase): Promise<StartedConversation>;
}

export interface TurnResult {
  say: string;
  expect: TurnExpectation;
  observed: ObservedTurn;
  mismatches: Mismatch[];
}

export interface CaseResult {
  /** Where the case came from (its file name in a suite). */
  source: string;
  name: string;
  /** passed: every expectation held; failed: some did not; error: the case could not run to its end. */
  status: 'passed' | 'failed' | 'error';
  turns: TurnResult[];
  /** Set when status is error. */
  error?: string;
  /** The task the case ran in, when the driver has one: the run can be opened and compared. */
  taskId?: string;
  /** The greeting, when the case expects something of it and the driver reported it. */
  welcome?: { observed: ObservedWelcome; mismatches: Mismatch[] };
  notes: string[];
  ms: number;
}

export interface SuiteCase {
  source: string;
  testCase: TestCase;
}

export interface RunOptions {
  /** Cases run at the same time (default 4). */
  concurrency?: number;
  signal?: AbortSignal;
  onCaseDone?: (result: CaseResult, done: number, total: number) => void;
}

const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e));

async function runCase(driver: Driver, item: SuiteCase, signal?: AbortSignal): Promise<CaseResult> {
  const started = performance.now();
  const { testCase } = item;
  const turns: TurnResult[] = [];
  const notes: string[] = [];
  let taskId: string | undefined;
  let welcome: CaseResult['welcome'];
  const result = (status: CaseResult['status'], error?: string): CaseResult => ({
    source: item.source,
    name: testCase.name,
    status,
    turns,
    ...(error === undefined ? {} : { error }),
    ...(taskId === undefined ? {} : { taskId }),
    ...(welcome === undefined ? {} : { welcome }),
    notes,
    ms: performance.now() - started,
  });
  // A cancelled run starts no new conversation (over HTTP, that would create a task).
  if (signal?.aborted) return result('error', 'cancelled');
  try {
    const run = await driver.start(testCase);
    notes.push(...run.notes);
    taskId = run.taskId;
    if (testCase.bundle_hash && run.bundleHash && run.bundleHash !== testCase.bundle_hash)
      notes.push(
        `ran with bundle ${run.bundleHash.slice(0, 8)}, the case was recorded with ${testCase.bundle_hash.slice(0, 8)}`,
      );
    if (testCase.welcome && run.welcome)
      welcome = { observed: run.welcome, mismatches: compareWelcome(testCase.welcome, run.welcome) };
    else if (testCase.welcome && !run.notes.some((n) => n.startsWith('the welcome')))
      notes.push('the welcome was not checked: this run does not report the greeting');
    for (const [i, turn] of testCase.turns.entries()) {
      if (signal?.aborted) return result('error', 'cancelled');
      let observed: ObservedTurn;
      try {
        observed = await run.conversation.say(turn.say);
      } catch (e) {
        return result('error', `turn ${i + 1} (${JSON.stringify(turn.say)}): ${errorText(e)}`);
      }
      turns.push({
        say: turn.say,
        expect: turn.expect,
        observed,
        mismatches: compareTurn(turn.expect, observed),
      });
    }
  } catch (e) {
    return result('error', errorText(e));
  }
  const failed = turns.some((t) => t.mismatches.length > 0) || (welcome?.mismatches.length ?? 0) > 0;
  return result(failed ? 'failed' : 'passed');
}

/** Runs every case; results come back in the order of `cases`. */
export async function runSuite(
  driver: Driver,
  cases: readonly SuiteCase[],
  options: RunOptions = {},
): Promise<CaseResult[]> {
  const results: CaseResult[] = new Array<CaseResult>(cases.length);
  const concurrency = Math.max(1, Math.min(options.concurrency ?? 4, cases.length));
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < cases.length) {
      const i = next++;
      results[i] = await runCase(driver, cases[i]!, options.signal);
      done += 1;
      options.onCaseDone?.(results[i], done, cases.length);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return results;
}

export interface SuiteSummary {
  cases: number;
  passed: number;
  failed: number;
  errors: number;
  turns: number;
  failedTurns: number;
}

export function summarize(results: readonly CaseResult[]): SuiteSummary {
  let passed = 0;
  let failed = 0;
  let errors = 0;
  let turns = 0;
  let failedTurns = 0;
  for (const r of results) {
    if (r.status === 'passed') passed += 1;
    else if (r.status === 'failed') failed += 1;
    else errors += 1;
    turns += r.turns.length;
    failedTurns += r.turns.filter((t) => t.mismatches.length > 0).length;
  }
  return { cases: results.length, passed, failed, errors, turns, failedTurns };
}
