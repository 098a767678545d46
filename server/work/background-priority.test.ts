/**
 * The engine's worker threads yield the processor to the request loop, but for the one replaying
 * the conversations a person waits for (the impact preview).
 */
import { spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { exampleBundle } from '../agents/converse';
import { BACKGROUND_NICENESS } from './background-priority';
import { createEnginePool, type EnginePool } from './engine-pool';
import { SERVICE_SHARE } from './pool';
import { threadNiceness } from './fixtures/pool-niceness.fixture';

let pool: EnginePool | undefined;
afterEach(() => pool?.close());

describe.runIf(process.platform === 'linux')('the engine pool on Linux', () => {
  it('runs its workers behind the request loop, which keeps its own priority', async () => {
    const before = threadNiceness();
    pool = createEnginePool({ size: 1, queueLimit: 4, deadlineMs: 30_000, heapLimitMb: 256 });
    await pool.validate({}, SERVICE_SHARE); // its worker starts
    const after = threadNiceness();
    const started = [...after].filter(([tid]) => !before.has(tid));
    const background = started.filter(([, nice]) => nice === BACKGROUND_NICENESS);
    expect(background.length).toBeGreaterThan(0);
    // Every thread that ran before the pool keeps its priority (the request loop among them).
    for (const [tid, nice] of before) if (after.has(tid)) expect(after.get(tid)).toBe(nice);
  });

  it('never raises a priority: a service started at niceness 15 keeps its workers at 15', () => {
    const child = spawnSync(
      'nice',
      [
        '-n',
        '15',
        process.execPath,
        '--import',
        'tsx',
        'server/work/fixtures/pool-niceness.fixture.ts',
        'start',
      ],
      { encoding: 'utf8' },
    );
    expect(child.status, child.stderr).toBe(0);
    const { niceness } = JSON.parse(child.stdout) as { niceness: number[] };
    expect(niceness.length).toBeGreaterThan(0);
    expect(niceness.every((n) => n === 15)).toBe(true);
  });

  it("replays interactive conversations on a thread of its own at the request loop's priority", async () => {
    pool = createEnginePool({ size: 1, queueLimit: 4, deadlineMs: 30_000, heapLimitMb: 256 });
    await pool.validate({}, SERVICE_SHARE); // the background worker starts
    const before = threadNiceness();
    const loop = before.get(process.pid)!;
    const cases = [{ id: 'c', clock: '2025-03-01T12:00:00Z', messages: ['I want to dispute a charge'] }];
    const [run] = await pool.conversations(
      exampleBundle('card-disputes'),
      cases,
      SERVICE_SHARE,
      'interactive',
    );
    expect(run!.outcomes).toHaveLength(1);
    const after = threadNiceness();
    const started = [...after].filter(([tid]) => !before.has(tid));
    expect(started.some(([, nice]) => nice === loop)).toBe(true);
    expect(started.filter(([, nice]) => nice === BACKGROUND_NICENESS)).toEqual([]);
    // The background worker stays behind the request loop.
    for (const [tid, nice] of before) if (after.has(tid)) expect(after.get(tid)).toBe(nice);
    expect([...after.values()]).toContain(BACKGROUND_NICENESS);
  });
});
