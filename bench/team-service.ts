/**
 * The team service side by side: sends/s and trace GETs/s with p50/p99 for the service on SQLite,
 * on PostgreSQL with one instance, and on PostgreSQL with two instances (the load split evenly
 * between them, as a reverse proxy would), in one run on one machine. PostgreSQL is a throwaway
 * server started for the run (see tools/lib/postgres-server.ts), with its default durability
 * (`fsync` and `synchronous_commit` on).
 *
 *   npx tsx bench/team-service.ts [--seconds 8] [--connections 16]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { findPostgresBin, startPostgresServer } from '../tools/lib/postgres-server';
import { numberArg } from '../tools/lib/args';
import { autocannon, roundRobinSends, type AutocannonRequest, type AutocannonResult } from './lib/autocannon';
import { FIVE_TURNS } from './lib/conversation';
import { machine, today } from '../tools/lib/machine';
import { startServiceProcess, type ServiceProcess } from '../tools/lib/service-process';

const SECONDS = numberArg('seconds', 8);
const CONNECTIONS = numberArg('connections', 16);
const KEY = 'bench-key';
const headers = { 'x-service-api-key': KEY, 'content-type': 'application/json' };

async function post(url: string, path: string, body: unknown): Promise<{ id: string }> {
  const response = await fetch(`${url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as { id: string };
}

/** Runs the same requests against every instance at once (connections split between them); summed rates, worst percentiles. */
async function load(urls: string[], requests: (url: string) => AutocannonRequest[]) {
  const results: AutocannonResult[] = await Promise.all(
    urls.map((url) =>
      autocannon({
        url,
        connections: CONNECTIONS / urls.length,
        duration: SECONDS,
        headers,
        requests: requests(url),
      }),
    ),
  );
  const failed = results.reduce((n, r) => n + r.non2xx + r.errors, 0);
  if (failed) throw new Error(`${failed} failed requests`);
  return {
    perSecond: Math.round(results.reduce((n, r) => n + r.requests.average, 0)),
    p50: Math.max(...results.map((r) => r.latency.p50)),
    p99: Math.max(...results.map((r) => r.latency.p99)),
  };
}

async function measure(instances: ServiceProcess[]) {
  const urls = instances.map((i) => i.url);
  const first = urls[0]!;
  const tasks: string[] = [];
  for (let i = 0; i < CONNECTIONS; i += 1)
    tasks.push(
      (await post(first, '/v1/messaging/tasks', { agent_id: 'card-disputes', user_id: `b${i}` })).id,
    );
  const traced = (await post(first, '/v1/messaging/tasks', { agent_id: 'card-disputes', user_id: 'traces' }))
    .id;
  for (const text of FIVE_TURNS)
    await post(first, '/v1/messaging/messages', { type: 'message', task_id: traced, text });
  const sends = await load(urls, () => [
    roundRobinSends(tasks, (n) => ({ text: `dispute a charge of $${n % 900}` })),
  ]);
  const gets = await load(urls, () => [{ method: 'GET', path: `/v1/messaging/tasks/${traced}/trace-info` }]);
  return { sends, gets };
}

async function main() {
  const bin = findPostgresBin();
  if (!bin) throw new Error('PostgreSQL is not installed (apt-get install postgresql)');
  const dir = mkdtempSync(join(tmpdir(), 'threadline-team-bench-'));
  const server = await startPostgresServer(bin, { durable: true });
  const rows: string[] = [];
  try {
    const database = async (name: string) => {
      const admin = new pg.Client({ connectionString: server.adminUrl });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name}`);
      await admin.end();
      return server.adminUrl.replace(/\/postgres$/, `/${name}`);
    };
    const configurations: [string, () => Promise<ServiceProcess[]>][] = [
      [
        'SQLite, one instance',
        async () => [
          await startServiceProcess({ data: join(dir, 'sqlite'), keys: `${KEY}=*`, echoStderr: true }),
        ],
      ],
      [
        'PostgreSQL, one instance',
        async () => {
          const env = { THREADLINE_DATABASE_URL: await database('one') };
          return [
            await startServiceProcess({ data: join(dir, 'pg1'), keys: `${KEY}=*`, env, echoStderr: true }),
          ];
        },
      ],
      [
        'PostgreSQL, two instances',
        async () => {
          const env = { THREADLINE_DATABASE_URL: await database('two') };
          return Promise.all(
            ['pg2a', 'pg2b'].map((d) =>
              startServiceProcess({ data: join(dir, d), keys: `${KEY}=*`, env, echoStderr: true }),
            ),
          );
        },
      ],
    ];
    for (const [name, start] of configurations) {
      const instances = await start();
      try {
        const { sends, gets } = await measure(instances);
        rows.push(
          `| ${name} | ${sends.perSecond} | ${sends.p50} | ${sends.p99} | ${gets.perSecond} | ${gets.p50} | ${gets.p99} |`,
        );
      } finally {
        await Promise.all(instances.map((i) => i.stop()));
      }
    }
  } finally {
    server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(`\n${today()}, ${machine()}, ${CONNECTIONS} connections, ${SECONDS} s per figure\n`);
  console.log('| store | sends/s | p50 ms | p99 ms | 5-turn trace GETs/s | p50 ms | p99 ms |');
  console.log('|---|---|---|---|---|---|---|');
  for (const row of rows) console.log(row);
}

await main();
