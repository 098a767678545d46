/** The benchmark suite: card-disputes conversations of 5 turns, each with its own clock, amount and date. */
import type { TestCase } from '../../src/lib/test-cases';

export function benchCase(i: number): TestCase {
  return {
    format: 'threadline-test-case',
    format_version: 1,
    name: `case ${i}`,
    agent_id: 'card-disputes',
    clock: new Date(Date.UTC(2025, 0, 1) + (i % 60) * 86_400_000).toISOString(),
    turns: [
      'I want to dispute a charge',
      'It was a duplicate charge',
      `$${20 + i}.50`,
      `${1 + (i % 7)} days ago`,
      `user${i}@example.com`,
    ].map((say) => ({ say, expect: { decision: 'proceed' } })),
  };
}

export const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
