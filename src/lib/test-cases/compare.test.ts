import { describe, expect, it } from 'vitest';
import { compareTurn, compareWelcome, describeMismatch, type ObservedTurn } from './compare';

const observed: ObservedTurn = {
  reply: 'Sorry, a charge can only be disputed within 8 days.',
  trace: {
    decision: 'block_with_explanation',
    rules_evaluated: [
      { rule_id: 'DISPUTE_WINDOW', result: 'blocked', reason: 'days_since(transaction-date) is 10' },
      { rule_id: 'ASK_CONTACT', result: 'allowed', reason: 'contact-email is empty' },
    ],
    tools_invoked: [{ tool: 'FREEZE_CARD', result: 'success' }],
    entities: {
      'transaction.transaction-amount': 120,
      'transaction.transaction-date': '2025-03-05',
      'a.shared': 1,
      'b.shared': 2,
      plain: { x: 1, y: [2] },
    },
  },
};

describe('compareTurn', () => {
  it('passes when every expectation holds', () => {
    expect(
      compareTurn(
        {
          decision: 'block_with_explanation',
          rules: { DISPUTE_WINDOW: 'blocked' },
          tools_invoked: ['FREEZE_CARD'],
          parameters: {
            'transaction-amount': 120,
            'a.shared': 1,
            plain: { y: [2], x: 1 },
            'contact-email': null,
          },
          reply_contains: ['within 8 days'],
        },
        observed,
      ),
    ).toEqual([]);
  });

  it('reports another decision', () => {
    const [m] = compareTurn({ decision: 'proceed' }, observed);
    expect(m).toEqual({
      kind: 'decision',
      subject: '',
      expected: 'proceed',
      actual: 'block_with_explanation',
    });
    expect(describeMismatch(m!)).toBe('decision: expected proceed, got block_with_explanation');
  });

  it('reports a rule with another result (with the reason) and a rule not evaluated', () => {
    const ms = compareTurn(
      { decision: 'block_with_explanation', rules: { DISPUTE_WINDOW: 'allowed', MISSING: 'blocked' } },
      observed,
    );
    expect(ms).toEqual([
      {
        kind: 'rule',
        subject: 'DISPUTE_WINDOW',
        expected: 'allowed',
        actual: 'blocked',
        reason: 'days_since(transaction-date) is 10',
      },
      { kind: 'rule', subject: 'MISSING', expected: 'blocked', actual: 'not evaluated' },
    ]);
    expect(describeMismatch(ms[0]!)).toBe(
      'rule DISPUTE_WINDOW: expected allowed, got blocked (days_since(transaction-date) is 10)',
    );
  });

  it('expects exactly the tools invoked: a missing one and an unexpected one; [] means none', () => {
    const ms = compareTurn(
      { decision: 'block_with_explanation', tools_invoked: ['DISPUTE_CHARGE'] },
      observed,
    );
    expect(ms.map(describeMismatch)).toEqual([
      'tool DISPUTE_CHARGE: expected invoked, not invoked (invoked: FREEZE_CARD)',
      'tool FREEZE_CARD: expected not invoked, invoked',
    ]);
    expect(compareTurn({ decision: 'block_with_explanation', tools_invoked: [] }, observed)).toHaveLength(1);
  });

  it('reports parameter values by value, unfilled ones, and an ambiguous bare name', () => {
    const ms = compareTurn(
      {
        decision: 'block_with_explanation',
        parameters: {
          'transaction-amount': 45,
          'dispute-reason': 'duplicate',
          shared: 1,
          'transaction-date': null,
        },
      },
      observed,
    );
    expect(ms.map(describeMismatch)).toEqual([
      'parameter transaction-amount: expected 45, got 120',
      'parameter dispute-reason: expected "duplicate", got not filled',
      'parameter shared: expected 1, got ambiguous: held by a.shared, b.shared (name one of them)',
      'parameter transaction-date: expected not filled, got "2025-03-05"',
    ]);
  });

  it('reports a reply missing a text (case-sensitive)', () => {
    const ms = compareTurn(
      { decision: 'block_with_explanation', reply_contains: ['8 days', 'SORRY'] },
      observed,
    );
    expect(ms).toHaveLength(1);
    expect(describeMismatch(ms[0]!)).toBe(
      'reply: expected to contain "SORRY", got "Sorry, a charge can only be disputed within 8 days."',
    );
  });
});

describe('what a case says a user means', () => {
  /** A refused claim: a policy lookup by an API rule, nothing filed. */
  const refused: ObservedTurn = {
    reply: "Policy POL-999 has lapsed, so I can't file a claim on it.",
    suggestions: ['File a claim', 'Check a claim'],
    trace: {
      decision: 'block_with_explanation',
      rules_evaluated: [
        { rule_id: 'POLICY_LOOKUP', result: 'allowed', reason: 'policy-api called (success)' },
        { rule_id: 'POLICY_LAPSED', result: 'blocked', reason: 'policy-status is "lapsed"' },
      ],
      tools_invoked: [],
      entities: {},
      decisions: [
        { type: 'activate_tool', tool: 'FILE_CLAIM' },
        {
          type: 'call_integration',
          tool: 'FILE_CLAIM',
          integration: 'policy-api',
          result: 'success',
          by: 'POLICY_LOOKUP',
        },
      ],
    },
  };
  const decision = 'block_with_explanation';

  it('reply_not_contains: a text the reply must not say', () => {
    expect(compareTurn({ decision, reply_not_contains: ['Filed'] }, refused)).toEqual([]);
    const [m] = compareTurn({ decision, reply_not_contains: ['lapsed'] }, refused);
    expect(m).toMatchObject({ kind: 'reply', subject: 'lapsed', expected: 'does not contain "lapsed"' });
    expect(describeMismatch(m!)).toBe(
      `reply: expected to not contain "lapsed", got ${JSON.stringify(refused.reply)}`,
    );
  });

  it('"nothing was filed" is one line: an integration expected not called', () => {
    expect(compareTurn({ decision, integrations: { 'file-claim-api': 'not_called' } }, refused)).toEqual([]);
    const filed: ObservedTurn = {
      ...refused,
      trace: {
        ...refused.trace,
        decisions: [{ type: 'call_integration', integration: 'file-claim-api', result: 'success' }],
      },
    };
    const [m] = compareTurn({ decision, integrations: { 'file-claim-api': 'not_called' } }, filed);
    expect(describeMismatch(m!)).toBe('integration file-claim-api: expected not called, called (success)');
  });

  it("an integration expected called, or with an outcome, counts an API rule's lookup", () => {
    expect(compareTurn({ decision, integrations: { 'policy-api': 'called' } }, refused)).toEqual([]);
    expect(compareTurn({ decision, integrations: { 'policy-api': 'success' } }, refused)).toEqual([]);
    expect(
      compareTurn(
        { decision, integrations: { 'policy-api': 'not_found', 'claims-api': 'called' } },
        refused,
      ).map(describeMismatch),
    ).toEqual([
      'integration policy-api: expected not found, called (success)',
      'integration claims-api: expected called, not called',
    ]);
  });

  it("a trace without decisions (another service) is read from tools_invoked's integrations", () => {
    const { decisions: _, ...plain } = refused.trace;
    const proceeded: ObservedTurn = {
      reply: 'Filed.',
      trace: {
        ...plain,
        decision: 'proceed',
        tools_invoked: [{ tool: 'FILE_CLAIM', result: 'success', integration: 'file-claim-api' } as never],
      },
    };
    expect(
      compareTurn({ decision: 'proceed', integrations: { 'file-claim-api': 'success' } }, proceeded),
    ).toEqual([]);
  });

  it('a rule expected not evaluated fails when it is in the trace, and passes when it is absent', () => {
    expect(
      compareTurn({ decision, rules: { 'FILE_CLAIM.requires_confirmation': 'not_evaluated' } }, refused),
    ).toEqual([]);
    const [m] = compareTurn({ decision, rules: { POLICY_LAPSED: 'not_evaluated' } }, refused);
    expect(describeMismatch(m!)).toBe(
      'rule POLICY_LAPSED: expected not_evaluated, got blocked (policy-status is "lapsed")',
    );
  });

  it("the turn's suggestions, exactly and in order", () => {
    expect(compareTurn({ decision, suggestions: ['File a claim', 'Check a claim'] }, refused)).toEqual([]);
    expect(
      compareTurn({ decision, suggestions: ['Check a claim', 'File a claim'] }, refused).map(
        describeMismatch,
      ),
    ).toEqual([
      'suggestions: expected ["Check a claim","File a claim"], got ["File a claim","Check a claim"]',
    ]);
    const { suggestions: _, ...silent } = refused;
    expect(compareTurn({ decision, suggestions: [] }, silent).map(describeMismatch)).toEqual([
      'suggestions: expected [], got not reported',
    ]);
  });

  it('the welcome message and its starters', () => {
    const greeting = { message: 'Welcome to Harbour Mutual!', suggestions: ['File a claim'] };
    expect(
      compareWelcome(
        { message_contains: ['Welcome'], message_not_contains: ['Hello!'], suggestions: ['File a claim'] },
        greeting,
      ),
    ).toEqual([]);
    expect(
      compareWelcome(
        { message_contains: ['Hello'], message_not_contains: ['Welcome'], suggestions: [] },
        greeting,
      ).map(describeMismatch),
    ).toEqual([
      'welcome message: expected to contain "Hello", got "Welcome to Harbour Mutual!"',
      'welcome message: expected to not contain "Welcome", got "Welcome to Harbour Mutual!"',
      'welcome suggestions: expected [], got ["File a claim"]',
    ]);
  });
});
