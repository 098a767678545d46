/**
 * What the browser actually fetches to show a screen of the built app: every response the page
 * (and its workers) receives from the app's origin while the screen comes up, until the network
 * is quiet. JavaScript is counted as its gzip size at level 9 (the figure the budget is written
 * in, whatever encoding the server chose), and everything is also counted as the bytes that came
 * over the wire (compressed when the server compressed it, headers included).
 *
 * Two screens: the welcome screen of a first visit, and a link to a thread of one turn opened in a
 * fresh browser (chat, its reply and the turn's trace graph).
 *
 * Once a screen is painted, the app fetches what the first clicks need while the user reads (it
 * marks the moment with the `threadline:prefetch` performance mark). A screen is measured without
 * it (the browser says it saves data, which the app honours), unless asked; then what a request
 * started after that mark is counted apart, as prefetched: it is not part of the screen's load.
 */
import type { Browser, BrowserContext, Page, Response } from '@playwright/test';
import { gzipSync } from 'node:zlib';

/** The app's mark for the start of its idle-time prefetch (src/app/prefetch.ts). */
const PREFETCH_MARK = 'threadline:prefetch';

export interface FetchedFile {
  path: string;
  /** gzip -9 of the decoded body. */
  gzip: number;
  /** Bytes on the wire: the (encoded) body plus the response headers. */
  wire: number;
  encoding: string;
}

export interface Fetched {
  /** JavaScript files fetched (scripts, modules, workers) for the screen, before the prefetch. */
  js: FetchedFile[];
  jsGzip: number;
  /** JavaScript fetched after the screen was painted, ahead of the first clicks. */
  prefetchedJs: FetchedFile[];
  prefetchedJsGzip: number;
  /** ms from navigation to the first contentful paint, and to the prefetch's start (null: none). */
  firstPaintMs: number | null;
  prefetchMs: number | null;
  /** Every response from the app's origin (HTML, JS, CSS, fonts, API answers), on the wire. */
  wireTotal: number;
  requests: number;
}

/** Records every response of the context from `origin` until `stop` is called. */
function record(context: BrowserContext, origin: string) {
  const pending: Array<Promise<{ file: FetchedFile; js: boolean; startedAt: number } | undefined>> = [];
  const onResponse = (response: Response) => {
    const url = new URL(response.url());
    if (url.origin !== origin) return;
    pending.push(
      (async () => {
        const body = await response.body();
        const sizes = await response.request().sizes();
        const headers = await response.allHeaders();
        return {
          // ms since the epoch, as performance.timeOrigin.
          startedAt: response.request().timing().startTime,
          js: /javascript/.test(headers['content-type'] ?? '') || url.pathname.endsWith('.js'),
          file: {
            path: url.pathname,
            gzip: gzipSync(body, { level: 9 }).length,
            wire: sizes.responseBodySize + sizes.responseHeadersSize,
            encoding: headers['content-encoding'] ?? 'identity',
          },
        };
        // A response without a body (a redirect, or one cut short by closing the page) counts nothing.
      })().catch(() => undefined),
    );
  };
  context.on('response', onResponse);
  return async (page: Page): Promise<Fetched> => {
    // (No function declared inside: tsx would name it with a helper the page does not have.)
    const marks = await page.evaluate(
      (name) => ({
        origin: performance.timeOrigin,
        prefetch: performance.getEntriesByName(name)[0]?.startTime ?? null,
        paint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null,
      }),
      PREFETCH_MARK,
    );
    context.off('response', onResponse);
    const all = (await Promise.all(pending)).filter((x) => x !== undefined);
    const prefetchAt = marks.prefetch === null ? Infinity : marks.origin + marks.prefetch;
    const js = all.filter((x) => x.js && x.startedAt < prefetchAt).map((x) => x.file);
    const prefetchedJs = all.filter((x) => x.js && x.startedAt >= prefetchAt).map((x) => x.file);
    return {
      js,
      jsGzip: js.reduce((sum, f) => sum + f.gzip, 0),
      prefetchedJs,
      prefetchedJsGzip: prefetchedJs.reduce((sum, f) => sum + f.gzip, 0),
      firstPaintMs: marks.paint,
      prefetchMs: marks.prefetch,
      wireTotal: all.reduce((sum, x) => sum + x.file.wire, 0),
      requests: all.length,
    };
  };
}

/** Lets lazily started fetches (idle-time prefetches, workers) begin and finish. */
async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(1000);
  await page.waitForLoadState('networkidle');
}

/** A browser context that, unless `prefetch`, tells the page to save data (so it prefetches nothing). */
async function screenContext(browser: Browser, prefetch: boolean): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  if (!prefetch)
    await context.addInitScript(() =>
      Object.defineProperty(navigator, 'connection', { value: { saveData: true }, configurable: true }),
    );
  return context;
}

/** The welcome screen of a first visit (nothing stored in the browser). */
export async function welcomeScreen(
  browser: Browser,
  url: string,
  { prefetch = false } = {},
): Promise<Fetched> {
  const context = await screenContext(browser, prefetch);
  try {
    const stop = record(context, new URL(url).origin);
    const page = await context.newPage();
    await page.goto(url);
    await page.getByRole('heading', { name: 'Talk to an agent, and see why it answers' }).waitFor();
    await page.getByText('No thread open', { exact: true }).waitFor();
    await settle(page);
    return await stop(page);
  } finally {
    await context.close();
  }
}

/** A link to a thread of one turn, opened in a fresh browser, until the turn's graph is drawn. */
export async function oneTurnThread(
  browser: Browser,
  url: string,
  key: string,
  { prefetch = false } = {},
): Promise<Fetched> {
  const headers = { 'x-service-api-key': key, 'content-type': 'application/json' };
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as { id: string };
  };
  const task = await post('/v1/messaging/tasks', { agent_id: 'card-disputes', user_id: 'first-load' });
  await post('/v1/messaging/messages', {
    type: 'message',
    task_id: task.id,
    text: 'I want to dispute a charge',
  });

  const context = await screenContext(browser, prefetch);
  try {
    const stop = record(context, new URL(url).origin);
    const page = await context.newPage();
    await page.goto(`${url}/?task=${task.id}`);
    // A link carries no key: the page asks for one before it opens the thread.
    const gate = page.getByRole('dialog', { name: 'Open a shared thread' });
    await gate.getByLabel('API key', { exact: true }).fill(key);
    await gate.getByRole('button', { name: 'Open the thread' }).click();
    await page.locator('[aria-label="Trace graph of turn 1"] [data-kind="decision"]').waitFor();
    await settle(page);
    return await stop(page);
  } finally {
    await context.close();
  }
}

export const kb = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;
