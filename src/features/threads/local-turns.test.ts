import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { localKeys, readLocalTurns, recordLocalTurn, type LocalTurn } from './local-turns';

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
    expect(qc.getQueryData<LocalTurn[]>(localKeys.turns('task-x'))?.map((t) => [t.id, t.reply_text])).toEqual(
      [
        ['m1', 'edited'],
        ['m2', 'r-m2'],
      ],
    );
    expect((await readLocalTurns('task-x')).map((t) => t.id)).toEqual(['m1', 'm2']);
    expect(await readLocalTurns('task-other')).toEqual([]);
  });
});
