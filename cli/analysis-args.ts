/** The command lines of `threadline lint` and `threadline diff`. */
import { ClockDateTime } from '../src/contract/api';
import { asksHelp, splitOptions } from './options';
import { DIFF_USAGE, LINT_USAGE } from './usage';

const ANALYSIS_REPORTERS = ['text', 'json'] as const;
export type AnalysisReporter = (typeof ANALYSIS_REPORTERS)[number];

export type AnalysisArgs =
  | { command: 'lint'; bundle: string; reporter: AnalysisReporter; clock?: string }
  | { command: 'diff'; base: string; head: string; reporter: AnalysisReporter; clock?: string };

export type ParsedAnalysis =
  | { ok: true; args: AnalysisArgs }
  | { ok: false; error: string; usage: string }
  | { ok: 'help'; usage: string };

const VALUED = new Set(['--reporter', '--clock']);

/** Reads `lint …` or `diff …` (the command first). */
export function parseAnalysisArgs(argv: readonly string[]): ParsedAnalysis {
  const [command, ...rest] = argv;
  const usage = command === 'lint' ? LINT_USAGE : DIFF_USAGE;
  if (asksHelp(rest)) return { ok: 'help', usage };
  const fail = (error: string): ParsedAnalysis => ({ ok: false, error, usage });
  const split = splitOptions(rest, VALUED);
  if ('error' in split) return fail(split.error);
  const { values, positional } = split;
  const reporter = values.get('--reporter') ?? 'text';
  if (!(ANALYSIS_REPORTERS as readonly string[]).includes(reporter))
    return fail(`--reporter must be one of ${ANALYSIS_REPORTERS.join(', ')}, not "${reporter}"`);
  const clock = values.get('--clock');
  if (clock !== undefined && !ClockDateTime.safeParse(clock).success)
    return fail(
      `--clock must be an ISO-8601 date-time with its offset (2025-03-01T12:00:00Z), not "${clock}"`,
    );
  const common = { reporter: reporter as AnalysisReporter, ...(clock === undefined ? {} : { clock }) };
  if (command === 'lint') {
    if (positional.length !== 1) return fail('give exactly one bundle file or project folder');
    return { ok: true, args: { command, bundle: positional[0]!, ...common } };
  }
  if (positional.length !== 2) return fail('give two bundles (files or project folders): base and head');
  return { ok: true, args: { command: 'diff', base: positional[0]!, head: positional[1]!, ...common } };
}
