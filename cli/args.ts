/** The command line of `threadline test`. */
import { REPORTERS, type ReporterName } from '../src/lib/test-cases';
import { asksHelp, splitOptions } from './options';

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

/** Reads the arguments after `test`. */
export function parseTestArgs(argv: readonly string[]): Parsed {
  if (asksHelp(argv)) return { ok: 'help' };
  const split = splitOptions(argv, VALUED);
  if ('error' in split) return { ok: false, error: split.error };
  const { values, positional } = split;
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
