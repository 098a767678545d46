/**
 * Computation formulas: a small, safe expression language over `{{param-code}}` references.
 * Numbers, strings, true/false/null, + - * / %, comparisons (== != < > <= >=), && || !, the
 * ternary `c ? a : b`, parentheses, and functions: days_since, days_until, min, max, round,
 * floor, ceil, abs, lower, upper, concat, coalesce, if. An unknown reference makes the result
 * unknown (undefined) rather than a guess; a formula that does not parse is unknown too.
 */
import { placeholderAt, placeholders } from '../../src/lib/bundle/placeholders';
import { spend, spendWriting } from '../../src/lib/bundle/work-budget';
import { daysSince, type Clock } from './clock';
import { isFilled, looseEquals, toNumber } from './values';

type Node =
  | { k: 'lit'; v: unknown }
  | { k: 'ref'; code: string }
  | { k: 'un'; op: string; a: Node }
  | { k: 'bin'; op: string; a: Node; b: Node }
  | { k: 'tern'; c: Node; a: Node; b: Node }
  | { k: 'call'; fn: string; args: Node[] };

type Token = { t: 'num' | 'str' | 'ref' | 'id' | 'op'; v: string };

/** One token after optional white space; `{{param}}` references are read by the placeholder scanner. */
const TOKEN =
  /\s*(?:(\d+(?:\.\d+)?)|"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|([A-Za-z_][A-Za-z0-9_]*)|(===|!==|==|!=|<=|>=|&&|\|\||[-+*/%<>!?:(),])|(\{\{))/y;

function lex(src: string): Token[] | null {
  const out: Token[] = [];
  TOKEN.lastIndex = 0;
  let pos = 0;
  while (pos < src.length) {
    if (/^\s*$/.test(src.slice(pos))) break;
    TOKEN.lastIndex = pos;
    const m = TOKEN.exec(src);
    if (!m) return null;
    pos = TOKEN.lastIndex;
    if (m[1] !== undefined) out.push({ t: 'num', v: m[1] });
    else if (m[2] !== undefined) out.push({ t: 'str', v: m[2].replace(/\\(.)/g, '$1') });
    else if (m[3] !== undefined) out.push({ t: 'str', v: m[3].replace(/\\(.)/g, '$1') });
    else if (m[4] !== undefined) out.push({ t: 'id', v: m[4] });
    else if (m[5] !== undefined)
      out.push({ t: 'op', v: m[5] === '===' ? '==' : m[5] === '!==' ? '!=' : m[5] });
    else {
      const ref = placeholderAt(src, pos - 2);
      if (!ref) return null;
      out.push({ t: 'ref', v: ref.name });
      pos = ref.end;
    }
  }
  return out;
}

const BINARY: Record<string, number> = {
  '||': 1,
  '&&': 2,
  '==': 3,
  '!=': 3,
  '<': 4,
  '>': 4,
  '<=': 4,
  '>=': 4,
  '+': 5,
  '-': 5,
  '*': 6,
  '/': 6,
  '%': 6,
};

class Parser {
  private i = 0;
  constructor(private readonly tokens: Token[]) {}
  parse(): Node {
    const n = this.ternary();
    if (this.i !== this.tokens.length) throw new Error('trailing input');
    return n;
  }
  private peek(): Token | undefined {
    return this.tokens[this.i];
  }
  private eat(op: string): boolean {
    const t = this.peek();
    if (t && t.t === 'op' && t.v === op) {
      this.i++;
      return true;
    }
    return false;
  }
  private expect(op: string): void {
    if (!this.eat(op)) throw new Error(`expected ${op}`);
  }
  private ternary(): Node {
    const c = this.binary(1);
    if (!this.eat('?')) return c;
    const a = this.ternary();
    this.expect(':');
    const b = this.ternary();
    return { k: 'tern', c, a, b };
  }
  private binary(min: number): Node {
    let left = this.unary();
    for (;;) {
      const t = this.peek();
      const prec = t && t.t === 'op' ? BINARY[t.v] : undefined;
      if (prec === undefined || prec < min) return left;
      this.i++;
      const right = this.binary(prec + 1);
      left = { k: 'bin', op: t!.v, a: left, b: right };
    }
  }
  private unary(): Node {
    if (this.eat('-')) return { k: 'un', op: '-', a: this.unary() };
    if (this.eat('!')) return { k: 'un', op: '!', a: this.unary() };
    if (this.eat('+')) return this.unary();
    return this.primary();
  }
  private primary(): Node {
    const t = this.tokens[this.i++];
    if (!t) throw new Error('unexpected end');
    if (t.t === 'num') return { k: 'lit', v: Number(t.v) };
    if (t.t === 'str') return { k: 'lit', v: t.v };
    if (t.t === 'ref') return { k: 'ref', code: t.v };
    if (t.t === 'id') {
      if (t.v === 'true' || t.v === 'false') return { k: 'lit', v: t.v === 'true' };
      if (t.v === 'null') return { k: 'lit', v: null };
      this.expect('(');
      const args: Node[] = [];
      if (!this.eat(')')) {
        do args.push(this.ternary());
        while (this.eat(','));
        this.expect(')');
      }
      return { k: 'call', fn: t.v.toLowerCase(), args };
    }
    if (t.v === '(') {
      const n = this.ternary();
      this.expect(')');
      return n;
    }
    throw new Error(`unexpected ${t.v}`);
  }
}

const parsed = new Map<string, Node | null>();

export function parseFormula(src: string): Node | null {
  if (parsed.has(src)) return parsed.get(src)!;
  let node: Node | null;
  try {
    const tokens = lex(src);
    node = tokens && tokens.length ? new Parser(tokens).parse() : null;
  } catch {
    node = null;
  }
  if (parsed.size > 5000) parsed.clear();
  parsed.set(src, node);
  return node;
}

/** The parameter codes a formula reads. */
export function formulaRefs(src: string): string[] {
  return placeholders(src);
}

export interface FormulaScope {
  values: Record<string, unknown>;
  clock: Clock;
  /** The parameter the formula computes, named when its value grows too long. */
  target?: string;
}

/** The formula's value, or undefined when it does not parse or reads an unknown value. */
export function evaluateFormula(src: string, scope: FormulaScope): unknown {
  const node = parseFormula(src);
  if (!node) return undefined;
  const v = evalNode(node, scope, 0);
  if (typeof v === 'number' && !Number.isFinite(v)) return undefined;
  return v;
}

function num(v: unknown): number | undefined {
  return v === undefined ? undefined : toNumber(v);
}

function evalNode(n: Node, s: FormulaScope, depth: number): unknown {
  if (depth > 200) return undefined;
  spend(1);
  const ev = (x: Node) => evalNode(x, s, depth + 1);
  switch (n.k) {
    case 'lit':
      return n.v;
    case 'ref':
      return isFilled(s.values[n.code]) ? s.values[n.code] : undefined;
    case 'un': {
      const a = ev(n.a);
      if (a === undefined) return undefined;
      if (n.op === '!') return !truthy(a);
      const x = num(a);
      return x === undefined ? undefined : -x;
    }
    case 'tern': {
      const c = ev(n.c);
      if (c === undefined) return undefined;
      return truthy(c) ? ev(n.a) : ev(n.b);
    }
    case 'bin':
      return written(binary(n.op, n.a, n.b, ev), s);
    case 'call':
      return written(call(n.fn, n.args.map(ev), s), s);
  }
}

const valueName = (s: FormulaScope) =>
  s.target === undefined ? "a formula's value" : `the computed value '${s.target}'`;

/** A text a formula wrote counts against the work budget, character by character. */
function written(v: unknown, s: FormulaScope): unknown {
  if (typeof v === 'string') spendWriting(v.length, v.length, valueName(s));
  return v;
}

function truthy(v: unknown): boolean {
  return v !== false && v !== 0 && v !== '' && v !== null && v !== undefined;
}

function binary(op: string, an: Node, bn: Node, ev: (n: Node) => unknown): unknown {
  if (op === '&&') {
    const a = ev(an);
    if (a === undefined) return undefined;
    return truthy(a) ? ev(bn) : a;
  }
  if (op === '||') {
    const a = ev(an);
    if (a !== undefined && truthy(a)) return a;
    return ev(bn);
  }
  const a = ev(an);
  const b = ev(bn);
  if (a === undefined || b === undefined) return undefined;
  if (op === '==') return looseEquals(a, b);
  if (op === '!=') return !looseEquals(a, b);
  if (
    op === '+' &&
    (typeof a === 'string' || typeof b === 'string') &&
    (num(a) === undefined || num(b) === undefined)
  )
    return `${String(a)}${String(b)}`;
  const x = num(a);
  const y = num(b);
  if (x === undefined || y === undefined) {
    if (['<', '>', '<=', '>='].includes(op) && typeof a === 'string' && typeof b === 'string') {
      return op === '<' ? a < b : op === '>' ? a > b : op === '<=' ? a <= b : a >= b;
    }
    return undefined;
  }
  switch (op) {
    case '+':
      return x + y;
    case '-':
      return x - y;
    case '*':
      return x * y;
    case '/':
      return y === 0 ? undefined : x / y;
    case '%':
      return y === 0 ? undefined : x % y;
    case '<':
      return x < y;
    case '>':
      return x > y;
    case '<=':
      return x <= y;
    case '>=':
      return x >= y;
    default:
      return undefined;
  }
}

function call(fn: string, args: unknown[], s: FormulaScope): unknown {
  const nums = () => args.map(num);
  switch (fn) {
    case 'days_since':
      return daysSince(args[0], s.clock);
    case 'days_until': {
      const d = daysSince(args[0], s.clock);
      return d === undefined ? undefined : -d;
    }
    case 'min':
    case 'max': {
      const xs = nums();
      if (xs.length === 0 || xs.some((x) => x === undefined)) return undefined;
      return fn === 'min' ? Math.min(...(xs as number[])) : Math.max(...(xs as number[]));
    }
    case 'round': {
      const [x, d] = nums();
      if (x === undefined) return undefined;
      const f = 10 ** Math.max(0, Math.min(10, Math.trunc(d ?? 0)));
      return Math.round(x * f) / f;
    }
    case 'floor':
    case 'ceil':
    case 'abs': {
      const x = num(args[0]);
      return x === undefined ? undefined : Math[fn](x);
    }
    case 'lower':
      return args[0] === undefined ? undefined : String(args[0]).toLowerCase();
    case 'upper':
      return args[0] === undefined ? undefined : String(args[0]).toUpperCase();
    case 'concat': {
      if (args.some((a) => a === undefined)) return undefined;
      const parts = args.map(String);
      // Checked before the parts are joined, so a value doubled again and again is refused first.
      const length = parts.reduce((n, p) => n + p.length, 0);
      spendWriting(length, length, valueName(s));
      return parts.join('');
    }
    case 'coalesce':
      return args.find((a) => a !== undefined && a !== null);
    case 'if':
      return args[0] === undefined ? undefined : truthy(args[0]) ? args[1] : args[2];
    default:
      return undefined;
  }
}
