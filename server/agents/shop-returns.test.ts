/** Golden conversations with the shop-returns agent (clock: 2025-03-15). */
import { describe, expect, it } from 'vitest';
import { validateBundle } from '../../src/lib/bundle/validate';
import { calls, converse, exampleBundle, ruleResults } from './converse';

const CLOCK = '2025-03-15T10:00:00Z';
const agent = () => exampleBundle('shop-returns');
const rule = (out: ReturnType<ReturnType<typeof converse>['say']>, id: string) =>
  out.trace.rules_evaluated.find((r) => r.rule_id === id)!;

describe('shop-returns: a return refunded by bank transfer, step by step', () => {
  const c = converse(agent(), CLOCK);

  it('looks the order up first (settings.tools), then asks for the reason', () => {
    const out = c.say('I would like to return the jacket from order NW-482913');
    expect(out.trace.intent).toBe('return_item');
    expect(out.trace.decision).toBe('request_information');
    expect(rule(out, 'LOOK_UP_ORDER_FIRST')).toMatchObject({ rule_type: 'sequencing', result: 'allowed' });
    expect(rule(out, 'LOOK_UP_ORDER_FIRST').reason).toContain('LOOK_UP_ORDER ran first');
    expect(calls(out)).toEqual(['LOOK_UP_ORDER/order-api:success']);
    // request fields built from request_schema
    expect(out.trace.tools_invoked[0]!.parameters).toEqual({ orderNumber: 'NW-482913' });
    expect(ruleResults(out)).toMatchObject({ RETURN_WINDOW: 'allowed', FINAL_SALE: 'allowed' });
    // the order, its line item and its shipment, nested
    expect(out.trace.entities).toMatchObject({
      'order.order-total': 89.9,
      'order.days-since-delivery': 10,
      'order.line-item.item-name': 'Trail Jacket',
      'order.line-item.shipment.parcel-number': '1Z999AA10123456784',
      'shopper.account-verified': false,
    });
    expect(out.trace.value_sources).toMatchObject({
      'order-number': 'integration:order-api',
      'account-verified': 'profile:shopper-profile-api',
      'order-total': 'integration:order-api',
    });
    expect(out.reply).toContain('Why are you returning it');
  });

  it('then for the refund method', () => {
    const out = c.say('It was the wrong size');
    expect(out.trace.intent).toBe('provide_information');
    expect(out.trace.parameters_extracted).toEqual(['return-reason']);
    expect(out.reply).toContain('How would you like your refund');
  });

  it('a bank transfer makes the IBAN required; the label contact is asked first (OR-group)', () => {
    const out = c.say('Bank transfer please');
    expect(ruleResults(out).IBAN_FOR_BANK_TRANSFER).toBe('blocked');
    expect(rule(out, 'IBAN_FOR_BANK_TRANSFER').reason).toContain('iban required and not given yet');
    expect(rule(out, 'RETURN_ITEM.params.required').predicate).toContain('filled(iban)');
    expect(ruleResults(out).ASK_LABEL_CONTACT).toBe('allowed');
    expect(out.reply).toContain('email address or a phone number');
  });

  it('then for the IBAN', () => {
    const out = c.say('ada@example.com');
    expect(out.trace.decision).toBe('request_information');
    expect(out.reply).toContain('IBAN');
  });

  it('reads the IBAN written in groups and restates the refund for confirmation', () => {
    const out = c.say('DE89 3704 0044 0532 0130 00');
    expect(out.trace.parameters_extracted).toEqual(['iban']);
    expect(out.trace.decision).toBe('request_confirmation');
    expect(rule(out, 'REFUND_CONFIRMATION')).toMatchObject({
      rule_type: 'confirmation',
      result: 'requires_confirmation',
    });
    expect(out.reply).toBe(
      "I'll create the return for Trail Jacket (order NW-482913, wrong size) and refund $89.9 by bank transfer (restocking fee $0). Shall I go ahead?",
    );
    expect(out.suggestions).toEqual(['Yes, go ahead', 'No, cancel']);
  });

  it('creates the return once confirmed, with the request built from request_schema', () => {
    const out = c.say('yes');
    expect(out.trace.intent).toBe('confirm');
    expect(out.trace.decision).toBe('proceed');
    expect(calls(out)).toEqual(['RETURN_ITEM/create-return-api:success']);
    const call = out.trace.tools_invoked[0]!;
    expect(call.parameters).toEqual({
      orderNumber: 'NW-482913',
      reason: 'wrong size',
      refund: {
        'refund-method': 'bank transfer',
        'refund-amount': 89.9,
        iban: 'DE89 3704 0044 0532 0130 00',
      },
      restockingFee: 0,
      contact: { 'contact-email': 'ada@example.com' },
      source: 'chat',
    });
    expect(call.not_run).toEqual(['response_parser (a JS snippet: never executed by the reference engine)']);
    expect(out.trace.entities['return.return-id']).toBe('RMA-60412');
    expect(out.reply).toContain('return RMA-60412 is created');
  });
});

describe('shop-returns: policies', () => {
  it('blocks a return 54 days after delivery (30-day window)', () => {
    const out = converse(agent(), CLOCK).say('I would like to return order NW-100245, I changed my mind');
    expect(out.trace.decision).toBe('block_with_explanation');
    expect(rule(out, 'RETURN_WINDOW')).toMatchObject({
      rule_type: 'policy',
      predicate: 'days-since-delivery > 30',
      result: 'blocked',
    });
    expect(out.reply).toContain('was delivered 54 days ago');
  });

  it('lets the same return through with the holiday version (60 days)', () => {
    const out = converse(exampleBundle('shop-returns', { version_tag: 'v2' }), CLOCK).say(
      'I would like to return order NW-100245, I changed my mind',
    );
    expect(ruleResults(out).RETURN_WINDOW).toBe('allowed');
    expect(out.trace.decision).toBe('request_information');
  });

  it('blocks a final-sale item', () => {
    const out = converse(agent(), CLOCK).say('return order NW-777001 please');
    expect(out.trace.decision).toBe('block_with_explanation');
    expect(ruleResults(out).FINAL_SALE).toBe('blocked');
    expect(out.reply).toContain('Clearance Socks was sold as final sale');
  });

  it('blocks a refund above $300 on an unverified account (authentication)', () => {
    const out = converse(agent(), CLOCK).say(
      'I want to return order NW-555210, it arrived damaged, refund to the original payment',
    );
    expect(out.trace.decision).toBe('block_with_explanation');
    expect(rule(out, 'VERIFIED_ACCOUNT_ABOVE_300')).toMatchObject({
      rule_type: 'authentication',
      result: 'blocked',
    });
    expect(rule(out, 'VERIFIED_ACCOUNT_ABOVE_300').reason).toContain('refund-amount is 420');
  });

  it('charges a 10% restocking fee when the customer changed their mind (computed refund)', () => {
    const c = converse(agent(), CLOCK);
    const out = c.say(
      'return the jacket from order NW-482913, I changed my mind, store credit, email ada@example.com',
    );
    expect(out.trace.decision).toBe('request_confirmation');
    expect(out.trace.entities).toMatchObject({
      'return.restocking-fee': 8.99,
      'return.refund-amount': 80.91,
    });
    expect(c.say('yes').trace.tools_invoked[0]!.parameters).toMatchObject({
      refund: { 'refund-method': 'store credit', 'refund-amount': 80.91 },
      restockingFee: 8.99,
    });
  });

  it('an order still in transit is blocked and handed to parcel tracking (settings.tools, by name)', () => {
    const c = converse(agent(), CLOCK);
    const out = c.say('I want to return order NW-300118');
    expect(out.trace.decision).toBe('block_with_explanation');
    expect(ruleResults(out).NOT_DELIVERED_YET).toBe('blocked');
    expect(out.reply).toContain("hasn't been delivered yet");
    const next = c.say('+1 555 010 0199');
    expect(next.trace.intent).toBe('provide_information');
    expect(next.trace.decision).toBe('proceed');
    expect(calls(next)).toEqual(['TRACK_PARCEL/tracking-api:success']);
    expect(next.trace.tools_invoked[0]!.parameters).toEqual({
      trackingNumber: '1Z999AA10130011800',
      notify: { 'contact-phone': '+1 555 010 0199' },
    });
    // legacy mapping: a category of groups whose base path finds the parcel by its number
    expect(next.reply).toBe(
      "Parcel 1Z999AA10130011800: In transit: left the Memphis hub (expected 2025-03-18). We'll send updates as it moves.",
    );
  });
});

describe('shop-returns: extraction trusts the bundle', () => {
  it('a bare parcel number is the parcel number, not a phone: the agent still asks where to write', () => {
    const c = converse(agent(), CLOCK);
    expect(c.say('Where is my parcel?').reply).toContain("parcel's tracking number");
    const out = c.say('1Z999AA10123456784');
    expect(out.trace.understanding?.extracted_params).toEqual({ 'parcel-number': '1Z999AA10123456784' });
    expect(out.trace.decision).toBe('request_information');
    expect(ruleResults(out).ASK_UPDATES_CONTACT).toBe('allowed');
    const done = c.say('ada@example.com');
    expect(done.trace.decision).toBe('proceed');
    expect(done.reply).toContain('Delivered to the front door');
  });

  it('an unknown order is not found, without erasing the number the customer typed', () => {
    const out = converse(agent(), CLOCK).say('show me order NW-999999');
    expect(calls(out)).toEqual(['LOOK_UP_ORDER/order-api:not_found']);
    expect(out.reply).toBe(
      "I couldn't find order NW-999999. Please check the number on your confirmation email.",
    );
  });
});

it('both versions validate without any issue', () => {
  for (const v of ['v1', 'v2'])
    expect(validateBundle(exampleBundle('shop-returns', { version_tag: v }))).toEqual([]);
});
