/**
 * The analysis against the engine, over generated bundles and small edits of them (fast-check,
 * seeded; `THREADLINE_PROPERTY_SEED` replays a failure):
 * - every difference of a diff is what the engine decides with each bundle at its witness, and a
 *   witness conversation ends there on both bundles;
 * - a diff that says "equivalent" is checked against the engine at every region's point and at
 *   random points;
 * - a bundle diffed with itself, or with every object's keys in another order, is equivalent;
 * - every lint witness shows what its finding says, in the engine.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Bundle } from '../../src/contract/bundle';
import { epochDayToIso, parseClock } from '../clock';
import { compileBundle } from '../compile';
import { engine } from '../index';
import { generatedArb } from '../fixtures/generated-bundles.fixture';
import { decideAt, decidedTurn, sameOutcome, sideOf, startingValues } from './decide';
import { diffBundles, lintBundle } from './index';
import { sharedPresence } from './presence';
import { regionsOf, valuesAt } from './regions';
import { mergeVariables, unitsFor } from './tool-regions';
import { toolScope } from './variables';

const CLOCK = '2025-03-15T12:00:00Z';
const RUNS = Number(process.env.THREADLINE_ANALYSIS_RUNS ?? 1000);
const SEED = Number(process.env.THREADLINE_PROPERTY_SEED ?? 20251128);

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Every rule of a bundle, wherever it sits. */
function rulesIn(b: Json): Json[] {
  const out: Json[] = [...(b.rules ?? [])];
  for (const t of b.agent_tools ?? [])
    for (const group of Object.values<Json>(t.rules ?? {}))
      for (const list of Object.values<Json[]>(group ?? {})) out.push(...(list ?? []));
  return out;
}

type Edit =
  | { kind: 'move'; by: number }
  | { kind: 'flip' }
  | { kind: 'action' }
  | { kind: 'remove' }
  | { kind: 'optional' };

const editArb: fc.Arbitrary<[number, Edit]> = fc.tuple(
  fc.nat({ max: 5 }),
  fc.oneof(
    fc.integer({ min: -20, max: 20 }).map((by): Edit => ({ kind: 'move', by })),
    fc.constant<Edit>({ kind: 'flip' }),
    fc.constant<Edit>({ kind: 'action' }),
    fc.constant<Edit>({ kind: 'remove' }),
    fc.constant<Edit>({ kind: 'optional' }),
  ),
);

const FLIP: Record<string, string> = {
  gt: 'gte',
  gte: 'gt',
  lt: 'lte',
  lte: 'lt',
  eq: 'neq',
  neq: 'eq',
  more_than_x_days: 'less_than_x_days',
  less_than_x_days: 'more_than_x_days',
  is_empty: 'is_not_empty',
  is_not_empty: 'is_empty',
};

/** The bundle with one small edit, as a person makes it. */
function edited(base: Bundle, [n, edit]: [number, Edit]): Bundle {
  const b = structuredClone(base) as Json;
  const rules = rulesIn(b);
  if (edit.kind === 'optional') {
    const t = b.agent_tools[n % 2];
    t.config.params.required = t.config.params.required.slice(1);
    return b;
  }
  const rule = rules[n % Math.max(1, rules.length)];
  if (!rule) return b;
  if (edit.kind === 'move' && typeof rule.when.value === 'number') rule.when.value += edit.by;
  else if (edit.kind === 'move' && Array.isArray(rule.when.value))
    rule.when.value = rule.when.value.map((x: number) => x + edit.by);
  else if (edit.kind === 'flip') rule.when.operation = FLIP[rule.when.operation] ?? rule.when.operation;
  else if (edit.kind === 'action')
    rule.then =
      rule.then.action === 'BLOCK'
        ? { action: 'TEXT', message: 'Noted.' }
        : { action: 'BLOCK', message: 'Not possible.' };
  else if (edit.kind === 'remove')
    rule.when = { all: [rule.when, { method: 'param_value', params: 'qa1', operation: 'lt', value: -1000 }] };
  return b;
}

/** Every object's keys in reverse order. */
function reordered(x: unknown): unknown {
  if (Array.isArray(x)) return x.map(reordered);
  if (x && typeof x === 'object')
    return Object.fromEntries(
      Object.entries(x)
        .reverse()
        .map(([k, v]) => [k, reordered(v)]),
    );
  return x;
}

/** The last turn of a conversation, as a diff side. */
function conversationEnd(bundle: Bundle, messages: string[]) {
  let state = engine.initialState(bundle, CLOCK, 'witness');
  let out = null as ReturnType<typeof engine.runTurn> | null;
  for (const [i, text] of messages.entries()) {
    out = engine.runTurn({ bundle, state, text, clock: CLOCK, interactionId: `w-${i}`, userId: 'witness' });
    state = out.state;
  }
  return sideOf(decidedTurn(out!));
}

const clockDay = parseClock(CLOCK).day;
const randomValues = fc.record({
  qa1: fc.option(fc.integer({ min: -10, max: 200 }), { nil: undefined }),
  qb2: fc.option(fc.integer({ min: -10, max: 200 }), { nil: undefined }),
  qc3: fc.option(
    fc.integer({ min: -90, max: 90 }).map((d) => epochDayToIso(clockDay + d)),
    { nil: undefined },
  ),
  qd4: fc.option(fc.constantFrom('gold', 'silver'), { nil: undefined }),
});

function check<Ts extends unknown[]>(property: fc.IPropertyWithHooks<Ts>) {
  fc.assert(property, { numRuns: RUNS, seed: SEED, endOnFailure: true });
}

describe('the diff against the engine', () => {
  it('gives each difference as the engine decides it at the witness, and "equivalent" only where every point agrees', () => {
    check(
      fc.property(generatedArb, editArb, fc.array(randomValues, { maxLength: 4 }), (g, edit, randoms) => {
        const base = g.bundle;
        const head = edited(base, edit);
        const result = diffBundles(base, head, { clock: CLOCK });
        const cb = compileBundle(base);
        const ch = compileBundle(head);
        for (const d of result.differences) {
          const tb = cb.toolByCode.get(d.tool)!;
          const th = ch.toolByCode.get(d.tool)!;
          expect(sideOf(decideAt(base, tb, d.witness.values, CLOCK))).toEqual(d.before);
          expect(sideOf(decideAt(head, th, d.witness.values, CLOCK))).toEqual(d.after);
          if (d.witness.messages) {
            expect(conversationEnd(base, d.witness.messages)).toEqual(d.before);
            expect(conversationEnd(head, d.witness.messages)).toEqual(d.after);
          }
        }
        if (!result.equivalent) return;
        expect(result.differences).toEqual([]);
        const clk = parseClock(CLOCK);
        for (const tb of cb.tools) {
          const th = ch.toolByCode.get(tb.code)!;
          const sb = toolScope(cb, tb, clk, startingValues(base, CLOCK));
          const sh = toolScope(ch, th, clk, startingValues(head, CLOCK));
          const units = unitsFor(
            mergeVariables(sb.variables, sh.variables),
            sharedPresence(sb.presence, sh.presence),
          );
          for (const choice of regionsOf(units)) {
            const values = valuesAt(units, choice);
            expect(sameOutcome(decideAt(base, tb, values, CLOCK), decideAt(head, th, values, CLOCK))).toBe(
              true,
            );
          }
          for (const r of randoms) {
            const values = Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined));
            expect(
              sameOutcome(decideAt(base, tb, values, CLOCK), decideAt(head, th, values, CLOCK)),
              JSON.stringify(values),
            ).toBe(true);
          }
        }
      }),
    );
  }, 600_000);

  it('finds a bundle equivalent to itself and to itself with its keys in another order', () => {
    check(
      fc.property(generatedArb, (g) => {
        expect(diffBundles(g.bundle, g.bundle, { clock: CLOCK }).equivalent).toBe(true);
        expect(diffBundles(g.bundle, reordered(g.bundle) as Bundle, { clock: CLOCK }).equivalent).toBe(true);
      }),
    );
  }, 600_000);
});

describe('lint witnesses against the engine', () => {
  it('shows what each finding says at its witness', () => {
    check(
      fc.property(generatedArb, (g) => {
        const compiled = compileBundle(g.bundle);
        for (const f of lintBundle(g.bundle, { clock: CLOCK }).findings) {
          if (!f.witness) continue;
          const tool = compiled.toolByCode.get(f.witness.tool)!;
          const at = decideAt(g.bundle, tool, f.witness.values, CLOCK);
          if (f.code === 'shadowed_rule') {
            expect(at.held.has(f.rule!)).toBe(true);
            expect(at.blockedBy.has(f.rule!)).toBe(false);
          }
          if (f.code === 'unreachable_message') expect(at.held.has(f.rule!)).toBe(true);
          if (f.code === 'repeated_call') expect(at.calls.length).toBeGreaterThan(0);
          if (f.witness.messages) expect(conversationEnd(g.bundle, f.witness.messages)).toEqual(sideOf(at));
        }
      }),
    );
  }, 600_000);
});
