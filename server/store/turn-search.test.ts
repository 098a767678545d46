import { describe, expect, it } from 'vitest';
import { FACET_TURNS, parseTurnQuery, planSearch, runFacets, type Where } from './turn-search';

/** A store's `all` that answers every statement with `rows` matching turns, and keeps the statements. */
function fakeStore(rows: number) {
  const asked: Where[] = [];
  const all = (w: Where) => {
    asked.push(w);
    if (w.sql.includes('COUNT(*)')) return Promise.resolve([{ n: Math.min(rows, 100_000), oldest: 1 }]);
    const limit = Number(w.args[w.args.length - 1]);
    return Promise.resolve(
      Array.from({ length: Math.min(rows, limit) }, (_, i) => ({
        id: rows - i,
        decision: 'proceed',
        intent: 'x',
        day: '2025-03-01',
        created_at: '2025-03-01T00:00:00.000Z',
        rules: '[["R","blocked"]]',
        tools: '[]',
      })),
    );
  };
  return { all, asked };
}

describe('the facets of a search', () => {
  it('count the newest turns of a lone filter at once, and say when more were left uncounted', async () => {
    for (const dialect of ['sqlite', 'postgres'] as const) {
      const plan = planSearch(parseTurnQuery({ rule: ['R:blocked'] }), null, dialect, null);
      const all = fakeStore(FACET_TURNS);
      const counts = await runFacets(all.all, plan);
      expect(all.asked).toHaveLength(1);
      expect(counts).toMatchObject({ total: FACET_TURNS, complete: false });
      expect(counts.rules).toEqual([{ rule_id: 'R', result: 'blocked', count: FACET_TURNS }]);
      const fewer = await runFacets(fakeStore(FACET_TURNS - 1).all, plan);
      expect(fewer).toMatchObject({ total: FACET_TURNS - 1, complete: true });
    }
  });

  it('find the window of candidates first when other filters must be tested turn by turn', async () => {
    const plan = planSearch(parseTurnQuery({ rule: ['R:blocked'], version: ['v1'] }), null, 'sqlite', null);
    const all = fakeStore(50);
    const counts = await runFacets(all.all, plan);
    expect(all.asked).toHaveLength(2);
    expect(all.asked[0]!.sql).toContain('COUNT(*)');
    expect(counts).toMatchObject({ total: 50, complete: true });
  });
});
