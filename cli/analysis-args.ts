/** The command lines of `threadline lint` and `threadline diff`. */
import { ClockDateTime } from '../src/contract/api';

export const LINT_USAGE = `Usage: threadline lint <bundle file or project folder> [options]

Finds the bundle's dead, always-holding, shadowed and conflicting rules and unreachable messages,
each proven by the engine with a witness (the tool, values and clock that show it).

Options:
  --reporter <name>  text (default) or json (the lint response)
  --clock <ISO>      the conversation clock day windows count from (default: now),
                     e.g. 2025-03-01T12:00:00Z

Exit status: 0 when no finding is an error, 1 when one is, 2 for a usage error or a bundle that
does not validate.`;

export const DIFF_USAGE = `Usage: threadline diff <base> <head> [options]

What changes from base to head (bundle files or project folders of one agent), region by region:
each region of values the tools' rules tell apart that the two decide differently, with a witness.

Options:
  --reporter <name>  text (default) or json (the diff result)
  --clock <ISO>      the conversation clock day windows count from (default: now)

Exit status: 0 when the two are equivalent, 1 when a decision differs (or equivalence could not be
proved within the analysis's limits), 2 for a usage error or a bundle that does not validate.`;

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
  if (rest.includes('--help') || rest.includes('-h')) return { ok: 'help', usage };
  const fail = (error: string): ParsedAnalysis => ({ ok: false, error, usage });
  const values = new Map<string, string>();
  const positional: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i]!;
    if (!a.startsWith('--')) {
      positional.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    const flag = eq === -1 ? a : a.slice(0, eq);
    if (!VALUED.has(flag)) return fail(`unknown option ${flag}`);
    const value = eq === -1 ? rest[++i] : a.slice(eq + 1);
    if (value === undefined || value === '') return fail(`${flag} needs a value`);
    values.set(flag, value);
  }
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
