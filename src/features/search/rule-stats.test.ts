import { describe, expect, it } from 'vitest';
import { dailySeries, MAX_CHART_DAYS, ruleFind, ruleResults } from './rule-stats';

describe("a rule's page in numbers", () => {
  it('searches the rule within its agent, with one result or any', () => {
    expect(ruleFind('card-disputes', 'DISPUTE_WINDOW')).toBe('agent=card-disputes&rule=DISPUTE_WINDOW');
    expect(ruleFind('card-disputes', 'DISPUTE_WINDOW', 'blocked')).toBe(
      'agent=card-disputes&rule=DISPUTE_WINDOW%3Ablocked',
    );
  });

  it("reads the rule's own results from the counts, most frequent first", () => {
    const rules = [
      { rule_id: 'ASK_REASON', result: 'allowed', count: 9 },
      { rule_id: 'DISPUTE_WINDOW', result: 'blocked', count: 2 },
      { rule_id: 'DISPUTE_WINDOW', result: 'allowed', count: 5 },
    ];
    expect(ruleResults(rules, 'DISPUTE_WINDOW')).toEqual([
      { result: 'allowed', count: 5 },
      { result: 'blocked', count: 2 },
    ]);
  });

  it('puts every result on the same consecutive days, a day without turns at 0', () => {
    const s = dailySeries([
      { result: 'blocked', days: [{ day: '2026-03-01', count: 2 }] },
      {
        result: 'allowed',
        days: [
          { day: '2026-02-28', count: 1 },
          { day: '2026-03-02', count: 4 },
        ],
      },
    ]);
    expect(s.days).toEqual(['2026-02-28', '2026-03-01', '2026-03-02']);
    expect(s.series).toEqual([
      { result: 'blocked', counts: [0, 2, 0] },
      { result: 'allowed', counts: [1, 0, 4] },
    ]);
    expect(s.max).toBe(4);
    expect(dailySeries([]).days).toEqual([]);
  });

  it('draws at most the newest days', () => {
    const s = dailySeries([
      {
        result: 'blocked',
        days: [
          { day: '2020-01-01', count: 1 },
          { day: '2026-03-02', count: 1 },
        ],
      },
    ]);
    expect(s.days).toHaveLength(MAX_CHART_DAYS);
    expect(s.days.at(-1)).toBe('2026-03-02');
    expect(s.series[0]!.counts.reduce((a, b) => a + b)).toBe(1);
  });
});
