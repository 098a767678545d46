/** A message whose already-understood parts are blanked out, so no two extractors read the same words. */
export interface Span {
  start: number;
  end: number;
}

export class MaskedText {
  private readonly chars: string[];
  /** `text` as last put together, until a span is consumed. */
  private joined: string | null;
  constructor(readonly original: string) {
    // UTF-16 units, so offsets agree with RegExp indices.
    this.chars = original.split('');
    this.joined = original;
  }
  /** The text with consumed spans replaced by spaces (same length and offsets as the original). */
  get text(): string {
    return (this.joined ??= this.chars.join(''));
  }
  consume(span: Span): void {
    for (let i = Math.max(0, span.start); i < Math.min(this.chars.length, span.end); i++) this.chars[i] = ' ';
    this.joined = null;
  }
  /** Words just before a span (up to `n`), lower-case, for context scoring. */
  wordsBefore(span: Span, n = 4): string[] {
    const before =
      this.original
        .slice(Math.max(0, span.start - 60), span.start)
        .toLowerCase()
        .match(/[\p{L}\p{N}]+/gu) ?? [];
    return before.slice(-n);
  }
  wordsAfter(span: Span, n = 2): string[] {
    const after =
      this.original
        .slice(span.end, span.end + 40)
        .toLowerCase()
        .match(/[\p{L}\p{N}]+/gu) ?? [];
    return after.slice(0, n);
  }
}
