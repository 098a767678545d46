/** The worked example of docs/bundle/lint-and-diff.md, as the guide tells it. */
import { describe, expect, it } from 'vitest';
import type { Bundle } from '../../src/contract/bundle';
import { starterBundle } from '../../tests/support/starter-agent';
import { diffBundles, lintBundle } from './index';

const CLOCK = '2025-03-15T12:00:00Z';
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function withLimit(nights: number): Json {
  const b = structuredClone(starterBundle()) as Json;
  b.agent_tools[0].rules.pre.constraint[0].when.value = nights;
  return b;
}

describe("the guide's worked example", () => {
  it('lowers the starter’s 14-night limit to 7: three regions of 8 to 14 nights, now blocked', () => {
    const d = diffBundles(starterBundle(), withLimit(7), { clock: CLOCK });
    expect(d.equivalent).toBe(false);
    expect(d.capped).toBe(false);
    expect(
      d.differences.map((x) => [x.region.words, x.before.decision, x.after.decision, x.after.rules]),
    ).toEqual([
      [
        'arrival-date not known, nights > 7 and ≤ 14',
        'request_information',
        'block_with_explanation',
        ['MAX_NIGHTS'],
      ],
      [
        'arrival-date known, room-type not known, nights > 7 and ≤ 14',
        'request_information',
        'block_with_explanation',
        ['MAX_NIGHTS'],
      ],
      [
        'arrival-date known, room-type known, nights > 7 and ≤ 14',
        'request_confirmation',
        'block_with_explanation',
        ['MAX_NIGHTS'],
      ],
    ]);
    expect(d.differences[2]!.witness.messages).toEqual([
      'I want to book a room. arrival date: 2025-01-01. room type: standard. nights: 11',
    ]);
  });

  it('finds SHORT_SUITE_STAYS shadowed by the lowered limit, at 11 nights in a suite', () => {
    const b = withLimit(7);
    b.agent_tools[0].rules.pre.constraint.push({
      code: 'SHORT_SUITE_STAYS',
      when: {
        all: [
          { method: 'param_value', params: 'nights', operation: 'gt', value: 10 },
          { method: 'param_value', params: 'room-type', operation: 'eq', value: 'suite' },
        ],
      },
      then: { action: 'BLOCK', message: 'Suites are for long stays only.' },
    });
    const [finding] = lintBundle(b, { clock: CLOCK }).findings;
    expect(finding).toMatchObject({
      code: 'shadowed_rule',
      rule: 'SHORT_SUITE_STAYS',
      witness: { values: { nights: 11, 'room-type': 'suite' } },
    });
  });

  it('says the unchanged bundle is equivalent', () => {
    expect(diffBundles(starterBundle() as Bundle, withLimit(14) as Bundle, { clock: CLOCK }).equivalent).toBe(
      true,
    );
  });
});
