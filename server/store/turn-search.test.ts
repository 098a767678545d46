import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from './migrations';
import { FACET_TURNS, parseTurnQuery, planSearch, runFacets, runSearch, type Where } from './turn-search';

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

describe('the plan of each page of a search on SQLite', () => {
  const db = new Database(':memory:');
  migrate(db);
  /** The query plan of every statement a page of the search runs (its details, in order). */
  async function plansOf(query: Record<string, string[]>, before: number | null): Promise<string[][]> {
    const plans: string[][] = [];
    const all = (w: Where) => {
      const steps = db.prepare(`EXPLAIN QUERY PLAN ${w.sql}`).all(...w.args) as { detail: string }[];
      // The window's count reads its subquery as a co-routine: its steps are the subquery's.
      plans.push(steps.map((s) => s.detail).filter((d) => !/^(CO-ROUTINE|SCAN w$)/.test(d)));
      return Promise.resolve(w.sql.includes('COUNT(*)') ? [{ n: 10, oldest: 1 }] : []);
    };
    await runSearch(all, planSearch(parseTurnQuery(query), null, 'sqlite', before), 50);
    return plans;
  }

  it.each([
    ['a rule and an agent', { rule: ['DISPUTE_WINDOW:blocked'], agent: ['card-disputes'] }],
    ['words and an agent', { q: ['damaged'], agent: ['shop-returns'] }],
    ['a decision, an agent and a version', { decision: ['proceed'], agent: ['a'], version: ['v1'] }],
    ['a comparison', { where: ['amount>500'], agent: ['a'] }],
  ])('drives %s from the full-text match, on the first page and past it', async (_, query) => {
    for (const before of [null, 1_000_000]) {
      for (const steps of await plansOf(query, before)) {
        // The match is read first, in id order, then each of its turns by id: never the agent's
        // index with the match run once per turn (seconds a page on a million turns).
        expect(steps[0]).toMatch(/^SCAN turn_index_text VIRTUAL TABLE/);
        expect(steps.join('\n')).not.toContain('turn_index_agent');
        expect(steps.join('\n')).not.toContain('TEMP B-TREE');
      }
    }
  });

  it("drives one agent's search from the agent's index, on every page", async () => {
    for (const before of [null, 1_000_000])
      for (const steps of await plansOf({ agent: ['card-disputes'] }, before))
        expect(steps[0]).toMatch(/^SEARCH ti USING (COVERING )?INDEX turn_index_agent \(agent_id=\?/);
  });
});
