import { describe, expect, it } from 'vitest';
import { describeLength, LONG_REPLY_CHARS, PREVIEW_CHARS, replyPreview } from './reply-preview';

describe('replyPreview', () => {
  it('shows short replies whole', () => {
    expect(replyPreview('x'.repeat(LONG_REPLY_CHARS))).toBeNull();
  });

  it('cuts a long reply at a line break near the preview length', () => {
    const text = `${'a'.repeat(1500)}\n${'b'.repeat(2000)}\n${'c'.repeat(LONG_REPLY_CHARS)}`;
    expect(replyPreview(text)).toBe('a'.repeat(1500));
  });

  it('cuts a long reply without line breaks at the preview length', () => {
    expect(replyPreview('z'.repeat(1_000_000))).toHaveLength(PREVIEW_CHARS);
  });

  it('describes lengths in words', () => {
    expect(describeLength(12345)).toBe('12,345 characters');
    expect(describeLength(1_048_576)).toBe('1.0 million characters');
  });
});
