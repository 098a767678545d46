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

/** Null when the query does not match. An empty query matches everything with score 0. */
export function fuzzyMatch(query: string, text: string): FuzzyMatch | null {
  const q = query.trim().toLowerCase().replace(/\s+/g, ' ');
  if (!q) return { score: 0, positions: [] };
  const lower = text.toLowerCase();
  const positions: number[] = [];
  let score = 0;
  let from = 0;
  let prevPos = -2;
  for (const ch of q) {
    if (ch === ' ') continue;
    // Prefer the next occurrence at a word start, else the next occurrence at all.
    let pos = -1;
    for (let i = lower.indexOf(ch, from); i !== -1; i = lower.indexOf(ch, i + 1)) {
      if (i === prevPos + 1 || isWordStart(text, i)) {
        pos = i;
        break;
      }
    }
    if (pos === -1) pos = lower.indexOf(ch, from);
    if (pos === -1) return null;
    score += 1;
    if (pos === prevPos + 1) score += 3;
    if (isWordStart(text, pos)) score += 4;
    positions.push(pos);
    prevPos = pos;
    from = pos + 1;
  }
  if (lower.startsWith(q)) score += 10;
  else if (lower.includes(q)) score += 5;
  // Shorter texts win ties.
  score -= text.length / 100;
  return { score, positions };
}

/** Items that match, best first; a stable order (the input's) among equal scores. */
export function fuzzyFilter<T>(query: string, items: readonly T[], text: (item: T) => string): Array<{ item: T; match: FuzzyMatch }> {
  const out: Array<{ item: T; match: FuzzyMatch; i: number }> = [];
  items.forEach((item, i) => {
    const match = fuzzyMatch(query, text(item));
    if (match) out.push({ item, match, i });
  });
  if (query.trim()) out.sort((a, b) => b.match.score - a.match.score || a.i - b.i);
  return out.map(({ item, match }) => ({ item, match }));
}
