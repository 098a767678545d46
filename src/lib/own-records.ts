/**
 * Records keyed by names people choose (agent ids, task ids): only a record's own entries are
 * read, so an id such as `constructor`, `toString` or `__proto__` is a key like any other, never
 * a member every object inherits. Updated copies have no prototype at all.
 */

/** The value stored under `key`, or undefined (never an inherited member). */
export function ownValue<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/** A copy of `record` with `key` set to `value`. */
export function withEntry<T>(record: Readonly<Record<string, T>>, key: string, value: T): Record<string, T> {
  const copy = Object.assign(Object.create(null) as Record<string, T>, record);
  Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true });
  return copy;
}

/** A copy of `record` without `key` (the record itself when it has no such entry). */
export function withoutEntry<T>(
  record: Readonly<Record<string, T>>,
  key: string,
): Readonly<Record<string, T>> {
  if (!Object.hasOwn(record, key)) return record;
  const copy = Object.assign(Object.create(null) as Record<string, T>, record);
  delete copy[key];
  return copy;
}

/** An empty record with no prototype. */
export function emptyRecord<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

/**
 * A stored or received object read back as a record with no prototype: its own entries whose value
 * `keep` accepts (storage is outside this code's control), nothing inherited. Anything but a plain
 * object reads as an empty record.
 */
export function ownRecord<T>(value: unknown, keep: (v: unknown) => v is T): Record<string, T> {
  const out = emptyRecord<T>();
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return out;
  for (const [key, v] of Object.entries(value)) {
    if (keep(v))
      Object.defineProperty(out, key, { value: v, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

export const isString = (v: unknown): v is string => typeof v === 'string';
