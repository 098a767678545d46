/**
 * How long a value's JSON would be, counted without writing it and given up once past a limit,
 * so that checking a huge trace costs at most the limit (every value counted adds at least one
 * character). Strings count their length (escapes would only add), shared parts count each time
 * they would be written.
 */
export function jsonLengthOver(value: unknown, limit: number): boolean {
  return jsonLength(value, limit) > limit;
}

/** About how long `value`'s JSON is (at least), counted up to just past `limit`. */
export function jsonLength(value: unknown, limit: number): number {
  let length = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') length += v.length + 2;
    else if (Array.isArray(v)) {
      length += 2 + v.length;
      if (length > limit) return length;
      for (const item of v) stack.push(item);
    } else if (v !== null && typeof v === 'object') {
      const record = v as Record<string, unknown>;
      const keys = Object.keys(record);
      length += 2 + keys.length;
      if (length > limit) return length;
      for (const key of keys) {
        length += key.length + 3;
        stack.push(record[key]);
      }
    } else length += 4;
    if (length > limit) return length;
  }
  return length;
}
