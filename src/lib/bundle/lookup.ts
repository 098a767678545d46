/**
 * A read-only table looked up with strings that come from input (a rule's method, a trace's
 * decision). It has no prototype, so a key such as `toString` or `__proto__` finds nothing
 * instead of an inherited member.
 */
export function lookupTable<T>(entries: Record<string, T>): Readonly<Record<string, T | undefined>> {
  return Object.freeze(Object.assign(Object.create(null) as Record<string, T>, entries));
}
