/**
 * Where JSON text stops being JSON: the offset of its first syntax error, for a message that
 * points at it (V8's own message names no place for most errors). Linear, with an explicit stack
 * (no recursion, whatever the nesting).
 */

type Want = 'value' | 'value-or-close' | 'key' | 'key-or-close' | 'colon' | 'comma-or-close' | 'end';

const NUMBER_OR_LITERAL = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null/y;
const ESCAPE = /\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})/y;

/** The offset after the string starting at `start` (a quote), or the offset of its error as -1 - offset. */
function stringEnd(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 0x22) return i + 1;
    if (c < 0x20) return -1 - i;
    if (c === 0x5c) {
      ESCAPE.lastIndex = i;
      if (!ESCAPE.test(text)) return -1 - i;
      i = ESCAPE.lastIndex;
    } else i += 1;
  }
  return -1 - text.length;
}

/** The offset of the first syntax error in `text`, or null when it is JSON. */
export function jsonErrorOffset(text: string): number | null {
  const stack: ('{' | '[')[] = [];
  let want: Want = 'value';
  let i = 0;
  const closed = () => {
    stack.pop();
    want = stack.length ? 'comma-or-close' : 'end';
  };
  for (;;) {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i += 1;
    if (i >= text.length) return want === 'end' ? null : text.length;
    const c = text[i]!;
    if (want === 'end') return i;
    if (want === 'colon') {
      if (c !== ':') return i;
      i += 1;
      want = 'value';
    } else if (want === 'comma-or-close') {
      const top = stack.at(-1);
      if (c === ',') {
        i += 1;
        want = top === '{' ? 'key' : 'value';
      } else if ((c === '}' && top === '{') || (c === ']' && top === '[')) {
        i += 1;
        closed();
      } else return i;
    } else if (want === 'key' || want === 'key-or-close') {
      if (c === '}' && want === 'key-or-close') {
        i += 1;
        closed();
        continue;
      }
      if (c !== '"') return i;
      const end = stringEnd(text, i);
      if (end < 0) return -1 - end;
      i = end;
      want = 'colon';
    } else {
      if (c === ']' && want === 'value-or-close') {
        i += 1;
        closed();
        continue;
      }
      if (c === '{' || c === '[') {
        stack.push(c);
        i += 1;
        want = c === '{' ? 'key-or-close' : 'value-or-close';
        continue;
      }
      if (c === '"') {
        const end = stringEnd(text, i);
        if (end < 0) return -1 - end;
        i = end;
      } else {
        NUMBER_OR_LITERAL.lastIndex = i;
        if (!NUMBER_OR_LITERAL.test(text)) return i;
        i = NUMBER_OR_LITERAL.lastIndex;
      }
      want = stack.length ? 'comma-or-close' : 'end';
    }
  }
}
