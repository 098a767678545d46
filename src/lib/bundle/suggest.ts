/** "Did you mean ...?" for misspelt codes: the closest known name by edit distance. */

export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
    }
    prev = cur;
  }
  return prev[b.length]!;
}

/**
 * The known name closest to `name`, if it is close enough to be a plausible typo (a third of the
 * length, at least 2 edits; case and `_`/`-` differences count as nothing). Ties keep the first.
 */
export function closestMatch(name: string, known: Iterable<string>): string | undefined {
  const fold = (s: string) => s.toLowerCase().replace(/[-_\s]/g, '');
  const target = fold(name);
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of known) {
    if (candidate === name) continue;
    const d = editDistance(target, fold(candidate));
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  const limit = Math.max(2, Math.floor(name.length / 3));
  return bestDistance <= limit ? best : undefined;
}

/**
 * The hint appended to an "unknown X" message: " Did you mean 'x'?", or for a short list
 * " Defined parameters: 'a', 'b'.", or " No parameters are defined.", or nothing.
 */
export function suggestion(name: string, known: readonly string[], plural: string, quote = "'"): string {
  const close = closestMatch(name, known);
  if (close !== undefined) return ` Did you mean ${quote}${close}${quote}?`;
  if (known.length === 0) return ` No ${plural} are defined.`;
  if (known.length <= 8) return ` Defined ${plural}: ${known.map((k) => `${quote}${k}${quote}`).join(', ')}.`;
  return '';
}
