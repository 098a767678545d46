import { describe, expect, it } from 'vitest';
import { ownValue, withEntry, withoutEntry } from './own-records';

const NAMES = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'];

describe('records keyed by names people choose', () => {
  it('read only their own entries, whatever the name', () => {
    for (const name of NAMES) {
      expect(ownValue({}, name)).toBeUndefined();
      const set = withEntry({ other: 'o' }, name, 'mine');
      expect(ownValue(set, name)).toBe('mine');
      expect(ownValue(set, 'other')).toBe('o');
      expect(Object.keys(set).sort()).toEqual([name, 'other'].sort());
      expect(JSON.parse(JSON.stringify(set))).toEqual(
        JSON.parse(`{"other":"o",${JSON.stringify(name)}:"mine"}`),
      );
      const removed = withoutEntry(set, name);
      expect(ownValue(removed, name)).toBeUndefined();
      expect(withoutEntry(removed, name)).toBe(removed);
    }
  });
});
