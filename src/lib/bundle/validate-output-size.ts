/**
 * Text that would grow past what a turn may write, found before anything runs: each computed
 * value and rule message gets an upper bound of its length (its own text plus, for every
 * `{{placeholder}}`, the bound of that value; a value the user or an integration gives is bounded
 * by the longest message). A chain of formulas that doubles a value again and again, or a message
 * printing a value thousands of times, is reported as `bundle_too_complex` at its place, naming
 * the value that grows. The engine still counts every character it writes (`spendWriting`), so
 * what this estimate lets through is refused when it runs.
 */
import { MESSAGE_MAX_CHARS } from '../../contract/api';
import type { Loc } from './issue-codes';
import { scanPlaceholders } from './placeholders';
import { asArray, asObject, asString, report, type ValidationContext } from './validation-context';
import { MAX_WRITTEN_CHARS } from './work-budget';

const bounds = new WeakMap<ValidationContext, (code: string) => number>();

/** The bound of a parameter's length, computed once per parameter (cycles count as input). */
function boundOf(ctx: ValidationContext): (code: string) => number {
  const known = bounds.get(ctx);
  if (known) return known;
  const formulas = new Map<string, string[]>();
  const add = (code: string | undefined, text: string | undefined) => {
    if (code === undefined || text === undefined) return;
    (formulas.get(code) ?? formulas.set(code, []).get(code)!).push(text);
  };
  asArray(ctx.doc.parameters)?.forEach((p) =>
    add(asString(asObject(p)?.code), asString(asObject(p)?.computation)),
  );
  asArray(ctx.doc.computations)?.forEach((c) =>
    add(asString(asObject(c)?.parameter), asString(asObject(c)?.formula)),
  );
  const memo = new Map<string, number>();
  const reads = new Map<string, { refs: string[][]; flat: string[]; next: number }>();
  const bound = (code: string): number => {
    // Depth-first without recursion: a code is resolved once every code its formulas read is;
    // each reference is looked at once (`next`), a code read while on the stack counts as input.
    const stack = [code];
    const onStack = new Set<string>();
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      const texts = formulas.get(top);
      if (memo.has(top) || !texts) {
        if (!memo.has(top)) memo.set(top, MESSAGE_MAX_CHARS);
        stack.pop();
        onStack.delete(top);
        continue;
      }
      onStack.add(top);
      let r = reads.get(top);
      if (!r) {
        const refs = texts.map((t) => scanPlaceholders(t).map((p) => p.name));
        reads.set(top, (r = { refs, flat: refs.flat(), next: 0 }));
      }
      while (r.next < r.flat.length) {
        const ref = r.flat[r.next]!;
        if (!memo.has(ref) && formulas.has(ref) && !onStack.has(ref)) break;
        r.next++;
      }
      if (r.next < r.flat.length) {
        stack.push(r.flat[r.next]!);
        continue;
      }
      const lengths = texts.map((t, i) =>
        r.refs[i]!.reduce((n, ref) => n + (memo.get(ref) ?? MESSAGE_MAX_CHARS), t.length),
      );
      memo.set(
        top,
        lengths.reduce((a, b) => Math.max(a, b), 0),
      );
      stack.pop();
      onStack.delete(top);
    }
    return memo.get(code)!;
  };
  bounds.set(ctx, bound);
  return bound;
}

const times = (n: number) => (n === 1 ? 'once' : `${n.toLocaleString('en-US')} times`);
const count = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : 'unbounded');

/** Reports a rule message whose filled text could be longer than a turn may write. */
export function checkMessageLength(ctx: ValidationContext, message: string, name: string, loc: Loc): void {
  const bound = boundOf(ctx);
  const found = scanPlaceholders(message);
  let length = message.length;
  let grows = '';
  let most = -1;
  for (const p of found) {
    const b = bound(p.name);
    length += b;
    if (b > most) [most, grows] = [b, p.name];
  }
  if (length <= MAX_WRITTEN_CHARS) return;
  report(
    ctx,
    'bundle_too_complex',
    `The message of ${name} could be written with up to ${count(length)} characters (it fills {{${grows}}} ${times(found.filter((p) => p.name === grows).length)}), more than the ${MAX_WRITTEN_CHARS.toLocaleString('en-US')} a message may hold. Fill fewer placeholders, or shorten what they hold.`,
    loc,
  );
}

/** Reports every computed value whose formula could make it longer than a value may be. */
export function checkFormulaLengths(ctx: ValidationContext): void {
  const bound = boundOf(ctx);
  const reported = new Set<string>();
  const check = (code: string | undefined, loc: Loc) => {
    if (code === undefined || reported.has(code)) return;
    const b = bound(code);
    if (b <= MAX_WRITTEN_CHARS) return;
    reported.add(code);
    report(
      ctx,
      'bundle_too_complex',
      `The computed value '${code}' could grow to ${count(b)} characters (its formula repeats values that repeat others), more than the ${MAX_WRITTEN_CHARS.toLocaleString('en-US')} a value may hold. Concatenate fewer values, or shorter ones.`,
      loc,
    );
  };
  asArray(ctx.doc.parameters)?.forEach((p, i) => {
    const o = asObject(p);
    if (asString(o?.computation) !== undefined) check(asString(o?.code), ['parameters', i, 'computation']);
  });
  asArray(ctx.doc.computations)?.forEach((c, i) =>
    check(asString(asObject(c)?.parameter), ['computations', i, 'formula']),
  );
}
