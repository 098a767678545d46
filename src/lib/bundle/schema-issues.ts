/**
 * zod issues → bundle issues with exact `loc`s and messages a person can act on.
 *
 * zod reports a failed union (a condition group, a value that may be a literal or {"ref"}) as one
 * issue holding every branch's errors. We pick the branch the author evidently meant (its shape
 * matches and its required keys are present) and report that branch's errors at their own paths,
 * or, when no branch fits, one issue at the union's path naming the accepted shapes.
 */
import type { z } from 'zod';
import type { BundleIssue } from '../../contract/api';
import { bundleIssue, formatLoc, type Loc } from './issue-codes';
import { lookupTable } from './lookup';
import { closestMatch } from './suggest';

type ZodIssue = z.core.$ZodIssue;

interface Leaf {
  issue: ZodIssue | { code: 'no_branch'; expected: string[]; keys: string[] };
  loc: Loc;
}

function valueAt(doc: unknown, loc: Loc): unknown {
  let cur: unknown = doc;
  for (const seg of loc) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string | number, unknown>)[seg];
  }
  return cur;
}

const sameLoc = (a: Loc, b: Loc) => a.length === b.length && a.every((s, i) => s === b[i]);

function toLoc(path: readonly PropertyKey[]): Loc {
  return path.map((p) => (typeof p === 'number' ? p : String(p)));
}

function flatten(issue: ZodIssue, base: Loc, doc: unknown): Leaf[] {
  const loc = [...base, ...toLoc(issue.path)];
  if (issue.code === 'invalid_union' && issue.errors.length > 0) return resolveUnion(issue.errors, loc, doc);
  return [{ issue, loc }];
}

function resolveUnion(branches: ZodIssue[][], loc: Loc, doc: unknown): Leaf[] {
  const flat = branches.map((errors) => errors.flatMap((e) => flatten(e, loc, doc)));
  const rejectsShape = (leaves: Leaf[]) =>
    leaves.some(
      (l) =>
        sameLoc(l.loc, loc) &&
        (l.issue.code === 'invalid_type' || l.issue.code === 'invalid_value' || l.issue.code === 'no_branch'),
    );
  const fitting = flat.filter((leaves) => !rejectsShape(leaves));
  if (fitting.length === 0) {
    const expected = new Set<string>();
    for (const leaves of flat) {
      for (const l of leaves) {
        if (!sameLoc(l.loc, loc)) continue;
        if (l.issue.code === 'invalid_type') expected.add(l.issue.expected);
        if (l.issue.code === 'no_branch') l.issue.expected.forEach((e) => expected.add(e));
        if (l.issue.code === 'invalid_value') l.issue.values.forEach((v) => expected.add(JSON.stringify(v)));
      }
    }
    return [{ issue: { code: 'no_branch', expected: [...expected], keys: [] }, loc }];
  }
  // Prefer the branch whose own keys are present (a leaf with its method, a group with its all),
  // then the one with the fewest missing fields anywhere below.
  const isMissing = (l: Leaf) => valueAt(doc, l.loc) === undefined;
  const ownMissing = (leaves: Leaf[]) =>
    leaves.filter((l) => isMissing(l) && l.loc.length === loc.length + 1).length;
  const fewestOwn = Math.min(...fitting.map(ownMissing));
  const best = fitting.filter((leaves) => ownMissing(leaves) === fewestOwn);
  if (best.length === 1 || fewestOwn === 0) {
    const missing = (leaves: Leaf[]) => leaves.filter(isMissing).length;
    const fewest = Math.min(...best.map(missing));
    return best.find((leaves) => missing(leaves) === fewest)!;
  }
  // Several shapes fit equally badly (e.g. a condition `{}`): name the keys that would decide it.
  const keys = new Set<string>();
  for (const leaves of best) {
    const absent = leaves.find((l) => valueAt(doc, l.loc) === undefined && l.loc.length === loc.length + 1);
    if (absent) keys.add(String(absent.loc[absent.loc.length - 1]));
  }
  return [{ issue: { code: 'no_branch', expected: ['object'], keys: [...keys] }, loc }];
}

const TYPE_WORDS = lookupTable({
  array: 'a list',
  object: 'an object',
  string: 'text',
  number: 'a number',
  boolean: 'a boolean',
  null: 'null',
});
const typeWord = (t: string) => TYPE_WORDS[t] ?? t;

export function describeValue(v: unknown): string {
  if (v === undefined) return 'missing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'an object';
  if (typeof v === 'string') return `the text ${JSON.stringify(v.length > 40 ? `${v.slice(0, 37)}...` : v)}`;
  if (typeof v === 'number') return `the number ${v}`;
  return String(v);
}

function orList(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}

const OWNERS = lookupTable<{ noun: string; key: string; quote: boolean }>({
  agent_tools: { noun: 'tool', key: 'code', quote: false },
  tools: { noun: 'tool', key: 'code', quote: false },
  parameters: { noun: 'parameter', key: 'code', quote: true },
  integrations: { noun: 'integration', key: 'code', quote: true },
  entities: { noun: 'entity', key: 'name', quote: true },
  rules: { noun: 'rule', key: 'code', quote: true },
  computations: { noun: 'computation', key: 'code', quote: true },
});

/** `agent_tools[2].config (tool DISPUTE_CHARGE)`: the path, plus whose it is when that is known. */
function describeLoc(doc: unknown, loc: Loc): string {
  const path = formatLoc(loc);
  const top = typeof loc[0] === 'string' ? OWNERS[loc[0]] : undefined;
  if (!top || typeof loc[1] !== 'number' || loc.length < 3) return path;
  const name = valueAt(doc, [loc[0]!, loc[1], top.key]);
  if (typeof name !== 'string') return path;
  return `${path} (${top.noun} ${top.quote ? `'${name}'` : name})`;
}

function missingField(doc: unknown, loc: Loc): BundleIssue {
  const field = String(loc[loc.length - 1]);
  return bundleIssue(
    'missing_field',
    `${describeLoc(doc, loc.slice(0, -1))} has no "${field}", which is required.`,
    loc,
  );
}

function toBundleIssue(leaf: Leaf, doc: unknown): BundleIssue {
  const { issue, loc } = leaf;
  const actual = valueAt(doc, loc);
  const where = describeLoc(doc, loc);
  switch (issue.code) {
    case 'no_branch':
      if (issue.keys.length > 0) {
        return bundleIssue(
          'wrong_type',
          `${where} must have one of the keys ${orList(issue.keys.map((k) => `"${k}"`))}.`,
          loc,
        );
      }
      return bundleIssue(
        'wrong_type',
        `${where} must be ${orList(issue.expected.map(typeWord))}, not ${describeValue(actual)}.`,
        loc,
      );
    case 'invalid_type':
      if (actual === undefined) return missingField(doc, loc);
      return bundleIssue(
        'wrong_type',
        `${where} must be ${typeWord(issue.expected)}, not ${describeValue(actual)}.`,
        loc,
      );
    case 'invalid_value': {
      if (actual === undefined) return missingField(doc, loc);
      const allowed = issue.values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
      if (allowed.length === 1) {
        return bundleIssue(
          'invalid_value',
          `${where} is ${describeValue(actual)}; the only accepted value is ${allowed[0]}.`,
          loc,
        );
      }
      const close = typeof actual === 'string' ? closestMatch(actual, allowed) : undefined;
      return bundleIssue(
        'invalid_value',
        `${where} is ${describeValue(actual)}, which is not one of ${allowed.join(', ')}.${close ? ` Did you mean ${close}?` : ''}`,
        loc,
      );
    }
    case 'custom':
    case 'invalid_element':
    case 'invalid_format':
    case 'invalid_key':
    case 'invalid_union':
    case 'not_multiple_of':
    case 'too_big':
    case 'too_small':
    case 'unrecognized_keys':
      return bundleIssue('invalid_value', `${where}: ${issue.message}.`, loc);
  }
}

/** Bundle issues for a failed zod parse of `doc`, one per distinct path and problem. */
export function schemaIssues(zodIssues: readonly ZodIssue[], doc: unknown): BundleIssue[] {
  const out: BundleIssue[] = [];
  const seen = new Set<string>();
  for (const zi of zodIssues) {
    for (const leaf of flatten(zi, [], doc)) {
      const bi = toBundleIssue(leaf, doc);
      const key = `${bi.code}\u0000${JSON.stringify(bi.loc)}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(bi);
    }
  }
  return out;
}
