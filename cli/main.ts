/**
 * `threadline`: `test` runs a suite of conversation test cases, `lint` and `diff` analyse bundles
 * (`analysis.ts`); each reports for people and for CI.
 */
import { closeSync, existsSync, openSync, rmSync, statSync, writeFileSync } from 'node:fs';
import type { Bundle } from '../src/contract/bundle';
import { bundleHash } from '../src/lib/bundle/hash';
import { plural } from '../src/lib/format';
import {
  coverage,
  httpDriver,
  jsonReport,
  junitReport,
  runSuite,
  summarize,
  textReport,
  type CaseResult,
  type Coverage,
  type Driver,
} from '../src/lib/test-cases';
import { analysisMain } from './analysis';
import { parseArgs, USAGE, type TestArgs } from './args';
import { embeddedDriver } from './embedded-driver';
import { readBundle, readSuite } from './files';
import type { Io } from './io';

export type { Io } from './io';

const processIo: Io = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  env: process.env,
};

/**
 * What reaches the terminal: control characters (an ANSI escape in a case name or a server's
 * message, a carriage return, bidirectional overrides) are dropped; newlines and tabs stay.
 */
export function printable(text: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what is removed
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '');
}

/** Why the report cannot be written to `path`, checked before anything runs; or null. */
function unwritable(path: string): string | null {
  try {
    if (existsSync(path) && statSync(path).isDirectory()) return 'it is a folder';
    const existed = existsSync(path);
    closeSync(openSync(path, 'a'));
    if (!existed) rmSync(path);
    return null;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

function report(args: TestArgs, results: CaseResult[], cov: Coverage | undefined): string {
  switch (args.reporter) {
    case 'text':
      return textReport(results, cov);
    case 'json':
      return jsonReport(results, cov);
    case 'junit':
      return junitReport(results, args.suite.replace(/[\\/]+$/, ''));
  }
}

/** Runs the command; resolves to the exit status. */
export async function main(argv: readonly string[], rawIo: Io = processIo): Promise<number> {
  const io: Io = {
    out: (text) => rawIo.out(printable(text)),
    err: (text) => rawIo.err(printable(text)),
    env: rawIo.env,
  };
  if (argv[0] === 'lint' || argv[0] === 'diff') return analysisMain(argv, io);
  const parsed = parseArgs(argv);
  if (parsed.ok === 'help') {
    io.out(`${USAGE}\n`);
    return 0;
  }
  if (!parsed.ok) {
    io.err(`threadline: ${parsed.error}\n\n${USAGE}\n`);
    return 2;
  }
  const { args } = parsed;
  const suite = readSuite(args.suite);
  let bundle: Bundle | undefined;
  const errors = [...suite.errors];
  if (args.bundle !== undefined) {
    const read = readBundle(args.bundle);
    if ('errors' in read) errors.push(...read.errors);
    else bundle = read.bundle;
  }
  let driver: Driver;
  let embedded: ReturnType<typeof embeddedDriver> | undefined;
  if (args.server !== undefined) {
    const apiKey = io.env[args.keyEnv!];
    if (!apiKey) errors.push(`the environment variable ${args.keyEnv} is not set: it must hold the API key`);
    driver = httpDriver({
      baseUrl: args.server,
      apiKey: apiKey ?? '',
      ...(bundle ? { bundle, bundleHash: bundleHash(bundle) } : {}),
    });
  } else driver = embedded = embeddedDriver(bundle);
  const output = args.output === undefined ? null : unwritable(args.output);
  if (output !== null) errors.push(`the report cannot be written to ${args.output}: ${output}`);
  if (errors.length) {
    io.err(`threadline: nothing was run:\n${errors.map((e) => `  ${e}`).join('\n')}\n`);
    return 2;
  }

  const results = await runSuite(driver, suite.cases, { concurrency: args.concurrency });
  // Coverage needs the one bundle every case ran with.
  const only = bundle ?? (embedded?.bundles.size === 1 ? [...embedded.bundles][0] : undefined);
  const cov = only
    ? coverage(
        only,
        results.flatMap((r) => r.turns.map((t) => t.observed.trace)),
      )
    : undefined;
  const text = report(args, results, cov);
  const s = summarize(results);
  if (args.output !== undefined) {
    try {
      writeFileSync(args.output, text);
    } catch (e) {
      io.err(
        `threadline: the report could not be written to ${args.output}: ${e instanceof Error ? e.message : String(e)}\n`,
      );
      return 2;
    }
    io.out(
      `${s.passed} passed, ${s.failed} failed, ${s.errors} errors (${plural(s.cases, 'case')}); report in ${args.output}\n`,
    );
  } else io.out(text);
  return s.failed + s.errors > 0 ? 1 : 0;
}
