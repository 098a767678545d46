/**
 * The service with a long thread: a task of 10,000 turns (sent over the API), then
 *
 * - a rerun of turn 10 and of the last turn: time to the answer, and bytes added to the database
 *   (used pages, read through a read-only SQLite connection, so WAL content counts);
 * - the delay a small GET (one interaction's trace of a five-turn task, sent one after another by
 *   a probe on its own connection) sees while that rerun runs, and while four unpaged all-traces
 *   GETs of the long task run at once (their time, size, and the service's peak resident memory).
 *
 * Each measure is repeated `--reps` times; min and median are reported. The service runs as its
 * own process (`server/main.ts`), and the four GETs run in another, so the probe, the load and the
 * service do not share an event loop.
 *
 *   npx tsx bench/long-thread-service.ts [--turns 10000] [--reps 5]
 *
 * Prints a Markdown table, and one `RESULT {json}` line.
 */
import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { numberArg } from '../tools/lib/args';
import { FIVE_TURNS } from './lib/conversation';
import { machine, today } from '../tools/lib/machine';
import { startServiceProcess } from '../tools/lib/service-process';

const TURNS = numberArg('turns', 10_000);
const REPS = numberArg('reps', 5);
const SENDERS = 8;
const KEY = 'bench-key';

interface Answer {
  status: number;
  bytes: number;
  body: string;
  ms: number;
}

/** One HTTP request on the given agent; keeps the body only when `keep` (else counts its bytes). */
function call(
  url: string,
  agent: Agent,
  method: string,
  path: string,
  body?: unknown,
  keep = true,
): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = request(
      `${url}${path}`,
      {
        method,
        agent,
        headers: {
          'x-service-api-key': KEY,
          ...(payload ? { 'content-type': 'application/json' } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        let bytes = 0;
        res.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          if (keep) chunks.push(chunk);
        });
        res.on('end', () => {
          const answer = {
            status: res.statusCode ?? 0,
            bytes,
            body: keep ? Buffer.concat(chunks).toString('utf8') : '',
            ms: performance.now() - started,
          };
          if (answer.status !== 200)
            reject(new Error(`${method} ${path}: ${answer.status} ${answer.body.slice(0, 200)}`));
          else resolve(answer);
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

const json = <T>(a: Answer) => JSON.parse(a.body) as T;

/** Small GETs one after another until stopped; answers the longest one. */
function probe(url: string, path: string) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  let running = true;
  let worst = 0;
  let count = 0;
  let errors = 0;
  const done = (async () => {
    while (running) {
      try {
        const a = await call(url, agent, 'GET', path);
        worst = Math.max(worst, a.ms);
        count += 1;
      } catch {
        errors += 1; // counted and reported: a reset connection must not end the run unseen
      }
    }
  })();
  return {
    async stop() {
      running = false;
      await done;
      agent.destroy();
      if (errors > 0) console.log(`probe: ${errors} failed requests`);
      return { worstMs: worst, count };
    },
  };
}

/**
 * `count` GETs of one URL at once from a process of their own (so that reading 4 × 34 MB does not
 * delay the probe's own requests), each timed to its last byte; the body is counted, not kept.
 */
function concurrentGets(url: string, count: number): Promise<{ ms: number; bytes: number }[]> {
  const script = `
    const http = require('node:http');
    const get = () => new Promise((resolve, reject) => {
      const started = performance.now();
      http.get(process.argv[1], { headers: { 'x-service-api-key': process.argv[2] } }, (res) => {
        let bytes = 0;
        res.on('data', (chunk) => (bytes += chunk.length));
        res.on('end', () => res.statusCode === 200 ? resolve({ ms: performance.now() - started, bytes }) : reject(new Error('status ' + res.statusCode)));
      }).on('error', reject);
    });
    Promise.all(Array.from({ length: ${count} }, get)).then((r) => console.log(JSON.stringify(r)));`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', script, url, KEY], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('exit', (code) =>
      code === 0
        ? resolve(JSON.parse(out) as { ms: number; bytes: number }[])
        : reject(new Error(`GETs exited ${code}`)),
    );
  });
}

/** The service's resident memory, sampled every 10 ms until stopped; answers the peak in MB. */
function rssSampler(pid: number) {
  let peak = 0;
  const read = () => {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    if (m) peak = Math.max(peak, Number(m[1]) / 1024);
  };
  read();
  const timer = setInterval(read, 10);
  return {
    stop() {
      clearInterval(timer);
      read();
      return peak;
    },
  };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};
const round = (x: number, digits = 1) => Math.round(x * 10 ** digits) / 10 ** digits;
const stat = (xs: number[], digits = 1) => ({
  min: round(Math.min(...xs), digits),
  median: round(median(xs), digits),
});

async function main() {
  const work = mkdtempSync(join(tmpdir(), 'threadline-bench-long-'));
  const dataDir = join(work, 'data');
  const service = await startServiceProcess({ data: dataDir, keys: `${KEY}=*`, echoStderr: true });
  const { url } = service;
  // No keep-alive for the setup and the reruns: an idle kept-alive socket may be closed by the
  // service just as it is reused (a reset), between the stages of a long run.
  const agent = new Agent({ keepAlive: false, maxSockets: SENDERS });
  const loadAtStart = machine();
  try {
    const newTask = async (user: string) =>
      json<{ id: string }>(
        await call(url, agent, 'POST', '/v1/messaging/tasks', { agent_id: 'card-disputes', user_id: user }),
      ).id;

    // The probe's target: one trace of a five-turn task.
    const small = await newTask('bench-small');
    let smallInteraction = '';
    for (const text of FIVE_TURNS)
      smallInteraction = json<{ id: string }>(
        await call(url, agent, 'POST', '/v1/messaging/messages', { type: 'message', task_id: small, text }),
      ).id;
    const probePath = `/v1/messaging/tasks/${small}/interactions/${smallInteraction}/trace-info`;

    // The long task, sent by a few concurrent senders (the service applies them one at a time).
    const long = await newTask('bench-long');
    const built = performance.now();
    let sent = 0;
    await Promise.all(
      Array.from({ length: SENDERS }, async () => {
        while (sent < TURNS) {
          sent += 1;
          const text = `I want to dispute a charge of $${sent % 900}.${sent % 100} from ${sent % 20} days ago`;
          await call(
            url,
            agent,
            'POST',
            '/v1/messaging/messages',
            { type: 'message', task_id: long, text },
            false,
          );
        }
      }),
    );
    const buildSeconds = round((performance.now() - built) / 1000);
    const traceAt = async (position: number) => {
      const page = json<{ items: { interaction_id: string }[] }>(
        await call(url, agent, 'GET', `/v1/messaging/tasks/${long}/trace-info?page=${position}&size=1`),
      );
      return page.items[0]!.interaction_id;
    };
    const turn10 = await traceAt(10);
    const turnLast = await traceAt(TURNS);

    const db = new Database(join(dataDir, 'threadline.db'), { readonly: true, fileMustExist: true });
    const usedBytes = () => {
      const pages = db.pragma('page_count', { simple: true }) as number;
      const free = db.pragma('freelist_count', { simple: true }) as number;
      const size = db.pragma('page_size', { simple: true }) as number;
      return (pages - free) * size;
    };

    const idle = probe(url, probePath);
    await new Promise((r) => setTimeout(r, 1000));
    const idleProbe = await idle.stop();

    const reruns: Record<string, { ms: number[]; addedMB: number[]; probeMs: number[] }> = {};
    for (const [name, interaction] of [
      ['turn 10', turn10],
      [`turn ${TURNS}`, turnLast],
    ] as const) {
      const r = (reruns[name] = { ms: [] as number[], addedMB: [] as number[], probeMs: [] as number[] });
      for (let i = 0; i < REPS; i += 1) {
        const before = usedBytes();
        const p = probe(url, probePath);
        await new Promise((res) => setTimeout(res, 20));
        const a = await call(url, agent, 'POST', '/v1/messaging/messages/rerun', {
          task_id: long,
          interaction_id: interaction,
          text: 'It was a duplicate charge',
        });
        const worst = await p.stop();
        r.ms.push(a.ms);
        r.probeMs.push(worst.worstMs);
        r.addedMB.push((usedBytes() - before) / 2 ** 20);
      }
    }
    db.close();

    const unpaged = { ms: [] as number[], probeMs: [] as number[], peakRssMB: [] as number[], bytes: 0 };
    for (let i = 0; i < REPS; i += 1) {
      const p = probe(url, probePath);
      const rss = rssSampler(service.child.pid!);
      await new Promise((res) => setTimeout(res, 20));
      const answers = await concurrentGets(`${url}/v1/messaging/tasks/${long}/trace-info`, 4);
      const worst = await p.stop();
      unpaged.peakRssMB.push(rss.stop());
      unpaged.ms.push(Math.max(...answers.map((a) => a.ms)));
      unpaged.probeMs.push(worst.worstMs);
      unpaged.bytes = answers[0]!.bytes;
    }

    const result = {
      date: today(),
      machine: loadAtStart,
      machineAtEnd: machine(),
      turns: TURNS,
      reps: REPS,
      buildSeconds,
      idleProbeWorstMs: round(idleProbe.worstMs, 2),
      reruns: Object.fromEntries(
        Object.entries(reruns).map(([name, r]) => [
          name,
          { ms: stat(r.ms), addedMB: stat(r.addedMB, 3), probeMs: stat(r.probeMs) },
        ]),
      ),
      unpaged: {
        bodyMB: round(unpaged.bytes / 2 ** 20),
        ms: stat(unpaged.ms),
        probeMs: stat(unpaged.probeMs),
        peakRssMB: stat(unpaged.peakRssMB, 0),
      },
    };
    console.log(
      `\n${result.date}, ${result.machine} (at the end: ${result.machineAtEnd.replace(/.*load/, 'load')}).`,
    );
    console.log(`${TURNS}-turn task built in ${buildSeconds} s; ${REPS} repetitions, min / median.\n`);
    console.log('| measure | min | median |');
    console.log('|---|---|---|');
    for (const [name, r] of Object.entries(result.reruns)) {
      console.log(`| rerun of ${name}: time to answer (ms) | ${r.ms.min} | ${r.ms.median} |`);
      console.log(
        `| rerun of ${name}: bytes added to the database (MB) | ${r.addedMB.min} | ${r.addedMB.median} |`,
      );
      console.log(
        `| rerun of ${name}: longest small GET meanwhile (ms) | ${r.probeMs.min} | ${r.probeMs.median} |`,
      );
    }
    const u = result.unpaged;
    console.log(
      `| 4 concurrent unpaged all-traces GETs (${u.bodyMB} MB each): time to the last byte (ms) | ${u.ms.min} | ${u.ms.median} |`,
    );
    console.log(`| the same: longest small GET meanwhile (ms) | ${u.probeMs.min} | ${u.probeMs.median} |`);
    console.log(`| the same: service peak RSS (MB) | ${u.peakRssMB.min} | ${u.peakRssMB.median} |`);
    console.log(`\nA small GET alone: longest of ${idleProbe.count} in 1 s: ${result.idleProbeWorstMs} ms.`);
    console.log(`RESULT ${JSON.stringify(result)}`);
  } finally {
    agent.destroy();
    await service.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
