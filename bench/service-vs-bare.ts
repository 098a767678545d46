/**
 * The service against its physical floor, in one run: requests/s and p50/p99 latency of
 * send-message and the trace GETs on the real service (`server/main.ts`, its own process, SQLite,
 * request log on), each followed at once by the same load on a bare `node:http` server (also its
 * own process) that reads the same request and answers a stored JSON of the same size as the
 * service's answer. The ratio service/bare is the share of the floor the service reaches.
 *
 *   npx tsx bench/service-vs-bare.ts [--seconds 5] [--connections 10]
 *
 * Prints a Markdown table, and one `RESULT {json}` line for scripts/bench.mjs.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { numberArg } from '../tools/lib/args';
import { FIVE_TURNS } from './lib/conversation';
import { autocannon, roundRobinSends, type AutocannonRequest } from './lib/autocannon';
import { machine, today } from '../tools/lib/machine';
import { startServiceProcess } from '../tools/lib/service-process';
import { startBare } from './lib/floor';

const SECONDS = numberArg('seconds', 5);
const CONNECTIONS = numberArg('connections', 10);
const KEY = 'bench-key';
const headers = { 'x-service-api-key': KEY, 'content-type': 'application/json' };

async function fetchJson(url: string, path: string, body?: unknown): Promise<string> {
  const response = await fetch(
    `${url}${path}`,
    body === undefined ? { headers } : { method: 'POST', headers, body: JSON.stringify(body) },
  );
  const text = await response.text();
  if (!response.ok) throw new Error(`${path}: ${response.status} ${text.slice(0, 200)}`);
  return text;
}

interface Row {
  scenario: string;
  bytes: number;
  service: { rps: number; p50: number; p99: number };
  bare: { rps: number; p50: number; p99: number };
  ratio: number;
}

async function load(url: string, requests: AutocannonRequest[], name: string) {
  const r = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, headers, requests });
  if (r.non2xx || r.errors) throw new Error(`${name}: ${r.non2xx} non-2xx answers, ${r.errors} errors`);
  return { rps: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99 };
}

async function main() {
  const work = mkdtempSync(join(tmpdir(), 'threadline-bench-bare-'));
  const service = await startServiceProcess({ data: join(work, 'data'), keys: `${KEY}=*`, echoStderr: true });
  const bares: { stop(): Promise<void> }[] = [];
  try {
    const tasks: string[] = [];
    for (let i = 0; i < CONNECTIONS; i += 1)
      tasks.push(
        (
          JSON.parse(
            await fetchJson(service.url, '/v1/messaging/tasks', {
              agent_id: 'card-disputes',
              user_id: `bench-${i}`,
            }),
          ) as { id: string }
        ).id,
      );
    const readTask = (
      JSON.parse(
        await fetchJson(service.url, '/v1/messaging/tasks', {
          agent_id: 'card-disputes',
          user_id: 'bench-read',
        }),
      ) as { id: string }
    ).id;
    const interactions: string[] = [];
    for (const text of FIVE_TURNS) {
      interactions.push(
        (
          JSON.parse(
            await fetchJson(service.url, '/v1/messaging/messages', {
              type: 'message',
              task_id: readTask,
              text,
            }),
          ) as { id: string }
        ).id,
      );
    }

    const sendRequest = roundRobinSends(tasks, (n) => ({
      text: `I want to dispute a charge of $${n % 900} from ${n % 20} days ago`,
    }));
    const scenarios: { name: string; requests: AutocannonRequest[]; sample: () => Promise<string> }[] = [
      {
        name: 'send message (include_trace=true)',
        requests: [sendRequest],
        sample: () =>
          fetchJson(service.url, '/v1/messaging/messages?include_trace=true', {
            type: 'message',
            task_id: tasks[0],
            text: 'I want to dispute a charge of $120 from 3 days ago',
          }),
      },
      {
        name: "GET one interaction's trace",
        requests: [
          {
            method: 'GET',
            path: `/v1/messaging/tasks/${readTask}/interactions/${interactions[2]}/trace-info`,
          },
        ],
        sample: () =>
          fetchJson(
            service.url,
            `/v1/messaging/tasks/${readTask}/interactions/${interactions[2]}/trace-info`,
          ),
      },
      {
        name: 'GET all traces of a five-turn task',
        requests: [{ method: 'GET', path: `/v1/messaging/tasks/${readTask}/trace-info` }],
        sample: () => fetchJson(service.url, `/v1/messaging/tasks/${readTask}/trace-info`),
      },
    ];

    const rows: Row[] = [];
    for (const [i, scenario] of scenarios.entries()) {
      const sample = await scenario.sample();
      const file = join(work, `answer-${i}.json`);
      writeFileSync(file, sample);
      const bare = await startBare(file);
      bares.push(bare);
      const s = await load(service.url, scenario.requests, `service: ${scenario.name}`);
      const b = await load(bare.url, scenario.requests, `bare: ${scenario.name}`);
      await bare.stop();
      rows.push({
        scenario: scenario.name,
        bytes: Buffer.byteLength(sample),
        service: s,
        bare: b,
        ratio: s.rps / b.rps,
      });
    }

    const setup = `${CONNECTIONS} connections, ${SECONDS} s per run`;
    console.log(`\n${today()}, ${machine()}, ${setup}\n`);
    console.log(
      '| scenario | answer bytes | service req/s | p50 ms | p99 ms | bare req/s | p50 ms | p99 ms | service/bare |',
    );
    console.log('|---|---|---|---|---|---|---|---|---|');
    for (const r of rows) {
      console.log(
        `| ${r.scenario} | ${r.bytes} | ${r.service.rps} | ${r.service.p50} | ${r.service.p99} | ${r.bare.rps} | ${r.bare.p50} | ${r.bare.p99} | ${Math.round(r.ratio * 100)}% |`,
      );
    }
    console.log(`RESULT ${JSON.stringify({ date: today(), machine: machine(), setup, rows })}`);
  } finally {
    await Promise.all(bares.map((b) => b.stop()));
    await service.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
