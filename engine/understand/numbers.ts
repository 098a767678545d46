/** Money ("$120", "120 dollars", "USD 75.50") and plain numbers ("3", "1,200.5"). */
import type { Found } from './quoted';

const AMOUNT = String.raw`(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?`;
const MONEY_BEFORE = new RegExp(
  String.raw`(?:[$€£]|\b(?:usd|eur|gbp)\s?)\s?${AMOUNT}(?![A-Za-z0-9]|[.,]\d)`,
  'gi',
);
const MONEY_AFTER = new RegExp(
  String.raw`(?<![\w.,])${AMOUNT}\s?(?:dollars?|bucks|usd|euros?|eur|pounds?|gbp)\b`,
  'gi',
);
const NUMBER = /(?<![\p{L}\p{N}.,-])-?(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?(?![\p{L}\p{N}]|[.,]\d)/gu;

function toNumber(intPart: string, frac: string | undefined): number {
  return Number(`${intPart.replace(/,/g, '')}${frac ? `.${frac}` : ''}`);
}

export function findMoney(text: string): Found<number>[] {
  const out: Found<number>[] = [];
  for (const re of [MONEY_BEFORE, MONEY_AFTER]) {
    for (const m of text.matchAll(re)) {
      const n = toNumber(m[1]!, m[2]);
      if (Number.isFinite(n)) out.push({ start: m.index, end: m.index + m[0].length, value: n });
    }
  }
  return out.sort((a, b) => a.start - b.start).filter((f, i, all) => i === 0 || f.start >= all[i - 1]!.end);
}

export function findNumbers(text: string): Found<number>[] {
  const out: Found<number>[] = [];
  for (const m of text.matchAll(NUMBER)) {
    const n = toNumber(m[1]!, m[2]) * (m[0].startsWith('-') ? -1 : 1);
    if (Number.isFinite(n)) out.push({ start: m.index, end: m.index + m[0].length, value: n });
  }
  return out;
}
