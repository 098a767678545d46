/**
 * The impact preview in real Chromium against the reference service: N saved card-disputes
 * cases × 5 turns in the agent's suite (100 unless `--cases` names one or more sizes, e.g.
 * `--cases 125,250,500,1000`, each with its own service and browser), the bundle editor open,
 * DISPUTE_WINDOW's value retyped (a new draft each time); measured from the last keystroke to
 * "This draft changes K of N" on screen for that draft. The figure includes the draft's validation
 * in the editor's worker, the impact request (both replays in the service) and rendering; the
 * request's own share is read from the page's resource timing.
 *
 * Two clocks: "in the page" is the keydown event's time to the next frame after the preview turned
 * to `done` (a MutationObserver in the page); "as the script sees it" is the script's own clock
 * from the key press to the page's answer (adds the round trips to the browser).
 *
 *   npx tsx bench/spa-impact-preview.ts [--reps 5] [--cases 100] [--dist DIR]
 */
import { chromium, type Browser, type Page } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromiumLaunchOptions } from '../tools/lib/chromium';
import { argValue, numberArg } from '../tools/lib/args';
import { machine, today } from '../tools/lib/machine';
import { startServiceProcess } from '../tools/lib/service-process';
import { builtSpa, goToDisputeWindowValue, startThreadIn } from './lib/spa';
import { benchCase, median } from './lib/suite-cases';

const REPS = Math.min(numberArg('reps', 5), 7);
const SIZES = (argValue('cases') ?? '100').split(',').map(Number);
const KEY = 'bench-key';

/** The suite in the suites store's persisted form (IndexedDB, idb-keyval's default database). */
async function seedSuite(page: Page, size: number) {
  const cases = Array.from({ length: size }, (_, i) => benchCase(i));
  await page.evaluate(async (list) => {
    const value = {
      state: {
        suites: {
          'card-disputes': list.map((testCase, i) => ({
            id: `bench-${i}`,
            file: `case-${i}.case.json`,
            testCase,
            addedAt: new Date().toISOString(),
          })),
        },
      },
      version: 1,
    };
    await new Promise<void>((resolve, reject) => {
      const open = indexedDB.open('keyval-store');
      open.onupgradeneeded = () => open.result.createObjectStore('keyval');
      open.onerror = () => reject(new Error(String(open.error)));
      open.onsuccess = () => {
        const tx = open.result.transaction('keyval', 'readwrite');
        tx.objectStore('keyval').put(value, 'threadline:test-suites');
        tx.oncomplete = () => resolve();
        tx.onerror = () => reject(new Error(String(tx.error)));
      };
    });
  }, cases);
}

async function openEditorAtWindow(page: Page, base: string) {
  await startThreadIn(page, base, KEY);
  await page.getByRole('tab', { name: 'Bundle' }).click();
  await page
    .locator('[data-editor-ready="true"] .view-lines .view-line')
    .first()
    .waitFor({ timeout: 60_000 });
  await page.getByTestId('impact-preview').and(page.locator('[data-state="no-draft"]')).waitFor();
  await goToDisputeWindowValue(page, base, KEY);
}

/**
 * Resolves in the page with the time from the next keydown to the frame after the preview shows
 * `done` again, having been `counting` since that key.
 */
async function armKeystrokeTimer(page: Page) {
  await page.evaluate(() => {
    const w = window as unknown as { impactShown?: Promise<number> };
    w.impactShown = new Promise<number>((resolve) => {
      const el = document.querySelector<HTMLElement>('[data-testid="impact-preview"]')!;
      let t0 = NaN;
      let counting = false;
      // Listeners inline: a named function here would carry the script runner's helper along.
      document.addEventListener(
        'keydown',
        (e) => {
          t0 = e.timeStamp;
          counting = el.dataset.state === 'counting';
        },
        { capture: true, once: true },
      );
      const observer = new MutationObserver(() => {
        if (Number.isNaN(t0)) return;
        if (el.dataset.state === 'counting') counting = true;
        else if (counting && el.dataset.state === 'done') {
          observer.disconnect();
          requestAnimationFrame(() => resolve(performance.now() - t0));
        }
      });
      observer.observe(el, { attributes: true, attributeFilter: ['data-state'] });
    });
  });
}

interface SizeFigures {
  size: number;
  shown: number[];
  inPage: number[];
  request: number[];
  counts: string[];
  load: [number, number];
}

async function measureSize(size: number): Promise<SizeFigures> {
  const work = mkdtempSync(join(tmpdir(), 'threadline-bench-impact-'));
  const dist = builtSpa(work);
  const service = await startServiceProcess({
    data: join(work, 'data'),
    keys: `${KEY}=*`,
    dist,
    echoStderr: true,
  });
  let browser: Browser | undefined;
  const shown: number[] = [];
  const inPage: number[] = [];
  const request: number[] = [];
  const counts: string[] = [];
  const loadBefore = loadavg()[0]!;
  try {
    browser = await chromium.launch(chromiumLaunchOptions);
    const context = await browser.newContext({ viewport: { width: 1600, height: 1000 } });
    const page = await context.newPage();
    await page.goto(service.url);
    await seedSuite(page, size);
    await openEditorAtWindow(page, service.url);
    const preview = page.getByTestId('impact-preview');
    // One warm-up edit, then REPS timed ones; each value once, so no answer comes from a cache.
    for (let rep = 0; rep <= REPS; rep++) {
      const digit = String(rep + 1);
      await page.keyboard.press('Backspace');
      await armKeystrokeTimer(page);
      const t0 = performance.now();
      await page.keyboard.press(digit);
      const pageMs = await page.evaluate(
        () => (window as unknown as { impactShown: Promise<number> }).impactShown,
      );
      const ms = performance.now() - t0;
      await preview.and(page.locator('[data-state="done"]')).waitFor();
      const last = await page.evaluate(() => {
        const entries = performance.getEntriesByType('resource').filter((e) => e.name.includes('/impact'));
        return entries.at(-1)?.duration ?? NaN;
      });
      if (rep === 0) continue;
      shown.push(ms);
      inPage.push(pageMs);
      request.push(last);
      counts.push((await page.getByTestId('impact-count').textContent()) ?? '');
    }
    await context.close();
  } finally {
    await browser?.close();
    await service.stop();
    rmSync(work, { recursive: true, force: true });
  }
  return { size, shown, inPage, request, counts, load: [loadBefore, loadavg()[0]!] };
}

async function main() {
  const figures: SizeFigures[] = [];
  for (const size of SIZES) figures.push(await measureSize(size));
  const f = (x: number) => `${x.toFixed(0)} ms`;
  console.log(machine());
  for (const { size, counts } of figures)
    console.log(
      `${size} cases, counts shown: ${counts.map((c) => /changes (\d+ of \d+)/.exec(c)?.[1]).join(', ')}`,
    );
  console.log('| date | measure | cases × turns | reps | min | median | load average before → after |');
  console.log('|---|---|---|---|---|---|---|');
  for (const { size, shown, inPage, request, load } of figures) {
    const row = (label: string, xs: number[]) =>
      console.log(
        `| ${today()} | ${label} | ${size} × 5 | ${xs.length} | ${f(Math.min(...xs))} | ${f(median(xs))} | ${load[0].toFixed(1)} → ${load[1].toFixed(1)} |`,
      );
    row('last keystroke → count on screen, in the page', inPage);
    row('the same as the script sees it', shown);
    row('of which the impact request (resource timing)', request);
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
