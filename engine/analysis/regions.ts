/**
 * The regions of a tool's input space: for each value its scope reads, the slots its boundaries
 * cut (below, on and between the boundaries; each value; true and false; known), plus "not known";
 * values compared with each other (`{"ref"}`) are placed jointly, in every order they can take.
 * The regions are the product of these slots; each has one representative point, which the
 * engine decides. Regions are described in words and as bounds (`RegionPart`), and neighbouring
 * regions of one value merge back into ranges. Pure.
 */
import type { Region, RegionPart } from '../../src/contract/analysis';
import type { Clock } from '../clock';
import { epochDayToIso } from '../clock';
import { formatNumber } from '../values';
import type { Variable } from './variables';

/** One slot of one value: the value placed there (undefined = not known), and its position. */
export interface Slot {
  value: unknown;
  /** Position along the value's axis (numbers and dates: 0 … 2n for n boundaries); -1 = not known. */
  order: number;
}

/**
 * A unit of the product: one value alone, values compared with each other placed together, or
 * requirements only their presence reads (`presence`: choice i leaves the i-th first missing, the
 * last choice gives them all; see presence.ts).
 */
export interface Unit {
  variables: Variable[];
  presence?: true;
  /** Each choice gives every variable of the unit its slot; `relation` says how grouped values compare. */
  choices: { slots: Slot[]; relation?: string }[];
}

const UNKNOWN: Slot = { value: undefined, order: -1 };

const isDate = (v: Variable) => v.axis === 'date';

/** The value placed in an open slot between `lo` and `hi` (exclusive; ±Infinity for none), or undefined when empty. */
function between(v: Variable, lo: number, hi: number, rank = 0, ranks = 1): number | undefined {
  if (isDate(v)) {
    if (lo === -Infinity && hi === Infinity) return 0 + rank;
    if (lo === -Infinity) return hi - ranks + rank;
    if (hi === Infinity) return lo + 1 + rank;
    return hi - lo - 1 >= ranks ? lo + 1 + rank : undefined;
  }
  if (lo === -Infinity && hi === Infinity) return rank + 1;
  if (lo === -Infinity) return hi - (ranks - rank);
  if (hi === Infinity) return lo + rank + 1;
  if (ranks === 1) {
    const mid = (lo + hi) / 2;
    const round = Math.round(mid);
    return round > lo && round < hi ? round : mid;
  }
  return lo + ((hi - lo) * (rank + 1)) / (ranks + 1);
}

const asValue = (v: Variable, n: number): unknown => (isDate(v) ? epochDayToIso(n) : n);

/** The bounds of slot `k` of an ordered axis: [lo, loInclusive, hi, hiInclusive]. */
function slotBounds(v: Variable, k: number): [number, boolean, number, boolean] {
  const b = v.bounds;
  if (k % 2 === 1) {
    const x = b[(k - 1) / 2]!;
    return [x, true, x, true];
  }
  return [k === 0 ? -Infinity : b[k / 2 - 1]!, false, k === 2 * b.length ? Infinity : b[k / 2]!, false];
}

/** The slots of one value on its own. */
function slotsOf(v: Variable, sample: (v: Variable) => unknown): Slot[] {
  const out: Slot[] = [];
  switch (v.axis) {
    case 'number':
    case 'date': {
      if (v.bounds.length === 0) {
        out.push({ value: sample(v), order: 0 });
        break;
      }
      for (let k = 0; k <= 2 * v.bounds.length; k++) {
        const [lo, , hi] = slotBounds(v, k);
        const x = k % 2 === 1 ? lo : between(v, lo, hi);
        if (x !== undefined) out.push({ value: asValue(v, x), order: k });
      }
      break;
    }
    case 'boolean':
      out.push({ value: true, order: 0 }, { value: false, order: 1 });
      break;
    case 'value': {
      if (v.literals.length === 0 && v.contained.length === 0) {
        out.push({ value: sample(v), order: 0 });
        break;
      }
      let k = 0;
      for (const l of v.literals) out.push({ value: l, order: k++ });
      // Every combination of the texts looked for inside the value (none of them: "other").
      const n = v.contained.length;
      for (let mask = 1; mask < 1 << n; mask++) {
        const parts = v.contained.filter((_, i) => mask & (1 << i));
        out.push({ value: parts.join(' '), order: k++ });
      }
      if (v.other || n > 0) out.push({ value: otherText(v), order: k });
      break;
    }
    case 'known':
      out.push({ value: sample(v), order: 0 });
      break;
  }
  // Not given: not known, or, for a value of the user profile, the profile's own.
  if (v.unknownSlot) out.push(UNKNOWN);
  return out;
}

/** A text equal to none of the value's literals and holding none of the texts looked for. */
function otherText(v: Variable): string {
  const taken = [...v.literals, ...v.contained].map((s) => s.toLowerCase());
  for (let i = 0; ; i++) {
    const candidate = i === 0 ? 'something else' : `something else ${i}`;
    if (!taken.some((t) => t === candidate || candidate.includes(t) || t.includes(candidate)))
      return candidate;
  }
}

/**
 * The joint placements of values compared with each other: each takes any of its slots, and those
 * sharing an open slot take every order they can have there (equal ones included).
 */
function groupChoices(members: Variable[], sample: (v: Variable) => unknown): Unit['choices'] {
  const own = members.map((m) => slotsOf(m, sample));
  const out: Unit['choices'] = [];
  const pick: Slot[] = [];
  const walk = (i: number) => {
    if (i === members.length) {
      out.push(...orderings(members, pick));
      return;
    }
    for (const s of own[i]!) {
      pick.push(s);
      walk(i + 1);
      pick.pop();
    }
  };
  walk(0);
  return out;
}

/** For values sharing an open slot, every weak order among them (ranks 0…R, none skipped). */
function orderings(members: Variable[], pick: Slot[]): Unit['choices'] {
  const v0 = members[0]!;
  const open = (s: Slot) =>
    s.order >= 0 && (((v0.axis === 'number' || v0.axis === 'date') && s.order % 2 === 0) || isOther(v0, s));
  const shared = new Map<number, number[]>();
  pick.forEach((s, i) => {
    if (open(s)) (shared.get(s.order) ?? shared.set(s.order, []).get(s.order)!).push(i);
  });
  let choices: Unit['choices'] = [{ slots: [...pick] }];
  for (const [order, idx] of shared) {
    if (idx.length < 2) continue;
    const next: Unit['choices'] = [];
    for (const ranks of weakOrders(idx.length)) {
      const top = Math.max(...ranks) + 1;
      for (const c of choices) {
        const slots = [...c.slots];
        let ok = true;
        idx.forEach((memberIndex, j) => {
          const m = members[memberIndex]!;
          const value = placeRank(m, order, ranks[j]!, top);
          if (value === undefined) ok = false;
          slots[memberIndex] = { value, order };
        });
        if (ok) next.push({ slots });
      }
    }
    choices = next;
  }
  return choices.map((c) => ({ ...c, relation: relationWords(members, c.slots) }));
}

const isOther = (v: Variable, s: Slot) =>
  v.axis === 'value' && typeof s.value === 'string' && s.value.startsWith('something else');

function placeRank(m: Variable, order: number, rank: number, ranks: number): unknown {
  if (m.axis === 'value') return `something else ${rank + 1}`;
  const [lo, , hi] = slotBounds(m, order);
  const x = between(m, lo, hi, rank, ranks);
  return x === undefined ? undefined : asValue(m, x);
}

/** Every assignment of ranks to `n` items that uses ranks 0…R with none skipped. */
function weakOrders(n: number): number[][] {
  const out: number[][] = [];
  const r: number[] = [];
  const walk = (i: number) => {
    if (i === n) {
      const used = new Set(r);
      if ([...used].every((x) => x < used.size)) out.push([...r]);
      return;
    }
    for (let x = 0; x < n; x++) {
      r.push(x);
      walk(i + 1);
      r.pop();
    }
  };
  walk(0);
  return out;
}

/** How the grouped values compare, in words ("amount < limit"), for the known ones. */
function relationWords(members: Variable[], slots: Slot[]): string | undefined {
  const words: string[] = [];
  for (let i = 0; i + 1 < members.length; i++) {
    const a = slots[i]!;
    const b = slots[i + 1]!;
    if (a.value === undefined || b.value === undefined) continue;
    const cmp = compareValues(a.value, b.value);
    words.push(`${members[i]!.code} ${cmp < 0 ? '<' : cmp > 0 ? '>' : '='} ${members[i + 1]!.code}`);
  }
  return words.length ? words.join(', ') : undefined;
}

function compareValues(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
}

/** The units of a scope's product: grouped values together, presence-only requirements together, every other value alone. */
export function unitsOf(
  variables: Variable[],
  sample: (v: Variable) => unknown,
  presence: readonly string[] = [],
): Unit[] {
  const groups = new Map<number, Variable[]>();
  const units: Unit[] = [];
  const present = presence
    .map((code) => variables.find((v) => v.code === code && v.group === null))
    .filter((v): v is Variable => v !== undefined);
  if (present.length > 1) {
    const choices: Unit['choices'] = [];
    for (let i = 0; i <= present.length; i++)
      choices.push({ slots: present.map((v, j) => (j < i ? { value: sample(v), order: 0 } : UNKNOWN)) });
    units.push({ variables: present, presence: true, choices });
  }
  for (const v of variables) {
    if (present.length > 1 && present.includes(v)) continue;
    if (v.group === null)
      units.push({ variables: [v], choices: slotsOf(v, sample).map((s) => ({ slots: [s] })) });
    else (groups.get(v.group) ?? groups.set(v.group, []).get(v.group)!).push(v);
  }
  for (const members of groups.values())
    units.push({ variables: members, choices: groupChoices(members, sample) });
  return units;
}

/** How many regions the units make (the product of their choices), capped at `cap + 1`. */
export function regionCount(units: Unit[], cap: number): number {
  let n = 1;
  for (const u of units) {
    n *= u.choices.length;
    if (n > cap) return cap + 1;
  }
  return n;
}

/** Every region as one choice per unit (its index), in a fixed order. */
export function* regionsOf(units: Unit[]): Generator<number[]> {
  const at = units.map(() => 0);
  if (units.some((u) => u.choices.length === 0)) return;
  for (;;) {
    yield [...at];
    let i = units.length - 1;
    while (i >= 0 && at[i] === units[i]!.choices.length - 1) {
      at[i] = 0;
      i--;
    }
    if (i < 0) return;
    at[i]!++;
  }
}

/** The values of a region: code → value, the unknown ones left out. */
export function valuesAt(units: Unit[], choice: number[]): Record<string, unknown> {
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  units.forEach((u, i) =>
    u.choices[choice[i]!]!.slots.forEach((s, j) => {
      if (s.value !== undefined) out[u.variables[j]!.code] = s.value;
    }),
  );
  return out;
}

// ------------------------------------------------------------------ words and bounds

const shown = (x: unknown) => (typeof x === 'number' ? formatNumber(x) : JSON.stringify(x));

function daysAgoWords(
  v: Variable,
  clock: Clock,
  lo: number,
  loIn: boolean,
  hi: number,
  hiIn: boolean,
): RegionPart {
  // A date d is clock.day - d days before the clock: the bounds turn around.
  const first = hi === Infinity ? -Infinity : clock.day - hi + (hiIn ? 0 : 1);
  const last = lo === -Infinity ? Infinity : clock.day - lo - (loIn ? 0 : 1);
  const days = (n: number) =>
    n === 0
      ? 'the clock’s day'
      : n > 0
        ? `${n} day${n === 1 ? '' : 's'} before the clock`
        : `${-n} day${n === -1 ? '' : 's'} after the clock`;
  let words: string;
  if (first === last) words = `${v.code} ${days(first)}`;
  else if (first === -Infinity)
    words = `${v.code} ${last >= 0 ? `${last} days before the clock or later` : `${-last} days after the clock or later`}`;
  else if (last === Infinity)
    words = `${v.code} ${first >= 0 ? `${first} or more days before the clock` : `${-first} days after the clock or earlier`}`;
  else words = `${v.code} ${first} to ${last} days before the clock`;
  return {
    param: v.code,
    axis: 'days_ago',
    words,
    ...(first !== -Infinity ? { min: first, min_inclusive: true } : {}),
    ...(last !== Infinity ? { max: last, max_inclusive: true } : {}),
  };
}

/** The part of a region for slots `orders` of one value (all of one kind: not known, or known ones). */
function partOf(v: Variable, orders: number[], all: Slot[], clock: Clock): RegionPart | null {
  if (orders.length === 1 && orders[0] === -1)
    return v.fromProfile
      ? { param: v.code, axis: 'known', words: `${v.code} as the user profile gives it` }
      : { param: v.code, axis: 'known', words: `${v.code} not known`, unknown: true };
  const known = all.filter((s) => s.order >= 0);
  if (orders.length === known.length) return { param: v.code, axis: 'known', words: `${v.code} known` };
  if (v.axis === 'number' || v.axis === 'date') {
    const lo = Math.min(...orders);
    const hi = Math.max(...orders);
    const [min, minIn] = slotBounds(v, lo);
    const [, , max, maxIn] = slotBounds(v, hi);
    if (v.axis === 'date' && v.daysAgo) return daysAgoWords(v, clock, min, minIn, max, maxIn);
    const show = (x: number) => (v.axis === 'date' ? epochDayToIso(x) : formatNumber(x));
    const words =
      min === max
        ? `${v.code} = ${show(min)}`
        : [
            min !== -Infinity ? `${v.code} ${minIn ? '≥' : '>'} ${show(min)}` : '',
            max !== Infinity
              ? `${min !== -Infinity ? '' : `${v.code} `}${maxIn ? '≤' : '<'} ${show(max)}`
              : '',
          ]
            .filter(Boolean)
            .join(' and ');
    const asBound = (x: number) => (v.axis === 'date' ? epochDayToIso(x) : x);
    return {
      param: v.code,
      axis: v.axis,
      words,
      ...(min !== -Infinity ? { min: asBound(min), min_inclusive: minIn } : {}),
      ...(max !== Infinity ? { max: asBound(max), max_inclusive: maxIn } : {}),
    };
  }
  const values = orders.map((o) => known.find((s) => s.order === o)!.value);
  const others = values.filter((x) => typeof x === 'string' && x.startsWith('something else'));
  const named = values.filter((x) => !others.includes(x));
  if (others.length > 0) {
    const excluded = known.map((s) => s.value).filter((x) => !values.includes(x));
    return {
      param: v.code,
      axis: v.axis === 'boolean' ? 'boolean' : 'value',
      words: `${v.code} none of ${excluded.map(shown).join(', ')}`,
      none_of: excluded,
    };
  }
  return {
    param: v.code,
    axis: v.axis === 'boolean' ? 'boolean' : 'value',
    words:
      named.length === 1
        ? `${v.code} = ${shown(named[0])}`
        : `${v.code} one of ${named.map(shown).join(', ')}`,
    one_of: named,
  };
}

/** A region given as the slots each unit may take (merged regions take several). */
export function regionWords(
  units: Unit[],
  picks: number[][],
  clock: Clock,
  sample: (v: Variable) => unknown,
): Region {
  const parts: RegionPart[] = [];
  const relations: string[] = [];
  units.forEach((u, i) => {
    const chosen = picks[i]!.map((c) => u.choices[c]!);
    if (u.presence) {
      if (chosen.length === u.choices.length) return;
      for (const c of chosen.slice(0, 1)) {
        const missing = c.slots.findIndex((s) => s.order === -1);
        u.variables.forEach((v, j) => {
          if (missing === -1 || j < missing)
            parts.push({ param: v.code, axis: 'known', words: `${v.code} known` });
          else if (j === missing)
            parts.push({ param: v.code, axis: 'known', words: `${v.code} not known`, unknown: true });
        });
      }
      return;
    }
    u.variables.forEach((v, j) => {
      const orders = [...new Set(chosen.map((c) => c.slots[j]!.order))];
      const all = slotsOf(v, sample);
      if (orders.length === all.length) return; // any value, known or not
      if (orders.includes(-1) && orders.length > 1) {
        // Known in some slots, unknown too: name the known part and say "or not known".
        const part = partOf(
          v,
          orders.filter((o) => o !== -1),
          all,
          clock,
        );
        const also = v.fromProfile ? 'or as the user profile gives it' : 'or not known';
        if (part)
          parts.push({
            ...part,
            words: `${part.words} ${also}`,
            ...(v.fromProfile ? {} : { or_unknown: true }),
          });
        return;
      }
      const part = partOf(v, orders, all, clock);
      if (part) parts.push(part);
    });
    if (chosen.length === 1 && chosen[0]!.relation) relations.push(chosen[0]!.relation);
  });
  const words = [...parts.map((p) => p.words), ...relations].join(', ') || 'every value';
  return { words, parts };
}
