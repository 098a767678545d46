import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { idbSet } from '../../lib/idb-storage';
import { apiKeys } from '../../api/keys';
import { CHUNK, readLocalTurns, recordLocalTurn, type LocalTurn } from './local-turns';

/** What each write stored: its key and how many turns it held. */
const writes: Array<{ key: string; turns: number }> = [];
vi.mock('../../lib/idb-storage', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../lib/idb-storage')>();
  return {
    ...real,
    idbSet: (key: string, value: unknown) => {
      writes.push({ key, turns: Array.isArray(value) ? value.length : -1 });
      return real.idbSet(key, value);
    },
  };
});

const turn = (id: string, reply = `r-${id}`): LocalTurn => ({
  id,
  user_text: `u-${id}`,
  reply_text: reply,
  suggestions: [],
  created_at: '2025-01-01T00:00:00Z',
});

describe('local turns', () => {
  it('appends turns, replaces one with the same id, and keeps them for the next read', async () => {
    const qc = new QueryClient();
    await recordLocalTurn(qc, 'task-x', turn('m1'));
    await recordLocalTurn(qc, 'task-x', turn('m2'));
    await recordLocalTurn(qc, 'task-x', turn('m1', 'edited'));
    expect(
      qc.getQueryData<LocalTurn[]>(apiKeys.localTurns('task-x'))?.map((t) => [t.id, t.reply_text]),
    ).toEqual([
      ['m1', 'edited'],
      ['m2', 'r-m2'],
    ]);
    expect((await readLocalTurns('task-x')).map((t) => t.id)).toEqual(['m1', 'm2']);
    expect(await readLocalTurns('task-other')).toEqual([]);
  });

  it('writes one chunk per send, whatever the thread length, and reads every chunk back in order', async () => {
    const qc = new QueryClient();
    writes.length = 0;
    const n = 2 * CHUNK + 50;
    for (let i = 0; i < n; i += 1) await recordLocalTurn(qc, 'task-long', turn(`m${i}`));
    expect(writes).toHaveLength(n);
    expect(Math.max(...writes.map((w) => w.turns))).toBe(CHUNK);
    // Replacing an early turn rewrites its chunk only.
    writes.length = 0;
    await recordLocalTurn(qc, 'task-long', turn('m5', 'edited'));
    expect(writes).toEqual([{ key: 'threadline:turns:task-long', turns: CHUNK }]);
    const back = await readLocalTurns('task-long');
    expect(back.map((t) => t.id)).toEqual(Array.from({ length: n }, (_, i) => `m${i}`));
    expect(back[5]!.reply_text).toBe('edited');
  });

  it('reads a thread stored whole (before chunks) and stores it in chunks at its next send', async () => {
    const whole = Array.from({ length: CHUNK + 30 }, (_, i) => turn(`w${i}`));
    await idbSet('threadline:turns:task-old', whole);
    const qc = new QueryClient();
    writes.length = 0;
    await recordLocalTurn(qc, 'task-old', turn('w-new'));
    expect(writes.map((w) => w.key)).toEqual(['threadline:turns:task-old', 'threadline:turns:task-old:1']);
    const back = await readLocalTurns('task-old');
    expect(back).toHaveLength(CHUNK + 31);
    expect(back.at(-1)!.id).toBe('w-new');
  });
});
