import { describe, expect, it } from 'vitest';
import { fuzzyFilter, fuzzyMatch } from './fuzzy';

describe('fuzzyMatch', () => {
  it('matches characters in order, case-insensitively', () => {
    expect(fuzzyMatch('cpy', 'Copy link')).not.toBeNull();
    expect(fuzzyMatch('ypc', 'Copy link')).toBeNull();
    expect(fuzzyMatch('LINK', 'Copy link')?.positions).toEqual([5, 6, 7, 8]);
  });

  it('matches everything on an empty query', () => {
    expect(fuzzyMatch('  ', 'anything')).toEqual({ score: 0, positions: [] });
  });

  it('does not match letters scattered across words', () => {
    expect(fuzzyMatch('theme', 'Show the Thread tab')).toBeNull();
    expect(fuzzyMatch('theme', 'Switch to dark theme')).not.toBeNull();
    expect(fuzzyMatch('swdark', 'Switch to dark theme')?.positions).toEqual([0, 1, 10, 11, 12, 13]);
  });

  it('backtracks when the first choice leads nowhere', () => {
    expect(fuzzyMatch('ab', 'a xab')?.positions).toEqual([3, 4]);
  });

  it('prefers word starts to scattered letters', () => {
    const words = fuzzyMatch('cl', 'Copy link')!;
    const scattered = fuzzyMatch('cl', 'Cancel')!;
    expect(words.score).toBeGreaterThan(scattered.score);
    expect(words.positions).toEqual([0, 5]);
  });
});

describe('fuzzyFilter', () => {
  const items = [
    'New thread',
    'Send message',
    'Switch to dark theme',
    'Copy trace link',
    'Create snapshot link',
  ];

  it('ranks a prefix first and drops non-matches', () => {
    const r = fuzzyFilter('sn', items, (s) => s).map((m) => m.item);
    expect(r[0]).toBe('Create snapshot link');
    expect(r).not.toContain('New thread');
  });

  it('keeps the input order for an empty query', () => {
    expect(fuzzyFilter('', items, (s) => s).map((m) => m.item)).toEqual(items);
  });

  it('finds a word anywhere', () => {
    expect(fuzzyFilter('dark', items, (s) => s).map((m) => m.item)).toEqual(['Switch to dark theme']);
  });
});
