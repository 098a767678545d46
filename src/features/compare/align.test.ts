import { describe, expect, it } from 'vitest';
import { TolerantTrace } from '../../contract/trace';
import {
  MAX_LCS_CELLS,
  alignTurns,
  lcsPairs,
  normalizeText,
  sameTurn,
  sharedPrefixLength,
  type AlignedRow,
  type CompareTurn,
} from './align';

function turn(
  id: string,
  user_text: string,
  reply_text = `re: ${user_text}`,
  decision = 'proceed',
): CompareTurn {
  return {
    interaction_id: id,
    user_text,
    reply_text,
    trace: TolerantTrace.parse({ interaction_id: id, decision }),
  };
}

/** Compact picture of the rows: "a1=b1", "a2|", "|b3". */
function rowsOf(rows: AlignedRow[]): string[] {
  return rows.map((r) =>
    r.kind === 'pair'
      ? `${r.a.interaction_id}=${r.b.interaction_id}`
      : r.kind === 'only-a'
        ? `${r.a.interaction_id}|`
        : `|${r.b.interaction_id}`,
  );
}

describe('sameTurn', () => {
  it('matches the same interaction id', () => {
    expect(sameTurn(turn('x', 'hi'), turn('x', 'other'))).toBe(true);
  });
  it('matches copied history with fresh ids by words in, words out and decision', () => {
    expect(sameTurn(turn('a1', 'hi', 'hello'), turn('b1', 'hi', 'hello'))).toBe(true);
    expect(sameTurn(turn('a1', 'hi', 'hello'), turn('b1', 'hi', 'hey'))).toBe(false);
    expect(
      sameTurn(turn('a1', 'hi', 'hello', 'proceed'), turn('b1', 'hi', 'hello', 'block_with_explanation')),
    ).toBe(false);
  });
});

describe('alignTurns', () => {
  it('collapses the shared prefix of a branch and pairs the regenerated turn', () => {
    const a = [
      turn('a1', 'hello'),
      turn('a2', 'I want to dispute a charge', 'blocked', 'block_with_explanation'),
    ];
    const b = [turn('b1', 'hello'), turn('b2', 'I want to dispute a charge', 'done', 'proceed')];
    const { prefix, rows } = alignTurns(a, b);
    expect(prefix.map((p) => [p.a.interaction_id, p.b.interaction_id, p.index])).toEqual([['a1', 'b1', 0]]);
    expect(rowsOf(rows)).toEqual(['a2=b2']);
    expect(rows[0]).toMatchObject({ kind: 'pair', aIndex: 1, bIndex: 1, sameText: true });
  });

  it("pairs an edited message with the original, then shows the parent's later turns on one side", () => {
    const a = [
      turn('a1', 'hello'),
      turn('a2', 'dispute 10 days ago'),
      turn('a3', 'yes'),
      turn('a4', 'thanks'),
    ];
    const b = [turn('b1', 'hello'), turn('b2', 'dispute the charge from 10 days ago')];
    const { prefix, rows } = alignTurns(a, b);
    expect(prefix).toHaveLength(1);
    expect(rowsOf(rows)).toEqual(['a2=b2', 'a3|', 'a4|']);
    expect(rows[0]).toMatchObject({ sameText: false });
  });

  it('anchors on the same user words and pairs the gaps in order', () => {
    const a = [turn('a1', 'one'), turn('a2', 'two'), turn('a3', 'Same  Words'), turn('a4', 'four')];
    const b = [turn('b1', 'uno'), turn('b3', 'same words'), turn('b4', 'four'), turn('b5', 'five')];
    const { prefix, rows } = alignTurns(a, b);
    expect(prefix).toEqual([]);
    expect(rowsOf(rows)).toEqual(['a1=b1', 'a2|', 'a3=b3', 'a4=b4', '|b5']);
    expect(rows.at(-1)).toMatchObject({ kind: 'only-b', bIndex: 3 });
  });

  it('handles empty sides and identical threads', () => {
    expect(alignTurns([], [])).toEqual({ prefix: [], rows: [], matchedByText: true });
    const a = [turn('a1', 'x')];
    expect(rowsOf(alignTurns(a, []).rows)).toEqual(['a1|']);
    expect(rowsOf(alignTurns([], a).rows)).toEqual(['|a1']);
    const same = alignTurns(a, a);
    expect(same.prefix).toHaveLength(1);
    expect(same.rows).toEqual([]);
  });

  it('keeps every turn exactly once on its side, in order', () => {
    const a = ['a', 'b', 'c', 'd', 'e', 'f'].map((t, i) => turn(`a${i}`, t));
    const b = ['b', 'x', 'd', 'a', 'f', 'f'].map((t, i) => turn(`b${i}`, t));
    const { prefix, rows } = alignTurns(a, b);
    const aSeen = [...prefix.map((p) => p.a), ...rows.flatMap((r) => (r.kind === 'only-b' ? [] : [r.a]))];
    const bSeen = [...prefix.map((p) => p.b), ...rows.flatMap((r) => (r.kind === 'only-a' ? [] : [r.b]))];
    expect(aSeen.map((t) => t.interaction_id)).toEqual(a.map((t) => t.interaction_id));
    expect(bSeen.map((t) => t.interaction_id)).toEqual(b.map((t) => t.interaction_id));
  });
});

describe('helpers', () => {
  it('normalises whitespace and case', () => {
    expect(normalizeText('  Hello \n  World ')).toBe('hello world');
  });
  it('measures the shared prefix', () => {
    expect(sharedPrefixLength([turn('1', 'a'), turn('2', 'b')], [turn('1', 'a'), turn('3', 'c')])).toBe(1);
  });
  it('finds a longest common subsequence', () => {
    const pairs = lcsPairs([...'ABCBDAB'], [...'BDCABA'], (x, y) => x === y);
    expect(pairs).toHaveLength(4);
    for (let k = 1; k < pairs.length; k += 1) {
      expect(pairs[k]![0]).toBeGreaterThan(pairs[k - 1]![0]);
      expect(pairs[k]![1]).toBeGreaterThan(pairs[k - 1]![1]);
    }
  });
});

describe('alignTurns, bounded', () => {
  it('pairs in order, and says so, when too many turns follow the shared prefix to match by message', () => {
    const n = Math.ceil(Math.sqrt(MAX_LCS_CELLS)) + 1;
    const a = Array.from({ length: n }, (_, i) => turn(`a${i}`, `question ${i}`));
    const b = Array.from({ length: n }, (_, i) => turn(`b${i}`, `question ${i + 1}`));
    const out = alignTurns(a, b);
    expect(out.matchedByText).toBe(false);
    expect(out.rows).toHaveLength(n);
    expect(out.rows.every((r) => r.kind === 'pair')).toBe(true);
    // Below the bound the same turns are matched by message.
    const small = alignTurns(a.slice(0, 50), b.slice(0, 50));
    expect(small.matchedByText).toBe(true);
    expect(small.rows.filter((r) => r.kind !== 'pair')).toHaveLength(2);
  });
});
