import { describe, expect, it } from 'vitest';
import { compareTurn } from '../../lib/test-cases';
import {
  buildCase,
  MAX_LISTED,
  prefillCase,
  prefillFromThread,
  prefillTurn,
  replySnippet,
  type SourceTurn,
} from './prefill';

const rule = (rule_id: string, result: string) => ({
  rule_id,
  predicate: 'p',
  result,
  reason: `${rule_id} ${result}`,
});

const blocked: SourceTurn = {
  id: 'msg_1',
  userText: 'I want to dispute a charge of $120 from 10 days ago',
  replyText: 'Disputes must be filed within 8 days of the charge. Anything else?',
  decision: 'block_with_explanation',
  versionId: 'v2-8-day-window',
  bundleHash: null,
  trace: {
    decision: 'block_with_explanation',
    rules_evaluated: [rule('ASK_REASON', 'allowed'), rule('DISPUTE_WINDOW', 'blocked')],
    tools_invoked: [],
    entities: { 'transaction-amount': 120, 'transaction.merchant': 'Coffee Corner', 'contact-email': null },
    parameters_extracted: ['transaction-amount', 'merchant'],
  },
};

const proceed: SourceTurn = {
  id: 'msg_2',
  userText: 'Yes, go ahead',
  replyText: 'Done: dispute DSP-20417 is open.',
  decision: 'proceed',
  trace: {
    decision: 'proceed',
    rules_evaluated: [],
    tools_invoked: [
      { tool: 'DISPUTE_CHARGE', result: 'success' },
      { tool: 'DISPUTE_CHARGE', result: 'success' },
    ],
    entities: {},
    parameters_extracted: [],
  },
};

const input = {
  taskId: 'task_1',
  title: 'Dispute',
  agentId: 'card-disputes',
  userId: 'playground-user',
  clock: '2025-03-15T12:00:00.000Z',
  turns: [blocked, proceed],
};

describe('save as test: prefill', () => {
  it('checks the deciding rules first, lists the others unchecked', () => {
    const t = prefillTurn(blocked);
    expect(t.decision).toBe('block_with_explanation');
    expect(t.rules).toEqual([
      { id: 'DISPUTE_WINDOW', result: 'blocked', checked: true, deciding: true },
      { id: 'ASK_REASON', result: 'allowed', checked: false, deciding: false },
    ]);
  });

  it('checks the parameters filled in the turn (entity.parameter included), not the unfilled ones', () => {
    const t = prefillTurn(blocked);
    expect(t.parameters.filter((p) => p.checked).map((p) => [p.code, p.value])).toEqual([
      ['transaction-amount', '120'],
      ['transaction.merchant', '"Coffee Corner"'],
    ]);
    expect(t.parameters.find((p) => p.code === 'contact-email')).toMatchObject({
      checked: false,
      value: 'null',
    });
  });

  it('expects exactly the tools invoked (none is an expectation too) and the first sentence of the reply', () => {
    expect(prefillTurn(blocked).tools).toEqual({ checked: true, text: '' });
    expect(prefillTurn(proceed).tools).toEqual({ checked: true, text: 'DISPUTE_CHARGE' });
    expect(prefillTurn(blocked).reply).toEqual({
      checked: true,
      text: 'Disputes must be filed within 8 days of the charge.',
    });
  });

  it('cuts long replies at a word and lists at most MAX_LISTED rules', () => {
    expect(replySnippet(`${'word '.repeat(40)}end`).length).toBeLessThanOrEqual(80);
    const many = prefillTurn({
      ...blocked,
      trace: {
        ...blocked.trace!,
        rules_evaluated: Array.from({ length: 120 }, (_, i) => rule(`R${i}`, 'allowed')),
      },
    });
    expect(many.rules).toHaveLength(MAX_LISTED);
    expect(many.moreRules).toBe(120 - MAX_LISTED);
  });

  it('takes the turns up to the chosen one, with the task clock, version and source', () => {
    const r = prefillCase({ ...input, turnId: 'msg_1' });
    expect(r.ok && r.draft).toMatchObject({
      clock: '2025-03-15T12:00:00.000Z',
      versionId: 'v2-8-day-window',
      source: { task_id: 'task_1', interaction_id: 'msg_1' },
      userId: 'playground-user',
    });
    expect(r.ok && r.draft.turns.map((t) => t.say)).toEqual([blocked.userText]);
    expect(prefillCase({ ...input, turnId: 'msg_2' }).ok && 2).toBe(2);
  });

  it('refuses a turn whose earlier message text is unknown, saying why', () => {
    const r = prefillCase({
      ...input,
      turns: [{ ...blocked, userText: '', textUnavailable: true }, proceed],
      turnId: 'msg_2',
    });
    expect(r).toEqual({ ok: false, reason: expect.stringContaining("Turn 1's message is not known") });
  });
});

describe('save as test: build', () => {
  it('builds a valid case that passes against the turns it was saved from', () => {
    const r = prefillCase({ ...input, turnId: 'msg_2' });
    if (!r.ok) throw new Error(r.reason);
    const built = buildCase(r.draft);
    if (!built.ok) throw new Error(built.errors.join('\n'));
    expect(built.testCase.turns[0]!.expect).toEqual({
      decision: 'block_with_explanation',
      rules: { DISPUTE_WINDOW: 'blocked' },
      tools_invoked: [],
      parameters: { 'transaction-amount': 120, 'transaction.merchant': 'Coffee Corner' },
      reply_contains: ['Disputes must be filed within 8 days of the charge.'],
    });
    for (const [i, turn] of [blocked, proceed].entries())
      expect(
        compareTurn(built.testCase.turns[i]!.expect, { reply: turn.replyText, trace: turn.trace! }),
      ).toEqual([]);
    expect(JSON.stringify(built.testCase)).not.toMatch(/key/i);
  });

  it('leaves out unchecked expectations and takes edited values', () => {
    const r = prefillCase({ ...input, turnId: 'msg_1' });
    if (!r.ok) throw new Error(r.reason);
    const t = r.draft.turns[0]!;
    t.rules[0]!.checked = false;
    t.tools.checked = false;
    t.reply.checked = false;
    t.parameters[0]!.value = '130';
    t.parameters[1]!.checked = false;
    const built = buildCase(r.draft);
    expect(built.ok && built.testCase.turns[0]!.expect).toEqual({
      decision: 'block_with_explanation',
      parameters: { 'transaction-amount': 130 },
    });
  });

  it('names the turn and parameter of a value that is not JSON, and the format problems', () => {
    const r = prefillCase({ ...input, turnId: 'msg_1' });
    if (!r.ok) throw new Error(r.reason);
    r.draft.turns[0]!.parameters[1]!.value = 'Coffee Corner';
    r.draft.name = ' ';
    const built = buildCase(r.draft);
    expect(built.ok).toBe(false);
    expect(!built.ok && built.errors).toEqual([
      expect.stringContaining(
        'turns[0].expect.parameters.transaction.merchant: "Coffee Corner" is not a JSON value',
      ),
      expect.stringMatching(/^name: /),
    ]);
  });
});

describe('a case from what is known of a thread', () => {
  const facts = {
    taskId: 'task_1',
    turnId: 'msg_1',
    turns: [blocked, proceed],
    now: '2026-01-01T00:00:00.000Z',
  };

  it("takes the service's agent and clock first, then this browser's record, then the caller's", () => {
    const fromService = prefillFromThread({
      ...facts,
      thread: { title: 'Mine', agent_id: 'old-name', created_at: '2025-01-01T00:00:00.000Z' },
      info: { agent_id: 'card-disputes', reference_clock: '2025-03-15T12:00:00.000Z' },
      agentId: 'ignored',
    });
    expect(fromService.ok && fromService.draft).toMatchObject({
      agentId: 'card-disputes',
      clock: '2025-03-15T12:00:00.000Z',
      name: 'Mine — turn 1',
    });
    const fromRecord = prefillFromThread({
      ...facts,
      thread: { agent_id: 'card-disputes', created_at: '2025-01-01T00:00:00.000Z' },
      info: null,
    });
    expect(fromRecord.ok && fromRecord.draft.clock).toBe('2025-01-01T00:00:00.000Z');
    const fromCaller = prefillFromThread({ ...facts, agentId: 'card-disputes' });
    expect(fromCaller.ok && fromCaller.draft).toMatchObject({ agentId: 'card-disputes', clock: facts.now });
  });

  it('says so when no one names the agent', () => {
    const none = prefillFromThread(facts);
    expect(none.ok).toBe(false);
    expect(!none.ok && none.reason).toMatch(/agent is not known/);
  });
});

describe('save as test: a what-if of a turn', () => {
  const whatIfTrace = {
    decision: 'request_information',
    rules_evaluated: [
      rule('ASK_REASON', 'allowed'),
      rule('DISPUTE_WINDOW', 'allowed'),
      rule('REASON.required', 'blocked'),
    ],
    tools_invoked: [],
    entities: { 'transaction-amount': 120, 'transaction.transaction-date': '2025-03-07' },
    parameters_extracted: ['transaction-amount', 'transaction-date'],
    decisions: [],
  };
  const whatIf = {
    say: 'My transaction date is 2025-03-07. I want to dispute a charge of $120 from 10 days ago',
    reply: 'What is the reason for the dispute?',
    trace: whatIfTrace,
    changedRules: ['DISPUTE_WINDOW'],
    values: { 'transaction-date': '2025-03-07' },
    description: 'What if turn 1 had transaction-date = "2025-03-07"',
  };
  const facts = {
    taskId: 'task_1',
    turns: [blocked, proceed],
    info: { agent_id: 'card-disputes' },
    now: input.clock,
  };

  it('expects the what-if’s outcome, its changed rules and its values, with a message that states them', () => {
    const r = prefillFromThread({ ...facts, turnId: 'msg_1', whatIf });
    if (!r.ok) throw new Error(r.reason);
    expect(r.draft.name).toMatch(/\(what if\)$/);
    expect(r.draft.description).toBe(whatIf.description);
    const built = buildCase(r.draft);
    if (!built.ok) throw new Error(built.errors.join('\n'));
    const turn = built.testCase.turns[0]!;
    expect(turn.say).toBe(whatIf.say);
    expect(built.testCase.description).toBe(whatIf.description);
    expect(turn.expect).toMatchObject({
      decision: 'request_information',
      rules: { DISPUTE_WINDOW: 'allowed' },
      parameters: { 'transaction-date': '2025-03-07', 'transaction-amount': 120 },
    });
    // The stated value replaces the turn's own expectation of it (no `transaction.transaction-date` twice).
    expect(Object.keys(turn.expect.parameters ?? {})).not.toContain('transaction.transaction-date');
    // It holds for a replay understood as the what-if assumed, and not for the recorded turn.
    expect(compareTurn(turn.expect, { reply: whatIf.reply, trace: whatIfTrace })).toEqual([]);
    expect(
      compareTurn(turn.expect, { reply: blocked.replyText, trace: blocked.trace! }).map((m) => m.kind),
    ).toEqual(expect.arrayContaining(['decision', 'parameter']));
  });

  it('keeps the turns before it as they were', () => {
    const r = prefillFromThread({ ...facts, turnId: 'msg_2', whatIf: { ...whatIf, say: 'Yes. My x is 1.' } });
    if (!r.ok) throw new Error(r.reason);
    expect(r.draft.turns.map((t) => [t.say, t.decision])).toEqual([
      [blocked.userText, 'block_with_explanation'],
      ['Yes. My x is 1.', 'request_information'],
    ]);
  });
});
