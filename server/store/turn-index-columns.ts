/** How a turn's index entry (`engine/turn-index-entry.ts`) is written in the index row's columns. */
import type { TurnIndexEntry } from '../../engine/turn-index-entry';

/** A turn's rules with their results as its index row keeps them, for the counts: `[[id, result], …]`. */
export const rulesColumn = (e: TurnIndexEntry): string =>
  JSON.stringify(e.rules.map((r) => [r.ruleId, r.result]));
/** A turn's tools as its index row keeps them, for the counts: `[[tool, 1 when invoked else 0], …]`. */
export const toolsColumn = (e: TurnIndexEntry): string =>
  JSON.stringify(e.tools.map((t) => [t.tool, t.invoked ? 1 : 0]));
/** A turn's values that are numbers, as its index row keeps them for comparisons: `{code: number, …}`. */
export const numbersColumn = (e: TurnIndexEntry): string =>
  JSON.stringify(Object.fromEntries(e.ranges.filter((v) => v.num !== null).map((v) => [v.code, v.num])));
/** A turn's values that are dates, as its index row keeps them for comparisons: `{code: date, …}`. */
export const datesColumn = (e: TurnIndexEntry): string =>
  JSON.stringify(Object.fromEntries(e.ranges.filter((v) => v.date !== null).map((v) => [v.code, v.date])));
