import { describe, expect, it } from 'vitest';
import { createKeyedSerializer } from './task-serializer';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('keyed serializer', () => {
  it('runs work for one key in arrival order, never overlapping', async () => {
    const serial = createKeyedSerializer();
    const log: string[] = [];
    let running = 0;
    const job = (name: string, ticks: number) => async () => {
      running += 1;
      expect(running).toBe(1);
      log.push(`start ${name}`);
      for (let i = 0; i < ticks; i += 1) await tick();
      log.push(`end ${name}`);
      running -= 1;
      return name;
    };
    const results = await Promise.all([
      serial.run('t', job('a', 3)),
      serial.run('t', job('b', 1)),
      serial.run('t', job('c', 2)),
    ]);
    expect(results).toEqual(['a', 'b', 'c']);
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
  });

  it('keeps going after a failed job and reports the failure to its caller', async () => {
    const serial = createKeyedSerializer();
    const failing = serial.run('t', async () => {
      throw new Error('boom');
    });
    const next = serial.run('t', async () => 'after');
    await expect(failing).rejects.toThrow('boom');
    await expect(next).resolves.toBe('after');
  });

  it('lets different keys interleave and forgets idle keys', async () => {
    const serial = createKeyedSerializer();
    const log: string[] = [];
    let releaseA!: () => void;
    const a = serial.run('a', () =>
      new Promise<void>((resolve) => (releaseA = resolve)).then(() => log.push('a')),
    );
    const b = serial.run('b', async () => log.push('b'));
    await b;
    expect(log).toEqual(['b']);
    releaseA();
    await a;
    await tick();
    expect(serial.activeKeys).toBe(0);
  });
});
