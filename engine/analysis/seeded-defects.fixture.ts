/**
 * The seeded-defect corpus of rule lint: defects of nine kinds, five instances each, seeded into
 * three clean bundles (the card-disputes and flight-changes example agents and the starter
 * template). Each seed is a small edit a bundle author could make by mistake, and the finding the
 * lint must give for it. `seeded-defects.test.ts` checks that the clean bundles have no finding and
 * that every seed is found.
 */
import type { Bundle, Rule } from '../../src/contract/bundle';

export interface Seed {
  name: string;
  kind: string;
  /** Which clean bundle it is seeded into. */
  base: 'card-disputes' | 'flight-changes' | 'starter';
  seed: (bundle: Bundle) => Bundle;
  /** The finding expected: its code, and the rule or tool it names. */
  expect: { code: string; rule?: string; tool?: string };
}

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const copy = (b: Bundle): Json => structuredClone(b);

/** A value each clean bundle's main tool reads, with the leaves the seeds build on it. */
const SUBJECT = {
  'card-disputes': {
    tool: 'DISPUTE_CHARGE',
    num: 'transaction-amount',
    low: 40,
    enumParam: 'dispute-reason',
    values: ['duplicate charge', 'wrong amount', 'not received'],
  },
  'flight-changes': {
    tool: 'CHANGE_FLIGHT',
    num: null,
    low: 0,
    enumParam: 'fare-class',
    values: ['Economy', 'Premium Economy', 'Business'],
  },
  starter: {
    tool: 'BOOK_ROOM',
    num: 'nights',
    low: 3,
    enumParam: 'room-type',
    values: ['standard', 'suite', 'standard'],
  },
} as const;

const BASES = ['card-disputes', 'flight-changes', 'starter'] as const;

function tool(b: Json, code: string): Json {
  return (b.agent_tools as Json[]).find((t) => t.code === code)!;
}

function addConstraint(b: Json, code: string, rules: Rule[], first = true): Json {
  const t = tool(b, code);
  t.rules ??= {};
  t.rules.pre ??= {};
  const list: Rule[] = t.rules.pre.constraint ?? [];
  t.rules.pre.constraint = first ? [...rules, ...list] : [...list, ...rules];
  return b;
}

const eq = (param: string, value: unknown) => ({
  method: 'param_value',
  params: param,
  operation: 'eq',
  value,
});
const gt = (param: string, value: number) => ({
  method: 'param_value',
  params: param,
  operation: 'gt',
  value,
});
const lt = (param: string, value: number) => ({
  method: 'param_value',
  params: param,
  operation: 'lt',
  value,
});
const block = (message: string) => ({ action: 'BLOCK', message });

/** A condition on the bundle's subject: a number above `x` where there is one, else an enum value. */
function over(base: (typeof BASES)[number], i: number): Rule['when'] {
  const s = SUBJECT[base];
  return (s.num ? gt(s.num, s.low + i * 10) : eq(s.enumParam, s.values[i % 3])) as Rule['when'];
}

function seeds(
  kind: string,
  make: (base: (typeof BASES)[number], i: number) => Omit<Seed, 'kind' | 'base' | 'name'> & { name?: string },
): Seed[] {
  return [0, 1, 2, 3, 4].map((i) => {
    const base = BASES[i % 3]!;
    const s = make(base, i);
    return { name: s.name ?? `${kind} #${i + 1} in ${base}`, kind, base, ...s };
  });
}

export const SEEDED_DEFECTS: Seed[] = [
  ...seeds('dead_rule', (base, i) => {
    const s = SUBJECT[base];
    const code = `SEED_DEAD_${i}`;
    const when = s.num
      ? { all: [gt(s.num, s.low + 100 + i), lt(s.num, s.low + i)] }
      : { all: [eq(s.enumParam, s.values[0]), eq(s.enumParam, s.values[1])] };
    return {
      seed: (b) => addConstraint(copy(b), s.tool, [{ code, when, then: block('Never.') } as Rule]),
      expect: { code: 'dead_rule', rule: code },
    };
  }),
  ...seeds('always_holds', (base, i) => {
    const s = SUBJECT[base];
    const code = `SEED_ALWAYS_${i}`;
    const when = s.num
      ? {
          any: [
            gt(s.num, s.low + i),
            { method: 'param_value', params: s.num, operation: 'lte', value: s.low + i },
          ],
        }
      : {
          any: [
            eq(s.enumParam, s.values[0]),
            { method: 'param_value', params: s.enumParam, operation: 'neq', value: s.values[0] },
          ],
        };
    return {
      seed: (b) =>
        addConstraint(
          copy(b),
          s.tool,
          [{ code, when, then: { action: 'TEXT', message: 'Noted.' } } as Rule],
          false,
        ),
      expect: { code: 'always_holds', rule: code },
    };
  }),
  ...seeds('shadowed_rule', (base, i) => {
    const s = SUBJECT[base];
    const wide = `SEED_WIDE_${i}`;
    const narrow = `SEED_NARROW_${i}`;
    const when = over(base, i);
    return {
      seed: (b) =>
        addConstraint(copy(b), s.tool, [
          { code: wide, when, then: block('Not this one.') } as Rule,
          {
            code: narrow,
            when: { all: [when, { method: 'param_value', params: s.enumParam, operation: 'is_not_empty' }] },
            then: block('Not this one either.'),
          } as Rule,
        ]),
      expect: { code: 'shadowed_rule', rule: narrow },
    };
  }),
  ...seeds('rule_conflict', (base, i) => {
    const s = SUBJECT[base];
    const first = `SEED_BLOCK_${i}`;
    const second = `SEED_HANDOVER_${i}`;
    const other =
      base === 'card-disputes'
        ? 'LIST_TRANSACTIONS'
        : base === 'flight-changes'
          ? 'CANCEL_FLIGHT'
          : 'SEED_HELP';
    const a = s.num
      ? gt(s.num, s.low + i)
      : { method: 'param_value', params: s.enumParam, operation: 'eq', value: [s.values[0], s.values[1]] };
    const b2 = s.num
      ? lt(s.num, s.low + i + 20)
      : { method: 'param_value', params: s.enumParam, operation: 'eq', value: [s.values[1], s.values[2]] };
    return {
      seed: (b) => {
        const out = copy(b);
        if (other === 'SEED_HELP')
          (out.agent_tools as Json[]).push({
            code: 'SEED_HELP',
            name: 'Talk to the front desk',
            when_to_use: 'The guest wants the front desk',
            main_tool: true,
          });
        return addConstraint(out, s.tool, [
          { code: first, when: a, then: block('Not possible.') } as Rule,
          {
            code: second,
            when: b2,
            then: {
              action: 'BLOCK_AND_ACTIVATE_ANOTHER_TOOL',
              message: 'Let me pass you on.',
              settings: { tool: other },
            },
          },
        ]);
      },
      expect: { code: 'rule_conflict', rule: second },
    };
  }),
  ...seeds('unreachable_message', (base, i) => {
    const code = `SEED_LATE_MESSAGE_${i}`;
    const target =
      base === 'card-disputes'
        ? 'LIST_TRANSACTIONS'
        : base === 'flight-changes'
          ? 'LOOKUP_BOOKING'
          : 'BOOK_ROOM';
    return {
      seed: (b) => {
        const out = copy(b);
        const t = tool(out, target);
        if (base === 'starter') t.requires_confirmation = false;
        t.rules ??= {};
        t.rules.summary ??= {};
        t.rules.summary.success = [
          { code: `SEED_FIRST_MESSAGE_${i}`, when: null, then: { action: 'TEXT', message: 'All done.' } },
          ...(t.rules.summary.success ?? []),
          { code, when: null, then: { action: 'TEXT', message: `Also ${i}.` } },
        ];
        return out;
      },
      expect: { code: 'unreachable_message', rule: code },
    };
  }),
  ...seeds('unreachable_tool', (_base, i) => ({
    seed: (b) => {
      const out = copy(b);
      (out.agent_tools as Json[]).push({
        code: `SEED_ORPHAN_${i}`,
        name: `Orphan ${i}`,
        main_tool: false,
        status: true,
      });
      return out;
    },
    expect: { code: 'unreachable_tool', tool: `SEED_ORPHAN_${i}` },
  })),
  ...seeds('unused_parameter', (_base, i) => ({
    seed: (b) => {
      const out = copy(b);
      (out.parameters as Json[]).push({
        code: `seed-unused-${i}`,
        type: 'string',
        usage: 'input',
        description: 'Nothing reads this',
      });
      return out;
    },
    expect: { code: 'unused_parameter' },
  })),
  ...seeds('unfillable_required', (base, i) => {
    const s = SUBJECT[base];
    return {
      seed: (b) => {
        const out = copy(b);
        (out.parameters as Json[]).push({
          code: `seed-reference-${i}`,
          type: i % 2 ? 'object' : 'string',
          usage: i % 2 ? 'input' : 'output',
        });
        const t = tool(out, s.tool);
        t.config.params.required = [...t.config.params.required, `seed-reference-${i}`];
        return out;
      },
      expect: { code: 'unfillable_required', tool: s.tool },
    };
  }),
  ...seeds('repeated_call', (base, i) => {
    const s = SUBJECT[base];
    const integration = base === 'card-disputes' ? 'file-dispute-api' : 'booking-api';
    return {
      seed: (b) => {
        const out = copy(b);
        if (base === 'flight-changes') {
          const t = tool(out, s.tool);
          t.requires_confirmation = true;
        }
        return addConstraint(out, s.tool, [
          { code: `SEED_LOOKUP_${i}`, when: null, then: { action: 'API', settings: { integration } } },
        ]);
      },
      expect: { code: 'repeated_call', tool: s.tool },
    };
  }),
];
