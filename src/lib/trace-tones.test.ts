import { describe, expect, it } from 'vitest';
import { brokenRules, resultTone, ruleTone, showDecision, worstTone } from './trace-tones';

describe('trace tones', () => {
  it('names the known decisions and shows unknown ones as they are', () => {
    expect(showDecision('proceed')).toEqual({ label: 'proceed', tone: 'ok' });
    expect(showDecision('block_with_explanation')).toEqual({ label: 'blocked', tone: 'blocked' });
    expect(showDecision('request_confirmation')?.label).toBe('needs confirmation');
    expect(showDecision('request_information')?.label).toBe('needs information');
    expect(showDecision('escalate_to_human')).toEqual({ label: 'escalate_to_human', tone: 'neutral' });
    expect(showDecision('')).toBeNull();
  });
  it('colours rule results, unknown ones neutral', () => {
    expect(resultTone('allowed')).toBe('ok');
    expect(resultTone('blocked')).toBe('blocked');
    expect(resultTone('requires_confirmation')).toBe('confirm');
    expect(resultTone('not_applicable')).toBe('muted');
    expect(resultTone('weird')).toBe('neutral');
  });
  it('shows a rule that held a turn asking for information as needing information, not as a block', () => {
    const addsIban = { rule_id: 'IBAN_FOR_BANK_TRANSFER', result: 'blocked' };
    expect(ruleTone(addsIban, 'request_information')).toBe('info');
    expect(ruleTone(addsIban, 'block_with_explanation')).toBe('blocked');
    expect(ruleTone({ rule_id: 'RETURN_ITEM.params.required', result: 'blocked' })).toBe('info');
    expect(ruleTone(addsIban)).toBe('blocked');
  });
  it('shows a rule that could not be evaluated in its own tone, worse than blocked', () => {
    expect(resultTone('error')).toBe('error');
    expect(worstTone(['blocked', 'error', 'ok'])).toBe('error');
    expect(
      brokenRules([
        { rule_id: 'A', result: 'allowed' },
        { rule_id: 'DISPUTE_WINDOW', result: 'error' },
      ]),
    ).toEqual(['DISPUTE_WINDOW']);
  });
  it('picks the worst tone of a group', () => {
    expect(worstTone(['ok', 'blocked', 'confirm'])).toBe('blocked');
    expect(worstTone(['ok', 'muted'])).toBe('ok');
    expect(worstTone([])).toBe('muted');
  });
});
