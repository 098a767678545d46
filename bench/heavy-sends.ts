/**
 * How long a small GET waits while 4 clients send the heaviest valid bundle: validation and the
 * turn run in the worker pool, but the request loop still receives each turn's trace, stores it
 * (with its turn index entry) and answers, and a GET arriving meanwhile waits for that. A probe, a
 * client process of its own (`lib/probe.mjs`, as a teammate's browser would be), sends
 * `GET /healthz` one after another for the whole run and records the longest answer; the senders
 * post the bundle (about 25,000 rule evaluations, a trace just under the 8,000,000-character
 * limit) to their own task, one send after another. (A probe in the senders' own event loop also
 * timed that loop's work: reading four answers of 7.4 MB and collecting them.)
 *
 * Run: npx tsx bench/heavy-sends.ts [--seconds 10] [--runs 2]
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { promisify } from 'node:util';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { numberArg } from '../tools/lib/args';
import { heavyBundle } from '../tools/lib/heavy-bundle';
import { machine, today } from '../tools/lib/machine';
import { startServiceProcess } from '../tools/lib/service-process';
import { median } from './lib/suite-cases';

/** `bench/lib/probe.mjs` in its own process: the time of every `GET url` answered until the deadline. */
async function runProbe(url: string, ms: number): Promise<number[]> {
  const args = ['bench/lib/probe.mjs', url, String(Math.round(ms))];
  const { stdout } = await promisify(execFile)(process.execPath, args);
  return (JSON.parse(stdout) as { times: number[] }).times;
}

const KEY = 'bench-key';
const SENDERS = 4;

const headers = { 'x-service-api-key': KEY, 'content-type': 'application/json' };

async function once(
  seconds: number,
): Promise<{ longest: number; gets: number; sends: number; statuses: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'threadline-bench-heavy-'));
  const service = await startServiceProcess({ data: dataDir, keys: `${KEY}=*`, echoStderr: true });
  try {
    const body = JSON.stringify(heavyBundle(30));
    const tasks = await Promise.all(
      Array.from({ length: SENDERS }, async () => {
        const r = await fetch(`${service.url}/v1/messaging/tasks`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ agent_id: 'card-disputes', user_id: 'u' }),
        });
        return ((await r.json()) as { id: string }).id;
      }),
    );
    const end = performance.now() + seconds * 1000;
    const statuses = new Map<number, number>();
    let sends = 0;
    const senders = tasks.map(async (taskId) => {
      while (performance.now() < end) {
        const r = await fetch(`${service.url}/v1/messaging/messages`, {
          method: 'POST',
          headers,
          body: `{"type":"message","task_id":"${taskId}","text":"I want to dispute a charge","agent_settings_bundle":${body}}`,
        });
        await r.arrayBuffer();
        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
        sends++;
      }
    });
    // The probe is a client of its own (its own process), started once the senders are under way.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const probe = runProbe(`${service.url}/healthz`, end - performance.now());
    const [times] = await Promise.all([probe, ...senders]);
    const longest = Math.max(...times);
    console.log(
      `  slowest: ${[...times]
        .sort((a, b) => b - a)
        .slice(0, 8)
        .map((t) => t.toFixed(0))
        .join(' ')} ms`,
    );
    return {
      longest,
      gets: times.length,
      sends,
      statuses: [...statuses].map(([s, n]) => `${n}×${s}`).join(', '),
    };
  } finally {
    await service.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const seconds = numberArg('--seconds', 10);
const runs = numberArg('--runs', 2);
console.log(`${today()} ${machine()}`);
const longest: number[] = [];
for (let i = 0; i < runs; i++) {
  const r = await once(seconds);
  longest.push(r.longest);
  console.log(
    `run ${i + 1}: longest small GET ${r.longest.toFixed(1)} ms of ${r.gets}; ${r.sends} sends (${r.statuses})`,
  );
}
console.log(
  `longest small GET while ${SENDERS} clients send the heaviest valid bundle: min ${Math.min(...longest).toFixed(1)} / median ${median(longest).toFixed(1)} ms over ${runs} runs of ${seconds} s`,
);
