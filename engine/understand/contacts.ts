/** Email addresses and phone numbers. */
import type { Found } from './quoted';

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;
/**
 * A phone number starts and ends at a word boundary (never inside an id such as a parcel number),
 * and its body is capped in length, so a long run of digits costs linear time.
 */
const PHONE =
  /(?<![\p{L}\p{N}+])(?:\+\d{1,3}[\s.-]?)?(?:\(\d{1,4}\)[\s.-]?)?\d[\d\s.-]{5,22}\d(?![\p{L}\p{N}])/gu;
const DATE_LIKE = /^\d{4}[-./]\d{1,2}[-./]\d{1,2}$|^\d{1,2}[-./]\d{1,2}[-./]\d{2,4}$/;

export function looksLikeEmail(s: string): boolean {
  return /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(s.trim());
}

export function looksLikePhone(s: string): boolean {
  const digits = s.replace(/\D/g, '');
  return /^[+\d\s().-]+$/.test(s.trim()) && digits.length >= 7 && digits.length <= 15;
}

export function findEmails(text: string): Found<string>[] {
  return [...text.matchAll(EMAIL)].map((m) => ({ start: m.index, end: m.index + m[0].length, value: m[0] }));
}

/** Phone numbers: 7 to 15 digits, optionally with +country, spaces, dots, dashes, parentheses. */
export function findPhones(text: string): Found<string>[] {
  const out: Found<string>[] = [];
  for (const m of text.matchAll(PHONE)) {
    const raw = m[0].trim();
    const digits = raw.replace(/\D/g, '');
    if (digits.length < 7 || digits.length > 15 || DATE_LIKE.test(raw)) continue;
    out.push({ start: m.index, end: m.index + m[0].length, value: raw.replace(/\s+/g, ' ') });
  }
  return out;
}
