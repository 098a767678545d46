import { describe, expect, it } from 'vitest';
import { whatIfCaseTurn } from './what-if-case';

describe('a what-if as a test case’s turn', () => {
  const out = whatIfCaseTurn({
    edits: [
      { code: 'transaction-date', value: '2025-03-07' },
      { code: 'contact-email', missing: true },
    ],
    message: 'I want to dispute a charge of $120 from 10 days ago',
    turnNumber: 2,
    recordedDecision: 'block_with_explanation',
    result: {
      decision: 'request_information',
      reply: 'What is the reason?',
      trace: { decision: 'request_information', rules_evaluated: [], entities: {} },
      differences: [
        { kind: 'decision', subject: '', before: 'block_with_explanation', after: 'request_information' },
        { kind: 'rule', subject: 'DISPUTE_WINDOW', before: 'blocked', after: 'allowed' },
        { kind: 'tool', subject: 'DISPUTE_CHARGE', before: 'considered', after: 'invoked' },
      ],
    },
  });
  it('states the values in the message and expects them (not known: null)', () => {
    expect(out.say).toBe(
      "My transaction date is 2025-03-07. I don't know my contact email. I want to dispute a charge of $120 from 10 days ago",
    );
    expect(out.values).toEqual({ 'transaction-date': '2025-03-07', 'contact-email': null });
  });
  it('expects the what-if’s decision and the rules it changed', () => {
    expect(out.trace.decision).toBe('request_information');
    expect(out.changedRules).toEqual(['DISPUTE_WINDOW']);
    expect(out.reply).toBe('What is the reason?');
  });
  it('says what it is: the edits, what was held fixed, and how a case states them', () => {
    expect(out.description).toContain(
      'What if turn 2 had transaction-date = "2025-03-07"; contact-email not known',
    );
    expect(out.description).toContain('block_with_explanation → request_information');
    expect(out.description).toContain('held fixed');
    expect(out.description).toContain('stated in the message');
  });
});
