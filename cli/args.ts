/** The command line of `threadline test` (and the usage of every command). */
import { REPORTERS, type ReporterName } from '../src/lib/test-cases';

export const USAGE = `Usage: threadline test <suite-folder or case file> [options]
       threadline lint <bundle file or project folder> [--reporter text|json] [--clock ISO]
       threadline diff <base> <head> [--reporter text|json] [--clock ISO]

test runs every *.case.json of the folder and checks each turn against its expectations; lint
and diff analyse bundles (threadline lint --help, threadline diff --help).

Options of test:
  --bundle <file or folder>  run with this bundle (a bundle JSON file, or an agent project folder
                             of *.aui.json files) instead of each case's agent version
  --server <url>             run through this Messaging API service instead of the embedded engine
  --key-env <VAR>            with --server: the environment variable holding the API key
  --reporter <name>          text (default), json or junit
  --output <file>            write the report to this file (a one-line summary goes to stdout)
  --concurrency <n>          cases run at the same time (default 4)

Exit status of test: 0 when every expectation holds, 1 when one fails or a case cannot run, 2 for a
usage error, an invalid case or an invalid bundle.`;

export interface TestArgs {
  suite: string;
  bundle?: string;
  server?: string;
  keyEnv?: string;
  reporter: ReporterName;
  output?: string;
  concurrency: number;
}

export type Parsed = { ok: true; args: TestArgs } | { ok: false; error: string } | { ok: 'help' };

const VALUED = new Set(['--bundle', '--server', '--key-env', '--reporter', '--output', '--concurrency']);

export function parseArgs(argv: readonly string[]): Parsed {
  if (argv.length === 0 || argv.includes('--help') || argv.includes('-h')) return { ok: 'help' };
  const [command, ...rest] = argv;
  if (command !== 'test')
    return { ok: false, error: `unknown command "${command}" (the commands are: test, lint, diff)` };
  const values = new Map<string, string>();
  const positional: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i]!;
    if (a.startsWith('--')) {
      const [flag, inline] = a.includes('=')
        ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)]
        : [a, undefined];
      if (!VALUED.has(flag)) return { ok: false, error: `unknown option ${flag}` };
      const value = inline ?? rest[++i];
      if (value === undefined || value === '') return { ok: false, error: `${flag} needs a value` };
      values.set(flag, value);
    } else positional.push(a);
  }
  if (positional.length !== 1) return { ok: false, error: 'give exactly one suite folder (or case file)' };
  const reporter = values.get('--reporter') ?? 'text';
  if (!(REPORTERS as readonly string[]).includes(reporter))
    return { ok: false, error: `--reporter must be one of ${REPORTERS.join(', ')}, not "${reporter}"` };
  const concurrency = Number(values.get('--concurrency') ?? 4);
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 64)
    return { ok: false, error: '--concurrency must be a whole number from 1 to 64' };
  const server = values.get('--server');
  const keyEnv = values.get('--key-env');
  if (server !== undefined && keyEnv === undefined)
    return {
      ok: false,
      error: '--server needs --key-env <VAR>, the environment variable holding the API key',
    };
  if (keyEnv !== undefined && server === undefined)
    return { ok: false, error: '--key-env is only used with --server' };
  if (server !== undefined && !/^https?:\/\/[^/]/.test(server))
    return { ok: false, error: `--server must be an http(s) URL, not "${server}"` };
  const args: TestArgs = { suite: positional[0]!, reporter: reporter as ReporterName, concurrency };
  for (const [flag, key] of [
    ['--bundle', 'bundle'],
    ['--server', 'server'],
    ['--key-env', 'keyEnv'],
    ['--output', 'output'],
  ] as const) {
    const v = values.get(flag);
    if (v !== undefined) args[key] = v;
  }
  return { ok: true, args };
}
