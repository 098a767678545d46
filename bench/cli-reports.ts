/**
 * `threadline test` as CI runs it, one process per run, on suites of card-disputes cases (5 turns
 * each, the expectations recorded from a first run as "Save as test" would): the wall time from
 * spawn to exit, when the report's first byte arrived, the report's size and the process's peak
 * resident set size, per reporter (json and text to stdout, junit to a file with --output).
 *
 *   npx tsx bench/cli-reports.ts [--sizes 500,20000] [--reps 3] [--big-reps 1] [--cli cli/threadline.mjs]
 *
 * `--reps` runs per reporter for suites of up to 1,000 cases, `--big-reps` for larger ones;
 * `--cli` another checkout's launcher (to measure code before a change on the same suites).
 * Prints a Markdown table.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { runSuite, serializeTestCase, type SuiteCase } from '../src/lib/test-cases';
import { embeddedDriver } from '../cli/embedded-driver';
import { exampleBundle } from '../server/agents/converse';
import { argValue, numberArg } from '../tools/lib/args';
import { benchCase, median } from './lib/suite-cases';
import { machine, today } from '../tools/lib/machine';

const SIZES = (argValue('sizes') ?? '500,20000').split(',').map(Number);
const REPS = numberArg('reps', 3);
const BIG_REPS = numberArg('big-reps', 1);
const CLI = resolve(argValue('cli') ?? 'cli/threadline.mjs');
const PEAK_RSS = pathToFileURL(resolve('bench/lib/peak-rss.mjs')).href;
const CHUNK = 500;

/** Writes `n` recorded cases into `dir`, recording them in chunks so the benchmark's memory stays small. */
async function writeSuite(dir: string, n: number) {
  const driver = embeddedDriver(exampleBundle('card-disputes'));
  for (let from = 0; from < n; from += CHUNK) {
    const drafts: SuiteCase[] = [];
    for (let i = from; i < Math.min(n, from + CHUNK); i++)
      drafts.push({ source: `case-${String(i).padStart(6, '0')}.case.json`, testCase: benchCase(i) });
    const first = await runSuite(driver, drafts);
    drafts.forEach((d, k) => {
      const testCase = {
        ...d.testCase,
        turns: first[k]!.turns.map((t) => ({
          say: t.say,
          expect: {
            decision: t.observed.trace.decision,
            rules: Object.fromEntries(t.observed.trace.rules_evaluated.map((r) => [r.rule_id, r.result])),
          },
        })),
      };
      writeFileSync(join(dir, d.source), serializeTestCase(testCase));
    });
  }
}

interface Run {
  wallMs: number;
  firstByteMs: number | null;
  bytes: number;
  peakRss: number;
  exit: string;
}

function vmHwm(pid: number): number {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** One run of the CLI; the report goes to stdout, or to `output` when given. */
function runCli(suite: string, reporter: string, output: string | undefined, work: string): Promise<Run> {
  const rssFile = join(work, 'peak-rss');
  rmSync(rssFile, { force: true });
  const args = ['--import', PEAK_RSS, CLI, 'test', suite, '--reporter', reporter];
  if (output) args.push('--output', output);
  const t0 = performance.now();
  const child = spawn(process.execPath, args, {
    env: { ...process.env, PEAK_RSS_FILE: rssFile },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let bytes = 0;
  let firstByteMs: number | null = null;
  let stderr = '';
  let hwm = 0;
  // The kernel's peak so far, in case the process dies before its exit handler runs.
  const poll = setInterval(() => (hwm = Math.max(hwm, vmHwm(child.pid!))), 100);
  child.stdout.on('data', (chunk: Buffer) => {
    firstByteMs ??= performance.now() - t0;
    bytes += chunk.length;
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
  return new Promise((done) =>
    child.on('close', (code, signal) => {
      clearInterval(poll);
      const wallMs = performance.now() - t0;
      const peakRss = existsSync(rssFile) ? Number(readFileSync(rssFile, 'utf8')) : hwm;
      // 1 is a failing suite, unless the process died of an uncaught error (which also exits 1).
      const crashed = (code !== 0 && code !== 1) || /^\w*Error\b/m.test(stderr);
      if (crashed) process.stderr.write(`exit ${code ?? signal}: ${stderr}\n`);
      const reportBytes = output && existsSync(output) ? statSync(output).size : bytes;
      done({
        wallMs,
        firstByteMs: output ? null : firstByteMs,
        bytes: reportBytes,
        peakRss,
        exit: crashed ? `crashed (${/RangeError[^\n]*/.exec(stderr)?.[0] ?? code ?? signal})` : String(code),
      });
    }),
  );
}

const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const mb = (b: number) => `${Math.round(b / 2 ** 20)} MB`;

const work = mkdtempSync(join(tmpdir(), 'threadline-bench-cli-'));
try {
  console.log(machine());
  console.log(`launcher: ${CLI}`);
  console.log(
    '| date | cases | reporter → where | reps | wall, min | wall, median | first byte, median | peak RSS, max | report | exit | load average after |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|');
  for (const n of SIZES) {
    const suite = join(work, `suite-${n}`);
    mkdirSync(suite);
    await writeSuite(suite, n);
    const reps = n > 1000 ? BIG_REPS : REPS;
    for (const [reporter, toFile] of [
      ['json', false],
      ['junit', true],
      ['text', false],
    ] as const) {
      const runs: Run[] = [];
      for (let rep = 0; rep < reps; rep++)
        runs.push(await runCli(suite, reporter, toFile ? join(work, 'report.xml') : undefined, work));
      const walls = runs.map((r) => r.wallMs);
      const firsts = runs.flatMap((r) => (r.firstByteMs === null ? [] : [r.firstByteMs]));
      console.log(
        `| ${today()} | ${n.toLocaleString('en')} | ${reporter} → ${toFile ? 'file' : 'stdout'} | ${reps} | ${s(Math.min(...walls))} | ${s(median(walls))} | ${firsts.length ? s(median(firsts)) : '–'} | ${mb(Math.max(...runs.map((r) => r.peakRss)))} | ${mb(runs[0]!.bytes)} | ${[...new Set(runs.map((r) => r.exit))].join(', ')} | ${loadavg()[0]!.toFixed(1)} |`,
      );
    }
    rmSync(suite, { recursive: true, force: true });
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
