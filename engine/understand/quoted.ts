/** Quoted text: "…", “…”, '…' (the quote marks are not part of the value). */
import type { Span } from './spans';

export interface Found<T> extends Span {
  value: T;
}

const QUOTED = /"([^"\n]{1,500})"|“([^”\n]{1,500})”|(?:^|[\s(])'([^'\n]{1,500})'(?=$|[\s).,!?;:])/g;

export function findQuoted(text: string): Found<string>[] {
  const out: Found<string>[] = [];
  for (const m of text.matchAll(QUOTED)) {
    const value = (m[1] ?? m[2] ?? m[3] ?? '').trim();
    if (!value) continue;
    const start = m.index + m[0].indexOf(m[1] ?? m[2] ?? m[3] ?? '') - 1;
    out.push({ start, end: start + (m[1] ?? m[2] ?? m[3] ?? '').length + 2, value });
  }
  return out;
}
