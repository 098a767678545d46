import { describe, expect, it } from 'vitest';
import type { Bundle } from '../../contract/bundle';
import { bundleRules } from './rules-of';

describe('every rule of a bundle', () => {
  it('names each as traces do, the bundle’s rules first, then each tool’s, in order', () => {
    const bundle = {
      rules: [
        { code: 'DISPUTE_WINDOW', when: {}, then: { action: 'BLOCK' } },
        { when: {}, then: {} },
      ],
      agent_tools: [
        {
          code: 'DISPUTE_CHARGE',
          rules: {
            pre: {
              constraint: [
                { code: 'LIMIT', when: {}, then: {} },
                { when: {}, then: {} },
              ],
            },
          },
        },
      ],
    } as unknown as Bundle;
    expect(bundleRules(bundle).map((r) => [r.id, r.place])).toEqual([
      ['DISPUTE_WINDOW', 'rules'],
      ['rules[1]', 'rules'],
      ['LIMIT', 'DISPUTE_CHARGE.pre.constraint'],
      ['DISPUTE_CHARGE.pre.constraint[1]', 'DISPUTE_CHARGE.pre.constraint'],
    ]);
    expect(bundleRules(bundle)[0]!.rule).toMatchObject({ code: 'DISPUTE_WINDOW' });
  });
});
