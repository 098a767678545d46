/**
 * Which of a set of names a text mentions as whole tokens, in one pass over the text (no scan per
 * name): the text is split into word runs (`a-z 0-9 _ -`, case-insensitive), and each run, alone
 * or joined by single dots to the next ones ("transaction.transaction-date"), is looked up in a map.
 * Same meaning as `mentions(text, name)`, at a cost linear in the text whatever the number of names.
 */

const MAX_PARTS = 4;

function isWordChar(code: number): boolean {
  return (
    (code >= 97 && code <= 122) || // a-z
    (code >= 48 && code <= 57) || // 0-9
    code === 95 || // _
    code === 45 // -
  );
}

/** A name made of word runs joined by single dots, and how many runs; 0 when it is not one. */
function tokenParts(name: string): number {
  let parts = 1;
  let runLength = 0;
  for (let i = 0; i < name.length; i += 1) {
    const c = name.charCodeAt(i);
    if (isWordChar(c)) runLength += 1;
    else if (c === 46 && runLength > 0) {
      parts += 1;
      runLength = 0;
    } else return 0;
  }
  return runLength > 0 ? parts : 0;
}

/** Does `text` mention `name` as a whole token (case-insensitive; `-`/`_` are word characters)? */
export function mentions(text: string, name: string): boolean {
  if (!name || !text) return false;
  const hay = text.toLowerCase();
  const needle = name.toLowerCase();
  let from = 0;
  for (;;) {
    const i = hay.indexOf(needle, from);
    if (i < 0) return false;
    const before = hay.charCodeAt(i - 1);
    const after = hay.charCodeAt(i + needle.length);
    if (!isWordChar(before) && !isWordChar(after)) return true;
    from = i + 1;
  }
}

/** Names that are not dotted word runs (spaces, brackets…) are searched one by one, up to this many. */
const MAX_ODD_NAMES = 32;

export class NameIndex<T> {
  private readonly byName = new Map<string, T[]>();
  private readonly odd: Array<{ name: string; value: T }> = [];
  private maxParts = 1;

  add(name: string, value: T): void {
    if (!name) return;
    const key = name.toLowerCase();
    const parts = tokenParts(key);
    if (parts === 0) {
      if (this.odd.length < MAX_ODD_NAMES) this.odd.push({ name, value });
      return;
    }
    if (parts > MAX_PARTS) return;
    this.maxParts = Math.max(this.maxParts, parts);
    const list = this.byName.get(key);
    if (list) list.push(value);
    else this.byName.set(key, [value]);
  }

  /** The values of every name `text` mentions, each once, in the order first mentioned. */
  find(text: string): T[] {
    const found = new Set<T>();
    if (!text) return [];
    const hay = text.toLowerCase();
    // Word runs as [start, end) pairs.
    const runs: number[] = [];
    let start = -1;
    for (let i = 0; i <= hay.length; i += 1) {
      const word = i < hay.length && isWordChar(hay.charCodeAt(i));
      if (word && start < 0) start = i;
      else if (!word && start >= 0) {
        runs.push(start, i);
        start = -1;
      }
    }
    for (let r = 0; r < runs.length; r += 2) {
      for (let k = 0; k < this.maxParts && r + 2 * k < runs.length; k += 1) {
        const last = r + 2 * k;
        // Joined runs must be separated by exactly one dot.
        if (k > 0 && !(runs[last] === runs[last - 1]! + 1 && hay.charCodeAt(runs[last - 1]!) === 46)) break;
        const values = this.byName.get(hay.slice(runs[r], runs[last + 1]));
        if (values) for (const v of values) found.add(v);
      }
    }
    for (const { name, value } of this.odd) if (mentions(text, name)) found.add(value);
    return [...found];
  }
}
