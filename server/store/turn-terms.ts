/**
 * The terms of the turn index: a rule (with or without its result), a tool (considered or
 * invoked), the decision, the intent, a parameter's presence and its value, each written as one
 * token in the turn's full-text row, beside the words of its message and reply. One token per
 * fact, so an equality filter is a lookup in the one full-text index, and a turn's terms are
 * written with its text as one row rather than as a row per fact in other indexes.
 *
 * A term's token is `tl`, a letter for its kind, 24 hexadecimal digits of the SHA-256 of the kind
 * and its parts, and a closing `0`: letters and digits only, so SQLite's tokenizer keeps it whole,
 * and ending in a digit, so the stemmer leaves it unchanged. SQLite writes and searches tokens in
 * an FTS5 column of their own; PostgreSQL keeps them as numbers (`termNumber`) in a column of
 * their own: either way the words of a message or a reply can never be read as a term, nor a
 * term found by words. Two facts sharing a token would need a collision of 96 bits of SHA-256
 * (SQLite) or 64 bits (PostgreSQL: found by chance once in billions of stores of a million
 * distinct facts; crafting one means choosing both facts, so it cannot aim at another's data).
 * Pure (the cache of tokens aside, which only saves recomputing them).
 */
import { hash } from 'node:crypto';
import type { TermKind } from '../../engine/turn-index-entry';

const LETTER: Record<TermKind, string> = {
  rule: 'r',
  'rule-result': 's',
  tool: 't',
  'tool-invoked': 'i',
  decision: 'd',
  intent: 'n',
  param: 'p',
  value: 'v',
};

/**
 * Tokens already computed, by kind and first part, then by second part: the same rules, tools,
 * decisions and codes come back turn after turn, and a hash costs more than a look-up. Emptied
 * when it holds CACHED_TERMS first parts.
 */
const cache = new Map<string, Map<string, string>>();
const CACHED_TERMS = 20_000;

/** The token of a fact: its kind and its parts (a rule id and its result, a code and its value…). */
export function term(kind: TermKind, first: string, second = ''): string {
  const key = LETTER[kind] + first;
  let known = cache.get(key);
  const cached = known?.get(second);
  if (cached !== undefined) return cached;
  const parts = kind === 'rule-result' || kind === 'value' ? [kind, first, second] : [kind, first];
  const token = `tl${LETTER[kind]}${hash('sha256', JSON.stringify(parts), 'hex').slice(0, 24)}0`;
  if (!known) {
    if (cache.size >= CACHED_TERMS) cache.clear();
    known = new Map();
    cache.set(key, known);
  }
  if (known.size >= CACHED_TERMS) known.clear();
  known.set(second, token);
  return token;
}

/**
 * A token as PostgreSQL keeps it: the first 64 bits of its hash as a signed 64-bit integer (in
 * decimal, as `pg` passes a BIGINT), in an array column of the turn's row with a GIN index, apart
 * from its words; small enough that testing a turn's terms costs little more than reading its row.
 */
export const termNumber = (token: string): string =>
  BigInt.asIntN(64, BigInt(`0x${token.slice(3, 19)}`)).toString();
