import { QueryClient } from '@tanstack/react-query';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { apiKeys } from '../../api/keys';
import { pageWindow, type TraceWindow } from '../../api/trace-window';
import { TolerantTrace } from '../../contract/trace';
import { ApiError } from '../../api/errors';

const asked: number[] = [];
const failing = new Set<number>();
vi.mock('../../api/trace-list', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../api/trace-list')>()),
  getTracePage: async (_task: string, page: number, size: number) => {
    asked.push(page);
    if (failing.has(page))
      throw new ApiError({ kind: 'http', status: 500, title: 'Server error', message: 'down', guidance: '' });
    const items = Array.from({ length: size }, (_, i) =>
      TolerantTrace.parse({ interaction_id: `m${(page - 1) * size + i}`, decision: 'proceed' }),
    );
    return { items, page, pages: 20, total: 20 * size };
  },
}));
const { findTurn, loadTurns } = await import('./trace-pages');

const key = apiKeys.traces('t1');
function client(): QueryClient {
  const qc = new QueryClient();
  const newest = Array.from({ length: 100 }, (_, i) =>
    TolerantTrace.parse({ interaction_id: `m${1900 + i}`, decision: 'proceed' }),
  );
  qc.setQueryData<TraceWindow>(key, pageWindow(2000, 100, 20, newest));
  return qc;
}

beforeEach(() => {
  asked.length = 0;
  failing.clear();
});

describe('fetching the pages of a long thread in view', () => {
  it('fetches the pages the range needs, nearest first, and joins them to the window', async () => {
    const qc = client();
    await loadTurns(qc, 't1', 1750, 1950);
    expect(asked).toEqual([19, 18]);
    expect(qc.getQueryData<TraceWindow>(key)).toMatchObject({ start: 1700, total: 2000 });
  });

  it('counts only the last range asked for while a page is on its way', async () => {
    const qc = client();
    const first = loadTurns(qc, 't1', 1000, 1300);
    void loadTurns(qc, 't1', 0, 50);
    await first;
    // The first range's nearest page was on its way; then only the page the last range needs.
    expect(asked).toEqual([13, 1]);
  });

  it('names a page that failed, and asks again only when told to', async () => {
    const qc = client();
    failing.add(5);
    await loadTurns(qc, 't1', 420, 480);
    const w = qc.getQueryData<TraceWindow>(key)!;
    expect(w.failed.get(5)?.title).toBe("Page 5 of 20 of this thread's traces did not load (turns 401–500)");
    await loadTurns(qc, 't1', 420, 480);
    expect(asked).toEqual([5]);
    failing.clear();
    await loadTurns(qc, 't1', 420, 480, true);
    expect(asked).toEqual([5, 5]);
    expect(qc.getQueryData<TraceWindow>(key)!.failed.size).toBe(0);
  });

  it('finds the page of a linked turn, reading older pages newest first', async () => {
    const qc = client();
    expect(await findTurn(qc, 't1', 'm1650')).toBe(true);
    expect(asked).toEqual([19, 18, 17]);
    expect(qc.getQueryData<TraceWindow>(key)).toMatchObject({ start: 1600 });
  });
});
