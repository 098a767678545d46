/**
 * Fuzzy matching for pickers (the command palette): every query character must appear in order.
 * The score favours matches at word starts and consecutive runs, so "cl" ranks "Copy link" above
 * "Cancel". Pure.
 */

export interface FuzzyMatch {
  score: number;
  /** Indexes of the matched characters in the text (for highlighting). */
  positions: number[];
}

function isWordStart(text: string, i: number): boolean {
  if (i === 0) return true;
  const prev = text[i - 1] ?? '';
  const cur = text[i] ?? '';
  return /[\s\-_/.:·(]/.test(prev) || (prev === prev.toLowerCase() && cur !== cur.toLowerCase());
}

const SEPARATOR = /[\s\-_/.:·(]/;

/** No separator between positions a (exclusive) and b (inclusive): the same word. */
function sameWord(text: string, a: number, b: number): boolean {
  for (let i = a + 1; i <= b; i += 1)
    if (SEPARATOR.test(text[i] ?? '') || (i > a + 1 && isWordStart(text, i))) return false;
  return true;
}

/**
 * Null when the query does not match. Each query character must follow the previous one
 * directly, start a word, or sit later in the same word, so "theme" does not match letters
 * scattered over "Show the Thread tab". An empty query matches everything with score 0.
 */
export function fuzzyMatch(query: string, text: string): FuzzyMatch | null {
  const q = query.trim().toLowerCase().replace(/\s+/g, '');
  if (!q) return { score: 0, positions: [] };
  const lower = text.toLowerCase();
  const positions: number[] = [];

  const search = (qi: number, prev: number): boolean => {
    if (qi === q.length) return true;
    const ch = q[qi]!;
    const candidates: number[] = [];
    for (let i = lower.indexOf(ch, prev + 1); i !== -1; i = lower.indexOf(ch, i + 1)) {
      if (prev < 0 || i === prev + 1 || isWordStart(text, i) || sameWord(text, prev, i)) candidates.push(i);
    }
    // Contiguous first, then word starts, then the rest, left to right.
    candidates.sort((a, b) => rank(a, prev) - rank(b, prev) || a - b);
    for (const i of candidates) {
      positions.push(i);
      if (search(qi + 1, i)) return true;
      positions.pop();
    }
    return false;
  };
  const rank = (i: number, prev: number) => (i === prev + 1 ? 0 : isWordStart(text, i) ? 1 : 2);
  if (!search(0, -1)) return null;

  let score = 0;
  positions.forEach((pos, k) => {
    score += 1;
    if (k > 0 && pos === positions[k - 1]! + 1) score += 3;
    if (isWordStart(text, pos)) score += 4;
  });
  if (lower.startsWith(q)) score += 10;
  else if (lower.includes(q)) score += 5;
  // Shorter texts win ties.
  score -= text.length / 100;
  return { score, positions };
}

/** Items that match, best first; a stable order (the input's) among equal scores. */
export function fuzzyFilter<T>(
  query: string,
  items: readonly T[],
  text: (item: T) => string,
): Array<{ item: T; match: FuzzyMatch }> {
  const out: Array<{ item: T; match: FuzzyMatch; i: number }> = [];
  items.forEach((item, i) => {
    const match = fuzzyMatch(query, text(item));
    if (match) out.push({ item, match, i });
  });
  if (query.trim()) out.sort((a, b) => b.match.score - a.match.score || a.i - b.i);
  return out.map(({ item, match }) => ({ item, match }));
}
