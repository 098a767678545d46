import { describe, expect, it } from 'vitest';
import type { Bundle } from '../../src/contract/bundle';
import { converse } from '../../server/agents/converse';
import { parseClock } from '../clock';
import { compileBundle } from '../compile';
import { understand } from './index';
import { detectConfirmation } from './words';

const bundle: Bundle = {
  parameters: [
    { code: 'transaction-date', type: 'date', description: 'Date of the transaction' },
    { code: 'transaction-amount', type: 'numeric', description: 'Amount of the charge' },
    { code: 'guests', type: 'numeric', description: 'Number of guests' },
    { code: 'reason', type: 'enum', values: ['duplicate charge', 'wrong amount', 'fraud'] },
    { code: 'booking-reference', type: 'string', examples: ['ABC123'] },
    { code: 'transaction-id', type: 'string', examples: ['TX-1042'] },
    { code: 'email', type: 'string', examples: ['jane@example.com'] },
    { code: 'phone', type: 'string', examples: ['+1 555 010 0199'] },
    { code: 'note', type: 'string' },
    { code: 'vip', type: 'boolean' },
    { code: 'status', type: 'enum', usage: 'output', values: ['active'] },
  ],
};
const compiled = compileBundle(bundle);
const clock = parseClock('2025-03-15T10:00:00Z');
const read = (text: string, expected: string[] = [], preferred: string[] = []) =>
  understand(compiled, text, clock, { expected, preferred }).values;

describe('understanding', () => {
  it('reads money, relative dates and enum words', () => {
    expect(read('dispute the $1,250.50 charge from 3 days ago, it was a duplicate charge')).toEqual({
      'transaction-date': '2025-03-12',
      'transaction-amount': 1250.5,
      reason: 'duplicate charge',
    });
  });

  it('reads absolute dates against the clock year', () => {
    expect(read('the charge on March 3')).toEqual({ 'transaction-date': '2025-03-03' });
    expect(read('it was 2025-01-31')).toEqual({ 'transaction-date': '2025-01-31' });
  });

  it('reads ids shaped like the examples, emails and phones', () => {
    expect(read('booking xyz789 and transaction TX-2210')).toEqual({
      'booking-reference': 'XYZ789',
      'transaction-id': 'TX-2210',
    });
    expect(read('reach me at sam.lee@mail.example.org or +44 20 7946 0958')).toEqual({
      email: 'sam.lee@mail.example.org',
      phone: '+44 20 7946 0958',
    });
  });

  it('uses the words around a number to pick its parameter', () => {
    expect(read('we are 4 guests')).toEqual({ guests: 4 });
    expect(read('I have 2 questions')).toEqual({});
  });

  it('gives a bare answer to the parameter just asked for', () => {
    expect(read('3', ['guests'])).toEqual({ guests: 3 });
    expect(read('yes', ['vip'])).toEqual({ vip: true });
    expect(read('please call me after lunch', ['note'])).toEqual({ note: 'please call me after lunch' });
  });

  it('reads quoted text into a string parameter named nearby', () => {
    expect(read('add the note "leave at the door"')).toEqual({ note: 'leave at the door' });
  });

  it('never extracts output parameters', () => {
    expect(read('the card is active')).toEqual({});
  });

  it('detects confirmation and refusal, refusal first', () => {
    expect(detectConfirmation('Yes, go ahead')).toBe('confirm');
    expect(detectConfirmation('sure thing')).toBe('confirm');
    expect(detectConfirmation('No, cancel')).toBe('deny');
    expect(detectConfirmation("ok, actually don't")).toBe('deny');
    expect(detectConfirmation('what is the fee?')).toBeNull();
  });
});

describe('understanding trusts the bundle: ids shaped like the examples come before generic patterns', () => {
  const shop = compileBundle({
    parameters: [
      { code: 'parcel-number', type: 'string', examples: ['1Z999AA10123456784'] },
      {
        code: 'order-number',
        type: 'string',
        description: 'Order number',
        examples: ['112-4455667-1234567'],
      },
      { code: 'store-order', type: 'string', description: 'Store order number', examples: ['40021387'] },
      {
        code: 'iban',
        type: 'string',
        description: 'Account for the refund',
        examples: ['DE89 3704 0044 0532 0130 00'],
      },
      { code: 'booking-reference', type: 'string', examples: ['QX7P2M'] },
      { code: 'contact-email', type: 'string', examples: ['jane@example.com'] },
      { code: 'contact-phone', type: 'string', examples: ['+1 555 010 0199'] },
      { code: 'refund-amount', type: 'numeric', description: 'Refund amount' },
    ],
  });
  const readShop = (text: string, expected: string[] = []) =>
    understand(shop, text, clock, { expected, preferred: [] }).values;

  it('a message that is exactly an example id goes to its parameter, not to the phone', () => {
    expect(readShop('1Z999AA10123456784')).toEqual({ 'parcel-number': '1Z999AA10123456784' });
    expect(readShop('1Z999AA10123456784', ['contact-email', 'contact-phone'])).toEqual({
      'parcel-number': '1Z999AA10123456784',
    });
  });

  it('ids and phones in one message each find their parameter', () => {
    expect(readShop('parcel 1Z999AA10123456784 never came, call me on +1 555 010 0199')).toEqual({
      'parcel-number': '1Z999AA10123456784',
      'contact-phone': '+1 555 010 0199',
    });
    expect(readShop('order 112-4455667-1234567, my number is 555-010-0199')).toEqual({
      'order-number': '112-4455667-1234567',
      'contact-phone': '555-010-0199',
    });
  });

  it('reads IBANs written in groups, and booking references', () => {
    expect(readShop('refund it to DE89 3704 0044 0532 0130 00 please')).toEqual({
      iban: 'DE89 3704 0044 0532 0130 00',
    });
    expect(readShop('my booking is qx7p2m')).toEqual({ 'booking-reference': 'QX7P2M' });
  });

  it('a digits-only id needs a telling word or a question; otherwise it is not an amount or a phone', () => {
    expect(readShop('store order 40021387 arrived broken')).toEqual({ 'store-order': '40021387' });
    expect(readShop('40021387', ['store-order'])).toEqual({ 'store-order': '40021387' });
  });

  it('generic patterns respect word boundaries', () => {
    // no phone inside an id that no parameter claims, and no amount glued to letters
    expect(readShop('ticket ZZ10123456784X, refund $40', [])).toEqual({ 'refund-amount': 40 });
    expect(readShop('code AB5550100199 please')).toEqual({});
  });
});

describe('a tool triggered by an id the message is exactly', () => {
  it('activates: the id is read as the id, not as a phone', () => {
    const out = converse(
      {
        parameters: [
          { code: 'parcel-number', type: 'string', usage: 'input', examples: ['1Z999AA10123456784'] },
          { code: 'contact-phone', type: 'string', usage: 'input', examples: ['+1 555 010 0199'] },
        ],
        agent_tools: [
          {
            code: 'TRACK_PARCEL',
            name: 'Track a parcel',
            main_tool: true,
            config: {
              triggers: {
                when: {
                  method: 'param_extracted_current',
                  params: ['parcel-number'],
                  operation: 'is_not_empty',
                },
              },
              params: { required: ['parcel-number'] },
            },
          },
        ],
      },
      '2025-03-15T10:00:00Z',
    ).say('1Z999AA10123456784');
    expect(out.trace.intent).toBe('track_parcel');
    expect(out.trace.understanding?.extracted_params).toEqual({ 'parcel-number': '1Z999AA10123456784' });
    expect(out.trace.decision).toBe('proceed');
  });
});
