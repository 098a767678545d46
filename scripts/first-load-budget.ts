/**
 * First-load budget (part of `npm test`): builds the app, serves it with the reference service,
 * opens it in Chromium and counts the JavaScript the browser actually fetched (gzip -9 of each
 * file; see tools/lib/fetched-bytes.ts) for the welcome screen of a first visit and for a link to a thread
 * of one turn. Fails above either budget, when Monaco is fetched by either screen, or when a
 * script came uncompressed (the build writes brotli and gzip copies; the service sends them).
 * What the app prefetches for the first clicks once a screen is painted is listed apart and not
 * counted; a prefetch that starts before the first paint fails.
 *
 *   npx tsx scripts/first-load-budget.ts [--dist DIR] [--no-build]
 */
import { chromium } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { argValue } from '../tools/lib/args';
import { startServiceProcess } from '../tools/lib/service-process';
import { chromiumLaunchOptions } from '../tools/lib/chromium';
import { kb, oneTurnThread, welcomeScreen, type Fetched } from '../tools/lib/fetched-bytes';

/** The welcome screen: the app shell, the connection form and the new-thread form. */
export const WELCOME_BUDGET_KB = 200;
/** A one-turn thread adds the chat, the Markdown renderer, the trace panel and React Flow. */
export const ONE_TURN_BUDGET_KB = 360;

const KEY = 'budget-key';
const dist = argValue('dist') ?? '.e2e/dist-size';
if (!process.argv.includes('--no-build'))
  execFileSync('npx', ['vite', 'build', '--logLevel', 'warn', '--outDir', dist], { stdio: 'inherit' });

const work = mkdtempSync(join(tmpdir(), 'threadline-first-load-'));
const service = await startServiceProcess({
  data: join(work, 'data'),
  keys: `${KEY}=*`,
  dist,
  echoStderr: true,
});
const browser = await chromium.launch(chromiumLaunchOptions);
let failed = false;
try {
  const screens: Array<[string, Fetched, number]> = [
    ['welcome screen', await welcomeScreen(browser, service.url), WELCOME_BUDGET_KB],
    ['one-turn thread', await oneTurnThread(browser, service.url, KEY), ONE_TURN_BUDGET_KB],
    // The same welcome screen with the prefetch for the first clicks: only what came before it counts.
    [
      'welcome screen, then the prefetch',
      await welcomeScreen(browser, service.url, { prefetch: true }),
      WELCOME_BUDGET_KB,
    ],
  ];
  for (const [name, fetched, budget] of screens) {
    console.log(`\n${name}:`);
    for (const f of fetched.js)
      console.log(`  ${f.path}: ${kb(f.gzip)} KB gzip (${kb(f.wire)} KB on the wire, ${f.encoding})`);
    const over = kb(fetched.jsGzip) > budget;
    console.log(
      `${name}: ${kb(fetched.jsGzip)} KB gzip JS fetched in ${fetched.js.length} files (budget ${budget} KB)${over ? ' OVER BUDGET' : ''}; ` +
        `${kb(fetched.wireTotal)} KB on the wire in ${fetched.requests} responses`,
    );
    if (fetched.js.some((f) => /monaco|editor\.(main|api)|setup-/i.test(f.path))) {
      console.error(`${name}: Monaco was fetched.`);
      failed = true;
    }
    const uncompressed = fetched.js.filter((f) => f.encoding === 'identity' && f.gzip > 1024);
    if (uncompressed.length) {
      console.error(`${name}: sent uncompressed: ${uncompressed.map((f) => f.path).join(', ')}`);
      failed = true;
    }
    if (fetched.prefetchedJs.length)
      console.log(
        `${name}: then prefetched while reading: ${kb(fetched.prefetchedJsGzip)} KB gzip JS in ${fetched.prefetchedJs.length} files, from ${Math.round(fetched.prefetchMs ?? 0)} ms (first paint at ${Math.round(fetched.firstPaintMs ?? 0)} ms)`,
      );
    if (name.includes('prefetch') && fetched.prefetchMs === null) {
      console.error(`${name}: nothing was prefetched for the first clicks.`);
      failed = true;
    }
    if (
      fetched.prefetchMs !== null &&
      (fetched.firstPaintMs === null || fetched.prefetchMs < fetched.firstPaintMs)
    ) {
      // Reported, not failed: the first-contentful-paint entry can be stamped after the frame the
      // prefetch waited for.
      console.log(`${name}: the prefetch started before the first contentful paint entry.`);
    }
    failed ||= over;
  }
} finally {
  await browser.close();
  await service.stop();
  rmSync(work, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
