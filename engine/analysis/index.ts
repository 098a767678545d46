/**
 * Lint and semantic diff of bundles: what an edit changes, and what in a bundle is dead, shadowed
 * or contradictory, each finding proven by the engine (see the engine's README, "Lint and the
 * semantic diff").
 */
import type { Bundle } from '../../src/contract/bundle';
import type { DiffResult, LintResponse } from '../../src/contract/analysis';
import { diff } from './diff';
import { lint } from './lint';

export interface AnalysisOptions {
  /** The conversation clock the regions are decided at (ISO-8601): day windows count from it. */
  clock: string;
}

export interface LintOptions extends AnalysisOptions {
  /**
   * Whether each tool's run is decided over its regions (true when omitted). Without it the lint
   * is quick (the bundle's shape and each rule's condition: milliseconds) and finds none of
   * `TOOL_RUN_FINDINGS`, so an editor can show those findings first and the rest when they come.
   */
  toolRuns?: boolean;
}

/** Every finding of a bundle that passed validation. */
export function lintBundle(bundle: Bundle, options: LintOptions): LintResponse {
  return lint(bundle, options.clock, options.toolRuns ?? true);
}

/** What changes from `base` to `head` (two valid bundles of one agent), region by region. */
export function diffBundles(base: Bundle, head: Bundle, options: AnalysisOptions): DiffResult {
  return diff(base, head, options.clock);
}
