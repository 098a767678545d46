/**
 * Clicks with a 1 MB reply in the thread, in Chromium (headless): the built SPA served by the
 * reference service, talking directly to the fake deployed service of the browser tests (the only
 * one that answers a reply of any size). A thread with a 1 MB reply (shown whole with "Show all",
 * when the build offers it) and short turns; then, over several repetitions:
 *   - select a turn: from the click on a turn's Trace button to the first animation frame after
 *     that button is pressed and the turn's trace graph is drawn;
 *   - a short turn after it: from the click on Send to the first frame after its reply is shown.
 * Times are taken inside the page (performance.now and requestAnimationFrame).
 *
 *   npx tsx bench/spa-long-reply.ts [--dist DIR] [--reps 10] [--size 1048576] [--plain]
 *     [--step-timeout 120000]
 *
 * `--dist` lets the same bench measure another build (e.g. an older commit's) for comparison.
 */
import { chromium, type Page } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeVendor, VENDOR_KEY } from '../tools/lib/fake-vendor';
import { chromiumLaunchOptions } from '../tools/lib/chromium';
import { argValue } from '../tools/lib/args';
import { machine, today } from '../tools/lib/machine';
import { startServiceProcess } from '../tools/lib/service-process';
import { builtSpa } from './lib/spa';

const REPS = Number(argValue('reps') ?? 10);
const SIZE = Number(argValue('size') ?? 1_048_576);
/** `--plain`: plain paragraphs instead of dense Markdown (bold and a link on every line). */
const PLAIN = process.argv.includes('--plain');
const STEP_TIMEOUT_MS = Number(argValue('step-timeout') ?? 120_000);

function stats(xs: number[]) {
  const s = [...xs].sort((a, b) => a - b);
  return { min: s[0] ?? NaN, median: s[Math.floor(s.length / 2)] ?? NaN, max: s.at(-1) ?? NaN };
}

/** What ends a measurement: a turn selected with its graph drawn, or a turn showing a text. */
type Done = { selected: number } | { turn: number; text: string };

/** Clicks `selector`, then resolves with the time until the first frame after `done` holds. */
async function clickToFrame(page: Page, selector: string, done: Done): Promise<number> {
  return page.evaluate(
    ({ selector, done, timeout }) =>
      new Promise<number>((resolve, reject) => {
        const check = () =>
          'selected' in done
            ? document
                .querySelector(`button[aria-label="Show trace of turn ${done.selected}"]`)
                ?.getAttribute('aria-pressed') === 'true' &&
              Boolean(
                document.querySelector(
                  `[aria-label="Trace graph of turn ${done.selected}"] [data-kind="decision"]`,
                ),
              )
            : Boolean(
                document.querySelector(`[aria-label="Turn ${done.turn}"]`)?.textContent?.includes(done.text),
              );
        const target = document.querySelector<HTMLElement>(selector);
        if (!target) return reject(new Error(`nothing matches ${selector}`));
        const t0 = performance.now();
        const limit = setTimeout(
          () => reject(new Error(`not done after ${timeout} ms: ${JSON.stringify(done)}`)),
          timeout,
        );
        const poll = () => {
          if (check()) {
            requestAnimationFrame(() => {
              clearTimeout(limit);
              resolve(performance.now() - t0);
            });
          } else requestAnimationFrame(poll);
        };
        target.click();
        requestAnimationFrame(poll);
      }),
    { selector, done, timeout: STEP_TIMEOUT_MS },
  );
}

async function send(page: Page, text: string, turn: number): Promise<number> {
  await page.getByRole('textbox', { name: 'Message' }).fill(text);
  return clickToFrame(page, 'button[aria-label="Send"]', { turn, text: `You said: ${text}` });
}

async function main() {
  const work = mkdtempSync(join(tmpdir(), 'threadline-bench-long-'));
  const dist = builtSpa(work);
  const service = await startServiceProcess({
    data: join(work, 'data'),
    keys: 'bench-key=*',
    dist,
    echoStderr: true,
  });
  const vendor = await startFakeVendor();
  const browser = await chromium.launch(chromiumLaunchOptions);
  const select: number[] = [];
  const shortTurn: number[] = [];
  let expanded = false;
  try {
    const page = await (await browser.newContext({ viewport: { width: 1600, height: 1000 } })).newPage();
    page.setDefaultTimeout(STEP_TIMEOUT_MS);
    // tsx keeps function names with a `__name` helper that the page does not have.
    await page.addInitScript({ content: 'window.__name = (f) => f;' });
    await page.goto(`${service.url}/`);
    await page.getByLabel('Base URL').fill(vendor.url);
    await page.getByLabel('API key header').fill('x-aui-api-key');
    await page.getByLabel('API key', { exact: true }).fill(VENDOR_KEY);
    await page.getByLabel('Agent', { exact: true }).fill('bench-agent');
    await page.getByRole('button', { name: 'Start a thread' }).click();
    await page.waitForURL(/[?&]task=/);

    await page.getByRole('textbox', { name: 'Message' }).fill(`huge ${PLAIN ? 'plain ' : ''}${SIZE}`);
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByRole('button', { name: 'Show trace of turn 1' }).waitFor();
    const showAll = page.getByRole('button', { name: /^Show all/ });
    if (await showAll.count()) {
      await showAll.click();
      await page.getByRole('button', { name: 'Show less' }).waitFor();
      expanded = true;
    }
    let turns = 1;
    for (const text of ['first short', 'second short']) {
      turns += 1;
      await send(page, text, turns);
    }
    for (let i = 0; i < REPS; i += 1) {
      // Alternate between the two short turns: each click changes the selection.
      const n = 2 + (i % 2);
      select.push(await clickToFrame(page, `button[aria-label="Show trace of turn ${n}"]`, { selected: n }));
    }
    for (let i = 0; i < Math.min(REPS, 5); i += 1) {
      turns += 1;
      shortTurn.push(await send(page, `short ${i}`, turns));
    }
  } finally {
    await browser.close();
    await vendor.close();
    await service.stop();
    rmSync(work, { recursive: true, force: true });
  }
  const row = (name: string, xs: number[]) => {
    const s = stats(xs);
    return `| ${name} | ${xs.length} | ${s.median.toFixed(0)} ms | ${s.min.toFixed(0)} ms | ${s.max.toFixed(0)} ms |`;
  };
  const m = machine();
  console.log(
    `${today()} · ${m} · reply of ${SIZE.toLocaleString('en-US')} characters of ${PLAIN ? 'plain text' : 'dense Markdown'}${expanded ? ', shown whole' : ''}`,
  );
  console.log('| case | runs | median | min | max |');
  console.log('|---|---|---|---|---|');
  console.log(row('click a turn’s Trace → pressed and its graph drawn (next frame)', select));
  console.log(row('click Send (short turn) → its reply shown (next frame)', shortTurn));
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
