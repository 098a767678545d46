/** Golden conversations with the card-disputes agent (clock: 2025-03-15). */
import { describe, expect, it } from 'vitest';
import { calls, converse, exampleBundle, ruleResults } from './converse';

const CLOCK = '2025-03-15T10:00:00Z';
const DEMO = 'I want to dispute a charge of $120 at Coffee Corner from 10 days ago';

describe('card-disputes, active version (8-day window)', () => {
  it('blocks a 10-day-old charge with the dispute-window policy', () => {
    const out = converse(exampleBundle('card-disputes'), CLOCK).say(DEMO);
    expect(out.trace.intent).toBe('dispute_charge');
    expect(out.trace.decision).toBe('block_with_explanation');
    expect(out.trace.understanding?.extracted_params).toEqual({
      'merchant-name': 'Coffee Corner',
      'transaction-date': '2025-03-05',
      'transaction-amount': 120,
    });
    const window = out.trace.rules_evaluated.find((r) => r.rule_id === 'DISPUTE_WINDOW')!;
    expect(window).toMatchObject({
      rule_type: 'policy',
      predicate: 'days_since(transaction-date) > 8',
      result: 'blocked',
    });
    expect(window.reason).toContain('is 10');
    expect(out.reply).toContain('within 8 days');
    expect(out.trace.tools_invoked).toEqual([]);
  });

  it('lets the same message through once the window is edited to 30 days in the bundle', () => {
    const bundle = JSON.parse(JSON.stringify(exampleBundle('card-disputes'))) as ReturnType<
      typeof exampleBundle
    >;
    const rule = bundle.agent_tools!.find((t) => t.code === 'DISPUTE_CHARGE')!.rules!.pre!.constraint![0]!;
    (rule.when as { value: number }).value = 30;
    const out = converse(bundle, CLOCK).say(DEMO);
    expect(out.trace.decision).toBe('request_information');
    expect(ruleResults(out).DISPUTE_WINDOW).toBe('allowed');
  });

  it('blocks a dispute above $500 on an unverified identity (authentication)', () => {
    const out = converse(exampleBundle('card-disputes'), CLOCK).say('dispute a $620 charge from yesterday');
    expect(out.trace.decision).toBe('block_with_explanation');
    const auth = out.trace.rules_evaluated.find((r) => r.rule_id === 'VERIFIED_IDENTITY_ABOVE_500')!;
    expect(auth).toMatchObject({ rule_type: 'authentication', result: 'blocked' });
    expect(auth.reason).toContain('620');
    expect(auth.reason).toContain('user-profile.identity-verified is false');
  });

  it('freezes the card first for an unauthorized charge (sequencing), then asks for contact details', () => {
    const c = converse(exampleBundle('card-disputes'), CLOCK);
    const out = c.say('Please dispute an unauthorized $45 charge from 2 days ago');
    expect(out.trace.decision).toBe('request_information');
    expect(ruleResults(out).FREEZE_BEFORE_FRAUD_DISPUTE).toBe('allowed');
    expect(
      out.trace.rules_evaluated.find((r) => r.rule_id === 'FREEZE_BEFORE_FRAUD_DISPUTE')!.rule_type,
    ).toBe('sequencing');
    expect(calls(out)).toEqual(['FREEZE_CARD/freeze-card-api:success']);
    expect(out.reply).toMatch(/froze your card ending in 4242.*email address or a phone number/);
    expect(out.trace.entities['user-profile.card-status']).toBe('frozen');
  });

  it('a refusal at the confirmation step files nothing', () => {
    const c = converse(exampleBundle('card-disputes'), CLOCK);
    c.say('dispute a $30 charge from yesterday, wrong amount, email me at sam@example.org');
    const out = c.say('No, cancel');
    expect(out.trace.intent).toBe('deny');
    expect(out.trace.decision).toBe('block_with_explanation');
    expect(ruleResults(out)['DISPUTE_CHARGE.requires_confirmation']).toBe('blocked');
    expect(out.trace.tools_invoked).toEqual([]);
  });

  it('lists transactions and answers general questions', () => {
    const c = converse(exampleBundle('card-disputes'), CLOCK);
    const list = c.say('show me my recent transactions');
    expect(list.trace.intent).toBe('list_transactions');
    expect(list.trace.decision).toBe('proceed');
    expect(calls(list)).toEqual(['LIST_TRANSACTIONS/transactions-api:success']);
    expect(list.reply).toContain('Coffee Corner');
    const hi = c.say('hello there');
    expect(hi.trace.intent).toBe('general_question');
    expect(hi.trace.decision).toBe('proceed');
    expect(hi.suggestions).toEqual(['Dispute a charge', 'Freeze my card', 'List recent transactions']);
  });
});

describe('card-disputes, v1 (30-day window): missing information → supplied → confirmation → proceed', () => {
  const c = converse(exampleBundle('card-disputes', { version_tag: 'v1' }), CLOCK);

  it('asks for the reason first', () => {
    const out = c.say(DEMO);
    expect(out.trace.intent).toBe('dispute_charge');
    expect(out.trace.decision).toBe('request_information');
    expect(ruleResults(out)).toMatchObject({
      VERIFIED_IDENTITY_ABOVE_500: 'allowed',
      DISPUTE_WINDOW: 'allowed',
      FREEZE_BEFORE_FRAUD_DISPUTE: 'not_applicable',
      'DISPUTE_CHARGE.params.required': 'blocked',
    });
    expect(out.reply).toContain('reason for the dispute');
    expect(out.suggestions).toContain('duplicate charge');
  });

  it('then for a contact (the OR-group, asked by the missing-info rule)', () => {
    const out = c.say('It was a duplicate charge');
    expect(out.trace.intent).toBe('provide_information');
    expect(out.trace.parameters_extracted).toEqual(['dispute-reason']);
    expect(out.trace.decision).toBe('request_information');
    expect(ruleResults(out).ASK_CONTACT).toBe('allowed');
    expect(out.reply).toContain('email address or a phone number');
  });

  it('then restates the values and asks for confirmation', () => {
    const out = c.say('jane@example.com');
    expect(out.trace.decision).toBe('request_confirmation');
    expect(ruleResults(out)['DISPUTE_CHARGE.requires_confirmation']).toBe('requires_confirmation');
    expect(out.reply).toContain('contact email: jane@example.com');
    expect(out.suggestions).toEqual(['Yes, go ahead', 'No, cancel']);
  });

  it('files the dispute once confirmed', () => {
    const out = c.say('yes, go ahead');
    expect(out.trace.intent).toBe('confirm');
    expect(out.trace.decision).toBe('proceed');
    expect(ruleResults(out)['DISPUTE_CHARGE.requires_confirmation']).toBe('allowed');
    expect(calls(out)).toEqual(['DISPUTE_CHARGE/file-dispute-api:success']);
    expect(out.trace.tools_invoked[0]!.parameters).toMatchObject({
      'transaction-amount': 120,
      'contact-email': 'jane@example.com',
    });
    expect(out.reply).toContain('DSP-20417');
    expect(out.trace.entities['dispute.dispute-id']).toBe('DSP-20417');
  });
});
