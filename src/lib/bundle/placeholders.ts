/**
 * `{{param-code}}` placeholders in messages, formulas and response-mapping paths, found by one
 * linear scan (no regular expression, so no backtracking on a long unclosed `{{`).
 *
 * A placeholder is `{{`, then text holding no `{` or `}`, then `}}`; its name is that text
 * trimmed, and must not be empty. Anything else is left as written. Every character is looked
 * at a bounded number of times, so the work is proportional to the text's length.
 */

export interface Placeholder {
  /** The parameter code, trimmed. */
  name: string;
  /** Offset of the opening `{{`. */
  start: number;
  /** Offset just after the closing `}}`. */
  end: number;
}

import { spend, spendWriting } from './work-budget';

const OPEN = 123; // {
const CLOSE = 125; // }

/** The placeholder starting exactly at `start` (at its `{{`), or null. */
export function placeholderAt(text: string, start: number): Placeholder | null {
  return scanFrom(text, start).found;
}

/**
 * Tries a placeholder at `start` (which must hold `{{`); gives it, or null and where the next
 * candidate can begin, so a failed attempt is never rescanned.
 */
function scanFrom(text: string, start: number): { found: Placeholder | null; resume: number } {
  if (text.charCodeAt(start) !== OPEN || text.charCodeAt(start + 1) !== OPEN)
    return { found: null, resume: start + 1 };
  let i = start + 2;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === OPEN) {
      // `{{{`: the next candidate starts one character later; otherwise at this brace.
      return { found: null, resume: i === start + 2 ? start + 1 : i };
    }
    if (c === CLOSE) {
      if (text.charCodeAt(i + 1) !== CLOSE) return { found: null, resume: i + 1 };
      const name = text.slice(start + 2, i).trim();
      return name ? { found: { name, start, end: i + 2 }, resume: i + 2 } : { found: null, resume: i + 2 };
    }
    i++;
  }
  return { found: null, resume: text.length };
}

/** Every placeholder of `text`, in order. */
export function scanPlaceholders(text: string): Placeholder[] {
  spend(text.length);
  const out: Placeholder[] = [];
  let from = 0;
  for (;;) {
    const start = text.indexOf('{{', from);
    if (start === -1) return out;
    const { found, resume } = scanFrom(text, start);
    if (found) out.push(found);
    from = resume;
  }
}

/** The names of the placeholders of `text`, in order (repeats included). */
export function placeholders(text: string): string[] {
  return scanPlaceholders(text).map((p) => p.name);
}

/**
 * `text` with every placeholder replaced by `fill(name)`. Every character written counts against
 * the running work budget (see `spendWriting`), checked before the text is put together.
 */
export function fillPlaceholders(text: string, fill: (name: string) => string): string {
  const found = scanPlaceholders(text);
  if (found.length === 0) return text;
  const parts: string[] = [];
  let at = 0;
  let length = 0;
  const write = (part: string, what: string) => {
    length += part.length;
    spendWriting(part.length, length, what);
    parts.push(part);
  };
  for (const p of found) {
    write(text.slice(at, p.start), 'a message');
    write(fill(p.name), `a message filling {{${p.name}}}`);
    at = p.end;
  }
  write(text.slice(at), 'a message');
  return parts.join('');
}
