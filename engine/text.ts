/** Word handling shared by understanding and tool choice: tokens, light stemming, stop words. */

const STOP_WORDS = new Set(
  (
    'a an the and or but if then so to of in on at by for with from about into over after before up down out ' +
    'i me my mine we us our you your yours he him his she her it its they them their this that these those ' +
    'is am are was were be been being do does did doing have has had having will would shall should can could may might must ' +
    'what which who whom whose when where why how all any both each few more most other some such no nor not only own same ' +
    'than too very just also please want wants wanted like need needs needed help hi hello hey thanks thank ok okay get got ' +
    'there here as s t d ll m re ve let lets im'
  ).split(' '),
);

/** Lower-case word tokens (letters and digits of any script). */
export function tokenize(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** A light suffix-stripping stem: "disputing", "disputed", "disputes" → "disput". */
export function stem(word: string): string {
  let w = word.toLowerCase();
  if (w.length > 5 && w.endsWith('ing')) w = w.slice(0, -3);
  else if (w.length > 4 && w.endsWith('ied')) w = `${w.slice(0, -3)}y`;
  else if (w.length > 4 && w.endsWith('ed')) w = w.slice(0, -2);
  else if (w.length > 4 && w.endsWith('ies')) w = `${w.slice(0, -3)}y`;
  else if (w.length > 4 && /(sh|ch|x|ss|z)es$/.test(w)) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) w = w.slice(0, -1);
  if (w.length > 4 && w.endsWith('e')) w = w.slice(0, -1);
  if (w.length > 4 && w.endsWith('ll')) w = w.slice(0, -1);
  return w;
}

export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word);
}

/** Distinct stems of the content words of a text, in order of first appearance. */
export function contentStems(text: string): string[] {
  const seen = new Set<string>();
  for (const t of tokenize(text)) {
    if (STOP_WORDS.has(t)) continue;
    seen.add(stem(t));
  }
  return [...seen];
}

/** "contact-email" → "contact email". */
export function codeWords(code: string): string {
  return code.replace(/[-_]+/g, ' ').trim().toLowerCase();
}
