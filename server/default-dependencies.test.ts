import { describe, expect, it } from 'vitest';
import { bundleHash } from '../src/lib/bundle/hash';
import { serverBundleHash } from './default-dependencies';

describe("the service's bundle hash", () => {
  it('is the hash the app and the CLI compute, for any text', () => {
    for (const bundle of [
      {
        rules: Array.from({ length: 800 }, (_, i) => ({ id: `R${i}`, when: `amount > ${i}`, weight: i / 7 })),
      },
      { name: 'Zoë’s agent 😀', rules: [{ id: 'é', note: '\u0000 "q" \\ \n' }] },
      { b: 1, a: [2, { d: null, c: 'x' }] },
    ])
      expect(serverBundleHash(bundle)).toBe(bundleHash(bundle));
  });
});
