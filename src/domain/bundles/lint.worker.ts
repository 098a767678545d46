/**
 * The lint of a draft, off the main thread: `{ text, clock }` in, two answers out (see
 * lint-runner.ts): first the quick lint (the bundle's shape and each rule's condition, `partial`),
 * then the whole lint with each tool's run decided. Only drafts that validate are sent here; the
 * engine's `lintBundle` decides each finding, so it runs in this worker, never on the page's thread.
 */
import type { LintResponse } from '../../contract/analysis';
import type { Bundle } from '../../contract/bundle';
import { lintBundle } from '../../../engine/analysis';

/** What a lint came to: the engine's findings (at the clock it ran at), or why it could not run. */
export type LintOutcome =
  { kind: 'done'; response: LintResponse; clock: string } | { kind: 'failed'; message: string };

/** One answer: `partial` when the tools' runs are still being decided for this text. */
export interface LintAnswer {
  text: string;
  outcome: LintOutcome;
  partial?: true;
}

const answer = (message: LintAnswer) => self.postMessage(message);

self.onmessage = (event: MessageEvent<{ text: string; clock: string }>) => {
  const { text, clock } = event.data;
  try {
    const bundle = JSON.parse(text) as Bundle;
    const quick = lintBundle(bundle, { clock, toolRuns: false });
    answer({ text, outcome: { kind: 'done', clock, response: quick }, partial: true });
    answer({ text, outcome: { kind: 'done', clock, response: lintBundle(bundle, { clock }) } });
  } catch (e) {
    answer({ text, outcome: { kind: 'failed', message: e instanceof Error ? e.message : String(e) } });
  }
};
