import { beforeEach, describe, expect, it } from 'vitest';
import { turnKey, useWhatIfStore } from './what-if-store';

const a = turnKey('t1', 'm1');
const b = turnKey('t1', 'm2');
const state = () => useWhatIfStore.getState();

describe('the one what-if of the trace shown', () => {
  beforeEach(() => state().reset());
  it('edits of a turn combine, wherever they are made', () => {
    state().setEdit(a, 'transaction-date', '2025-03-07');
    state().setEdit(a, 'transaction-amount', 620);
    expect(state()).toMatchObject({
      turn: a,
      edits: { 'transaction-date': '2025-03-07', 'transaction-amount': 620 },
    });
  });
  it('an edit of another turn starts a new what-if; a suggestion replaces the edits', () => {
    state().setEdit(a, 'transaction-date', '2025-03-07');
    state().setEdit(b, 'transaction-amount', 620);
    expect(state()).toMatchObject({ turn: b, edits: { 'transaction-amount': 620 } });
    expect(Object.keys(state().edits)).toEqual(['transaction-amount']);
    state().setEdits(b, { 'contact-email': { missing: true } });
    expect(state().edits).toEqual({ 'contact-email': { missing: true } });
  });
  it('Reset returns to the real turn', () => {
    state().setEdit(a, 'transaction-date', '2025-03-07');
    state().reset();
    expect(state()).toMatchObject({ turn: '', edits: {} });
  });

  it('parameters named like prototype members are edits like any other', () => {
    const names = ['constructor', '__proto__', 'toString', 'hasOwnProperty'];
    for (const [i, code] of names.entries()) state().setEdit(a, code, i);
    expect(Object.keys(state().edits).sort()).toEqual([...names].sort());
    for (const [i, code] of names.entries())
      expect(Object.getOwnPropertyDescriptor(state().edits, code)?.value).toBe(i);
    state().setEdits(b, JSON.parse('{"__proto__": 1}') as Record<string, number>);
    expect(Object.keys(state().edits)).toEqual(['__proto__']);
    expect(Object.hasOwn(state().edits, 'constructor')).toBe(false);
  });
});
