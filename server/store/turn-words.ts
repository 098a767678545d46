/**
 * The words text search sees, the same on both stores: a text's runs of letters and digits (so
 * `jane@example.com` is three words), lower-cased, with accents and compatibility forms folded
 * (`Café` → `cafe`, `ﬁ` → `fi`). Both stores index a turn's message and reply as these words,
 * space-separated, and match whole words exactly: SQLite's FTS5 with the `unicode61` tokenizer (no
 * stemming), PostgreSQL's `simple` configuration (no stemming, no stop words). A query's words go
 * through the same folding, so one query finds the same turns on either store: a word such as
 * "the" or "of" must appear as any other does, and "disputes" does not find "dispute".
 */

/** A word: a run of letters and digits (as `src/contract/turn-query.ts` splits a query). */
const WORD = /[\p{L}\p{N}]+/gu;
const MARKS = /\p{M}+/gu;

/** The text's words, folded. */
export function searchWords(text: string): string[] {
  return text.toLowerCase().normalize('NFKD').replace(MARKS, '').match(WORD) ?? [];
}

/** The text as the stores index it: its folded words, separated by spaces. */
export const indexedText = (text: string): string => searchWords(text).join(' ');
