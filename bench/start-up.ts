/**
 * Start-up as a user meets it, each from a new process: `threadline --help` and `--version` (spawn
 * to exit), and the reference service from spawn to its first successful send (the start line,
 * then a task and a message to card-disputes sent at once, retried until one is answered 200).
 *
 *   npx tsx bench/start-up.ts [--reps 10] [--service-reps 5] [--root DIR]
 *
 * `--root` measures another checkout (code before a change): its `server/main.mjs` when it has
 * one, else `server/main.ts` through tsx as before. Prints a Markdown table.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { argValue, numberArg } from '../tools/lib/args';
import { median } from './lib/suite-cases';
import { machine, today } from '../tools/lib/machine';

const REPS = numberArg('reps', 10);
const SERVICE_REPS = numberArg('service-reps', 5);
const ROOT = resolve(argValue('root') ?? '.');
const KEY = 'bench-key';

/** Spawn to exit, in ms, and the exit status (a checkout before `--version` existed exits 2). */
function cliRun(args: string[]): { ms: number; status: number | null } {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, ['cli/threadline.mjs', ...args], { cwd: ROOT, encoding: 'utf8' });
  return { ms: performance.now() - t0, status: r.status };
}

interface ServiceStart {
  listening: number;
  firstSend: number;
}

async function post(url: string, path: string, body: unknown) {
  return fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-service-api-key': KEY },
    body: JSON.stringify(body),
  });
}

async function serviceStart(): Promise<ServiceStart> {
  const data = mkdtempSync(join(tmpdir(), 'threadline-bench-start-'));
  const entry = existsSync(join(ROOT, 'server/main.mjs'))
    ? ['server/main.mjs']
    : ['--import', 'tsx', 'server/main.ts'];
  const t0 = performance.now();
  const child = spawn(process.execPath, [...entry, '--port', '0', '--host', '127.0.0.1', '--data', data], {
    cwd: ROOT,
    env: { ...process.env, THREADLINE_API_KEYS: `${KEY}=*`, THREADLINE_DIST: join(data, 'no-dist') },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise((r) => child.once('exit', r));
  try {
    const url = await new Promise<string>((done, fail) => {
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const m = /running at (http:\/\/[^/\s]+)/.exec(out);
        if (m) done(m[1]!);
      });
      child.once('exit', (code) => fail(new Error(`the service exited (${code}) before listening`)));
    });
    const listening = performance.now() - t0;
    for (;;) {
      if (performance.now() - t0 > 120_000) throw new Error('no send answered within 120 s');
      const task = await post(url, '/v1/messaging/tasks', { agent_id: 'card-disputes', user_id: 'bench' });
      if (task.status !== 200) continue;
      const { id } = (await task.json()) as { id: string };
      const sent = await post(url, '/v1/messaging/messages?include_trace=true', {
        type: 'message',
        task_id: id,
        text: 'I want to dispute a charge',
      });
      await sent.arrayBuffer();
      if (sent.status === 200) return { listening, firstSend: performance.now() - t0 };
    }
  } finally {
    child.kill('SIGTERM');
    await exited;
    rmSync(data, { recursive: true, force: true });
  }
}

const s = (ms: number) => `${Math.round(ms)} ms`;
const row = (what: string, reps: number, xs: number[]) =>
  console.log(
    `| ${today()} | ${what} | ${reps} | ${s(Math.min(...xs))} | ${s(median(xs))} | ${loadavg()[0]!.toFixed(1)} |`,
  );

console.log(machine());
console.log(`checkout: ${ROOT}`);
console.log('| date | what | reps | min | median | load average after |');
console.log('|---|---|---|---|---|---|');
for (const args of [['--help'], ['--version']]) {
  cliRun(args); // warm the file cache
  const runs = Array.from({ length: REPS }, () => cliRun(args));
  const statuses = [...new Set(runs.map((r) => r.status))].join(', ');
  row(
    `threadline ${args[0]}, spawn to exit (exit ${statuses})`,
    REPS,
    runs.map((r) => r.ms),
  );
}
const starts: ServiceStart[] = [];
for (let i = 0; i < SERVICE_REPS; i++) starts.push(await serviceStart());
row(
  'service, spawn to start line',
  SERVICE_REPS,
  starts.map((x) => x.listening),
);
row(
  'service, spawn to first send answered',
  SERVICE_REPS,
  starts.map((x) => x.firstSend),
);
