/** Word-level extractors: enum values, yes/no answers, and confirmation or refusal of a pending action. */
import { codeWords, stem, tokenize } from '../text';

/** The enum value whose words all appear in the message (the longest wins), or undefined. */
export function matchEnum(
  values: unknown[] | undefined,
  messageStems: Set<string>,
): string | number | undefined {
  let best: { value: string | number; size: number } | undefined;
  for (const v of values ?? []) {
    if (typeof v !== 'string' && typeof v !== 'number') continue;
    const words = tokenize(codeWords(String(v))).map(stem);
    if (words.length === 0 || !words.every((w) => messageStems.has(w))) continue;
    if (!best || words.length > best.size) best = { value: v, size: words.length };
  }
  return best?.value;
}

const YES = new Set([
  'yes',
  'yeah',
  'yep',
  'yup',
  'sure',
  'ok',
  'okay',
  'confirm',
  'confirmed',
  'correct',
  'right',
  'absolutely',
  'definitely',
  'proceed',
  'agreed',
  'affirmative',
  'true',
  'y',
]);
const NO = new Set([
  'no',
  'nope',
  'nah',
  'cancel',
  'stop',
  'abort',
  'never',
  'wrong',
  'negative',
  'false',
  'n',
  'dont',
  'decline',
]);
const YES_PHRASES = ['go ahead', 'do it', 'please do', 'sounds good', 'that is right', "that's right"];
const NO_PHRASES = ['do not', "don't", 'not now', 'not yet', 'never mind', 'nevermind', 'hold on', 'wait'];

function phraseIn(text: string, phrases: string[]): boolean {
  return phrases.some((p) =>
    new RegExp(`(?<![\\p{L}])${p.replace(/'/g, "['’]")}(?![\\p{L}])`, 'u').test(text),
  );
}

/** A yes or no answer; refusal wins when both appear ("no, don't"). */
export function detectYesNo(text: string): boolean | undefined {
  const lower = text.toLowerCase();
  const words = tokenize(lower);
  if (phraseIn(lower, NO_PHRASES) || words.some((w) => NO.has(w))) return false;
  if (phraseIn(lower, YES_PHRASES) || words.some((w) => YES.has(w))) return true;
  return undefined;
}

export type Confirmation = 'confirm' | 'deny';

export function detectConfirmation(text: string): Confirmation | null {
  const yn = detectYesNo(text);
  return yn === undefined ? null : yn ? 'confirm' : 'deny';
}
