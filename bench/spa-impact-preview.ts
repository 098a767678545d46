/**
 * The impact preview in real Chromium against the reference service: 100 saved card-disputes
 * cases × 5 turns in the agent's suite, the bundle editor open, DISPUTE_WINDOW's value retyped
 * (a new draft each time); measured from the last keystroke to "This draft changes N of 100"
 * on screen for that draft. The figure includes the preview's 300 ms settling wait, the draft's
 * validation in the editor's worker, the impact request (both replays in the service) and
 * rendering; the request's own share is read from the page's resource timing.
 *
 *   npx tsx bench/spa-impact-preview.ts [--reps 5] [--dist DIR]
 */
import { chromium, type Browser, type Page } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromiumLaunchOptions } from '../tools/lib/chromium';
import { numberArg } from '../tools/lib/args';
import { machine, today } from '../tools/lib/machine';
import { startServiceProcess } from '../tools/lib/service-process';
import { builtSpa, goToDisputeWindowValue, startThreadIn } from './lib/spa';
import { benchCase, median } from './lib/suite-cases';

const REPS = Math.min(numberArg('reps', 5), 7);
const CASES = 100;
const KEY = 'bench-key';

/** The suite in the suites store's persisted form (IndexedDB, idb-keyval's default database). */
async function seedSuite(page: Page) {
  const cases = Array.from({ length: CASES }, (_, i) => benchCase(i));
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

async function main() {
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
  const request: number[] = [];
  const counts: string[] = [];
  const loadBefore = loadavg()[0]!;
  try {
    browser = await chromium.launch(chromiumLaunchOptions);
    const context = await browser.newContext({ viewport: { width: 1600, height: 1000 } });
    const page = await context.newPage();
    await page.goto(service.url);
    await seedSuite(page);
    await openEditorAtWindow(page, service.url);
    const preview = page.getByTestId('impact-preview');
    // One warm-up edit, then REPS timed ones; each value once, so no answer comes from a cache.
    for (let rep = 0; rep <= REPS; rep++) {
      const digit = String(rep + 1);
      await page.keyboard.press('Backspace');
      const t0 = performance.now();
      await page.keyboard.press(digit);
      await preview.and(page.locator('[data-state="counting"]')).waitFor();
      await preview.and(page.locator('[data-state="done"]')).waitFor({ timeout: 60_000 });
      const ms = performance.now() - t0;
      const last = await page.evaluate(() => {
        const entries = performance.getEntriesByType('resource').filter((e) => e.name.includes('/impact'));
        return entries.at(-1)?.duration ?? NaN;
      });
      if (rep === 0) continue;
      shown.push(ms);
      request.push(last);
      counts.push((await page.getByTestId('impact-count').textContent()) ?? '');
    }
    await context.close();
  } finally {
    await browser?.close();
    await service.stop();
    rmSync(work, { recursive: true, force: true });
  }
  const f = (x: number) => `${x.toFixed(0)} ms`;
  console.log(machine());
  console.log(`counts shown: ${counts.map((c) => /changes (\d+ of \d+)/.exec(c)?.[1]).join(', ')}`);
  console.log('| date | measure | cases × turns | reps | min | median | load average before → after |');
  console.log('|---|---|---|---|---|---|---|');
  const row = (label: string, xs: number[]) =>
    console.log(
      `| ${today()} | ${label} | ${CASES} × 5 | ${xs.length} | ${f(Math.min(...xs))} | ${f(median(xs))} | ${loadBefore.toFixed(1)} → ${loadavg()[0]!.toFixed(1)} |`,
    );
  row('last keystroke → count on screen', shown);
  row('of which the impact request (resource timing)', request);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
