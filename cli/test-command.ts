/**
 * `threadline test`: every case of a suite checked before anything runs, then run (on the embedded
 * engine or through a service) and reported as each finishes, in file order. Cases are read from
 * disk when they run and dropped once reported, so memory does not grow with the suite.
 */
import { existsSync, rmSync, statSync, closeSync, openSync } from 'node:fs';
import type { Bundle } from '../src/contract/bundle';
import { bundleHash } from '../src/lib/bundle/hash';
import { plural } from '../src/lib/format';
import {
  coverage,
  httpDriver,
  runSuite,
  summarize,
  type CaseResult,
  type Driver,
  type SuiteSummary,
} from '../src/lib/test-cases';
import { parseTestArgs } from './args';
import { CoverageTraces } from './coverage-traces';
import { embeddedDriver } from './embedded-driver';
import { readBundle } from './bundle-check';
import { findCaseFiles, readCase, type CaseFile } from './files';
import type { Io } from './io';
import { runInOrder } from './ordered-run';
import { fileSink, outputSink, ReportWriteError, type ReportSink } from './report-sink';
import { suiteReporter } from './reporters';
import { TEST_USAGE } from './usage';

/** Finished cases held at most while an earlier one still runs, per case run at once. */
const WAITING_PER_RUNNING = 8;

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** Why the report cannot be written to `path`, checked before anything runs; or null. */
function unwritable(path: string): string | null {
  try {
    if (existsSync(path) && statSync(path).isDirectory()) return 'it is a folder';
    const existed = existsSync(path);
    closeSync(openSync(path, 'a'));
    if (!existed) rmSync(path);
    return null;
  } catch (e) {
    return message(e);
  }
}

function add(total: SuiteSummary, one: SuiteSummary) {
  for (const key of Object.keys(total) as (keyof SuiteSummary)[]) total[key] += one[key];
}

/** Runs `test …` (the arguments after the command); resolves to the exit status. */
export async function testMain(argv: readonly string[], io: Io): Promise<number> {
  const parsed = parseTestArgs(argv);
  if (parsed.ok === 'help') {
    io.out(`${TEST_USAGE}\n`);
    return 0;
  }
  if (!parsed.ok) {
    io.err(`threadline: ${parsed.error}\n\n${TEST_USAGE}\n`);
    return 2;
  }
  const { args } = parsed;
  const errors: string[] = [];
  const found = findCaseFiles(args.suite);
  let files: CaseFile[] = [];
  if ('error' in found) errors.push(found.error);
  else {
    files = found.files;
    // Every case is checked before any runs (and read again when it runs).
    for (const file of files) {
      const read = readCase(file, found.folder);
      if ('errors' in read) errors.push(...read.errors);
    }
  }
  let bundle: Bundle | undefined;
  if (args.bundle !== undefined) {
    const read = readBundle(args.bundle);
    if ('errors' in read) errors.push(...read.errors);
    else {
      bundle = read.bundle;
      for (const line of read.ignored) io.err(`threadline: ${line}\n`);
    }
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
  const folder = 'folder' in found ? found.folder : undefined;

  const reporter = suiteReporter(args.reporter, args.suite.replace(/[\\/]+$/, ''), files.length);
  const summary: SuiteSummary = { cases: 0, passed: 0, failed: 0, errors: 0, turns: 0, failedTurns: 0 };
  const traces = new CoverageTraces();
  let ms = 0;
  const runCase = async (file: CaseFile): Promise<CaseResult> => {
    const read = readCase(file, folder);
    if ('errors' in read) {
      const error = read.errors.join('; ');
      return { source: file.source, name: file.source, status: 'error', turns: [], error, notes: [], ms: 0 };
    }
    const [result] = await runSuite(driver, [read.case], { concurrency: 1 });
    return result!;
  };

  let sink: ReportSink | undefined;
  try {
    sink = args.output === undefined ? outputSink(io) : fileSink(args.output);
    await sink.write(reporter.head());
    await runInOrder(
      files.length,
      { concurrency: args.concurrency, window: args.concurrency * WAITING_PER_RUNNING },
      (i) => runCase(files[i]!),
      async (result) => {
        add(summary, summarize([result]));
        ms += result.ms;
        for (const turn of result.turns) traces.add(turn.observed.trace);
        await sink!.write(reporter.case(result));
      },
    );
    // Coverage needs the one bundle every case ran with.
    const only = bundle ?? (embedded?.bundles.size === 1 ? [...embedded.bundles][0] : undefined);
    const totals = { summary, ms, ...(only ? { coverage: coverage(only, traces.traces()) } : {}) };
    await sink.write(reporter.tail(totals));
    const head = reporter.finalHead?.(totals);
    if (head) sink.rewriteHead(head);
  } catch (e) {
    if (!(e instanceof ReportWriteError)) throw e;
    io.err(`threadline: the report could not be written to ${args.output}: ${e.message}\n`);
    return 2;
  } finally {
    sink?.close();
  }
  if (args.output !== undefined)
    io.out(
      `${summary.passed} passed, ${summary.failed} failed, ${summary.errors} errors (${plural(summary.cases, 'case')}); report in ${args.output}\n`,
    );
  return summary.failed + summary.errors > 0 ? 1 : 0;
}
