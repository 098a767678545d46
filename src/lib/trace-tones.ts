/**
 * How trace values are shown: a label and a tone per decision and rule result. The value lists
 * are open-ended, so anything unknown is shown as it is, in the neutral tone.
 */
import { lookupTable } from './lookup';

export type Tone = 'neutral' | 'ok' | 'blocked' | 'confirm' | 'info' | 'muted';

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
});

export function resultTone(result: string | undefined | null): Tone {
  return (result && RESULTS[result]) || 'neutral';
}

/** Severity order used to colour a group by its worst member. */
const SEVERITY: Record<Tone, number> = { blocked: 5, confirm: 4, info: 3, neutral: 2, ok: 1, muted: 0 };

export function worstTone(tones: Tone[]): Tone {
  return tones.reduce<Tone>((w, t) => (SEVERITY[t] > SEVERITY[w] ? t : w), 'muted');
}
