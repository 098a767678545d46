/**
 * What the bundle guide left unsaid and now states (docs/bundle/rules.md "What the order of a turn
 * decides", README.md's Conditions and Computations), one test per statement, on the guide's own
 * example bundles (`docs/bundle/examples/`).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Bundle, Rule, Tool } from '../src/contract/bundle';
import { validateBundle } from '../src/lib/bundle/validate';
import { calls, converse, ruleResults } from '../server/agents/converse';
import type { TurnOutput } from './contract';

const CLOCK = '2025-03-15T12:00:00Z';
const example = (name: string): Bundle =>
  JSON.parse(
    readFileSync(new URL(`../docs/bundle/examples/${name}.json`, import.meta.url), 'utf8'),
  ) as Bundle;
const toolOf = (b: Bundle, code: string): Tool => b.agent_tools!.find((t) => t.code === code)!;
const called = (out: TurnOutput) =>
  (out.trace.decisions ?? [])
    .filter((d) => d.type === 'call_integration')
    .map((d) => `${String(d.integration)}:${String(d.result)}`);
const evaluated = (out: TurnOutput) => out.trace.rules_evaluated.map((r) => r.rule_id);

describe('silences of the guide, stated', () => {
  it('later rules are not evaluated after a sub-tool waits; they are after a block', () => {
    const c = converse(example('hotel'), CLOCK);
    const waits = c.say('book a suite from next friday for 20 nights');
    expect(waits.trace.decision).toBe('request_information');
    expect(ruleResults(waits).SUITES_HOLD_CARD_FIRST).toBe('blocked');
    expect(evaluated(waits)).not.toContain('MAX_NIGHTS');
    expect(evaluated(waits)).not.toContain('BOOK_ROOM.params.required');
    // Resumed once the sub-tool is done: the rules after the activation are evaluated then.
    const resumed = c.say('4242');
    expect(ruleResults(resumed)).toMatchObject({ SUITES_HOLD_CARD_FIRST: 'allowed', MAX_NIGHTS: 'blocked' });

    // After a BLOCK, the tool's later rules are still evaluated and traced.
    const blocked = converse(example('hotel'), CLOCK).say(
      'book a standard room from next friday for 20 nights',
    );
    const order = evaluated(blocked);
    expect(order.indexOf('GOLD_WELCOME')).toBeGreaterThan(order.indexOf('MAX_NIGHTS'));
    expect(ruleResults(blocked)).toMatchObject({ MAX_NIGHTS: 'blocked', LONG_STAY_DEPOSIT: 'blocked' });
  });

  it('a global TEXT message also shows on a blocked turn, before the blocking message', () => {
    const out = converse(example('hotel'), CLOCK).say('book a standard room from next friday for 20 nights');
    expect(out.trace.decision).toBe('block_with_explanation');
    expect(out.reply).toBe(
      'Breakfast is included. As a gold member, your checkout is at 2 pm. Stays of more than 14 nights are booked by phone.',
    );
  });

  it('a global rule applied to every tool is said for each tool that runs, the sub-tool too', () => {
    const b = example('hotel');
    b.rules![0]!.applied_to = [];
    const out = converse(b, CLOCK).say('book a suite from next friday for 3 nights');
    expect(out.reply.split('Breakfast is included.').length - 1).toBe(2);
  });

  it('an API rule calls its integration on every turn its condition holds, and the thread keeps the answer', () => {
    const c = converse(example('claims'), CLOCK);
    const asked = c.say(
      'I want to file a claim on policy POL-123 for 400 dollars, it happened on 2025-03-10',
    );
    expect(called(asked)).toEqual(['policy-api:success']);
    expect(asked.trace.entities['policy-status']).toBe('active');
    expect(called(c.say('yes'))).toEqual(['policy-api:success', 'file-claim-api:success']);
    // Another tool: no lookup, and the answer is still the conversation's.
    const other = c.say('what is the status of claim CL-1001');
    expect(called(other)).toEqual(['claims-api:success']);
    expect(other.trace.entities['policy-status']).toBe('active');
    expect((other.trace as { value_sources?: Record<string, string> }).value_sources?.['policy-status']).toBe(
      'integration:policy-api',
    );
  });

  it("which missing parameter is asked first once a rule adds one: the tool's own, in order, then the added", () => {
    const c = converse(example('hotel'), CLOCK);
    const first = c.say('book a standard room for 10 nights');
    expect(ruleResults(first).LONG_STAY_DEPOSIT).toBe('blocked');
    expect(first.reply).toContain('When would you like to arrive?');
    expect(c.say('next friday').reply).toContain('Will you pay the deposit by card or by transfer?');
    expect(c.say('by card').trace.decision).toBe('request_confirmation');
  });

  it('is_empty and is_not_empty are decided on a value not given yet, never not_applicable', () => {
    const b = example('hotel');
    const out = converse(b, CLOCK).say('book a room from next friday for 2 nights');
    expect(ruleResults(out)).toMatchObject({
      ROOM_TYPE_QUESTION: 'allowed',
      SUITES_HOLD_CARD_FIRST: 'not_applicable',
    });
    expect(out.reply).toContain('Would you like a standard room or a suite with a sea view?');
    const notEmpty = example('hotel');
    const rule = toolOf(notEmpty, 'BOOK_ROOM').rules!.pre!.missing_info![0]!;
    rule.when = { method: 'param_value', params: 'room-type', operation: 'is_not_empty' };
    const decided = converse(notEmpty, CLOCK).say('book a room from next friday for 2 nights');
    expect(decided.trace.rules_evaluated.find((r) => r.rule_id === 'ROOM_TYPE_QUESTION')).toMatchObject({
      result: 'allowed',
      reason: expect.stringContaining('room-type is empty'),
    });
  });

  it('entity_param names an entity by its name, not its type', () => {
    const b = example('hotel');
    expect(validateBundle(b)).toEqual([]);
    const gold = converse(b, CLOCK).say('book a standard room from next friday for 2 nights');
    expect(gold.trace.rules_evaluated.find((r) => r.rule_id === 'GOLD_WELCOME')).toMatchObject({
      result: 'allowed',
      rule_type: 'authentication',
      predicate: 'guest.loyalty-tier = "gold"',
    });
    const byType = example('hotel');
    const rule = toolOf(byType, 'BOOK_ROOM').rules!.pre!.constraint!.find((r) => r.code === 'GOLD_WELCOME')!;
    rule.when = {
      method: 'entity_param',
      params: { entity: 'user-profile', param: 'loyalty-tier' },
      operation: 'eq',
      value: 'gold',
    };
    expect(validateBundle(byType)).toEqual([
      expect.objectContaining({
        code: 'unknown_entity',
        severity: 'error',
        loc: ['agent_tools', 0, 'rules', 'pre', 'constraint', 2, 'when', 'params', 'entity'],
      }),
    ]);
  });

  it('a computations entry also makes its parameter computed for its tools, whatever its usage', () => {
    const b = example('returns');
    b.parameters!.find((p) => p.code === 'refund')!.usage = 'input';
    const c = converse(b, CLOCK);
    const out = c.say('I want to return an item, I paid 120 dollars for it, and the refund is 200 dollars');
    // What the user said for it is replaced by the formula's value.
    expect(out.trace.entities.refund).toBe(108);
  });

  it('a confirmation rule takes the TEXT action: with BLOCK it blocks, with API it asks and calls nothing', () => {
    const claims = example('claims');
    const large = (action: string, extra: Record<string, unknown> = {}) => {
      const b = structuredClone(claims);
      const rule = toolOf(b, 'FILE_CLAIM').rules!.pre!.constraint!.find((r) => r.code === 'LARGE_CLAIM')!;
      rule.then = { ...rule.then, action, ...extra } as Rule['then'];
      return converse(b, CLOCK).say(
        'I want to file a claim on policy POL-123 for 40000 dollars, it happened on 2025-03-10',
      );
    };
    expect(ruleResults(large('TEXT')).LARGE_CLAIM).toBe('requires_confirmation');
    const blocking = large('BLOCK');
    expect(blocking.trace.decision).toBe('block_with_explanation');
    expect(ruleResults(blocking).LARGE_CLAIM).toBe('blocked');
    const api = large('API', {
      settings: { requires_confirmation: true, integration: 'claims-api' },
    });
    expect(ruleResults(api).LARGE_CLAIM).toBe('requires_confirmation');
    expect(called(api)).toEqual(['policy-api:success']);
    expect(calls(api)).toEqual([]);
  });
});
