/**
 * Behaviour a user could not predict from the bundle guide, and what the engine does now, each
 * named after the hazard and stated in `docs/bundle/` (rules.md, README.md). Fixtures:
 * `fixtures/subtool-card-hold.json` (the starter with a card hold for suites) and
 * `fixtures/claims.json` (an insurer: a claim lookup, a policy lookup, filing with a policy lookup
 * on the way and two confirmations).
 */
import { describe, expect, it } from 'vitest';
import type { Bundle, Rule, Tool } from '../src/contract/bundle';
import { validateBundle } from '../src/lib/bundle/validate';
import { calls, converse, ruleResults } from '../server/agents/converse';
import type { TurnOutput } from './contract';
import { lintBundle } from './analysis';
import { engine } from './index';
import { fixture } from './fixtures/load.fixture';
import { turnIndexEntry, type IndexedTurn } from './turn-index-entry';

const CLOCK = '2025-03-15T12:00:00Z';
const SUITE = "I'd like to book a suite from next friday for 3 nights";
const FILE_LARGE = 'I want to file a claim on policy POL-123 for 40000 dollars, it happened on 2025-03-10';
const FILE_SMALL = 'I want to file a claim on policy POL-123 for 400 dollars, it happened on 2025-03-10';

const copy = (b: Bundle): Bundle => structuredClone(b);
const toolOf = (b: Bundle, code: string): Tool => b.agent_tools!.find((t) => t.code === code)!;
/** The integrations the turn called, each `integration:result`, whoever called them (the tool's action or a rule). */
const integrationsCalled = (out: TurnOutput) =>
  (out.trace.decisions ?? [])
    .filter((d) => d.type === 'call_integration')
    .map((d) => `${String(d.integration)}:${String(d.result)}`);

it('the fixtures validate without any issue', () => {
  expect(validateBundle(fixture('subtool-card-hold'))).toEqual([]);
  expect(validateBundle(fixture('claims'))).toEqual([]);
});

describe('hazard 1: a sub-tool that finished for a request is remembered for that request', () => {
  const hold = fixture('subtool-card-hold');

  it('the confirming "yes" does not call the card hold again nor repeat its message', () => {
    const c = converse(hold, CLOCK);
    const asked = c.say(SUITE);
    expect(asked.trace.decision).toBe('request_confirmation');
    expect(calls(asked)).toEqual(['HOLD_CARD/card-hold-api:success']);
    expect(asked.reply).toContain('We placed a hold H-77 on your card.');

    const yes = c.say('yes');
    expect(yes.trace.decision).toBe('proceed');
    expect(calls(yes)).toEqual(['BOOK_ROOM/booking-api:success']);
    expect(yes.reply).toBe('Booked! Your booking number is HB-1001.');
    const activation = yes.trace.rules_evaluated.find((r) => r.rule_id === 'SUITES_HOLD_CARD_FIRST')!;
    expect(activation.result).toBe('allowed');
    expect(activation.reason).toContain('HOLD_CARD already ran for this request');
    expect(ruleResults(yes)).not.toHaveProperty('HELD');
    // What the hold answered is still known.
    expect(yes.trace.entities['hold-id']).toBe('H-77');
  });

  it('a correction before the yes keeps the hold: one call for the whole request', () => {
    const c = converse(hold, CLOCK);
    c.say(SUITE);
    expect(c.say('make it 4 nights instead').trace.decision).toBe('request_confirmation');
    c.say('yes');
    const holds = c.turns.flatMap(integrationsCalled).filter((x) => x.startsWith('card-hold-api'));
    expect(holds).toEqual(['card-hold-api:success']);
  });

  it('a new request (after the booking, or after a no) places a new hold', () => {
    const c = converse(hold, CLOCK);
    c.say(SUITE);
    c.say('yes');
    expect(calls(c.say('book a suite from next friday for 2 nights'))).toEqual([
      'HOLD_CARD/card-hold-api:success',
    ]);
    expect(c.say('no, cancel').trace.decision).toBe('block_with_explanation');
    expect(calls(c.say(SUITE))).toEqual(['HOLD_CARD/card-hold-api:success']);
  });
});

describe('hazard 2: tools_invoked lists only tools whose action ran', () => {
  const claims = fixture('claims');

  it("an API rule's lookup on a refused claim is a call_integration decision, not the tool invoked", () => {
    const out = converse(claims, CLOCK).say(
      'I want to file a claim on policy POL-999 for 400 dollars, it happened on 2025-03-10',
    );
    expect(out.trace.decision).toBe('block_with_explanation');
    expect(ruleResults(out).POLICY_LAPSED).toBe('blocked');
    expect(out.trace.tools_invoked).toEqual([]);
    const lookup = (out.trace.decisions ?? []).find((d) => d.type === 'call_integration')!;
    expect(lookup).toMatchObject({
      tool: 'FILE_CLAIM',
      integration: 'policy-api',
      result: 'success',
      by: 'POLICY_LOOKUP',
      parameters: { 'policy-number': 'POL-999' },
    });
    expect(out.trace.rules_evaluated.find((r) => r.rule_id === 'POLICY_LOOKUP')!.reason).toContain(
      'policy-api called (success)',
    );
  });

  it('while the claim waits for a yes nothing is invoked; the yes invokes the filing only', () => {
    const c = converse(claims, CLOCK);
    const asked = c.say(FILE_SMALL);
    expect(asked.trace.decision).toBe('request_confirmation');
    expect(asked.trace.tools_invoked).toEqual([]);
    expect(integrationsCalled(asked)).toEqual(['policy-api:success']);
    const yes = c.say('yes');
    expect(calls(yes)).toEqual(['FILE_CLAIM/file-claim-api:success']);
    expect(integrationsCalled(yes)).toEqual(['policy-api:success', 'file-claim-api:success']);
  });

  it('turn search counts a refused claim under tool:FILE_CLAIM, never under tool:FILE_CLAIM:invoked', () => {
    const term = (kind: string, first: string, second?: string) =>
      [kind, first, second].filter((x) => x !== undefined).join(':');
    const indexed = (out: TurnOutput, n: number) =>
      turnIndexEntry(
        { agentId: 'claims', userId: 'user-1' },
        {
          taskId: 'task-1',
          interactionId: `msg-${n}`,
          userMessage: { text: '' },
          reply: { createdAt: CLOCK, text: out.reply },
          trace: out.trace,
          state: out.state,
          bundleHash: null,
          versionId: 'local',
        } satisfies IndexedTurn,
        n,
        term,
      ).terms;
    const c = converse(claims, CLOCK);
    const refused = indexed(
      c.say('I want to file a claim on policy POL-999 for 400 dollars, it happened on 2025-03-10'),
      1,
    );
    expect(refused).toContain('tool:FILE_CLAIM');
    expect(refused).not.toContain('tool-invoked:FILE_CLAIM');
    const d = converse(claims, CLOCK);
    d.say(FILE_SMALL);
    expect(indexed(d.say('yes'), 2)).toContain('tool-invoked:FILE_CLAIM');
  });
});

describe('hazard 3: a lookup that finds nothing is "not found", not a failure', () => {
  const claims = fixture('claims');

  it('a claim number not in the records runs summary.missing_info, not summary.fail', () => {
    const c = converse(claims, CLOCK);
    const out = c.say('what is the status of claim CL-9999');
    expect(calls(out)).toEqual(['CHECK_CLAIM/claims-api:not_found']);
    expect(out.trace.tools_invoked[0]!.detail).toContain('not found');
    expect(ruleResults(out)).toEqual({ 'CHECK_CLAIM.params.required': 'allowed', NO_SUCH_CLAIM: 'allowed' });
    expect(out.trace.decision).toBe('proceed');
    expect(out.reply).toBe("I couldn't find claim CL-9999. Please check the number on your letter.");
    // The number the member typed is kept; the next number given is looked up.
    expect(out.trace.entities['claim-number']).toBe('CL-9999');
    const again = c.say('CL-1001');
    expect(calls(again)).toEqual(['CHECK_CLAIM/claims-api:success']);
    expect(again.reply).toBe('Claim CL-1001 is approved.');
  });

  it('a system that reports an error runs summary.fail', () => {
    const down = copy(claims);
    down.integrations!.find((i) => i.code === 'claims-api')!.settings!.test_curl_response = { status: 503 };
    const out = converse(down, CLOCK).say('what is the status of claim CL-1001');
    expect(calls(out)).toEqual(['CHECK_CLAIM/claims-api:failure']);
    expect(ruleResults(out)).toEqual({ 'CHECK_CLAIM.params.required': 'allowed', CLAIMS_DOWN: 'allowed' });
    expect(out.reply).toBe('Sorry, the claims system did not answer. Please try again later.');
  });

  it('a status 404 is not found too', () => {
    const gone = copy(claims);
    gone.integrations!.find((i) => i.code === 'claims-api')!.settings!.test_curl_response = {
      status: 404,
      error: 'no such claim',
    };
    expect(calls(converse(gone, CLOCK).say('what is the status of claim CL-1001'))).toEqual([
      'CHECK_CLAIM/claims-api:not_found',
    ]);
  });

  it('a tool without summary.missing_info says it in summary.fail', () => {
    const older = copy(claims);
    delete toolOf(older, 'CHECK_CLAIM').rules!.summary!.missing_info;
    const out = converse(older, CLOCK).say('what is the status of claim CL-9999');
    expect(calls(out)).toEqual(['CHECK_CLAIM/claims-api:not_found']);
    expect(ruleResults(out).CLAIMS_DOWN).toBe('allowed');
  });

  it('a tool with no summary rule at all says what it looked for, not "try again later"', () => {
    const out = converse(claims, CLOCK).say('is policy POL-555 active?');
    expect(calls(out)).toEqual(['CHECK_POLICY/policy-api:not_found']);
    expect(out.reply).toBe(
      'Sorry, I found nothing for policy number POL-555. Please check it and tell me again.',
    );
  });

  it("an API rule's lookup that finds nothing clears what it maps, for the next rules to test", () => {
    const out = converse(claims, CLOCK).say(
      'I want to file a claim on policy POL-555 for 400 dollars, it happened on 2025-03-10',
    );
    expect(integrationsCalled(out)).toEqual(['policy-api:not_found']);
    expect(out.trace.rules_evaluated.find((r) => r.rule_id === 'POLICY_LOOKUP')!.reason).toContain(
      'policy-api called (not found',
    );
    expect(out.trace.entities['policy-status']).toBeUndefined();
    expect(ruleResults(out).POLICY_LAPSED).toBe('not_applicable');
  });
});

describe('hazard 4: two confirmations at once are both shown, and a yes confirms only what was shown', () => {
  const claims = fixture('claims');

  it("the rule's question comes with the claim's values restated; one yes confirms both", () => {
    const c = converse(claims, CLOCK);
    const asked = c.say(FILE_LARGE);
    expect(asked.trace.decision).toBe('request_confirmation');
    expect(ruleResults(asked)).toMatchObject({
      LARGE_CLAIM: 'requires_confirmation',
      'FILE_CLAIM.requires_confirmation': 'requires_confirmation',
    });
    expect(asked.reply).toBe(
      'Claims above $10,000 are reviewed by an adjuster before payment. Please confirm: file a claim with policy number: POL-123, amount: 40000, incident date: 2025-03-10. Shall I go ahead?',
    );
    const yes = c.say('yes');
    expect(yes.trace.decision).toBe('proceed');
    expect(ruleResults(yes)).toMatchObject({
      LARGE_CLAIM: 'allowed',
      'FILE_CLAIM.requires_confirmation': 'allowed',
    });
  });

  it('a confirmation that starts to hold with the yes is asked, not taken as given', () => {
    const c = converse(claims, CLOCK);
    expect(c.say(FILE_SMALL).reply).toBe(
      'Please confirm: file a claim with policy number: POL-123, amount: 400, incident date: 2025-03-10. Shall I go ahead?',
    );
    const express = c.say('yes, with express payout');
    expect(express.trace.decision).toBe('request_confirmation');
    expect(ruleResults(express)).toMatchObject({
      EXPRESS_FEE: 'requires_confirmation',
      'FILE_CLAIM.requires_confirmation': 'allowed',
    });
    expect(express.reply).toBe('An express payout costs a $25 fee. Shall I add it?');
    const yes = c.say('yes');
    expect(yes.trace.decision).toBe('proceed');
    expect(calls(yes)).toEqual(['FILE_CLAIM/file-claim-api:success']);
  });

  it('a state written before the confirmations asked were kept confirms every one, as it did', () => {
    const c = converse(claims, CLOCK);
    const asked = c.say(FILE_LARGE);
    const state = structuredClone(asked.state) as { pending: Record<string, unknown> };
    delete state.pending.confirming;
    const yes = engine.runTurn({
      bundle: claims,
      state,
      text: 'yes',
      clock: CLOCK,
      interactionId: 'm-2',
      userId: 'user-1',
    });
    expect(yes.trace.decision).toBe('proceed');
  });
});

describe('hazard 5: in a summary list, the first message that holds is said, and a later one is not', () => {
  const twoMessages = (first: Rule['when']) => {
    const b = copy(fixture('claims'));
    toolOf(b, 'CHECK_CLAIM').rules!.summary!.success = [
      {
        code: 'CLAIM_STATUS',
        when: first,
        then: { action: 'TEXT', message: 'Claim {{claim-number}} is {{claim-status}}.' },
      },
      { code: 'LETTER_FOLLOWS', when: null, then: { action: 'TEXT', message: 'A letter follows by post.' } },
    ];
    return b;
  };

  it('after a message that always holds, the second is evaluated, allowed, and not said', () => {
    const out = converse(twoMessages(null), CLOCK).say('what is the status of claim CL-1001');
    expect(out.reply).toBe('Claim CL-1001 is approved.');
    const second = out.trace.rules_evaluated.find((r) => r.rule_id === 'LETTER_FOLLOWS')!;
    expect(second.result).toBe('allowed');
    expect(second.reason).toContain("its message is not said: an earlier rule's message closes the tool");
  });

  it('the validator warns, at the message, that it can never show', () => {
    const issues = validateBundle(twoMessages(null));
    expect(issues).toEqual([
      expect.objectContaining({
        code: 'unreachable_message',
        severity: 'warning',
        loc: ['agent_tools', 0, 'rules', 'summary', 'success', 1, 'then', 'message'],
      }),
    ]);
    expect(issues[0]!.message).toContain('only the first message of the summary is said');
  });

  it('lint says it once, at the same place, with a conversation that shows it', () => {
    const found = lintBundle(twoMessages(null), { clock: CLOCK }).findings.filter(
      (f) => f.code === 'unreachable_message',
    );
    expect(found).toEqual([
      expect.objectContaining({
        rule: 'LETTER_FOLLOWS',
        loc: { path: ['agent_tools', 0, 'rules', 'summary', 'success', 1, 'then', 'message'] },
        witness: expect.objectContaining({ tool: 'CHECK_CLAIM' }),
      }),
    ]);
  });

  it('after a message with a condition, the second is said where the first does not hold, and no warning', () => {
    const b = twoMessages({
      method: 'param_value',
      params: 'claim-status',
      operation: 'eq',
      value: 'rejected',
    });
    expect(validateBundle(b)).toEqual([]);
    expect(converse(b, CLOCK).say('what is the status of claim CL-1001').reply).toBe(
      'A letter follows by post.',
    );
  });
});

describe('hazard 7: what the validator accepts runs as written', () => {
  it('a number written as text ("10000") is compared as that number', () => {
    const b = copy(fixture('claims'));
    const large = toolOf(b, 'FILE_CLAIM').rules!.pre!.constraint!.find((r) => r.code === 'LARGE_CLAIM')!;
    large.when = { method: 'param_value', params: 'amount', operation: 'gt', value: '10000' };
    expect(validateBundle(b)).toEqual([]);
    expect(ruleResults(converse(b, CLOCK).say(FILE_LARGE)).LARGE_CLAIM).toBe('requires_confirmation');
    expect(ruleResults(converse(b, CLOCK).say(FILE_SMALL)).LARGE_CLAIM).toBe('allowed');
  });

  it('"no" and "yes" compared with a boolean read as false and true', () => {
    const b: Bundle = {
      parameters: [{ code: 'injured', type: 'boolean', usage: 'input', question: 'Was anyone injured?' }],
      agent_tools: [
        {
          code: 'REPORT_ACCIDENT',
          name: 'Report an accident',
          main_tool: true,
          config: { params: { required: ['injured'] } },
          rules: {
            pre: {
              constraint: [
                {
                  code: 'NO_INJURY',
                  when: { method: 'param_value', params: 'injured', operation: 'eq', value: 'no' },
                  then: { action: 'TEXT', message: 'Glad nobody was hurt.' },
                },
              ],
            },
          },
        },
      ],
    };
    expect(validateBundle(b)).toEqual([]);
    const c = converse(b, CLOCK);
    expect(c.say('I want to report an accident').reply).toBe('Was anyone injured?');
    const out = c.say('no');
    expect(out.trace.entities.injured).toBe(false);
    expect(ruleResults(out).NO_INJURY).toBe('allowed');
    expect(out.reply).toContain('Glad nobody was hurt.');
  });

  it('a word that is not a boolean is refused at its place', () => {
    const b: Bundle = {
      parameters: [{ code: 'injured', type: 'boolean', usage: 'input' }],
      rules: [
        {
          code: 'R',
          when: { method: 'param_value', params: 'injured', operation: 'eq', value: 'nope' },
          then: { action: 'TEXT', message: 'x' },
        },
      ],
    };
    expect(validateBundle(b)).toEqual([
      expect.objectContaining({
        code: 'operand_type_mismatch',
        severity: 'error',
        loc: ['rules', 0, 'when', 'value'],
      }),
    ]);
  });

  it('starters past the fourth are reported where they are, and a new thread offers the first four', () => {
    const b = copy(fixture('claims'));
    b.general_settings = { ...b.general_settings, starter_suggestions: ['a', 'b', '', 'c', 'd', 'e', 'f'] };
    const issues = validateBundle(b);
    expect(issues.map((i) => [i.code, i.severity, i.loc])).toEqual([
      ['starter_never_offered', 'warning', ['general_settings', 'starter_suggestions', 5]],
      ['starter_never_offered', 'warning', ['general_settings', 'starter_suggestions', 6]],
    ]);
    expect(engine.welcome(b, CLOCK).suggestions).toEqual(['a', 'b', 'c', 'd']);
  });
});
