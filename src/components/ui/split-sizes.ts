/** Pure size arithmetic for SplitPanes: sizes are percentages that always sum to the same total. */

/** Moves the boundary after pane `index` by `delta` percent, respecting both panes' minimums. */
export function resizePair(
  sizes: readonly number[],
  mins: readonly number[],
  index: number,
  delta: number,
): number[] {
  const a = sizes[index];
  const b = sizes[index + 1];
  if (a === undefined || b === undefined) return [...sizes];
  const minA = mins[index] ?? 0;
  const minB = mins[index + 1] ?? 0;
  const pair = a + b;
  const nextA = Math.min(Math.max(a + delta, minA), pair - minB);
  const out = [...sizes];
  out[index] = Math.round(nextA * 100) / 100;
  out[index + 1] = Math.round((pair - nextA) * 100) / 100;
  return out;
}

/** Stored sizes if they fit the panes (count, minimums, total), else the defaults. */
export function restoreSizes(
  stored: unknown,
  defaults: readonly number[],
  mins: readonly number[],
): number[] {
  if (!Array.isArray(stored) || stored.length !== defaults.length) return [...defaults];
  const nums = stored.map(Number);
  const total = defaults.reduce((s, x) => s + x, 0);
  const ok =
    nums.every((n, i) => Number.isFinite(n) && n >= (mins[i] ?? 0)) &&
    Math.abs(nums.reduce((s, x) => s + x, 0) - total) < 0.5;
  return ok ? nums : [...defaults];
}
