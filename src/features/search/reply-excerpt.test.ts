import { describe, expect, it } from 'vitest';
import { queryWords, replyExcerpt } from './reply-excerpt';

const LIST =
  'Here are your recent transactions: $12.40 at Green Grocer on 2025-03-10, $120.00 at Coffee Corner on 2025-03-05, $64.99 at Book Nook on 2025-03-01. Which one would you like to dispute?';

describe('where a text search matched, when the message does not show it', () => {
  it('shows the reply around the first word found, cut at word boundaries', () => {
    const excerpt = replyExcerpt('show me my recent transactions', LIST, ['coffee'])!;
    expect(excerpt.startsWith('…') && excerpt.endsWith('…')).toBe(true);
    const shown = excerpt.slice(1, -1);
    const at = LIST.indexOf(shown);
    expect(at).toBeGreaterThan(0); // a part of the reply as it is
    expect(LIST[at - 1]).toBe(' '); // from the start of a word
    expect(LIST[at + shown.length]).toBe(' '); // to the end of one
    expect(shown.indexOf('Coffee')).toBeGreaterThan(0);
    expect(shown.indexOf('Coffee')).toBeLessThanOrEqual(40); // the word near its start
    expect(shown.length).toBeLessThanOrEqual(40 + 80);
    expect(replyExcerpt('list them', 'Coffee Corner, $120.', ['coffee'])).toBe('Coffee Corner, $120.');
  });

  it('says nothing when the message shows the word, in any case or form', () => {
    expect(replyExcerpt('A charge at COFFEE Corner', LIST, ['coffee'])).toBeNull();
    expect(replyExcerpt('two charges there', 'Your charge was filed.', ['charge'])).toBeNull();
  });

  it('finds the word by its stem, at the start of a word only', () => {
    expect(replyExcerpt('dispute it', 'The charges are listed.', ['charge'])).toBe('The charges are listed.');
    expect(replyExcerpt('dispute it', 'A surcharge applies.', ['charge'])).toBeNull();
  });

  it('says nothing without words, or when the reply holds none of them', () => {
    expect(replyExcerpt('show me', LIST, [])).toBeNull();
    expect(replyExcerpt('show me', LIST, ['zeppelin'])).toBeNull();
  });

  it('takes the earliest word of several, and reads words as text search splits them', () => {
    expect(queryWords('Coffee-Corner  jane@example.com')).toEqual([
      'coffee',
      'corner',
      'jane',
      'example',
      'com',
    ]);
    expect(replyExcerpt('show me', 'Book Nook, then Coffee Corner.', ['coffee', 'book'])).toBe(
      'Book Nook, then Coffee Corner.',
    );
  });
});
