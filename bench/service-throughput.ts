/**
 * Throughput of the reference service on loopback: requests/s and latency percentiles for
 * send-message and for the trace GETs, measured with autocannon against `server/main.ts` running
 * as its own process (so the load generator does not share its event loop).
 *
 *   npx tsx bench/service-throughput.ts [--seconds 10] [--connections 10]
 */
import { cpus, tmpdir } from 'node:os';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { numberArg } from '../tools/lib/args';
import { FIVE_TURNS } from './lib/conversation';
import { autocannon, roundRobinSends, type AutocannonRequest } from './lib/autocannon';
import { startServiceProcess } from '../tools/lib/service-process';

const SECONDS = numberArg('seconds', 10);
const CONNECTIONS = numberArg('connections', 10);
const KEY = 'bench-key';
const headers = { 'x-service-api-key': KEY, 'content-type': 'application/json' };

async function post(url: string, path: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as Record<string, unknown>;
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'threadline-bench-'));
  const service = await startServiceProcess({ data: dataDir, keys: `${KEY}=*`, echoStderr: true });
  const { url } = service;
  try {
    // One task keeps exactly five turns for the trace GETs; the others take the sent messages.
    const newTask = async (user: string) =>
      (await post(url, '/v1/messaging/tasks', { agent_id: 'card-disputes', user_id: user })).id as string;
    const traced = await newTask('bench-traces');
    const interactions: string[] = [];
    for (const text of FIVE_TURNS) {
      interactions.push(
        (await post(url, '/v1/messaging/messages', { type: 'message', task_id: traced, text })).id as string,
      );
    }
    const tasks: string[] = [];
    for (let i = 0; i < CONNECTIONS; i += 1) tasks.push(await newTask(`bench-${i}`));

    const bundleResponse = await fetch(`${url}/reference/v1/agents/card-disputes/bundle`, { headers });
    const { bundle } = (await bundleResponse.json()) as { bundle: unknown };

    const scenarios: [string, AutocannonRequest[]][] = [
      [
        'send message (include_trace=true)',
        [
          roundRobinSends(tasks, (n) => ({
            text: `I want to dispute a charge of $${n % 900} from ${n % 20} days ago`,
          })),
        ],
      ],
      [
        'send message with its bundle attached',
        [
          roundRobinSends(tasks, (n) => ({
            text: `I want to dispute a charge of $${n % 900}`,
            agent_settings_bundle: bundle,
          })),
        ],
      ],
      [
        'GET one interaction trace',
        [{ method: 'GET', path: `/v1/messaging/tasks/${traced}/interactions/${interactions[2]}/trace-info` }],
      ],
      [
        'GET all traces of a 5-turn task',
        [{ method: 'GET', path: `/v1/messaging/tasks/${traced}/trace-info` }],
      ],
    ];

    const rows: string[] = [];
    for (const [name, requests] of scenarios) {
      const result = await autocannon({
        url,
        connections: CONNECTIONS,
        duration: SECONDS,
        headers,
        requests,
      });
      if (result.non2xx || result.errors)
        throw new Error(`${name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
      rows.push(
        `| ${name} | ${Math.round(result.requests.average)} | ${result.latency.p50} | ${result.latency.p99} | ${result.requests.total} |`,
      );
    }
    const cpu = cpus()[0]?.model.trim() ?? 'unknown CPU';
    console.log(
      `\n${new Date().toISOString().slice(0, 10)}, Node ${process.versions.node}, ${cpus().length} × ${cpu}, ${CONNECTIONS} connections, ${SECONDS} s each\n`,
    );
    console.log('| scenario | requests/s | p50 ms | p99 ms | requests |');
    console.log('|---|---|---|---|---|');
    for (const row of rows) console.log(row);
  } finally {
    await service.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
