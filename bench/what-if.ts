/**
 * What if and why not on the 5,000-rule generated bundle (200 tools of 20 constraint rules each,
 * 1,000 global rules applied to two tools each, 120 parameters):
 * - the engine's `whatIf` in process (one edit, the turn decided again; the same function a
 *   browser would run), and `whyNot` for the turn;
 * - through `POST /reference/v1/what-if` on the real service (its own process, SQLite), the turn
 *   having run with the bundle sent as `agent_settings_bundle`, with and without `why_not`.
 *
 *   npx tsx bench/what-if.ts [--runs 200]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { Worker } from 'node:worker_threads';
import { join } from 'node:path';
import { engine } from '../engine';
import { whatIf } from '../engine/what-if';
import { whyNot } from '../engine/why-not';
import { numberArg } from '../tools/lib/args';
import { generateBundle, word } from './lib/generated-bundle';
import { machine, today } from '../tools/lib/machine';
import { startServiceProcess } from '../tools/lib/service-process';

const RUNS = numberArg('runs', 200);
const CLOCK = '2025-03-15T10:00:00.000Z';
const KEY = 'bench-key';
const bundle = generateBundle({ tools: 200, params: 120, globalRules: 1000, rulesPerTool: 20 });
const ask = (tool: number, tail: string) => `I need help with ${word(tool)} ${word(tool + 7)}: ${tail}`;
const SCENARIOS = [
  // Every candidate is tried and none is listed: no single change lifts twelve blocks.
  { name: 'blocked by 12 rules', message: ask(4, '$620 from 40 days ago') },
  { name: 'proceeds', message: ask(7, `$620 from 12 days ago, ID-${1000 + 7 * 3}`) },
];

function figures(samples: number[]) {
  const s = [...samples].sort((a, b) => a - b);
  return { runs: s.length, min: s[0]!, median: s[Math.floor(s.length / 2)]! };
}
const ms = (n: number) => `${n.toFixed(2)} ms`;

function time(runs: number, fn: () => void): number[] {
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    fn();
    out.push(performance.now() - start);
  }
  return out;
}

async function timeAsync(runs: number, fn: () => Promise<void>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    out.push(performance.now() - start);
  }
  return out;
}

/** The state before the turn and the turn the engine records for `message`. */
function recordedTurn(message: string) {
  const state = engine.initialState(bundle, CLOCK, 'u');
  const turn = engine.runTurn({
    bundle,
    state,
    text: message,
    clock: CLOCK,
    interactionId: 'm1',
    userId: 'u',
  });
  return { state, turn };
}

function inProcess(MESSAGE: string) {
  const { state, turn } = recordedTurn(MESSAGE);
  const input = { bundle, state, clock: CLOCK, userId: 'u', recorded: turn.trace };
  const param = Object.keys(turn.trace.understanding?.extracted_params ?? {})[0] ?? 'param-0';
  const edit = (i: number) => [{ code: param, value: i % 2 ? 90 : 620 }];
  whatIf({ ...input, edits: edit(0) }); // warm-up: compiles the bundle once
  const redecide = figures(time(RUNS, () => void whatIf({ ...input, edits: edit(RUNS) })));
  const list = whyNot(input);
  const why = figures(time(Math.max(5, Math.floor(RUNS / 10)), () => void whyNot(input)));
  return { turn, redecide, why, items: list.items.length, rules: turn.trace.rules_evaluated.length, param };
}

/** `whatIf` in a worker thread, each request a round trip of structured-cloned messages (as a Web Worker). */
async function inWorker(MESSAGE: string, param: string) {
  const { state, turn } = recordedTurn(MESSAGE);
  const worker = new Worker(new URL('./lib/what-if-thread.mjs', import.meta.url));
  const ask = (i: number, withBundle = false) =>
    new Promise<void>((resolve) => {
      worker.once('message', () => resolve());
      worker.postMessage({
        ...(withBundle ? { bundle } : {}),
        input: {
          state,
          clock: CLOCK,
          userId: 'u',
          recorded: turn.trace,
          edits: [{ code: param, value: i % 2 ? 90 : 620 }],
        },
        reply: turn.reply,
      });
    });
  try {
    await ask(0, true); // the bundle sent once and compiled in the worker
    let i = 1;
    return figures(await timeAsync(RUNS, () => ask(i++)));
  } finally {
    await worker.terminate();
  }
}

async function throughEndpoint(MESSAGE: string, param: string) {
  const dataDir = mkdtempSync(join(tmpdir(), 'threadline-bench-whatif-'));
  const service = await startServiceProcess({ data: dataDir, keys: `${KEY}=*`, echoStderr: true });
  const headers = { 'x-service-api-key': KEY, 'content-type': 'application/json' };
  const post = async (path: string, body: unknown) => {
    const r = await fetch(`${service.url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
    const text = await r.text();
    if (!r.ok) throw new Error(`${path}: ${r.status} ${text.slice(0, 300)}`);
    return JSON.parse(text) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  };
  try {
    const task = await post('/v1/messaging/tasks', { agent_id: 'card-disputes', user_id: 'u' });
    const sent = await post('/v1/messaging/messages?include_trace=true', {
      type: 'message',
      task_id: task.id,
      text: MESSAGE,
      agent_settings_bundle: bundle,
    });
    const body = (i: number, why_not = false) => ({
      task_id: task.id,
      interaction_id: sent.trace_info.interaction_id,
      edits: [{ code: param, value: i % 2 ? 90 : 620 }],
      why_not,
    });
    await post('/reference/v1/what-if', body(0));
    let i = 0;
    const redecide = figures(
      await timeAsync(RUNS, async () => void (await post('/reference/v1/what-if', body(i++)))),
    );
    const why = figures(
      await timeAsync(
        Math.max(5, Math.floor(RUNS / 10)),
        async () => void (await post('/reference/v1/what-if', body(i++, true))),
      ),
    );
    return { redecide, why };
  } finally {
    await service.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  console.log(`what-if bench, ${today()}: ${machine()}`);
  for (const scenario of SCENARIOS) {
    const local = inProcess(scenario.message);
    console.log(
      `\n${scenario.name}: decision ${local.turn.trace.decision}, ${local.rules} rule evaluations; why-not items: ${local.items}; edited ${local.param}`,
    );
    const threaded = await inWorker(scenario.message, local.param);
    const remote = await throughEndpoint(scenario.message, local.param);
    console.log(`| case | runs | min | median |`);
    console.log(`|---|---|---|---|`);
    const row = (name: string, f: ReturnType<typeof figures>) =>
      console.log(`| ${name} | ${f.runs} | ${ms(f.min)} | ${ms(f.median)} |`);
    row('whatIf in process (one edit)', local.redecide);
    row('whatIf in a worker thread, round trip (one edit)', threaded);
    row('whyNot in process', local.why);
    row('POST /reference/v1/what-if (one edit)', remote.redecide);
    row('POST /reference/v1/what-if with why_not', remote.why);
  }
  console.log(`load average after: ${machine().split('load average ')[1]}`);
}

void main();
