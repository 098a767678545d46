import { describe, expect, it } from 'vitest';
import { createKeyRing, keyAllowsAgent, parseApiKeys } from './api-keys';

describe('parseApiKeys', () => {
  it('defaults to one dev-key for every agent', () => {
    expect(parseApiKeys(undefined)).toEqual([{ key: 'dev-key', agents: '*' }]);
    expect(parseApiKeys('  ')).toEqual([{ key: 'dev-key', agents: '*' }]);
  });

  it('reads wildcard and agent-limited keys', () => {
    expect(parseApiKeys('key1=*; key2=card-disputes, flight-changes;')).toEqual([
      { key: 'key1', agents: '*' },
      { key: 'key2', agents: ['card-disputes', 'flight-changes'] },
    ]);
  });

  it('treats a bare key as allowed for every agent', () => {
    expect(parseApiKeys('solo')).toEqual([{ key: 'solo', agents: '*' }]);
  });

  it('rejects an entry without a key', () => {
    expect(() => parseApiKeys('=*')).toThrow(/no key/);
  });
});

describe('key ring', () => {
  const ring = createKeyRing(parseApiKeys('alpha=*;beta=card-disputes'));

  it('finds exact keys only', () => {
    expect(ring.find('alpha')?.key).toBe('alpha');
    expect(ring.find('beta')?.agents).toEqual(['card-disputes']);
    expect(ring.find('alph')).toBeUndefined();
    expect(ring.find('alphaa')).toBeUndefined();
    expect(ring.find('')).toBeUndefined();
    expect(ring.find(undefined)).toBeUndefined();
  });

  it('limits agent-scoped keys', () => {
    const beta = ring.find('beta')!;
    expect(keyAllowsAgent(beta, 'card-disputes')).toBe(true);
    expect(keyAllowsAgent(beta, 'flight-changes')).toBe(false);
    expect(keyAllowsAgent(ring.find('alpha')!, 'anything')).toBe(true);
  });
});
