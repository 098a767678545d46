/** The Messaging API's length limit on a message, in words a user can act on. Pure. */
import { MESSAGE_MAX_CHARS } from '../contract/api';

export { MESSAGE_MAX_CHARS };

/** "20,431 / 20,000 characters". */
export function lengthCount(length: number): string {
  return `${length.toLocaleString('en-US')} / ${MESSAGE_MAX_CHARS.toLocaleString('en-US')} characters`;
}

/** Why this text cannot be sent as a message; null when its length is within the limit. */
export function messageTooLong(text: string): string | null {
  return text.length > MESSAGE_MAX_CHARS
    ? `${lengthCount(text.length)}: the service refuses longer messages. Shorten it to send it.`
    : null;
}
