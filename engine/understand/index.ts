/**
 * Understanding: the deterministic lexical parser that stands in for the deployed runtime's
 * language model. It finds typed mentions in the message (quoted text, emails, phones, ids
 * shaped like examples, dates, money, numbers, enum words, yes/no) and assigns each to at most
 * one parameter the user may supply, preferring the parameters just asked for, then those of the
 * tool in play, and using the words around a mention to pick between parameters of one type.
 */
import type { Parameter } from '../../src/contract/bundle';
import { toEpochDay, type Clock } from '../clock';
import { codeWords, contentStems, isStopWord, stem, tokenize } from '../text';
import type { CompiledBundle, Values } from '../types';
import { findEmails, findPhones, looksLikeEmail, looksLikePhone } from './contacts';
import { findDates } from './dates';
import { durationIn, findDurations } from './durations';
import { findIds, idMatcher, usableExamples, type IdMatcher } from './ids';
import { findMoney, findNumbers } from './numbers';
import { findQuoted, type Found } from './quoted';
import { MaskedText } from './spans';
import { newValues } from '../values';
import { spend } from '../../src/lib/bundle/work-budget';
import { detectYesNo, matchEnum } from './words';

export interface UnderstandContext {
  /** Parameters asked for in the previous reply. */
  expected: string[];
  /** Parameters of the tool in play (pending or chosen), preferred over the rest. */
  preferred: string[];
  /** Parameters the user already gave in the conversation: a word like "now" does not replace them. */
  given?: readonly string[];
}

/** A date the message says is not the one ("April 3, not April 4"). */
const NEGATED = /\bnot\s+(?:on\s+|the\s+)?$/i;
/** Words of a date parameter that holds the end of a range ("end-date", "check-out", "return"). */
const END_WORDS = ['end', 'last', 'until', 'return', 'leav', 'departur'];

/** Words that say a message corrects an earlier value ("make that 15 April instead"). */
const CORRECTION = /\b(?:instead|actually|rather|change|correct(?:ion)?|make\s+(?:it|that)|no\s+wait)\b/i;

/** The longest message read; the rest is ignored (keeps a turn fast on huge input). */
const MAX_MESSAGE_CHARS = 4000;
const MAX_FREE_TEXT = 500;
const MONEY_WORDS = new Set([
  'amount',
  'fee',
  'price',
  'cost',
  'charg',
  'total',
  'paid',
  'pay',
  'refund',
  'balanc',
  'sum',
  'money',
  'dollar',
]);

const PHONE_WORDS = new Set(['phone', 'telephone', 'mobile', 'cell', 'tel', 'call'].map(stem));

interface ParamInfo {
  param: Parameter;
  code: string;
  rank: number;
  words: Set<string>;
  ids: IdMatcher | null;
  email: boolean;
  phone: boolean;
  moneyish: boolean;
}

const infoCache = new WeakMap<Parameter, Omit<ParamInfo, 'rank'>>();

function infoOf(param: Parameter): Omit<ParamInfo, 'rank'> {
  const hit = infoCache.get(param);
  if (hit) return hit;
  const examples = usableExamples(param.examples);
  const email = examples.length > 0 && examples.every(looksLikeEmail);
  const words = new Set(
    contentStems(
      `${codeWords(param.code)} ${typeof param.description === 'string' ? param.description : ''}`,
    ),
  );
  // Digits with dashes are as often an order number as a phone: the examples are read as phones
  // only when they are written like one (+country, parentheses) or the parameter says so.
  const phone =
    examples.length > 0 &&
    !email &&
    examples.every(looksLikePhone) &&
    (examples.some((e) => /^\s*\+|\(/.test(e)) || [...words].some((w) => PHONE_WORDS.has(w)));
  const info = {
    param,
    code: param.code,
    words,
    ids: email || phone ? null : idMatcher(examples),
    email,
    phone,
    moneyish: [...words].some((w) => MONEY_WORDS.has(w)),
  };
  infoCache.set(param, info);
  return info;
}

function contextScore(p: ParamInfo, masked: MaskedText, span: Found<unknown>): number {
  const near = [...masked.wordsBefore(span), ...masked.wordsAfter(span)]
    .filter((w) => !isStopWord(w))
    .map(stem);
  return near.filter((w) => p.words.has(w)).length;
}

/**
 * Picks the parameter for a mention among candidates: the expected ones first, then the best
 * context score (ties: preferred first, then bundle order). `needContext` demands either an
 * expected parameter or at least one context word.
 */
function pick(
  cands: ParamInfo[],
  masked: MaskedText,
  span: Found<unknown>,
  needContext: boolean,
  soleFallback: boolean,
): ParamInfo | undefined {
  if (cands.length === 0) return undefined;
  let best: ParamInfo | undefined;
  let bestScore = -1;
  for (const c of cands) {
    const score = (c.rank === 0 ? 100 : 0) + contextScore(c, masked, span) * 10 + (c.rank === 1 ? 1 : 0);
    if (score > bestScore) {
      best = c;
      bestScore = score;
    }
  }
  if (!needContext || bestScore >= 10) return best;
  if (soleFallback) {
    const preferred = cands.filter((c) => c.rank <= 1);
    if (preferred.length === 1) return preferred[0];
    if (preferred.length === 0 && cands.length === 1) return cands[0];
  }
  return undefined;
}

export interface Understanding {
  values: Values;
}

export function understand(
  compiled: CompiledBundle,
  rawText: string,
  clock: Clock,
  ctx: UnderstandContext,
): Understanding {
  const text = rawText.length > MAX_MESSAGE_CHARS ? rawText.slice(0, MAX_MESSAGE_CHARS) : rawText;
  const masked = new MaskedText(text);
  const values = newValues();
  const expected = new Set(ctx.expected);
  const preferred = new Set(ctx.preferred);
  const params: ParamInfo[] = compiled.inputParams.map((p) => ({
    ...infoOf(p),
    rank: expected.has(p.code) ? 0 : preferred.has(p.code) ? 1 : 2,
  }));
  const open = (pred: (p: ParamInfo) => boolean) => {
    spend(params.length);
    return params.filter((p) => !(p.code in values) && pred(p));
  };
  const assign = (p: ParamInfo | undefined, f: Found<unknown>, value: unknown = f.value) => {
    if (!p) return false;
    values[p.code] = value;
    masked.consume(f);
    return true;
  };

  // Quoted text → a string parameter.
  for (const q of findQuoted(masked.text)) {
    assign(
      pick(
        open((p) => p.param.type === 'string' && !p.email && !p.phone),
        masked,
        q,
        true,
        true,
      ),
      q,
    );
  }
  // Emails → parameters whose examples look like them.
  for (const e of findEmails(masked.text))
    assign(
      pick(
        open((p) => p.email),
        masked,
        e,
        false,
        false,
      ),
      e,
    );
  // Ids shaped like a parameter's examples, before any generic pattern (phone, number) may claim
  // their digits. Digits-only shapes look like amounts too: they need to have been asked for or a
  // word of the parameter nearby.
  for (const p of [...params].sort((a, b) => a.rank - b.rank)) {
    if (!p.ids || p.code in values) continue;
    const hit = findIds(masked.text, p.ids).find(
      (f) => !p.ids!.digitsOnly || p.rank === 0 || contextScore(p, masked, f) > 0,
    );
    if (hit) assign(p, hit);
  }
  // Phones → parameters whose examples look like them.
  if (params.some((p) => p.phone))
    for (const ph of findPhones(masked.text))
      assign(
        pick(
          open((p) => p.phone),
          masked,
          ph,
          false,
          false,
        ),
        ph,
      );
  // Durations ("for 6 days", "a 2-week pass"): quantities, read before dates so that no length of
  // time is taken for a date counted from the clock.
  for (const d of findDurations(masked.text)) {
    const fits = open((p) => p.param.type === 'numeric').filter(
      (p) => durationIn(d.value, p.words) !== undefined,
    );
    const target = pick(fits, masked, d, false, false);
    if (target) assign(target, d, durationIn(d.value, target.words));
    else masked.consume(d);
  }
  // Dates: each fills at most one parameter. While the tool in play has a date parameter, a date
  // goes to another tool's only with a word of that parameter nearby. "now" / "today" fill a date
  // only when it was asked for or named nearby, and never replace a date the user gave unless the
  // message corrects it.
  const toolHasDate = params.some((p) => p.rank <= 1 && p.param.type === 'date');
  const given = new Set(ctx.given ?? []);
  const corrects = CORRECTION.test(text);
  const dates = findDates(masked.text, clock);
  const negated = (d: (typeof dates)[number]) =>
    NEGATED.test(masked.text.slice(Math.max(0, d.start - 12), d.start));
  const affirmed = dates.filter((d) => !negated(d)).length;
  for (const d of dates) {
    // "April 3, not April 4": the date said not to be the one is left out.
    if (affirmed > 0 && negated(d)) {
      masked.consume(d);
      continue;
    }
    const cands = open(
      (p) => p.param.type === 'date' && (!toolHasDate || p.rank <= 1 || contextScore(p, masked, d) > 0),
    );
    let filled = false;
    if (!d.casual) filled = assign(pick(cands, masked, d, true, true), d);
    else {
      const target = pick(cands, masked, d, true, false);
      if (target && (!given.has(target.code) || corrects)) filled = assign(target, d);
    }
    // A range's first day goes to a date parameter that is not the end of one, when no word says which.
    if (!filled && d.last !== undefined && !d.casual)
      filled = assign(
        [...cands].sort((a, b) => a.rank - b.rank).find((p) => !END_WORDS.some((w) => p.words.has(w))),
        d,
      );
    // "It was April 3, not April 4": a date no word places, in a message that corrects (with the
    // usual words or by saying which date is not the one), replaces the one date the user gave.
    if (!filled && !d.casual && (corrects || affirmed < dates.length)) {
      const givenDates = cands.filter((p) => given.has(p.code));
      if (givenDates.length === 1) filled = assign(givenDates[0], d);
    }
    if (filled && d.last !== undefined) readRangeEnd(d.value, d.last);
  }
  /**
   * A range's end and length: its last day fills a date parameter of the end ("end-date",
   * "check-out") still open; its length a numeric parameter counting nights (the days between) or
   * days (both ends included) still open.
   */
  function readRangeEnd(first: string, last: string) {
    const byRank = (list: ParamInfo[]) => [...list].sort((a, b) => a.rank - b.rank)[0];
    const end = byRank(open((p) => p.param.type === 'date' && END_WORDS.some((w) => p.words.has(w))));
    if (end) values[end.code] = last;
    const length = byRank(
      open((p) => p.param.type === 'numeric' && (p.words.has('night') || p.words.has('day'))),
    );
    if (length) {
      const between = (toEpochDay(last) ?? 0) - (toEpochDay(first) ?? 0);
      values[length.code] = length.words.has('night') ? between : between + 1;
    }
  }

  // Money, then plain numbers.
  for (const m of findMoney(masked.text)) {
    const numeric = open((p) => p.param.type === 'numeric');
    const target =
      pick(numeric, masked, m, true, false) ??
      pick(
        numeric.filter((p) => p.moneyish),
        masked,
        m,
        true,
        true,
      ) ??
      pick(numeric, masked, m, true, true);
    assign(target, m);
  }
  for (const n of findNumbers(masked.text))
    assign(
      pick(
        open((p) => p.param.type === 'numeric'),
        masked,
        n,
        true,
        false,
      ),
      n,
    );
  // Enum words.
  const stems = new Set(tokenize(masked.text).map(stem));
  for (const p of open((q) => q.param.type === 'enum')) {
    const v = matchEnum(p.param.values, stems);
    if (v !== undefined) values[p.code] = v;
  }
  // Yes / no for an expected boolean.
  for (const p of open((q) => q.param.type === 'boolean' && q.rank === 0)) {
    const yn = detectYesNo(masked.text);
    if (yn !== undefined) values[p.code] = yn;
  }
  // A free-text answer to an expected string question.
  const free = open((p) => p.param.type === 'string' && p.rank === 0 && !p.ids && !p.email && !p.phone)[0];
  const remaining = masked.text.trim();
  if (
    free &&
    Object.keys(values).length === 0 &&
    remaining.length > 0 &&
    detectYesNo(remaining) === undefined
  ) {
    values[free.code] = text.trim().slice(0, MAX_FREE_TEXT);
  }
  return { values };
}
