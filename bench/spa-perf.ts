/**
 * The SPA's own speed in Chromium (headless) against the reference service on loopback:
 *   1. first-load JS, gzipped (the entry script and its modulepreloads in the built index.html);
 *   2. Send → rendered graph: from the click on Send to the first animation frame after the new
 *      turn's trace graph (its decision node) is in the document, over several turns;
 *   3. a 500-node trace graph: from the click on the turn's Trace button to the first frame after
 *      all the nodes it draws are in the document (a large graph draws only those in view; their
 *      number is counted once it holds steady on the first showing) (the trace comes from the real engine: a bundle with one
 *      tool and ~480 global rules, sent over the API);
 *   4. frame times while scrolling a 2,000-turn thread (sent over the API) and while appending
 *      turns to it with the composer.
 * All times are taken inside the page with `performance.mark`/`measure` and animation-frame
 * timestamps (no automation overhead), by instrumentation injected with `addInitScript`: the app
 * itself carries no benchmark code.
 *
 *   npx tsx bench/spa-perf.ts [--dist DIR] [--turns 2000] [--sends 10]
 *
 * Prints a Markdown table and one `RESULT {json}` line for scripts/bench.mjs.
 */
import { chromium, type Browser, type Page } from '@playwright/test';
import { chromiumLaunchOptions } from '../scripts/chromium';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { TolerantTrace } from '../src/contract/trace';
import { layoutGraph } from '../src/features/trace-graph/layout';
import { traceToGraph } from '../src/features/trace-graph/trace-to-graph';
import { argValue } from './lib/args';
import { machine, today } from './lib/machine';
import { startService } from './lib/processes';

const THREAD_TURNS = Number(argValue('turns') ?? 2000);
const SENDS = Number(argValue('sends') ?? 10);
const KEY = 'bench-key';
const headers = { 'x-service-api-key': KEY, 'content-type': 'application/json' };

// ---------------------------------------------------------------- in-page instrumentation

/** Injected before the app: records the time of every click on Send, and frame timestamps on demand. */
function instrument() {
  const w = window as unknown as {
    __frames: number[] | null;
    __recordFrames: (on: boolean) => void;
    /** The turn being sent, and when its parts first appeared in the document. */
    __turn: number;
    __stages: { click?: number; turn?: number; graph?: number };
  };
  w.__stages = {};
  document.addEventListener(
    'click',
    (event) => {
      const button = (event.target as Element | null)?.closest?.('button');
      if (button?.getAttribute('aria-label') !== 'Send') return;
      performance.mark('send-click');
      w.__stages = { click: performance.now() };
    },
    true,
  );
  new MutationObserver(() => {
    const st = w.__stages;
    if (st.click === undefined) return;
    if (st.turn === undefined && document.querySelector(`[aria-label="Show trace of turn ${w.__turn}"]`))
      st.turn = performance.now();
    if (
      st.graph === undefined &&
      document.querySelector(`[aria-label="Trace graph of turn ${w.__turn}"] [data-kind="decision"]`)
    )
      st.graph = performance.now();
  }).observe(document, { childList: true, subtree: true });
  w.__frames = null;
  w.__recordFrames = (on: boolean) => {
    if (!on) return;
    const frames: number[] = [];
    w.__frames = frames;
    const tick = (t: number) => {
      if (w.__frames !== frames) return;
      frames.push(t);
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  };
}

/**
 * In the page: waits until `selector` matches at least `count` elements (checked every frame
 * from the `from` mark on), then for the next frame, and measures `from` → that frame.
 */
async function frameAfter(
  page: Page,
  from: string,
  selector: string,
  count: number,
  name: string,
): Promise<number> {
  return page.evaluate(
    ({ from, selector, count, name }) =>
      new Promise<number>((resolve, reject) => {
        const deadline = performance.now() + 30_000;
        const check = () => {
          if (document.querySelectorAll(selector).length >= count) {
            requestAnimationFrame(() => {
              performance.mark(`${name}-end`);
              resolve(performance.measure(name, from, `${name}-end`).duration);
            });
          } else if (performance.now() > deadline) reject(new Error(`${selector} ×${count} never appeared`));
          else requestAnimationFrame(check);
        };
        check();
      }),
    { from, selector, count, name },
  );
}

async function stopFrames(page: Page): Promise<number[]> {
  return page.evaluate(() => {
    const w = window as unknown as { __frames: number[] | null };
    const frames = w.__frames ?? [];
    w.__frames = null;
    return frames.slice(1).map((t, i) => t - frames[i]!);
  });
}

// ---------------------------------------------------------------- figures

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
};
const median = (xs: number[]) => quantile(xs, 0.5);
const round = (x: number, digits = 1) => Math.round(x * 10 ** digits) / 10 ** digits;

interface FrameStats {
  frames: number;
  fps: number;
  medianMs: number;
  p95Ms: number;
  maxMs: number;
  /** Share of frames that took longer than 1.5 × 16.7 ms (a dropped frame at 60 Hz). */
  droppedShare: number;
}
function frameStats(deltas: number[]): FrameStats {
  const total = deltas.reduce((a, b) => a + b, 0);
  return {
    frames: deltas.length,
    fps: round((deltas.length / total) * 1000),
    medianMs: round(median(deltas)),
    p95Ms: round(quantile(deltas, 0.95)),
    maxMs: round(Math.max(...deltas)),
    droppedShare: round(deltas.filter((d) => d > 25).length / deltas.length, 3),
  };
}

function firstLoadGzipKb(dist: string): { kb: number; files: number } {
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const files = [...html.matchAll(/(?:src|href)="\/([^"]+\.js)"/g)].map((m) => m[1]!);
  const bytes = files.reduce((sum, f) => sum + gzipSync(readFileSync(join(dist, f)), { level: 9 }).length, 0);
  return { kb: round(bytes / 1024), files: files.length };
}

// ---------------------------------------------------------------- data through the real API

async function api<T>(url: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(
    `${url}${path}`,
    body === undefined ? { headers } : { method: 'POST', headers, body: JSON.stringify(body) },
  );
  if (!response.ok) throw new Error(`${path}: ${response.status} ${(await response.text()).slice(0, 300)}`);
  return (await response.json()) as T;
}

/** One tool and `rules` global rules that all apply to it: a trace with that many rule evaluations. */
function wideBundle(rules: number) {
  return {
    schema_version: 1,
    general_settings: { name: 'Wide agent' },
    parameters: [
      {
        code: 'order-note',
        description: 'the note for the order',
        type: 'string',
        usage: 'input',
        question: 'Which note?',
      },
    ],
    rules: Array.from({ length: rules }, (_, i) => ({
      code: `GLOBAL_RULE_${i}`,
      description: `Global rule ${i}`,
      applied_to: [],
      when: { method: 'param_value', params: 'order-note', operation: 'eq', value: `never-${i}` },
      then: { action: 'BLOCK', message: `Blocked by rule ${i}` },
    })),
    agent_tools: [
      {
        code: 'PLACE_ORDER',
        name: 'Place an order',
        when_to_use: 'The customer wants to place an order',
        goal: 'Place an order',
        main_tool: true,
        config: { params: { required: ['order-note'] } },
        rules: {
          summary: {
            success: [{ code: 'ORDER_DONE', when: null, then: { action: 'TEXT', message: 'Placed.' } }],
          },
        },
      },
    ],
  };
}

async function openThread(page: Page, base: string, taskId: string): Promise<void> {
  await page.goto(`${base}/?task=${taskId}`);
  const key = page.getByLabel('API key', { exact: true });
  if (await key.isVisible().catch(() => false)) await key.fill(KEY);
}

async function connectAndStart(page: Page, base: string): Promise<string> {
  await page.goto(base);
  await page.getByLabel('API key', { exact: true }).fill(KEY);
  await page.getByLabel('Remember the key on this device').check();
  const agent = page.getByLabel('Agent', { exact: true });
  await agent.and(page.locator('select')).waitFor();
  await agent.selectOption('card-disputes');
  await page.getByRole('button', { name: 'Start a thread' }).click();
  await page.waitForURL(/[?&]task=/);
  return new URL(page.url()).searchParams.get('task')!;
}

/** Where the time from Send to the graph goes: each stage's end, in ms after the click. */
interface Stages {
  requestStart: number;
  answer: number;
  turnShown: number;
  graphInDocument: number;
}
const stages: Stages[] = [];
async function sendAndMeasure(page: Page, turn: number, text: string): Promise<number> {
  await page.getByRole('textbox', { name: 'Message' }).fill(text);
  await page.evaluate((n) => {
    (window as unknown as { __turn: number }).__turn = n;
    performance.clearMarks('send-click');
    performance.clearResourceTimings();
  }, turn);
  await page.getByRole('button', { name: 'Send' }).click();
  const total = await frameAfter(
    page,
    'send-click',
    `[aria-label="Trace graph of turn ${turn}"] [data-kind="decision"]`,
    1,
    `send-to-graph-${turn}`,
  );
  stages.push(
    await page.evaluate(() => {
      const st = (window as unknown as { __stages: { click: number; turn: number; graph: number } }).__stages;
      const post = performance
        .getEntriesByType('resource')
        .find((e) => e.name.includes('/v1/messaging/messages')) as PerformanceResourceTiming | undefined;
      return {
        requestStart: (post?.startTime ?? NaN) - st.click,
        answer: (post?.responseEnd ?? NaN) - st.click,
        turnShown: st.turn - st.click,
        graphInDocument: st.graph - st.click,
      };
    }),
  );
  return total;
}

// ---------------------------------------------------------------- the run

async function main() {
  const work = mkdtempSync(join(tmpdir(), 'threadline-bench-spa-'));
  const givenDist = argValue('dist');
  const dist = givenDist ?? join(work, 'dist');
  if (!givenDist)
    execFileSync('npx', ['vite', 'build', '--logLevel', 'warn', '--outDir', dist], { stdio: 'inherit' });
  const firstLoad = firstLoadGzipKb(dist);
  const service = await startService(join(work, 'data'), KEY, dist);
  let browser: Browser | undefined;
  try {
    browser = await chromium.launch(chromiumLaunchOptions);
    const context = await browser.newContext({ viewport: { width: 1600, height: 1000 } });
    // tsx keeps function names with a `__name` helper that serialised functions carry into the page.
    await context.addInitScript({ content: 'window.__name = (f) => f;' });
    await context.addInitScript(instrument);
    const page = await context.newPage();
    const chromiumVersion = browser.version();

    // 2. Send → rendered graph.
    const taskId = await connectAndStart(page, service.url);
    const texts = [
      'I want to dispute a charge',
      'It was a duplicate charge of $42.50',
      'yesterday',
      'jane@example.com',
      'Yes, go ahead',
      'I want to freeze my card',
      'Show my recent transactions',
      'Hello',
    ];
    const sendToGraph: number[] = [];
    for (let i = 1; i <= SENDS; i += 1)
      sendToGraph.push(await sendAndMeasure(page, i, texts[(i - 1) % texts.length]!));
    void taskId;

    // 3. A 500-node graph from the real engine.
    const RULES = 480;
    const wide = await api<{ id: string }>(service.url, '/v1/messaging/tasks', {
      agent_id: 'card-disputes',
      user_id: 'bench-wide',
    });
    const wideTurn = await api<{ trace_info: TolerantTrace }>(
      service.url,
      '/v1/messaging/messages?include_trace=true',
      {
        type: 'message',
        task_id: wide.id,
        text: 'I want to place an order with the note "gift wrap"',
        agent_settings_bundle: wideBundle(RULES),
      },
    );
    // The same pure code the page runs before React draws anything: trace → model → dagre layout.
    const layoutMs: number[] = [];
    for (let run = 0; run < 5; run += 1) {
      const t0 = performance.now();
      layoutGraph(traceToGraph(wideTurn.trace_info));
      layoutMs.push(performance.now() - t0);
    }
    await api(service.url, '/v1/messaging/messages', { type: 'message', task_id: wide.id, text: 'Hello' });
    await openThread(page, service.url, wide.id);
    const conversation = page.getByRole('log', { name: 'Conversation' });
    await conversation.getByRole('article', { name: 'Turn 2' }).waitFor();
    const graph1 = '[aria-label="Trace graph of turn 1"] .react-flow__node';
    await page.getByRole('button', { name: 'Show trace of turn 1' }).click();
    await page.locator(graph1).first().waitFor();
    // The graph may draw only the nodes in view (after fitting it): count them once the count holds for 500 ms.
    let nodes = await page.locator(graph1).count();
    for (let stable = 0; stable < 5;) {
      await page.waitForTimeout(100);
      const now = await page.locator(graph1).count();
      stable = now === nodes ? stable + 1 : 0;
      nodes = now;
    }
    const modelNodes = traceToGraph(wideTurn.trace_info).nodes.length;
    const bigGraph: number[] = [];
    for (let run = 0; run < 5; run += 1) {
      await page.getByRole('button', { name: 'Show trace of turn 2' }).click();
      await page.locator('[aria-label="Trace graph of turn 2"] [data-kind="decision"]').waitFor();
      await page.evaluate(() => {
        performance.clearMarks('show-big');
        document
          .querySelector('button[aria-label="Show trace of turn 1"]')
          ?.addEventListener('click', () => performance.mark('show-big'), { capture: true, once: true });
      });
      await page.getByRole('button', { name: 'Show trace of turn 1' }).click();
      bigGraph.push(await frameAfter(page, 'show-big', graph1, nodes, `big-graph-${run}`));
    }

    // 4. A 2,000-turn thread: scrolling it and appending to it.
    const long = await api<{ id: string }>(service.url, '/v1/messaging/tasks', {
      agent_id: 'card-disputes',
      user_id: 'bench-long',
    });
    const lines = [
      'I want to dispute a charge',
      'Show my recent transactions',
      'Hello',
      'I want to freeze my card',
    ];
    let sent = 0;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (sent < THREAD_TURNS) {
          const n = sent++;
          await api(service.url, '/v1/messaging/messages', {
            type: 'message',
            task_id: long.id,
            text: `${lines[n % lines.length]} (${n})`,
          });
        }
      }),
    );
    const loadStart = Date.now();
    await openThread(page, service.url, long.id);
    await conversation.getByRole('article', { name: `Turn ${THREAD_TURNS}` }).waitFor({ timeout: 60_000 });
    const openLongMs = Date.now() - loadStart;
    await page.waitForTimeout(500);

    // Scroll from the bottom to the top and back with the mouse wheel.
    const box = (await conversation.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.evaluate(() =>
      (window as unknown as { __recordFrames: (on: boolean) => void }).__recordFrames(true),
    );
    for (let i = 0; i < 150; i += 1) {
      await page.mouse.wheel(0, i < 75 ? -1200 : 1200);
      await page.waitForTimeout(16);
    }
    const scrollFrames = frameStats(await stopFrames(page));

    // Append turns with the composer at the end of the long thread.
    await page.evaluate(() =>
      (window as unknown as { __recordFrames: (on: boolean) => void }).__recordFrames(true),
    );
    const appendToGraph: number[] = [];
    for (let i = 1; i <= 5; i += 1)
      appendToGraph.push(await sendAndMeasure(page, THREAD_TURNS + i, lines[i % lines.length]!));
    const appendFrames = frameStats(await stopFrames(page));

    const result = {
      date: today(),
      machine: machine(),
      chromium: chromiumVersion,
      firstLoad,
      sendToGraph: {
        runs: sendToGraph.length,
        medianMs: round(median(sendToGraph)),
        p95Ms: round(quantile(sendToGraph, 0.95)),
        maxMs: round(Math.max(...sendToGraph)),
        // Medians of each stage's end after the click: request sent, answer in, turn shown, graph in the document.
        stagesMedianMs: Object.fromEntries(
          (['requestStart', 'answer', 'turnShown', 'graphInDocument'] as const).map((k) => [
            k,
            round(median(stages.slice(0, sendToGraph.length).map((x) => x[k]))),
          ]),
        ) as Record<keyof Stages, number>,
      },
      bigGraph: {
        nodes: modelNodes,
        nodesDrawn: nodes,
        rules: RULES,
        runs: bigGraph.length,
        medianMs: round(median(bigGraph)),
        maxMs: round(Math.max(...bigGraph)),
        layoutInNodeMedianMs: round(median(layoutMs)),
      },
      longThread: {
        turns: THREAD_TURNS,
        openMs: openLongMs,
        scroll: scrollFrames,
        append: { ...appendFrames, sendToGraphMedianMs: round(median(appendToGraph)) },
      },
    };
    console.log(`\n${result.date}, ${result.machine}, Chromium ${chromiumVersion} (headless)\n`);
    console.log('| measure | figure | target |');
    console.log('|---|---|---|');
    console.log(`| first-load JS (gzip) | ${firstLoad.kb} KB in ${firstLoad.files} files | 200 KB budget |`);
    console.log(
      `| Send → rendered graph (${result.sendToGraph.runs} turns) | median ${result.sendToGraph.medianMs} ms, p95 ${result.sendToGraph.p95Ms} ms (stage ends, median ms after the click: ${JSON.stringify(result.sendToGraph.stagesMedianMs)}) | < 100 ms |`,
    );
    console.log(
      `| ${modelNodes}-node trace graph render, ${nodes} nodes drawn (${bigGraph.length} runs) | median ${result.bigGraph.medianMs} ms, max ${result.bigGraph.maxMs} ms (of which model + dagre layout, timed in Node: ${result.bigGraph.layoutInNodeMedianMs} ms) | < 200 ms |`,
    );
    console.log(
      `| scroll a ${THREAD_TURNS}-turn thread | ${scrollFrames.fps} fps, frame median ${scrollFrames.medianMs} ms, p95 ${scrollFrames.p95Ms} ms, ${Math.round(scrollFrames.droppedShare * 100)}% over 25 ms | 60 fps |`,
    );
    console.log(
      `| append 5 turns to it | ${appendFrames.fps} fps, frame median ${appendFrames.medianMs} ms, p95 ${appendFrames.p95Ms} ms, max ${appendFrames.maxMs} ms; Send → graph median ${result.longThread.append.sendToGraphMedianMs} ms | 60 fps |`,
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
