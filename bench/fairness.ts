/**
 * Fair shares under load: one key's sends while two other keys flood the service, against the
 * same sends on the quiet service. The service runs as a process on a generated SQLite store
 * (`--turns`, 20,000 by default, `lib/generated-turns.ts`), with three keys:
 *
 * - `whynot-key`, limited to card-disputes: after one turn with the 5,000-rule generated bundle and
 *   one with the heavy bundle (hundreds of ms per turn), `--flood` loops (40 by default) each post
 *   what-ifs one after another, with no pause even after a refusal: why-not lists on the first
 *   turn and plain what-ifs on the second, in turn;
 * - `search-key`, limited to card-disputes: `--searchers` loops (16) of turn searches and facets;
 * - `send-key`: messages one after another to a task of its own, each timed, for `--seconds` (15).
 *
 * The floods are client processes of their own (`lib/flood.mjs`), as is a probe sending
 * `GET /healthz` one after another (`lib/probe.mjs`), so that what is measured is the service, not
 * the benchmark's clients. Each run measures the sends and the probe on the quiet service, then
 * again once the floods have run for a second.
 *
 * Run: npx tsx bench/fairness.ts [--runs 2] [--seconds 15] [--flood 40] [--searchers 16] [--turns 20000]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { numberArg } from '../tools/lib/args';
import { heavyBundle } from '../tools/lib/heavy-bundle';
import { machine, today } from '../tools/lib/machine';
import { startServiceProcess, type ServiceProcess } from '../tools/lib/service-process';
import { generateBundle, word } from './lib/generated-bundle';
import { samples, sqliteStoreOf } from './lib/generated-turns';

const KEYS = 'whynot-key=card-disputes;search-key=card-disputes;send-key=*';
const RUNS = numberArg('runs', 2);
const SECONDS = numberArg('seconds', 15);
const FLOOD = numberArg('flood', 40);
const SEARCHERS = numberArg('searchers', 16);
const TURNS = numberArg('turns', 20_000);
/** The floods run this long before the sends start. */
const FLOOD_AHEAD_MS = 1_000;

type Statuses = Record<string, number>;

const percentile = (xs: readonly number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.max(0, Math.ceil(p * s.length) - 1)]!;
};
const ms = (n: number) => `${n.toLocaleString('en-US', { maximumFractionDigits: n < 10 ? 1 : 0 })} ms`;
const counts = (statuses: Statuses) =>
  Object.entries(statuses)
    .map(([status, n]) => `${n.toLocaleString('en-US')}×${status}`)
    .join(', ');

/**
 * A script of `bench/lib` as a client process of its own, and the one JSON line it prints at its
 * end. In a session of its own (`detached`), as a client on another machine would be: Linux shares
 * the CPU between sessions first (autogroups), so a flooding client in the service's session would
 * take the service's own share, its worker threads' above all (they run behind everything else).
 */
function client<T>(script: string, args: string[]): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [`bench/lib/${script}`, ...args], {
      detached: true,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out) as T) : reject(new Error(`${script} exited with ${code}`)),
    );
  });
}

async function post(service: ServiceProcess, key: string, path: string, body: unknown): Promise<string> {
  const r = await fetch(`${service.url}${path}`, {
    method: 'POST',
    headers: { 'x-service-api-key': key, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await r.text();
  if (!r.ok) throw new Error(`${path}: ${r.status} ${text.slice(0, 300)}`);
  return (JSON.parse(text) as { id: string }).id;
}

interface Window {
  sends: number[];
  statuses: Statuses;
  health: number[];
}

/** `send-key`'s messages, one after another for `SECONDS`, each timed; the probe's `GET /healthz` times meanwhile. */
async function window(service: ServiceProcess, taskId: string): Promise<Window> {
  const probe = client<{ times: number[] }>('probe.mjs', [`${service.url}/healthz`, String(SECONDS * 1000)]);
  const sends: number[] = [];
  const statuses: Statuses = {};
  const end = performance.now() + SECONDS * 1000;
  for (let i = 0; performance.now() < end; i++) {
    const t = performance.now();
    const r = await fetch(`${service.url}/v1/messaging/messages`, {
      method: 'POST',
      headers: { 'x-service-api-key': 'send-key', 'content-type': 'application/json' },
      body: JSON.stringify({
        type: 'message',
        task_id: taskId,
        text: `I want to dispute a charge of $${20 + (i % 500)}`,
      }),
    });
    await r.arrayBuffer();
    if (r.ok) sends.push(performance.now() - t);
    statuses[r.status] = (statuses[r.status] ?? 0) + 1;
  }
  return { sends, statuses, health: (await probe).times };
}

async function once(dataDir: string) {
  const service = await startServiceProcess({ data: dataDir, keys: KEYS, echoStderr: true });
  try {
    const task = { agent_id: 'card-disputes', user_id: 'bench' };
    const floodTask = await post(service, 'whynot-key', '/v1/messaging/tasks', task);
    const blocked = await post(service, 'whynot-key', '/v1/messaging/messages', {
      type: 'message',
      task_id: floodTask,
      text: `I need help with ${word(4)} ${word(11)}: $620 from 40 days ago`,
      agent_settings_bundle: generateBundle({ tools: 200, params: 120, globalRules: 1000, rulesPerTool: 20 }),
    });
    const heavy = await post(service, 'whynot-key', '/v1/messaging/messages', {
      type: 'message',
      task_id: floodTask,
      text: 'I want to dispute a charge',
      agent_settings_bundle: heavyBundle(10),
    });
    const sendTask = await post(service, 'send-key', '/v1/messaging/tasks', task);

    const quietLoad = loadavg()[0]!;
    const quiet = await window(service, sendTask);

    const whatIfs = [
      {
        method: 'POST',
        path: '/reference/v1/what-if',
        body: { task_id: floodTask, interaction_id: blocked, why_not: true },
      },
      { method: 'POST', path: '/reference/v1/what-if', body: { task_id: floodTask, interaction_id: heavy } },
    ];
    const searches = [
      { method: 'GET', path: '/reference/v1/turns?agent=card-disputes&q=charge&limit=50' },
      { method: 'GET', path: '/reference/v1/turns/facets?agent=card-disputes' },
      { method: 'GET', path: '/reference/v1/turns?agent=card-disputes&decision=proceed&limit=50' },
      { method: 'GET', path: '/reference/v1/turns/facets?agent=card-disputes&q=dispute' },
    ];
    const floodMs = String(FLOOD_AHEAD_MS + SECONDS * 1000);
    const loadedLoad = loadavg()[0]!;
    const floods = Promise.all([
      client<{ statuses: Statuses }>('flood.mjs', [
        service.url,
        'whynot-key',
        floodMs,
        String(FLOOD),
        JSON.stringify(whatIfs),
      ]),
      client<{ statuses: Statuses }>('flood.mjs', [
        service.url,
        'search-key',
        floodMs,
        String(SEARCHERS),
        JSON.stringify(searches),
      ]),
    ]);
    await new Promise((resolve) => setTimeout(resolve, FLOOD_AHEAD_MS));
    const loaded = await window(service, sendTask);
    const [whyNots, searchers] = await floods;
    return { quiet, loaded, quietLoad, loadedLoad, whyNots: whyNots.statuses, searchers: searchers.statuses };
  } finally {
    await service.stop();
  }
}

function line(name: string, w: Window, load: number): string {
  return (
    `  ${name} (load ${load.toFixed(1)}): ${w.sends.length} sends (${counts(w.statuses)}), ` +
    `median ${ms(percentile(w.sends, 0.5))}, p99 ${ms(percentile(w.sends, 0.99))}, max ${ms(Math.max(...w.sends))}; ` +
    `GET /healthz ×${w.health.length}: median ${ms(percentile(w.health, 0.5))}, p99 ${ms(percentile(w.health, 0.99))}, max ${ms(Math.max(...w.health))}`
  );
}

console.log(`fairness bench, ${today()}: ${machine()}`);
console.log(
  `${SECONDS} s of sends per window; floods: ${FLOOD} what-if loops (one key), ${SEARCHERS} search loops (another); ${TURNS.toLocaleString('en-US')} generated turns stored`,
);
const dataDir = mkdtempSync(join(tmpdir(), 'threadline-bench-fair-'));
try {
  const filled = await sqliteStoreOf(samples(), TURNS, dataDir);
  await filled.done(); // kept in dataDir (given as the folder to keep), for the service
  for (let r = 1; r <= RUNS; r++) {
    const { quiet, loaded, quietLoad, loadedLoad, whyNots, searchers } = await once(dataDir);
    console.log(`run ${r}:`);
    console.log(line('quiet', quiet, quietLoad));
    console.log(line('flooded', loaded, loadedLoad));
    console.log(`  floods: what-ifs ${counts(whyNots)}; searches ${counts(searchers)}`);
    const median = percentile(loaded.sends, 0.5) / percentile(quiet.sends, 0.5);
    const p99 = percentile(loaded.sends, 0.99) - percentile(quiet.sends, 0.99);
    console.log(
      `  send median ×${median.toFixed(2)} of quiet (target ≤ 2), p99 +${ms(p99)} (target < 1,000 ms), /healthz p99 ${ms(percentile(loaded.health, 0.99))} (target < 100 ms)`,
    );
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
