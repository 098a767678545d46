/**
 * Why a turn matched a text search when its message does not show it: the words were in its
 * reply. A result then shows the reply's words around the first of them, so a result for
 * "coffee" whose message is "show me my recent transactions" says where coffee was. Text search
 * finds a word's other forms too ("charges" finds "charge"), so a word is looked for by its
 * stem here: its first letters, at the start of a word.
 */
import { searchableText } from '../../contract/turn-query';

/** Characters of the reply shown before and after the word found. */
const BEFORE = 40;
const AFTER = 80;

/** The words of a text query, as text search splits them. */
export const queryWords = (q: string): string[] => searchableText(q.toLowerCase()).split(' ').filter(Boolean);

/** A word's first letters, which its other forms share (at least three, or the whole word). */
const stemOf = (word: string) => word.slice(0, Math.max(3, word.length - 2));

const escaped = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Where a stem first starts a word in the text, or -1. */
function firstAt(text: string, stems: readonly string[]): number {
  let first = -1;
  for (const stem of stems) {
    const at = text.search(new RegExp(`(?<![\\p{L}\\p{N}])${escaped(stem)}`, 'iu'));
    if (at >= 0 && (first < 0 || at < first)) first = at;
  }
  return first;
}

/**
 * The reply's words around the first query word it holds, cut at word boundaries with "…"; null
 * when there are no words, when the message holds one of them (it is shown already), or when the
 * reply holds none.
 */
export function replyExcerpt(message: string, reply: string, words: readonly string[]): string | null {
  if (words.length === 0) return null;
  const stems = words.map(stemOf);
  if (firstAt(message, stems) >= 0) return null;
  const text = reply.replace(/\s+/g, ' ').trim();
  const at = firstAt(text, stems);
  if (at < 0) return null;
  let start = Math.max(0, at - BEFORE);
  if (start > 0) start = text.indexOf(' ', start) + 1 || at;
  if (start > at) start = at;
  let end = Math.min(text.length, at + AFTER);
  if (end < text.length) {
    const space = text.lastIndexOf(' ', end);
    if (space > at) end = space;
  }
  return `${start > 0 ? '…' : ''}${text.slice(start, end)}${end < text.length ? '…' : ''}`;
}
