/**
 * The SPA with thousands of threads in this browser's thread list (Chromium, headless, against the
 * reference service on loopback). For each list size (default 1,000, 2,000 and 4,000 threads,
 * written into the list's IndexedDB storage beside one real thread; 1 = the real thread alone, the
 * baseline):
 *   - reload → list drawn: from the navigation to the first frame in which the thread list shows
 *     its rows (the open thread's row and a seeded one), over `--reloads` reloads;
 *   - Send → graph: from the click on Send (in the real thread, the newest) to the first frame
 *     after the new turn's trace graph (its decision node) is in the document, over `--sends`
 *     sends, with the longest main-thread task seen during each send;
 *   - the rows the list draws (list items in the page), which should not grow with the list.
 * Times are taken inside the page (`performance.now`, animation frames, a long-task observer);
 * the app itself carries no benchmark code.
 *
 *   npx tsx bench/spa-thread-list.ts [--dist DIR] [--threads 1,1000,2000,4000] [--sends 7] [--reloads 3]
 *
 * Prints a Markdown table and one `RESULT {json}` line.
 */
import { chromium, type Browser, type Page } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { argValue } from '../tools/lib/args';
import { chromiumLaunchOptions } from '../tools/lib/chromium';
import { machine, today } from '../tools/lib/machine';
import { startServiceProcess } from '../tools/lib/service-process';
import { seedThreadRecords } from './lib/seed-threads';
import { builtSpa, startThreadIn } from './lib/spa';

const COUNTS = (argValue('threads') ?? '1,1000,2000,4000').split(',').filter(Boolean).map(Number);
const SENDS = Number(argValue('sends') ?? 7);
const RELOADS = Number(argValue('reloads') ?? 3);
const KEY = 'bench-key';
const TEXTS = [
  'I want to dispute a charge',
  'It was a duplicate charge of $42.50',
  'yesterday',
  'jane@example.com',
  'Yes, go ahead',
  'Show my recent transactions',
  'Hello',
];

/** Injected before the app: Send clicks, the list's first drawing, and long tasks. */
function instrument() {
  const w = window as unknown as {
    __click?: number;
    __listDrawn?: number;
    __longest: number;
  };
  w.__longest = 0;
  document.addEventListener(
    'click',
    (event) => {
      const button = (event.target as Element | null)?.closest?.('button');
      if (button?.getAttribute('aria-label') === 'Send') w.__click = performance.now();
    },
    true,
  );
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) w.__longest = Math.max(w.__longest, e.duration);
  }).observe({ type: 'longtask', buffered: true });
  const check = () => {
    const nav = document.querySelector('nav[aria-label="Threads"]');
    const rows = nav?.querySelectorAll('li') ?? [];
    // With seeded threads, wait for one of them (the open thread's row alone may come first).
    const wanted = sessionStorage.getItem('bench-seeded') === 'yes' ? 'Seeded thread' : '';
    const drawn = [...rows].some((li) => li.textContent?.includes(wanted));
    if (drawn) requestAnimationFrame((t) => (w.__listDrawn = t));
    else requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
}

/** `count` threads in the list: the real ones and `count - 1` older seeded ones (page reloaded after). */
async function seedThreads(page: Page, count: number): Promise<void> {
  await page.waitForTimeout(1000); // the list's own writes, which wait for an idle moment
  const seeds = Array.from({ length: count - 1 }, (_, i) => ({
    id: `bench-seed-${String(i).padStart(6, '0')}`,
    title: `Seeded thread ${i}`,
    agent_id: i % 3 ? 'card-disputes' : 'flight-changes',
    created_at: new Date(Date.UTC(2024, 0, 1) + i * 60_000).toISOString(),
  }));
  await seedThreadRecords(page, 'bench-seed-', seeds);
  await page.evaluate((count) => sessionStorage.setItem('bench-seeded', count > 1 ? 'yes' : 'no'), count);
}

/** Navigation → the first frame with the list drawn, in ms. */
async function reloadToList(page: Page): Promise<number> {
  await page.reload();
  await page.waitForFunction(
    () => (window as unknown as { __listDrawn?: number }).__listDrawn !== undefined,
    null,
    {
      timeout: 60_000,
    },
  );
  return page.evaluate(() => (window as unknown as { __listDrawn: number }).__listDrawn);
}

/** Click on Send → the first frame after turn `turn`'s decision node is drawn; and the longest task meanwhile. */
async function sendToGraph(page: Page, turn: number): Promise<{ ms: number; longestTaskMs: number }> {
  await page.getByRole('textbox', { name: 'Message' }).fill(TEXTS[(turn - 1) % TEXTS.length]!);
  await page.evaluate(() => ((window as unknown as { __longest: number }).__longest = 0));
  await page.getByRole('button', { name: 'Send' }).click();
  const ms = await page.evaluate(
    (selector) =>
      new Promise<number>((resolve, reject) => {
        const w = window as unknown as { __click: number };
        const deadline = performance.now() + 30_000;
        const check = () => {
          if (document.querySelector(selector)) requestAnimationFrame((t) => resolve(t - w.__click));
          else if (performance.now() > deadline) reject(new Error(`${selector} never appeared`));
          else requestAnimationFrame(check);
        };
        check();
      }),
    `[aria-label="Trace graph of turn ${turn}"] [data-kind="decision"]`,
  );
  await page.waitForTimeout(300); // let the long-task observer report what the send left behind
  const longestTaskMs = await page.evaluate(() => (window as unknown as { __longest: number }).__longest);
  return { ms, longestTaskMs };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const round = (x: number) => Math.round(x * 10) / 10;
const figure = (xs: number[]) => ({
  runs: xs.length,
  minMs: round(Math.min(...xs)),
  medianMs: round(median(xs)),
});

async function main() {
  const work = mkdtempSync(join(tmpdir(), 'threadline-bench-list-'));
  const dist = builtSpa(work);
  const service = await startServiceProcess({
    data: join(work, 'data'),
    keys: `${KEY}=*`,
    dist,
    echoStderr: true,
  });
  let browser: Browser | undefined;
  try {
    browser = await chromium.launch(chromiumLaunchOptions);
    const context = await browser.newContext({ viewport: { width: 1600, height: 1000 } });
    // tsx keeps function names with a `__name` helper that serialised functions carry into the page.
    await context.addInitScript({ content: 'window.__name = (f) => f;' });
    await context.addInitScript(instrument);
    const page = await context.newPage();
    await startThreadIn(page, service.url, KEY, { remember: true });
    let turn = 0;
    // Two sends before any figure: the graph's chunk and the first send's own costs are paid here.
    for (let i = 0; i < 2; i += 1) await sendToGraph(page, (turn += 1));

    const rows = [];
    for (const count of COUNTS) {
      const loadBefore = loadavg()[0]!;
      await seedThreads(page, count);
      const reloads: number[] = [];
      for (let i = 0; i < RELOADS; i += 1) reloads.push(await reloadToList(page));
      await page.getByRole('article', { name: `Turn ${turn}` }).waitFor({ timeout: 60_000 });
      await page.waitForTimeout(1000);
      const rowsDrawn = await page.getByRole('navigation', { name: 'Threads' }).getByRole('listitem').count();
      const sends: Array<{ ms: number; longestTaskMs: number }> = [];
      for (let i = 0; i < SENDS; i += 1) sends.push(await sendToGraph(page, (turn += 1)));
      rows.push({
        threads: count,
        load: round((loadBefore + loadavg()[0]!) / 2),
        rowsDrawn,
        reloadToList: figure(reloads),
        sendToGraph: figure(sends.map((s) => s.ms)),
        longestTaskMs: round(Math.max(...sends.map((s) => s.longestTaskMs))),
      });
    }

    const result = { date: today(), machine: machine(), chromium: browser.version(), rows };
    console.log(`\n${result.date}, ${result.machine}, Chromium ${result.chromium} (headless)\n`);
    console.log(
      '| threads | load | rows drawn | reload → list drawn: min / median | Send → graph: min / median | longest task in a send |',
    );
    console.log('|---|---|---|---|---|---|');
    for (const r of rows)
      console.log(
        `| ${r.threads} | ${r.load} | ${r.rowsDrawn} | ${r.reloadToList.minMs} / ${r.reloadToList.medianMs} ms (${r.reloadToList.runs}) | ${r.sendToGraph.minMs} / ${r.sendToGraph.medianMs} ms (${r.sendToGraph.runs}) | ${r.longestTaskMs} ms |`,
      );
    console.log(`RESULT ${JSON.stringify(result)}`);
    await context.close();
  } finally {
    await browser?.close();
    await service.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
