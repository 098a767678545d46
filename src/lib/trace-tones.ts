/**
 * How trace values are shown: a label and a tone per decision and rule result. The value lists
 * are open-ended, so anything unknown is shown as it is, in the neutral tone.
 */
import { lookupTable } from './bundle/lookup';

export type Tone = 'neutral' | 'ok' | 'blocked' | 'confirm' | 'info' | 'muted' | 'error';

export interface Shown {
  label: string;
  tone: Tone;
}

const DECISIONS = lookupTable<Shown>({
  proceed: { label: 'proceed', tone: 'ok' },
  block_with_explanation: { label: 'blocked', tone: 'blocked' },
  blocked: { label: 'blocked', tone: 'blocked' },
  block: { label: 'blocked', tone: 'blocked' },
  request_confirmation: { label: 'needs confirmation', tone: 'confirm' },
  request_information: { label: 'needs information', tone: 'info' },
});

/**
 * The decisions a word names: every decision shown with that label ("blocked", "needs
 * confirmation", also written `needs_confirmation`), none for another word.
 */
export function decisionsLabelled(word: string): string[] {
  const label = word
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, ' ');
  return Object.keys(DECISIONS).filter((d) => DECISIONS[d]!.label === label);
}

export function showDecision(decision: string | undefined | null): Shown | null {
  if (!decision) return null;
  return DECISIONS[decision] ?? { label: decision, tone: 'neutral' };
}

const RESULTS = lookupTable<Tone>({
  allowed: 'ok',
  passed: 'ok',
  blocked: 'blocked',
  requires_confirmation: 'confirm',
  not_applicable: 'muted',
  /** The rule could not be evaluated (values of incompatible types): never allowed. */
  error: 'error',
});

export function resultTone(result: string | undefined | null): Tone {
  return (result && RESULTS[result]) || 'neutral';
}

/**
 * A missing-information check: the reference engine reports a tool's required parameters as the
 * rule `<TOOL>.params.required`, `blocked` while one is missing. It asks the user; it blocks nothing.
 */
function isMissingInformationCheck(rule: { rule_id?: unknown }): boolean {
  return typeof rule.rule_id === 'string' && rule.rule_id.endsWith('.params.required');
}

/**
 * A rule's tone, one meaning each: blocked, needs information (info), needs confirmation
 * (confirm), allowed (ok), not applicable (muted), could not be evaluated (error); anything else
 * (an unknown value) neutral, shown as it is. A `blocked` rule in a turn that asks for
 * information held the turn for a value it needs (a missing-information check, or a rule adding
 * a required parameter): a turn that anything blocked ends blocked, so it blocked nothing.
 */
export function ruleTone(rule: { rule_id?: unknown; result?: unknown }, decision?: string): Tone {
  const result = typeof rule.result === 'string' ? rule.result : '';
  if (result === 'blocked' && (isMissingInformationCheck(rule) || decision === 'request_information'))
    return 'info';
  return resultTone(result);
}

/** The words for a tone (rule results and decisions alike). */
export const TONE_LABEL: Record<Tone, string> = {
  blocked: 'blocked',
  info: 'needs information',
  confirm: 'needs confirmation',
  ok: 'allowed',
  muted: 'not applicable',
  neutral: 'other',
  error: 'error',
};

/** Severity order used to colour a group by its worst member. */
const SEVERITY: Record<Tone, number> = {
  error: 6,
  blocked: 5,
  confirm: 4,
  info: 3,
  neutral: 2,
  ok: 1,
  muted: 0,
};

/** The rules of a trace that could not be evaluated (result `error`). */
export function brokenRules(rules: readonly { rule_id: string; result: string }[] | undefined): string[] {
  return (rules ?? []).filter((r) => r.result === 'error').map((r) => r.rule_id || '(unnamed rule)');
}

export function worstTone(tones: Tone[]): Tone {
  return tones.reduce<Tone>((w, t) => (SEVERITY[t] > SEVERITY[w] ? t : w), 'muted');
}
