/**
 * The lint of a draft, off the main thread: `{ text, clock }` in, `{ text, outcome }` out (see
 * lint-runner.ts). Only drafts that validate are sent here; the engine's `lintBundle` decides each
 * finding, so it runs in this worker, never on the page's thread.
 */
import type { LintResponse } from '../../contract/analysis';
import type { Bundle } from '../../contract/bundle';
import { lintBundle } from '../../../engine/analysis';

/** What a lint came to: the engine's findings (at the clock it ran at), or why it could not run. */
export type LintOutcome =
  { kind: 'done'; response: LintResponse; clock: string } | { kind: 'failed'; message: string };

self.onmessage = (event: MessageEvent<{ text: string; clock: string }>) => {
  const { text, clock } = event.data;
  let outcome: LintOutcome;
  try {
    outcome = { kind: 'done', clock, response: lintBundle(JSON.parse(text) as Bundle, { clock }) };
  } catch (e) {
    outcome = { kind: 'failed', message: e instanceof Error ? e.message : String(e) };
  }
  self.postMessage({ text, outcome });
};
