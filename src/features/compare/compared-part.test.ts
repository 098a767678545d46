import { describe, expect, it } from 'vitest';
import { comparedPart, rangeLabel, turnsIn } from './compared-part';

describe('comparedPart', () => {
  it('compares two whole threads whole', () => {
    const part = comparedPart({ start: 0, held: 12, total: 12 }, { start: 0, held: 9, total: 9 });
    expect(part.whole).toBe(true);
    expect(part.a).toEqual({ compared: { from: 0, to: 12 }, notCompared: [], total: 12 });
    expect(part.b).toEqual({ compared: { from: 0, to: 9 }, notCompared: [], total: 9 });
  });

  it('of two long threads holding their newest pages: the stretch both hold, the earlier turns named', () => {
    // A: turns 1,001–1,100 held of 1,100; B: 1,001–1,107 of 1,107.
    const part = comparedPart(
      { start: 1000, held: 100, total: 1100 },
      { start: 1000, held: 107, total: 1107 },
    );
    expect(part.whole).toBe(false);
    expect(part.a.compared).toEqual({ from: 1000, to: 1100 });
    expect(part.b.compared).toEqual({ from: 1000, to: 1107 });
    expect(part.a.notCompared).toEqual([{ from: 0, to: 1000 }]);
    expect(part.b.notCompared).toEqual([{ from: 0, to: 1000 }]);
  });

  it('starts at the later first held turn: what one side holds before it is not compared', () => {
    const part = comparedPart(
      { start: 500, held: 600, total: 1100 },
      { start: 1000, held: 100, total: 1100 },
    );
    expect(part.a.compared).toEqual({ from: 1000, to: 1100 });
    expect(part.a.notCompared).toEqual([{ from: 0, to: 1000 }]);
  });

  it('stops where a side not held to its end stops, on both sides (no turn called one-sided for not being held)', () => {
    // A held to its end; B holds 1–1,500 of 2,010.
    const part = comparedPart({ start: 0, held: 2000, total: 2000 }, { start: 0, held: 1500, total: 2010 });
    expect(part.a.compared).toEqual({ from: 0, to: 1500 });
    expect(part.b.compared).toEqual({ from: 0, to: 1500 });
    expect(part.a.notCompared).toEqual([{ from: 1500, to: 2000 }]);
    expect(part.b.notCompared).toEqual([{ from: 1500, to: 2010 }]);
  });

  it('compares nothing when the held stretches do not meet, and says every turn is not compared', () => {
    const part = comparedPart({ start: 0, held: 500, total: 2000 }, { start: 1500, held: 501, total: 2001 });
    expect(part.a.compared.to - part.a.compared.from).toBe(0);
    expect(part.b.compared.to - part.b.compared.from).toBe(0);
    const covered = (rs: { from: number; to: number }[]) => rs.reduce((n, r) => n + r.to - r.from, 0);
    expect(covered(part.a.notCompared)).toBe(2000);
    expect(covered(part.b.notCompared)).toBe(2001);
  });

  it('never names a turn a thread does not have', () => {
    const part = comparedPart({ start: 0, held: 300, total: 300 }, { start: 1000, held: 100, total: 1100 });
    expect(part.a.notCompared).toEqual([{ from: 0, to: 300 }]);
    expect(part.b.notCompared).toEqual([{ from: 0, to: 1000 }]);
  });
});

describe('turnsIn and rangeLabel', () => {
  it('keeps the turns of a range, named from 1', () => {
    const turns = Array.from({ length: 10 }, (_, i) => ({ index: 100 + i }));
    expect(turnsIn(turns, { from: 105, to: 107 }).map((t) => t.index)).toEqual([105, 106]);
    expect(rangeLabel({ from: 0, to: 1000 })).toBe('turns 1–1,000');
    expect(rangeLabel({ from: 6, to: 7 })).toBe('turn 7');
  });
});
