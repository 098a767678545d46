/**
 * What changed between two bundles, one line per change, in words: "DISPUTE_WINDOW: window
 * 8 → 30 days", "rule LATE_FEE added", "parameter transaction-date: type date → string".
 * Items of a list are matched by their name (`code`, `id`, `rule_id`, `name`), so a reordered
 * list is no change and a renamed item is one removed and one added. Pure and bounded: the walk
 * visits each value of both bundles once, to a fixed depth, and the lines are capped.
 */

export interface BundleChangeSummary {
  /** The first changes, in document order. */
  lines: string[];
  /** Changes beyond the cap, not listed. */
  more: number;
}

const MAX_LINES = 12;
const MAX_DEPTH = 24;
const MAX_VALUE = 32;
const NAME_KEYS = ['code', 'id', 'rule_id', 'name'] as const;

type Json = unknown;
const isObject = (v: Json): v is Record<string, Json> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The name an item of a list goes by, when it has one. */
function nameOf(v: Json): string | undefined {
  if (!isObject(v)) return undefined;
  for (const k of NAME_KEYS) if (typeof v[k] === 'string' && v[k]) return v[k];
  return undefined;
}

/** A value as a short text: numbers and short strings as they are, the rest by kind. */
function show(v: Json): string {
  if (v === undefined) return 'absent';
  if (typeof v === 'string') return v.length <= MAX_VALUE ? `"${v}"` : `"${v.slice(0, MAX_VALUE - 1)}…"`;
  if (typeof v === 'number' || typeof v === 'boolean' || v === null) return String(v);
  if (Array.isArray(v)) return `a list of ${v.length}`;
  return 'an object';
}

/** The noun for an item of a list under `key` ("rules" → "rule"). */
function singular(key: string | undefined): string {
  if (!key) return 'item';
  if (key.endsWith('ies')) return `${key.slice(0, -3)}y`;
  return key.endsWith('s') ? key.slice(0, -1) : key;
}

interface Place {
  /** The nearest named item ("DISPUTE_WINDOW"), with the noun of its list. */
  owner: string | undefined;
  /** The path from that item (or the root) to the value, as keys. */
  path: string[];
}

function labelOf(place: Place): string {
  const path = place.path.join('.');
  if (place.owner && path) return `${place.owner}: ${path}`;
  return place.owner ?? (path || 'the bundle');
}

/**
 * A changed number under a day-counting condition ("more_than_x_days") reads as the window it
 * sets; any other value as its path.
 */
function describeValueChange(place: Place, parent: Json, a: Json, b: Json): string {
  const key = place.path.at(-1);
  const operation = isObject(parent) ? parent.operation : undefined;
  if (key === 'value' && typeof operation === 'string' && /_x_days$/.test(operation)) {
    return `${place.owner ?? labelOf({ ...place, path: place.path.slice(0, -1) })}: window ${show(a)} → ${show(b)} days`;
  }
  if (typeof a === 'string' && typeof b === 'string' && (a.length > MAX_VALUE || b.length > MAX_VALUE))
    return `${labelOf(place)} reworded`;
  return `${labelOf(place)}${place.owner && place.path.length ? ' ' : ': '}${show(a)} → ${show(b)}`;
}

export function summarizeBundleChanges(before: Json, after: Json): BundleChangeSummary {
  const lines: string[] = [];
  let total = 0;
  const add = (line: string) => {
    total += 1;
    if (lines.length < MAX_LINES) lines.push(line);
  };

  const walk = (a: Json, b: Json, place: Place, parentA: Json, depth: number): void => {
    if (a === b) return;
    if (depth > MAX_DEPTH) {
      if (JSON.stringify(a) !== JSON.stringify(b)) add(`${labelOf(place)} changed`);
      return;
    }
    if (isObject(a) && isObject(b)) {
      for (const k of Object.keys(a)) {
        if (!(k in b)) add(`${labelOf({ ...place, path: [...place.path, k] })} removed`);
        else walk(a[k], b[k], { ...place, path: [...place.path, k] }, a, depth + 1);
      }
      for (const k of Object.keys(b))
        if (!(k in a)) add(`${labelOf({ ...place, path: [...place.path, k] })} added (${show(b[k])})`);
      return;
    }
    if (Array.isArray(a) && Array.isArray(b)) {
      walkList(a, b, place, depth);
      return;
    }
    // Primitives, or a change of kind.
    if (a !== b) add(describeValueChange(place, parentA, a, b));
  };

  const walkList = (a: Json[], b: Json[], place: Place, depth: number) => {
    const noun = singular(place.path.at(-1));
    const named = a.every((x) => nameOf(x) !== undefined) && b.every((x) => nameOf(x) !== undefined);
    if (!named) {
      if (a.length !== b.length) {
        add(`${labelOf(place)}: ${a.length} → ${b.length} items`);
        return;
      }
      a.forEach((x, i) => walk(x, b[i], { ...place, path: [...place.path, String(i)] }, a, depth + 1));
      return;
    }
    const inB = new Map(b.map((x) => [nameOf(x)!, x]));
    const inA = new Set(a.map((x) => nameOf(x)!));
    for (const x of a) {
      const name = nameOf(x)!;
      const y = inB.get(name);
      if (y === undefined) add(`${noun} ${name} removed`);
      else walk(x, y, { owner: name, path: [] }, a, depth + 1);
    }
    for (const y of b) if (!inA.has(nameOf(y)!)) add(`${noun} ${nameOf(y)!} added`);
  };

  walk(before, after, { owner: undefined, path: [] }, undefined, 0);
  return { lines, more: total - lines.length };
}

/** The summary as one line ("A; B; and 3 more"), or undefined when nothing changed. */
export function bundleChangeLine(before: Json, after: Json): string | undefined {
  const { lines, more } = summarizeBundleChanges(before, after);
  if (lines.length === 0) return undefined;
  return more > 0 ? `${lines.join('; ')}; and ${more} more` : lines.join('; ');
}
