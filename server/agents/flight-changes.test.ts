/** Golden conversations with the flight-changes agent (clock: 2025-03-15, a Saturday). */
import { describe, expect, it } from 'vitest';
import { calls, converse, exampleBundle, ruleResults } from './converse';

const CLOCK = '2025-03-15T10:00:00Z';

describe('flight-changes: change a flight (lookup first, fee confirmed)', () => {
  const c = converse(exampleBundle('flight-changes'), CLOCK);

  it('activates the booking lookup first and asks for the reference', () => {
    const out = c.say('I need to change my flight');
    expect(out.trace.intent).toBe('change_flight');
    expect(out.trace.decision).toBe('request_information');
    const seq = out.trace.rules_evaluated.find((r) => r.rule_id === 'LOOKUP_BEFORE_CHANGE')!;
    expect(seq).toMatchObject({ rule_type: 'sequencing', result: 'blocked' });
    expect(out.reply).toContain('booking reference');
    expect(out.suggestions).toEqual(['ABC123']);
  });

  it('looks the booking up, resumes the change and asks for the new date', () => {
    const out = c.say('ABC123');
    expect(out.trace.intent).toBe('provide_information');
    expect(out.trace.decision).toBe('request_information');
    expect(calls(out)).toEqual(['LOOKUP_BOOKING/booking-api:success']);
    expect(out.trace.entities['booking.fare-class']).toBe('Economy');
    expect(out.trace.entities['booking.change-fee']).toBe(150);
    expect(out.reply).toMatch(/found booking ABC123.*Which date/);
  });

  it('asks to confirm the fare class change fee', () => {
    const out = c.say('next friday');
    expect(out.trace.understanding?.extracted_params).toEqual({ 'new-date': '2025-03-21' });
    expect(out.trace.decision).toBe('request_confirmation');
    const fee = out.trace.rules_evaluated.find((r) => r.rule_id === 'FEE_CONFIRMATION')!;
    expect(fee).toMatchObject({
      rule_type: 'confirmation',
      predicate: 'change-fee > 0',
      result: 'requires_confirmation',
    });
    expect(out.reply).toContain('$150 change fee');
  });

  it('changes the flight once confirmed', () => {
    const out = c.say('yes');
    expect(out.trace.intent).toBe('confirm');
    expect(out.trace.decision).toBe('proceed');
    expect(ruleResults(out).FEE_CONFIRMATION).toBe('allowed');
    expect(calls(out)).toEqual(['CHANGE_FLIGHT/change-flight-api:success']);
    expect(out.trace.tools_invoked[0]!.parameters).toEqual({
      'booking-reference': 'ABC123',
      'new-date': '2025-03-21',
      'change-fee': 150,
    });
  });
});

describe('flight-changes: fees by fare class and version', () => {
  it('a Business booking changes without a fee or confirmation', () => {
    const out = converse(exampleBundle('flight-changes'), CLOCK).say('please move booking XYZ789 to April 2');
    expect(out.trace.decision).toBe('proceed');
    expect(ruleResults(out).FEE_CONFIRMATION).toBe('allowed');
    expect(calls(out)).toEqual([
      'LOOKUP_BOOKING/booking-api:success',
      'CHANGE_FLIGHT/change-flight-api:success',
    ]);
    expect(out.reply).toContain('Change fee charged: $0');
  });

  it('the launch-fees version charges $200 for Economy', () => {
    const out = converse(exampleBundle('flight-changes', { version_tag: 'v1' }), CLOCK).say(
      'change booking ABC123 to next friday',
    );
    expect(out.trace.decision).toBe('request_confirmation');
    expect(out.reply).toContain('$200 change fee');
  });
});

describe('flight-changes: cancelling (Business class and Platinum Elite only)', () => {
  it('blocks an Economy booking by policy and a Gold member by authentication', () => {
    const out = converse(exampleBundle('flight-changes'), CLOCK).say('cancel my flight ABC123');
    expect(out.trace.intent).toBe('cancel_flight');
    expect(out.trace.decision).toBe('block_with_explanation');
    expect(out.trace.rules_evaluated.find((r) => r.rule_id === 'CANCEL_BUSINESS_ONLY')).toMatchObject({
      rule_type: 'policy',
      result: 'blocked',
    });
    expect(out.trace.rules_evaluated.find((r) => r.rule_id === 'CANCEL_PLATINUM_ONLY')).toMatchObject({
      rule_type: 'authentication',
      result: 'blocked',
    });
    expect(out.reply).toContain('Only Business class');
  });

  it('blocks a Business booking of a Silver member by authentication only', () => {
    const out = converse(exampleBundle('flight-changes'), CLOCK).say('cancel booking BIZ314');
    expect(ruleResults(out)).toMatchObject({
      CANCEL_BUSINESS_ONLY: 'allowed',
      CANCEL_PLATINUM_ONLY: 'blocked',
    });
    expect(out.reply).toContain('your status is Silver');
  });

  it('cancels a Platinum Elite Business booking after confirmation', () => {
    const c = converse(exampleBundle('flight-changes'), CLOCK);
    const ask = c.say('cancel my flight XYZ789');
    expect(ask.trace.decision).toBe('request_confirmation');
    const done = c.say('yes please');
    expect(done.trace.decision).toBe('proceed');
    expect(calls(done)).toEqual(['CANCEL_FLIGHT/cancel-booking-api:success']);
    expect(done.reply).toContain('RF-5521');
  });

  it('refuses to change a cancelled booking (policy)', () => {
    const out = converse(exampleBundle('flight-changes'), CLOCK).say('change booking OLD999 to May 3');
    expect(out.trace.decision).toBe('block_with_explanation');
    expect(ruleResults(out).NO_CHANGE_WHEN_CANCELLED).toBe('blocked');
    expect(calls(out)).toEqual(['LOOKUP_BOOKING/booking-api:success']);
  });

  it('reports an unknown booking reference through the fail summary (the tool has no summary.missing_info)', () => {
    const out = converse(exampleBundle('flight-changes'), CLOCK).say('look up booking QQQ111');
    expect(out.trace.intent).toBe('lookup_booking');
    expect(calls(out)).toEqual(['LOOKUP_BOOKING/booking-api:not_found']);
    expect(ruleResults(out).BOOKING_NOT_FOUND).toBe('allowed');
    expect(out.reply).toContain("couldn't find a booking with reference QQQ111");
  });
});
