/**
 * Timings of the debugging loop in real Chromium against the reference service:
 *   1. opening the bundle editor → a ready Monaco (cold: fresh browser context, Monaco's chunk
 *      not cached; warm: the same page, tab switched away and back);
 *   2. clicking "Rerun" → the comparison of the branch with its parent on screen (decision diff
 *      and both graphs), through the branch tree's "Compare with parent".
 *
 *   npx tsx bench/spa-debug-loop.ts [--runs 5] [--dist DIR]
 *
 * Builds the SPA into a temporary folder unless --dist names a built one, and starts
 * `server/main.ts` on a free port. Times are taken in Node around Playwright actions, so they
 * include a few milliseconds of automation overhead; clicks themselves are instantaneous, so the
 * rerun figure is the app's own time (request, branch opening, tree, comparison rendering).
 */
import { chromium, type Browser, type Page } from '@playwright/test';
import { chromiumLaunchOptions } from '../tools/lib/chromium';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { argValue } from '../tools/lib/args';
import { startServiceProcess } from '../tools/lib/service-process';
import { builtSpa, goToDisputeWindowValue, startThreadIn } from './lib/spa';

const RUNS = Number(argValue('runs') ?? 5);
const KEY = 'bench-key';
const BLOCKED_DISPUTE = 'I want to dispute a charge of $120 at Coffee Corner from 10 days ago';

async function timed(action: () => Promise<unknown>, until: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await action();
  await until();
  return performance.now() - t0;
}

async function newThreadWithBlockedTurn(page: Page, base: string): Promise<void> {
  await startThreadIn(page, base, KEY);
  await page.getByRole('textbox', { name: 'Message' }).fill(BLOCKED_DISPUTE);
  await page.getByRole('button', { name: 'Send' }).click();
  await page
    .getByRole('article', { name: 'Turn 1' })
    .getByTitle('Decision: block_with_explanation')
    .waitFor();
}

const editorReady = (page: Page) =>
  page.locator('[data-editor-ready="true"] .view-lines .view-line').first().waitFor();

async function editWindowTo30(page: Page, base: string): Promise<void> {
  await goToDisputeWindowValue(page, base, KEY);
  await page.keyboard.press('Backspace');
  await page.keyboard.type('30');
  await page.getByTestId('bundle-status').filter({ hasText: 'edited' }).waitFor();
}

function stats(xs: number[]): { median: number; min: number; max: number } {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
  return { median: mid, min: s[0]!, max: s.at(-1)! };
}

async function main() {
  const work = mkdtempSync(join(tmpdir(), 'threadline-bench-'));
  const dist = builtSpa(work);
  const service = await startServiceProcess({
    data: join(work, 'data'),
    keys: `${KEY}=*`,
    dist,
    echoStderr: true,
  });
  const { url } = service;
  let browser: Browser | undefined;
  const cold: number[] = [];
  const warm: number[] = [];
  const rerunToCompare: number[] = [];
  const rerunToBranch: number[] = [];
  try {
    browser = await chromium.launch(chromiumLaunchOptions);
    for (let run = 0; run < RUNS; run += 1) {
      const context = await browser.newContext({ viewport: { width: 1600, height: 1000 } });
      const page = await context.newPage();
      await newThreadWithBlockedTurn(page, url);

      cold.push(
        await timed(
          () => page.getByRole('tab', { name: 'Bundle' }).click(),
          () => editorReady(page),
        ),
      );
      await page.getByRole('tab', { name: 'Trace' }).click();
      warm.push(
        await timed(
          () => page.getByRole('tab', { name: 'Bundle' }).click(),
          () => editorReady(page),
        ),
      );

      await editWindowTo30(page, url);
      await page.getByRole('button', { name: 'Rerun from here (turn 1)' }).click();
      const dialog = page.getByRole('dialog', { name: 'Rerun turn 1 as a new branch' });
      await dialog.getByRole('radio', { name: /Current draft/ }).check();
      const t0 = performance.now();
      await dialog.getByRole('button', { name: 'Rerun' }).click();
      await dialog.waitFor({ state: 'detached' });
      rerunToBranch.push(performance.now() - t0);
      await page.getByRole('tab', { name: 'Branches' }).click();
      await page.getByRole('button', { name: 'Compare with parent' }).click();
      const comparison = page.getByRole('region', { name: 'Comparison' });
      await comparison.getByLabel('Decision changed').first().waitFor();
      await comparison
        .getByRole('group', { name: /^Trace graph B/ })
        .locator('[data-kind="decision"]')
        .waitFor();
      rerunToCompare.push(performance.now() - t0);
      await context.close();
    }
  } finally {
    await browser?.close();
    await service.stop();
    rmSync(work, { recursive: true, force: true });
  }
  const row = (name: string, xs: number[]) => {
    const s = stats(xs);
    return `| ${name} | ${xs.length} | ${s.median.toFixed(0)} ms | ${s.min.toFixed(0)} ms | ${s.max.toFixed(0)} ms |`;
  };
  console.log('| case | runs | median | min | max |');
  console.log('|---|---|---|---|---|');
  console.log(row('open the bundle editor → Monaco ready (cold: new context)', cold));
  console.log(row('open the bundle editor → Monaco ready (warm: tab switched back)', warm));
  console.log(row('click Rerun → branch opened', rerunToBranch));
  console.log(row('click Rerun → comparison on screen (decision diff and both graphs)', rerunToCompare));
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
