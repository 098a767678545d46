/**
 * Sends against their floor, in one run: the real service (`server/main.ts`, its own process,
 * SQLite, request log on) and a bare `node:http` server (`lib/send-floor-server.ts`, its own
 * process) that for each send does the same engine turn of the same example agent and the same
 * SQLite append (turn row, turn index, thread list order) and answers the same JSON, and nothing
 * else. The same autocannon load on each (sends round-robin over one task per connection), in
 * rounds that alternate which goes first; then one trace GET on each (the same SQLite read).
 * Reports requests/s, p50 / p99 per round, the ratio service / floor per round, and the load
 * average before each round.
 *
 *   npx tsx bench/send-floor.ts [--rounds 3] [--seconds 5] [--connections 10] [--parts sends,gets]
 *                               [--profile DIR]
 *
 * `--profile DIR` runs the service with `--cpu-prof` (a `.cpuprofile` per thread in DIR, written
 * when it stops). Prints Markdown tables, and one `RESULT {json}` line.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { argValue, numberArg } from '../tools/lib/args';
import { machine, today } from '../tools/lib/machine';
import { startServiceProcess } from '../tools/lib/service-process';
import { autocannon, roundRobinSends, type AutocannonRequest } from './lib/autocannon';
import { FIVE_TURNS } from './lib/conversation';
import { startSendFloor } from './lib/floor';

const ROUNDS = numberArg('rounds', 3);
const SECONDS = numberArg('seconds', 5);
const CONNECTIONS = numberArg('connections', 10);
const PROFILE = argValue('profile');
/** `--parts sends` measures the sends alone (to profile them), `--parts gets` the trace GETs alone. */
const PARTS = new Set((argValue('parts') ?? 'sends,gets').split(','));
const AGENT = 'card-disputes';
const KEY = 'bench-key';
const headers = { 'x-service-api-key': KEY, 'content-type': 'application/json' };

interface Figures {
  rps: number;
  p50: number;
  p99: number;
}

interface Round {
  round: number;
  load: number;
  first: 'service' | 'floor';
  service: Figures;
  floor: Figures;
  ratio: number;
}

async function post(url: string, path: string, body: unknown): Promise<{ id: string }> {
  const response = await fetch(`${url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
  const text = await response.text();
  if (!response.ok) throw new Error(`${path}: ${response.status} ${text.slice(0, 200)}`);
  return JSON.parse(text) as { id: string };
}

async function load(url: string, requests: AutocannonRequest[], name: string, seconds = SECONDS) {
  const r = await autocannon({ url, connections: CONNECTIONS, duration: seconds, headers, requests });
  if (r.non2xx || r.errors) throw new Error(`${name}: ${r.non2xx} non-2xx answers, ${r.errors} errors`);
  return { rps: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99 };
}

/** One client, one request at a time over a kept-alive connection: each answer's latency, in ms. */
async function sequentialLatencies(url: string, path: string, count: number): Promise<number[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const once = () =>
    new Promise<number>((done, fail) => {
      const started = performance.now();
      const req = request(`${url}${path}`, { agent, headers }, (res) => {
        res.on('data', () => undefined);
        res.on('end', () =>
          res.statusCode === 200
            ? done(performance.now() - started)
            : fail(new Error(`${path}: ${res.statusCode}`)),
        );
      });
      req.on('error', fail);
      req.end();
    });
  const out: number[] = [];
  for (let i = 0; i < count; i += 1) out.push(await once());
  agent.destroy();
  return out;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
/** `min X, median Y` of ratios, or undefined when none were measured. */
const spread = (xs: number[]) =>
  xs.length ? `min ${Math.min(...xs).toFixed(2)}, median ${median(xs).toFixed(2)}` : undefined;
const round3 = (x: number) => Math.round(x * 1000) / 1000;

const sendText = (n: number) => ({
  text: `I want to dispute a charge of $${n % 900} from ${n % 20} days ago`,
});

/** Rounds of the same load on the service and on the floor, alternating which goes first. */
async function rounds(
  name: string,
  service: { url: string; requests: () => AutocannonRequest[] },
  floor: { url: string; requests: () => AutocannonRequest[] },
): Promise<Round[]> {
  // Warm both (the engine's lazily built parts, the JIT: the service runs far more code), not counted.
  await load(service.url, service.requests(), `service: ${name} (warm-up)`, 3);
  await load(floor.url, floor.requests(), `floor: ${name} (warm-up)`, 3);
  const out: Round[] = [];
  for (let round = 1; round <= ROUNDS; round += 1) {
    const first = round % 2 === 1 ? 'service' : 'floor';
    const loadAverage = loadavg()[0]!;
    const figures: Partial<Record<'service' | 'floor', Figures>> = {};
    for (const who of first === 'service'
      ? (['service', 'floor'] as const)
      : (['floor', 'service'] as const)) {
      const side = who === 'service' ? service : floor;
      figures[who] = await load(side.url, side.requests(), `${who}: ${name}`);
    }
    const s = figures.service!;
    const f = figures.floor!;
    out.push({ round, load: loadAverage, first, service: s, floor: f, ratio: s.rps / f.rps });
  }
  return out;
}

function table(title: string, rows: Round[]): string {
  const lines = [
    `${title}`,
    '',
    '| round (first) | load avg | service req/s | p50 / p99 ms | floor req/s | p50 / p99 ms | service / floor req/s | p50 service / floor |',
    '|---|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.round} (${r.first}) | ${r.load.toFixed(1)} | ${r.service.rps} | ${r.service.p50} / ${r.service.p99} | ${r.floor.rps} | ${r.floor.p50} / ${r.floor.p99} | ${r.ratio.toFixed(2)} | ${r.floor.p50 > 0 ? (r.service.p50 / r.floor.p50).toFixed(2) : '—'} |`,
    ),
  ];
  return lines.join('\n');
}

async function main() {
  const work = mkdtempSync(join(tmpdir(), 'threadline-bench-send-floor-'));
  const service = await startServiceProcess({
    data: join(work, 'service'),
    keys: `${KEY}=*`,
    echoStderr: true,
    ...(PROFILE ? { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${resolve(PROFILE)}`] } : {}),
  });
  const floor = await startSendFloor(join(work, 'floor'), CONNECTIONS, AGENT);
  try {
    const tasks: string[] = [];
    for (let i = 0; i < CONNECTIONS; i += 1)
      tasks.push(
        (await post(service.url, '/v1/messaging/tasks', { agent_id: AGENT, user_id: `bench-${i}` })).id,
      );
    const readTask = (
      await post(service.url, '/v1/messaging/tasks', { agent_id: AGENT, user_id: 'bench-read' })
    ).id;
    const interactions: string[] = [];
    for (const text of FIVE_TURNS)
      interactions.push(
        (await post(service.url, '/v1/messaging/messages', { type: 'message', task_id: readTask, text })).id,
      );

    const sends = !PARTS.has('sends')
      ? []
      : await rounds(
          'send message (include_trace=true)',
          { url: service.url, requests: () => [roundRobinSends(tasks, sendText)] },
          { url: floor.url, requests: () => [roundRobinSends(floor.tasks, sendText)] },
        );
    const traceGet = (task: string, interaction: string): AutocannonRequest[] => [
      { method: 'GET', path: `/v1/messaging/tasks/${task}/interactions/${interaction}/trace-info` },
    ];
    const gets = !PARTS.has('gets')
      ? []
      : await rounds(
          "GET one interaction's trace",
          { url: service.url, requests: () => traceGet(readTask, interactions[2]!) },
          { url: floor.url, requests: () => traceGet(floor.readTask, floor.interactions[2]!) },
        );

    // One client, one GET at a time: the latency of the read itself, to the microsecond.
    const SEQUENTIAL = 2000;
    const oneByOne: { round: number; load: number; serviceMs: number; floorMs: number; ratio: number }[] = [];
    for (let round = 1; round <= (PARTS.has('gets') ? ROUNDS : 0); round += 1) {
      const loadAverage = loadavg()[0]!;
      const s = median(
        await sequentialLatencies(service.url, traceGet(readTask, interactions[2]!)[0]!.path!, SEQUENTIAL),
      );
      const f = median(
        await sequentialLatencies(
          floor.url,
          traceGet(floor.readTask, floor.interactions[2]!)[0]!.path!,
          SEQUENTIAL,
        ),
      );
      oneByOne.push({ round, load: loadAverage, serviceMs: round3(s), floorMs: round3(f), ratio: s / f });
    }

    const setup = `${CONNECTIONS} connections, ${SECONDS} s per run, ${ROUNDS} rounds${PROFILE ? ', service under --cpu-prof' : ''}`;
    console.log(`\n${today()}, ${machine()}, ${setup}\n`);
    if (sends.length)
      console.log(
        table(
          'Sends (`POST /v1/messaging/messages?include_trace=true`, example agent card-disputes):',
          sends,
        ),
        '\n',
      );
    if (gets.length)
      console.log(
        table("One trace GET (`GET …/interactions/:id/trace-info`, a five-turn task's third turn):", gets),
      );
    const summary = {
      sendRatio: spread(sends.map((r) => r.ratio)),
      getRatio: spread(gets.map((r) => r.ratio)),
      oneGetLatencyRatio: spread(oneByOne.map((r) => r.ratio)),
    };
    if (oneByOne.length) {
      console.log(`\nOne trace GET, one client, ${SEQUENTIAL} GETs one after the other, median latency:\n`);
      console.log('| round | load avg | service ms | floor ms | service / floor |');
      console.log('|---|---|---|---|---|');
    }
    for (const r of oneByOne)
      console.log(
        `| ${r.round} | ${r.load.toFixed(1)} | ${r.serviceMs} | ${r.floorMs} | ${r.ratio.toFixed(2)} |`,
      );
    console.log(
      [
        ['sends/s service / floor', summary.sendRatio],
        ['trace GETs/s service / floor', summary.getRatio],
        ["one trace GET's latency service / floor", summary.oneGetLatencyRatio],
      ]
        .filter(([, x]) => x)
        .map(([name, x]) => `${name as string}: ${x as string}`)
        .join('; ')
        .replace(/^/, '\n'),
    );
    console.log(
      `RESULT ${JSON.stringify({ date: today(), machine: machine(), setup, sends, gets, oneByOne, summary })}`,
    );
  } finally {
    await floor.stop();
    await service.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
