import { describe, expect, it } from 'vitest';
import type { RegionPart } from '../../src/contract/analysis';
import { parseTurnQuery } from '../store/turn-search';
import { regionSearch, searchText } from './region-search';

const SINCE = '2025-03-01T00:00:00Z';
const search = (...parts: RegionPart[]) =>
  regionSearch('card-disputes', 'DISPUTE_CHARGE', SINCE, { words: 'w', parts });
const text = (...parts: RegionPart[]) => {
  const found = search(...parts);
  return 'values' in found ? searchText(found.values) : found.unsearchable;
};

describe("a region's turn search", () => {
  it('says each bound with its inclusivity, a value, a choice of values and an unknown value', () => {
    expect(
      text(
        { param: 'amount', axis: 'number', words: '', min: 500, max: 1000, max_inclusive: true },
        { param: 'date', axis: 'date', words: '', min: '2025-01-01', min_inclusive: true },
        { param: 'card-id', axis: 'known', words: '', unknown: true },
        { param: 'reason', axis: 'value', words: '', one_of: ['fraud', 'not received'] },
        { param: 'verified', axis: 'boolean', words: '', one_of: [true] },
      ),
    ).toBe(
      'agent=card-disputes&tool=DISPUTE_CHARGE&where=amount%3E500&where=amount%3C%3D1000&where=date%3E%3D2025-01-01' +
        '&where=%21card-id&where=verified%3Dtrue&param=reason%3Dfraud&param=reason%3Dnot+received&from=2025-03-01T00%3A00%3A00Z',
    );
    const found = search({ param: 'amount', axis: 'number', words: '', one_of: [120] });
    if (!('values' in found)) throw new Error(found.unsearchable);
    // What the search reads back is what was meant.
    const fields: Record<string, string[]> = {};
    for (const [f, v] of found.values) (fields[f] ??= []).push(v);
    expect(parseTurnQuery(fields)).toMatchObject({
      agents: ['card-disputes'],
      tools: [{ tool: 'DISPUTE_CHARGE', invoked: false }],
      where: [
        { code: 'amount', op: '>=', number: 120 },
        { code: 'amount', op: '<=', number: 120 },
      ],
      from: '2025-03-01T00:00:00.000Z',
    });
  });

  it('makes no search where it cannot be exact, and says why', () => {
    const refused = [
      search({ param: 'transaction-date', axis: 'days_ago', words: '', max: 8 }),
      search({ param: 'reason', axis: 'value', words: '', none_of: ['fraud'] }),
      search({ param: 'amount', axis: 'number', words: '', one_of: [1, 2] }),
      search({ param: 'a=b', axis: 'known', words: '' }),
      search({ param: 'date', axis: 'date', words: '', min: '2025-01-01T10:00:00Z' }),
      // A value or none at all (the engine's `or_unknown`): alternatives of presence and absence.
      search({
        param: 'reason',
        axis: 'value',
        words: 'x or not known',
        one_of: ['x'],
        or_unknown: true,
      }),
      search(
        { param: 'a', axis: 'value', words: '', one_of: ['x', 'y'] },
        { param: 'b', axis: 'value', words: '', one_of: ['x', 'y'] },
      ),
    ];
    for (const r of refused) expect(r).toEqual({ unsearchable: expect.any(String) as string });
    expect(refused[0]).toEqual({ unsearchable: expect.stringContaining("each turn's own clock") as string });
  });
});
