/**
 * Computation formulas: a small, safe expression language over `{{param-code}}` references (its
 * syntax: src/lib/bundle/formula-syntax.ts). An unknown reference makes the result unknown rather
 * than a guess; a formula that cannot run on known values (it does not parse, divides by zero,
 * gives nothing) is an error, so the rules reading its value are errors too.
 */
import {
  parseFormulaText,
  treeProblem,
  type FormulaNode,
  type ParsedFormula,
} from '../src/lib/bundle/formula-syntax';
import { placeholders } from '../src/lib/bundle/placeholders';
import { spend, spendWriting } from '../src/lib/bundle/work-budget';
import { daysSince, type Clock } from './clock';
import { isFilled, looseEquals, toNumber } from './values';

type Node = FormulaNode;

const parsed = new Map<string, ParsedFormula>();

/** The formula's tree, or why it cannot run (cached by text). */
function parseCached(src: string): ParsedFormula {
  const hit = parsed.get(src);
  if (hit) return hit;
  const tree = parseFormulaText(src);
  const problem = 'node' in tree ? treeProblem(tree.node) : `does not parse: ${tree.problem}`;
  const p: ParsedFormula =
    problem === null
      ? tree
      : { problem: `the formula ${problem.startsWith('does') ? problem : `cannot run: ${problem}`}` };
  if (parsed.size > 5000) parsed.clear();
  parsed.set(src, p);
  return p;
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

/** The formula's value, or undefined when it does not parse, reads an unknown value or fails. */
export function evaluateFormula(src: string, scope: FormulaScope): unknown {
  const out = computeFormula(src, scope);
  return out.kind === 'value' ? out.value : undefined;
}

/**
 * What a formula gives: a value; `unknown` when a value it reads is not known yet; `error` when it
 * cannot run (it does not parse, divides by zero, gives no value or not a finite number from known
 * values), with why.
 */
export type FormulaOutcome =
  { kind: 'value'; value: unknown } | { kind: 'unknown' } | { kind: 'error'; reason: string };

class FormulaFailure extends Error {}

export function computeFormula(src: string, scope: FormulaScope): FormulaOutcome {
  const p = parseCached(src);
  if ('problem' in p) return { kind: 'error', reason: p.problem };
  let v: unknown;
  try {
    v = evalNode(p.node, scope, 0);
  } catch (e) {
    if (e instanceof FormulaFailure) return { kind: 'error', reason: e.message };
    throw e;
  }
  if (typeof v === 'number' && !Number.isFinite(v))
    return { kind: 'error', reason: 'it gives no finite number' };
  if (v !== undefined) return { kind: 'value', value: v };
  const unknown = formulaRefs(src).filter((code) => !isFilled(scope.values[code]));
  if (unknown.length > 0) return { kind: 'unknown' };
  return { kind: 'error', reason: 'it gives no value from known values (a text where a number is needed?)' };
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
    case '%':
      if (y === 0) throw new FormulaFailure('a division by zero');
      return op === '/' ? x / y : x % y;
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
      if (args[0] === undefined) return undefined;
      return truthy(args[0]) ? args[1] : args.length > 2 ? args[2] : null;
    default:
      return undefined;
  }
}
