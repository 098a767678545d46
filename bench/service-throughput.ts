/**
 * Throughput of the reference service on loopback: requests/s and latency percentiles for
 * send-message and for the trace GETs, measured with autocannon against `server/main.ts` running
 * as its own process (so the load generator does not share its event loop).
 *
 *   npx tsx bench/service-throughput.ts [--seconds 10] [--connections 10]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { cpus, tmpdir } from 'node:os';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; average: number };
  non2xx: number;
  errors: number;
}
interface AutocannonRequest {
  method?: string;
  path?: string;
  body?: string;
  headers?: Record<string, string>;
  setupRequest?: (request: AutocannonRequest) => AutocannonRequest;
}
type Autocannon = (options: {
  url: string;
  connections: number;
  duration: number;
  headers?: Record<string, string>;
  requests?: AutocannonRequest[];
}) => Promise<AutocannonResult>;

const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
};
const SECONDS = arg('seconds', 10);
const CONNECTIONS = arg('connections', 10);
const KEY = 'bench-key';
const headers = { 'x-service-api-key': KEY, 'content-type': 'application/json' };

function startService(dataDir: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts', '--port', '0'], {
    env: { ...process.env, THREADLINE_DATA: dataDir, THREADLINE_API_KEYS: `${KEY}=*`, THREADLINE_DIST: join(dataDir, 'no-dist') },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const match = /running at (http:\/\/\S+?)\/?\s/.exec(out);
      if (match) {
        // From here on the request log is noise: drain it without keeping it.
        child.stdout!.off('data', onData);
        child.stdout!.resume();
        resolve({ child, url: match[1]! });
      }
    };
    child.stdout!.on('data', onData);
    child.on('exit', (code) => reject(new Error(`the service exited (${code}):\n${out}`)));
  });
}

async function post(url: string, path: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as Record<string, unknown>;
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'threadline-bench-'));
  const { child, url } = await startService(dataDir);
  try {
    // One task keeps exactly five turns for the trace GETs; the others take the sent messages.
    const newTask = async (user: string) =>
      (await post(url, '/v1/messaging/tasks', { agent_id: 'card-disputes', user_id: user })).id as string;
    const traced = await newTask('bench-traces');
    const interactions: string[] = [];
    for (const text of ['I want to dispute a charge', 'It was a duplicate charge', '$42.50', 'yesterday', 'jane@example.com']) {
      interactions.push((await post(url, '/v1/messaging/messages', { type: 'message', task_id: traced, text })).id as string);
    }
    const tasks: string[] = [];
    for (let i = 0; i < CONNECTIONS; i += 1) tasks.push(await newTask(`bench-${i}`));

    const bundleResponse = await fetch(`${url}/reference/v1/agents/card-disputes/bundle`, { headers });
    const { bundle } = (await bundleResponse.json()) as { bundle: unknown };

    let n = 0;
    const scenarios: [string, AutocannonRequest[]][] = [
      [
        'send message (include_trace=true)',
        [
          {
            method: 'POST',
            setupRequest: (request) => {
              n += 1;
              const body = { type: 'message', task_id: tasks[n % tasks.length], text: `I want to dispute a charge of $${n % 900} from ${n % 20} days ago` };
              return { ...request, path: '/v1/messaging/messages?include_trace=true', body: JSON.stringify(body) };
            },
          },
        ],
      ],
      [
        'send message with its bundle attached',
        [
          {
            method: 'POST',
            setupRequest: (request) => {
              n += 1;
              const body = { type: 'message', task_id: tasks[n % tasks.length], text: `I want to dispute a charge of $${n % 900}`, agent_settings_bundle: bundle };
              return { ...request, path: '/v1/messaging/messages?include_trace=true', body: JSON.stringify(body) };
            },
          },
        ],
      ],
      ['GET one interaction trace', [{ method: 'GET', path: `/v1/messaging/tasks/${traced}/interactions/${interactions[2]}/trace-info` }]],
      ['GET all traces of a 5-turn task', [{ method: 'GET', path: `/v1/messaging/tasks/${traced}/trace-info` }]],
    ];

    const rows: string[] = [];
    for (const [name, requests] of scenarios) {
      const result = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, headers, requests });
      if (result.non2xx || result.errors) throw new Error(`${name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
      rows.push(`| ${name} | ${Math.round(result.requests.average)} | ${result.latency.p50} | ${result.latency.p99} | ${result.requests.total} |`);
    }
    const cpu = cpus()[0]?.model.trim() ?? 'unknown CPU';
    console.log(`\n${new Date().toISOString().slice(0, 10)}, Node ${process.versions.node}, ${cpus().length} × ${cpu}, ${CONNECTIONS} connections, ${SECONDS} s each\n`);
    console.log('| scenario | requests/s | p50 ms | p99 ms | requests |');
    console.log('|---|---|---|---|---|');
    for (const row of rows) console.log(row);
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.on('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
