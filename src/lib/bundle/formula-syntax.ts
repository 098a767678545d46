/**
 * The syntax of computation formulas, shared by the validator (which refuses a formula that
 * cannot run) and the engine (which evaluates it): numbers, strings, true/false/null,
 * `{{param-code}}` references, + - * / %, comparisons (== != < > <= >=), && || !, the ternary
 * `c ? a : b`, parentheses and the functions of `FORMULA_FUNCTIONS`. Parsing gives the tree or
 * a readable problem; `formulaProblem` also refuses unknown functions, wrong argument counts and
 * a division by a literal zero.
 */
import { placeholderAt } from './placeholders';

export type FormulaNode =
  | { k: 'lit'; v: unknown }
  | { k: 'ref'; code: string }
  | { k: 'un'; op: string; a: FormulaNode }
  | { k: 'bin'; op: string; a: FormulaNode; b: FormulaNode }
  | { k: 'tern'; c: FormulaNode; a: FormulaNode; b: FormulaNode }
  | { k: 'call'; fn: string; args: FormulaNode[] };

/** Every function a formula may call, with how many arguments it takes ([min, max]). */
export const FORMULA_FUNCTIONS: Readonly<Record<string, readonly [number, number]>> = {
  days_since: [1, 1],
  days_until: [1, 1],
  min: [1, 64],
  max: [1, 64],
  round: [1, 2],
  floor: [1, 1],
  ceil: [1, 1],
  abs: [1, 1],
  lower: [1, 1],
  upper: [1, 1],
  concat: [1, 64],
  coalesce: [1, 64],
  if: [2, 3],
};

type Token = { t: 'num' | 'str' | 'ref' | 'id' | 'op'; v: string; at: number };

/** One token after optional white space; `{{param}}` references are read by the placeholder scanner. */
const TOKEN =
  /\s*(?:(\d+(?:\.\d+)?)|"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|([A-Za-z_][A-Za-z0-9_]*)|(===|!==|==|!=|<=|>=|&&|\|\||[-+*/%<>!?:(),])|(\{\{))/y;

class FormulaSyntaxError extends Error {}

function lex(src: string): Token[] {
  const out: Token[] = [];
  let pos = 0;
  while (pos < src.length) {
    if (/^\s*$/.test(src.slice(pos))) break;
    TOKEN.lastIndex = pos;
    const m = TOKEN.exec(src);
    if (!m) {
      const at = pos + (/^\s*/.exec(src.slice(pos))?.[0].length ?? 0);
      throw new FormulaSyntaxError(
        `unexpected ${JSON.stringify(src.slice(at, at + 12))} at character ${at + 1}`,
      );
    }
    const at = TOKEN.lastIndex - m[0].trimStart().length;
    pos = TOKEN.lastIndex;
    if (m[1] !== undefined) out.push({ t: 'num', v: m[1], at });
    else if (m[2] !== undefined) out.push({ t: 'str', v: m[2].replace(/\\(.)/g, '$1'), at });
    else if (m[3] !== undefined) out.push({ t: 'str', v: m[3].replace(/\\(.)/g, '$1'), at });
    else if (m[4] !== undefined) out.push({ t: 'id', v: m[4], at });
    else if (m[5] !== undefined)
      out.push({ t: 'op', v: m[5] === '===' ? '==' : m[5] === '!==' ? '!=' : m[5], at });
    else {
      const ref = placeholderAt(src, pos - 2);
      if (!ref) throw new FormulaSyntaxError(`an unclosed {{ at character ${pos - 1}`);
      out.push({ t: 'ref', v: ref.name, at });
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

/** How deep a formula may nest (parentheses, operators, calls). */
const MAX_DEPTH = 200;

class Parser {
  private i = 0;
  private depth = 0;
  constructor(private readonly tokens: Token[]) {}
  parse(): FormulaNode {
    const n = this.ternary();
    const t = this.peek();
    if (t) throw new FormulaSyntaxError(`${show(t)} at character ${t.at + 1} does not continue the formula`);
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
    if (this.eat(op)) return;
    const t = this.peek();
    throw new FormulaSyntaxError(
      t ? `expected ${op} at character ${t.at + 1}, found ${show(t)}` : `expected ${op} at the end`,
    );
  }
  private ternary(): FormulaNode {
    if (++this.depth > MAX_DEPTH) throw new FormulaSyntaxError('the formula nests too deeply');
    const c = this.binary(1);
    let n = c;
    if (this.eat('?')) {
      const a = this.ternary();
      this.expect(':');
      const b = this.ternary();
      n = { k: 'tern', c, a, b };
    }
    this.depth--;
    return n;
  }
  private binary(min: number): FormulaNode {
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
  private unary(): FormulaNode {
    if (++this.depth > MAX_DEPTH) throw new FormulaSyntaxError('the formula nests too deeply');
    let n: FormulaNode;
    if (this.eat('-')) n = { k: 'un', op: '-', a: this.unary() };
    else if (this.eat('!')) n = { k: 'un', op: '!', a: this.unary() };
    else if (this.eat('+')) n = this.unary();
    else n = this.primary();
    this.depth--;
    return n;
  }
  private primary(): FormulaNode {
    const t = this.tokens[this.i++];
    if (!t) throw new FormulaSyntaxError('the formula ends where a value is expected');
    if (t.t === 'num') return { k: 'lit', v: Number(t.v) };
    if (t.t === 'str') return { k: 'lit', v: t.v };
    if (t.t === 'ref') return { k: 'ref', code: t.v };
    if (t.t === 'id') {
      if (t.v === 'true' || t.v === 'false') return { k: 'lit', v: t.v === 'true' };
      if (t.v === 'null') return { k: 'lit', v: null };
      const next = this.peek();
      if (!next || next.t !== 'op' || next.v !== '(')
        throw new FormulaSyntaxError(
          `unknown word '${t.v}' at character ${t.at + 1}: write a parameter as {{param-code}}, a text in quotes, or call a function`,
        );
      this.i++;
      const args: FormulaNode[] = [];
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
    throw new FormulaSyntaxError(`${show(t)} at character ${t.at + 1} where a value is expected`);
  }
}

const isLiteralZero = (n: FormulaNode): boolean =>
  (n.k === 'lit' && n.v === 0) || (n.k === 'un' && n.op === '-' && isLiteralZero(n.a));

function show(t: Token): string {
  return t.t === 'ref' ? `{{${t.v}}}` : t.t === 'str' ? JSON.stringify(t.v) : `'${t.v}'`;
}

export type ParsedFormula = { node: FormulaNode } | { problem: string };

/** The formula's tree, or why it does not parse. */
export function parseFormulaText(src: string): ParsedFormula {
  try {
    const tokens = lex(src);
    if (tokens.length === 0) return { problem: 'the formula is empty' };
    return { node: new Parser(tokens).parse() };
  } catch (e) {
    if (e instanceof FormulaSyntaxError) return { problem: e.message };
    throw e;
  }
}

/**
 * Why a formula cannot run, or null: it does not parse, calls an unknown function or a function
 * with the wrong number of arguments, or divides by a literal zero.
 */
export function formulaProblem(src: string): string | null {
  const parsed = parseFormulaText(src);
  return 'problem' in parsed ? parsed.problem : treeProblem(parsed.node);
}

/** Why a parsed formula cannot run (an unknown function, a wrong argument count, a literal zero divisor), or null. */
export function treeProblem(node: FormulaNode): string | null {
  const stack: FormulaNode[] = [node];
  while (stack.length > 0) {
    const n = stack.pop()!;
    switch (n.k) {
      case 'call': {
        const arity = FORMULA_FUNCTIONS[n.fn];
        if (!arity)
          return `unknown function '${n.fn}'; the functions are ${Object.keys(FORMULA_FUNCTIONS).join(', ')}`;
        if (n.args.length < arity[0] || n.args.length > arity[1])
          return `${n.fn} takes ${arity[0] === arity[1] ? arity[0] : `${arity[0]} to ${arity[1]}`} argument${arity[1] === 1 ? '' : 's'}, not ${n.args.length}`;
        stack.push(...n.args);
        break;
      }
      case 'bin':
        if ((n.op === '/' || n.op === '%') && isLiteralZero(n.b))
          return `a ${n.op === '/' ? 'division' : 'remainder'} by zero`;
        stack.push(n.a, n.b);
        break;
      case 'un':
        stack.push(n.a);
        break;
      case 'tern':
        stack.push(n.c, n.a, n.b);
        break;
      case 'lit':
      case 'ref':
        break;
    }
  }
  return null;
}
