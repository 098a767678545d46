/**
 * The first click on a fresh browser, in Chromium against the reference service, each run in a new
 * browser context (empty HTTP cache, nothing stored):
 *   1. the first page's key field: navigation start → the first frame with the API key field in
 *      the document, and the long tasks (> 50 ms) before it;
 *   2. the first Send → graph, the thread having been open for `--read` ms (3 s): click on Send →
 *      the first frame after turn 1's graph (its decision node) is in the document;
 *   3. the Bundle tab's first open, `--read` ms after that graph: click → the first frame with a
 *      ready editor showing its lines; and the long tasks during each of the two clicks.
 * Each click's time is also split into phases (ms after the click, median): the requests made
 * during it (start → end of the response, from resource timing), the moment each awaited element
 * entered the document (a mutation observer), and the frame after.
 * Times are taken inside the page (performance marks, animation frames, a long-task observer),
 * injected with `addInitScript`: the app carries no benchmark code.
 *
 *   npx tsx bench/spa-first-click.ts [--runs 5] [--read 3000] [--dist DIR]
 *
 * Prints a Markdown table and one `RESULT {json}` line.
 */
import { chromium, type Page } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromiumLaunchOptions } from '../tools/lib/chromium';
import { argValue } from '../tools/lib/args';
import { machine, today } from '../tools/lib/machine';
import { startServiceProcess } from '../tools/lib/service-process';
import { builtSpa } from './lib/spa';

const RUNS = Number(argValue('runs') ?? 5);
const READ_MS = Number(argValue('read') ?? 3000);
const KEY = 'bench-key';

/** Injected before the app: the key field's first frame, long tasks, and a mark on each click. */
function instrument() {
  const w = window as unknown as {
    __keyField?: number;
    __longTasks: Array<{ start: number; duration: number }>;
    __watch: string[];
    __seen: Record<string, number>;
  };
  w.__longTasks = [];
  // When each watched selector first matched (set before a click): the commit that drew it.
  w.__watch = [];
  w.__seen = {};
  new MutationObserver(() => {
    for (const selector of w.__watch)
      if (w.__seen[selector] === undefined && document.querySelector(selector))
        w.__seen[selector] = performance.now();
  }).observe(document, { subtree: true, childList: true, attributes: true });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) w.__longTasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: 'longtask', buffered: true });
  const check = () => {
    if (document.querySelector('input[type="password"]')) requestAnimationFrame((t) => (w.__keyField = t));
    else requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
  document.addEventListener(
    'click',
    (event) => {
      const target = (event.target as Element | null)?.closest?.('button, [role="tab"]');
      if (!target) return;
      if (target.getAttribute('aria-label') === 'Send') performance.mark('send-click');
      if (target.getAttribute('role') === 'tab' && target.textContent?.trim() === 'Bundle')
        performance.mark('bundle-click');
    },
    true,
  );
}

/** Watches `selectors` from now on: when each first enters the document (see `frameAfter`). */
async function watch(page: Page, selectors: string[]) {
  await page.evaluate((selectors) => {
    const w = window as unknown as { __watch: string[]; __seen: Record<string, number> };
    w.__watch = selectors;
    w.__seen = {};
  }, selectors);
}

/** A phase of a click: its name and its end, in ms after the click. */
type Phases = Array<[string, number]>;

/**
 * `from` mark → the first frame after `selector` is in the document; with the long tasks between,
 * and the phases: the requests started after the click, the watched selectors' entries, the frame.
 */
async function frameAfter(page: Page, from: string, selector: string) {
  return page.evaluate(
    ({ from, selector }) =>
      new Promise<{ ms: number; longTasks: number[]; phases: Array<[string, number]> }>((resolve, reject) => {
        const deadline = performance.now() + 60_000;
        const check = () => {
          if (document.querySelector(selector)) {
            requestAnimationFrame(() => {
              performance.mark(`${from}-end`);
              const m = performance.measure(`${from}-measure`, from, `${from}-end`);
              const w = window as unknown as {
                __longTasks: Array<{ start: number; duration: number }>;
                __seen: Record<string, number>;
              };
              const tasks = w.__longTasks;
              const at = (t: number) => Math.round(t - m.startTime);
              const requests = performance
                .getEntriesByType('resource')
                .filter((e) => e.startTime >= m.startTime && e.startTime < m.startTime + m.duration)
                .flatMap((e): Array<[string, number]> => {
                  const r = e as PerformanceResourceTiming;
                  const path = new URL(r.name).pathname.replace(/-[\w-]{8}\.(js|css)$/, '.$1');
                  return [
                    [`${r.initiatorType} ${path}: start`, at(r.startTime)],
                    [`${r.initiatorType} ${path}: response end`, at(r.responseEnd)],
                  ];
                });
              const seen = Object.entries(w.__seen).map(([s, t]): [string, number] => [
                `in the document: ${s}`,
                at(t),
              ]);
              const frame: [string, number] = ['the frame after', Math.round(m.duration)];
              resolve({
                phases: [...requests, ...seen, frame].sort((a, b) => a[1] - b[1]),
                ms: m.duration,
                longTasks: tasks
                  .filter((t) => t.start + t.duration > m.startTime && t.start < m.startTime + m.duration)
                  .map((t) => Math.round(t.duration)),
              });
            });
          } else if (performance.now() > deadline) reject(new Error(`${selector} never appeared`));
          else requestAnimationFrame(check);
        };
        check();
      }),
    { from, selector },
  );
}

interface Run {
  keyFieldMs: number;
  keyFieldLongTasks: number[];
  sendMs: number;
  sendLongTasks: number[];
  sendPhases: Phases;
  bundleMs: number;
  bundleLongTasks: number[];
  bundlePhases: Phases;
}

const SEND_GRAPH = '[aria-label="Trace graph of turn 1"] [data-kind="decision"]';
const SEND_WATCH = ['[aria-label="Trace graph of turn 1"]', SEND_GRAPH];
const BUNDLE_EDITOR = '[data-editor-ready="true"] .view-lines .view-line';
const BUNDLE_WATCH = ['.monaco-editor', '.monaco-editor .view-lines .view-line', BUNDLE_EDITOR];

async function oneRun(browser: Awaited<ReturnType<typeof chromium.launch>>, base: string): Promise<Run> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  try {
    await context.addInitScript({ content: 'window.__name = (f) => f;' });
    await context.addInitScript(instrument);
    const page = await context.newPage();
    await page.goto(base);
    await page.waitForFunction(() => (window as unknown as { __keyField?: number }).__keyField !== undefined);
    const first = await page.evaluate(() => {
      const w = window as unknown as {
        __keyField: number;
        __longTasks: Array<{ start: number; duration: number }>;
      };
      return {
        ms: w.__keyField,
        longTasks: w.__longTasks.filter((t) => t.start < w.__keyField).map((t) => Math.round(t.duration)),
      };
    });

    await page.getByLabel('API key', { exact: true }).fill(KEY);
    const agent = page.getByLabel('Agent', { exact: true });
    await agent.and(page.locator('select')).waitFor();
    await agent.selectOption('card-disputes');
    await page.getByRole('button', { name: 'Start a thread' }).click();
    await page.waitForURL(/[?&]task=/);
    await page.getByRole('textbox', { name: 'Message' }).waitFor();
    await page.waitForTimeout(READ_MS);

    await page.getByRole('textbox', { name: 'Message' }).fill('I want to dispute a charge');
    await watch(page, SEND_WATCH);
    await page.getByRole('button', { name: 'Send' }).click();
    const send = await frameAfter(page, 'send-click', SEND_GRAPH);
    await page.waitForTimeout(READ_MS);

    await watch(page, BUNDLE_WATCH);
    await page.getByRole('tab', { name: 'Bundle' }).click();
    const bundle = await frameAfter(page, 'bundle-click', BUNDLE_EDITOR);
    return {
      keyFieldMs: Math.round(first.ms),
      keyFieldLongTasks: first.longTasks,
      sendMs: Math.round(send.ms),
      sendLongTasks: send.longTasks,
      sendPhases: send.phases,
      bundleMs: Math.round(bundle.ms),
      bundleLongTasks: bundle.longTasks,
      bundlePhases: bundle.phases,
    };
  } finally {
    await context.close();
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const minMedian = (xs: number[]) => `${Math.min(...xs)} / ${median(xs)} ms`;
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

async function main() {
  const work = mkdtempSync(join(tmpdir(), 'threadline-bench-first-click-'));
  const dist = builtSpa(work);
  const service = await startServiceProcess({
    data: join(work, 'data'),
    keys: `${KEY}=*`,
    dist,
    echoStderr: true,
  });
  const browser = await chromium.launch(chromiumLaunchOptions);
  const loadBefore = machine();
  const runs: Run[] = [];
  try {
    for (let i = 0; i < RUNS; i += 1) runs.push(await oneRun(browser, service.url));
  } finally {
    await browser.close();
    await service.stop();
    rmSync(work, { recursive: true, force: true });
  }
  const loadAfter = machine().replace(/.*load average /, '');
  const rows: Array<[string, number[], number[][], string]> = [
    ['first page: key field', runs.map((r) => r.keyFieldMs), runs.map((r) => r.keyFieldLongTasks), ''],
    ['first Send → graph', runs.map((r) => r.sendMs), runs.map((r) => r.sendLongTasks), '< 150 ms'],
    ['Bundle tab, first open', runs.map((r) => r.bundleMs), runs.map((r) => r.bundleLongTasks), '< 500 ms'],
  ];
  console.log(`\n${today()} · ${loadBefore} → ${loadAfter} · ${RUNS} fresh browsers · read ${READ_MS} ms\n`);
  console.log('| measure | min / median | long tasks (sum per run: min / median; longest) | target |');
  console.log('|---|---|---|---|');
  for (const [name, ms, tasks, target] of rows) {
    const sums = tasks.map(sum);
    console.log(
      `| ${name} | ${minMedian(ms)} | ${minMedian(sums)}; ${Math.max(0, ...tasks.flat())} ms | ${target} |`,
    );
  }
  for (const [name, phases] of [
    ['first Send', runs.map((r) => r.sendPhases)],
    ['Bundle tab, first open', runs.map((r) => r.bundlePhases)],
  ] as const) {
    console.log(`\n${name}, phase by phase (ms after the click; min / median over the runs that had it)\n`);
    console.log('| phase | ms after the click | runs |');
    console.log('|---|---|---|');
    const byName = new Map<string, number[]>();
    for (const run of phases)
      for (const [phase, ms] of run) byName.set(phase, [...(byName.get(phase) ?? []), ms]);
    const rowsOf = [...byName].sort((a, b) => median(a[1]) - median(b[1]));
    for (const [phase, ms] of rowsOf) console.log(`| ${phase} | ${minMedian(ms)} | ${ms.length} |`);
  }
  console.log(`RESULT ${JSON.stringify({ loadBefore, loadAfter, readMs: READ_MS, runs })}`);
}

await main();
