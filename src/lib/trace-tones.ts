/**
 * How trace values are shown: a label and a tone per decision and rule result. The value lists
 * are open-ended, so anything unknown is shown as it is, in the neutral tone.
 */
export type Tone = 'neutral' | 'ok' | 'blocked' | 'confirm' | 'info' | 'muted' | 'error';

export interface Shown {
  label: string;
  tone: Tone;
}

const DECISIONS: Record<string, Shown> = {
  proceed: { label: 'proceed', tone: 'ok' },
  block_with_explanation: { label: 'blocked', tone: 'blocked' },
  blocked: { label: 'blocked', tone: 'blocked' },
  block: { label: 'blocked', tone: 'blocked' },
  request_confirmation: { label: 'needs confirmation', tone: 'confirm' },
  request_information: { label: 'needs information', tone: 'info' },
};

export function showDecision(decision: string | undefined | null): Shown | null {
  if (!decision) return null;
  return DECISIONS[decision] ?? { label: decision, tone: 'neutral' };
}

const RESULTS: Record<string, Tone> = {
  allowed: 'ok',
  passed: 'ok',
  blocked: 'blocked',
  requires_confirmation: 'confirm',
  not_applicable: 'muted',
  /** The rule could not be evaluated (values of incompatible types): never allowed. */
  error: 'error',
};

export function resultTone(result: string | undefined | null): Tone {
  return (result && RESULTS[result]) || 'neutral';
}

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
