/**
 * Where a `loc` path points in JSON text, so the bundle editor can put each issue's marker on the
 * exact value. A small tolerant tokenizer and parser (no dependency): it keeps going through
 * half-typed text (missing commas or colons, unterminated strings, unclosed brackets, comments),
 * because the editor asks while the author is typing.
 */

export type Loc = readonly (string | number)[];

export interface JsonRange {
  start: number;
  end: number;
  /** True when the whole path was found; false when the range is that of the nearest ancestor. */
  exact: boolean;
}

type Token =
  | { kind: '{' | '}' | '[' | ']' | ':' | ','; start: number; end: number }
  | { kind: 'string'; start: number; end: number; value: string }
  | { kind: 'literal'; start: number; end: number }
  | { kind: 'eof'; start: number; end: number };

export type JsonNode =
  | { kind: 'object'; start: number; end: number; members: JsonMember[] }
  | { kind: 'array'; start: number; end: number; items: JsonNode[] }
  | { kind: 'scalar'; start: number; end: number };

export interface JsonMember {
  key: string;
  keyStart: number;
  keyEnd: number;
  value: JsonNode | null;
}

const STRUCTURAL = new Set(['{', '}', '[', ']', ':', ',']);

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i]!;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\uFEFF') {
      i++;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < n && text[i] !== '\n') i++;
    } else if (c === '/' && text[i + 1] === '*') {
      const close = text.indexOf('*/', i + 2);
      i = close === -1 ? n : close + 2;
    } else if (STRUCTURAL.has(c)) {
      tokens.push({ kind: c as '{', start: i, end: i + 1 });
      i++;
    } else if (c === '"') {
      const start = i;
      let value = '';
      i++;
      while (i < n && text[i] !== '"' && text[i] !== '\n') {
        if (text[i] === '\\' && i + 1 < n) {
          value += unescape(text, i);
          i += text[i + 1] === 'u' ? 6 : 2;
        } else {
          value += text[i];
          i++;
        }
      }
      if (text[i] === '"') i++; // an unterminated string ends at the line's end
      tokens.push({ kind: 'string', start, end: Math.min(i, n), value });
    } else {
      const start = i;
      while (i < n && !STRUCTURAL.has(text[i]!) && !/[\s"]/.test(text[i]!)) i++;
      tokens.push({ kind: 'literal', start, end: i });
    }
  }
  tokens.push({ kind: 'eof', start: n, end: n });
  return tokens;
}

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f' };

function unescape(text: string, at: number): string {
  const e = text[at + 1]!;
  if (e === 'u') {
    const code = Number.parseInt(text.slice(at + 2, at + 6), 16);
    return Number.isNaN(code) ? '' : String.fromCharCode(code);
  }
  return ESCAPES[e] ?? e;
}

/** Parses JSON text into a tree of ranges; null when there is no value at all. */
export function parseJsonTree(text: string): JsonNode | null {
  const tokens = tokenize(text);
  let p = 0;
  const peek = () => tokens[p]!;
  const lastEnd = () => (p > 0 ? tokens[p - 1]!.end : 0);

  function value(): JsonNode | null {
    const t = peek();
    if (t.kind === '{') return object();
    if (t.kind === '[') return array();
    if (t.kind === 'string' || t.kind === 'literal') {
      p++;
      return { kind: 'scalar', start: t.start, end: t.end };
    }
    return null;
  }

  function object(): JsonNode {
    const start = peek().start;
    p++;
    const members: JsonMember[] = [];
    for (;;) {
      const t = peek();
      if (t.kind === '}') {
        p++;
        return { kind: 'object', start, end: t.end, members };
      }
      if (t.kind === 'eof' || t.kind === ']') return { kind: 'object', start, end: lastEnd(), members };
      if (t.kind === ',' || t.kind === ':') {
        p++;
        continue;
      }
      if (t.kind === '{' || t.kind === '[') {
        value(); // a value without a key: skip it
        continue;
      }
      p++;
      const key = t.kind === 'string' ? t.value : text.slice(t.start, t.end);
      if (peek().kind === ':') p++;
      const next = peek().kind;
      // `"a": , "b"` or `"a" "b": 1` (a missing colon): the key has no value of its own
      const v =
        next === ',' || next === '}' || (next === 'string' && tokens[p + 1]?.kind === ':') ? null : value();
      members.push({ key, keyStart: t.start, keyEnd: t.end, value: v });
    }
  }

  function array(): JsonNode {
    const start = peek().start;
    p++;
    const items: JsonNode[] = [];
    for (;;) {
      const t = peek();
      if (t.kind === ']') {
        p++;
        return { kind: 'array', start, end: t.end, items };
      }
      if (t.kind === 'eof' || t.kind === '}') return { kind: 'array', start, end: lastEnd(), items };
      const v = value();
      if (v) items.push(v);
      else p++; // a stray comma or colon
    }
  }

  return value();
}

let cachedText: string | undefined;
let cachedTree: JsonNode | null = null;
let cachedLineStarts: number[] | null = null;

function treeOf(text: string): JsonNode | null {
  if (text !== cachedText) {
    cachedTree = parseJsonTree(text);
    cachedText = text;
    cachedLineStarts = null;
  }
  return cachedTree;
}

/** Each object's members by key, built on first lookup, so locating many paths stays linear. */
const membersByKey = new WeakMap<JsonNode, Map<string, JsonMember>>();

/** The member of an object for a key (the last one, as JSON.parse keeps the last duplicate). */
function member(node: JsonNode, seg: string | number): JsonMember | undefined {
  if (node.kind !== 'object') return undefined;
  let byKey = membersByKey.get(node);
  if (!byKey) {
    byKey = new Map();
    for (const m of node.members) byKey.set(m.key, m);
    membersByKey.set(node, byKey);
  }
  return byKey.get(String(seg));
}

/** Like `locateInJson`, on a tree from `parseJsonTree` (to locate many paths in one text). */
function locateInTree(root: JsonNode | null, loc: Loc): JsonRange | null {
  if (!root) return null;
  let node = root;
  // where to point when the path stops here: the key this node sits under, else its first character
  let anchor = { start: root.start, end: Math.min(root.end, root.start + 1) };
  for (const seg of loc) {
    if (node.kind === 'array' && typeof seg === 'number') {
      const item = node.items[seg];
      if (!item) return { ...anchor, exact: false };
      node = item;
      anchor = { start: item.start, end: item.kind === 'scalar' ? item.end : item.start + 1 };
      continue;
    }
    const m = member(node, seg);
    if (!m) return { ...anchor, exact: false };
    if (!m.value) return { start: m.keyStart, end: m.keyEnd, exact: false };
    node = m.value;
    anchor = { start: m.keyStart, end: m.keyEnd };
  }
  return { start: node.start, end: node.end, exact: true };
}

/**
 * The character range of the value at `loc` in JSON `text`. When the path no longer exists, the
 * range of the nearest existing ancestor's key (or its opening bracket), with `exact: false`.
 * Null only when the text holds no JSON value at all.
 */
export function locateInJson(text: string, loc: Loc): JsonRange | null {
  return locateInTree(treeOf(text), loc);
}

/** The offsets where the lines of `text` start (kept for the last text, like its tree). */
function lineStartsOf(text: string): number[] {
  if (text !== cachedText || cachedLineStarts === null) {
    treeOf(text);
    const starts = [0];
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
    cachedLineStarts = starts;
  }
  return cachedLineStarts;
}

/**
 * 1-based line and column (UTF-16 code units, as editors count) of a character offset. A binary
 * search in the text's line starts, so placing many issues in one text stays linear.
 */
export function offsetToLineColumn(text: string, offset: number): { line: number; column: number } {
  const at = Math.max(0, Math.min(offset, text.length));
  const starts = lineStartsOf(text);
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= at) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo + 1, column: at - starts[lo]! + 1 };
}
