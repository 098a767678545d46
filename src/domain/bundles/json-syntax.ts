/**
 * Where a JSON text first goes wrong, as an offset: JSON.parse's messages do not always say
 * (V8 often names only the token), and the problems list needs a line to jump to. A small
 * recursive-descent scan of RFC 8259 JSON; null when the text is valid.
 */
export function jsonSyntaxErrorOffset(text: string): number | null {
  let i = 0;
  const n = text.length;
  const fail = (at: number): never => {
    throw new SyntaxAt(at);
  };
  const ws = () => {
    while (i < n && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i += 1;
  };
  const literal = (word: string) => {
    if (text.startsWith(word, i)) i += word.length;
    else fail(i);
  };
  const string = () => {
    i += 1; // opening quote
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i += 1;
        return;
      }
      if (c < 0x20) fail(i);
      if (c === 0x5c) {
        const e = text[i + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fail(i);
          i += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i += 2;
        else fail(i);
      } else i += 1;
    }
    fail(n);
  };
  const number = () => {
    const m = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (!m || m[0] === '-') fail(i);
    i += m![0].length;
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{') {
      i += 1;
      ws();
      if (text[i] === '}') {
        i += 1;
        return;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail(i);
        string();
        ws();
        if (text[i] !== ':') fail(i);
        i += 1;
        value();
        ws();
        if (text[i] === ',') {
          i += 1;
          continue;
        }
        if (text[i] === '}') {
          i += 1;
          return;
        }
        fail(i);
      }
    }
    if (c === '[') {
      i += 1;
      ws();
      if (text[i] === ']') {
        i += 1;
        return;
      }
      for (;;) {
        value();
        ws();
        if (text[i] === ',') {
          i += 1;
          continue;
        }
        if (text[i] === ']') {
          i += 1;
          return;
        }
        fail(i);
      }
    }
    if (c === '"') return string();
    if (c === 't') return literal('true');
    if (c === 'f') return literal('false');
    if (c === 'n') return literal('null');
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return number();
    fail(i);
  };
  try {
    value();
    ws();
    if (i < n) fail(i);
    return null;
  } catch (e) {
    if (e instanceof SyntaxAt) return Math.min(e.at, n);
    throw e;
  }
}

class SyntaxAt extends Error {
  constructor(readonly at: number) {
    super(`JSON syntax error at offset ${at}`);
  }
}
