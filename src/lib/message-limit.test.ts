import { describe, expect, it } from 'vitest';
import { lengthCount, MESSAGE_MAX_CHARS, messageTooLong } from './message-limit';

describe('message length limit', () => {
  it('counts characters against the limit, with separators', () => {
    expect(lengthCount(20_431)).toBe('20,431 / 20,000 characters');
  });
  it('refuses only what is over the limit', () => {
    expect(messageTooLong('a'.repeat(MESSAGE_MAX_CHARS))).toBeNull();
    expect(messageTooLong('a'.repeat(MESSAGE_MAX_CHARS + 431))).toBe(
      '20,431 / 20,000 characters: the service refuses longer messages. Shorten it to send it.',
    );
  });
});
