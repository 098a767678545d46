/** Traces used by the graph tests: a blocked dispute, shaped like the reference service's. */
import { TolerantTrace } from '../../contract/trace';

export const blockedDisputeTrace = TolerantTrace.parse({
  interaction_id: 'msg_1',
  intent: 'dispute_charge',
  entities: { merchant: 'Coffee Corner', amount: 120 },
  parameters_extracted: ['amount', 'merchant-name', 'transaction-date'],
  rules_evaluated: [
    {
      rule_id: 'dispute-window',
      rule_type: 'policy',
      predicate: 'days_since(transaction-date) <= 7',
      result: 'blocked',
      reason: 'The charge is 10 days old; disputes must be opened within 7 days.',
    },
    {
      rule_id: 'amount-limit',
      rule_type: 'policy',
      predicate: 'amount <= 5000',
      result: 'allowed',
      reason: 'Within the limit.',
    },
    {
      rule_id: 'DISPUTE_CHARGE.confirm',
      rule_type: 'confirmation',
      predicate: 'confirmed',
      result: 'not_applicable',
      reason: 'Blocked before confirmation.',
    },
  ],
  tools_considered: ['DISPUTE_CHARGE', 'LOOKUP_TRANSACTION'],
  tools_invoked: [
    { tool: 'LOOKUP_TRANSACTION', parameters: { merchant: 'Coffee Corner' }, result: 'success' },
  ],
  decision: 'block_with_explanation',
  understanding: {
    intents: ['dispute_charge'],
    extracted_params: { amount: 120, 'merchant-name': 'Coffee Corner', 'transaction-date': '2025-01-01' },
  },
  latency: { elapsed: 3, unit: 'ms' },
});

/** The reference engine's trace of the card-disputes demo: "dispute a charge of $120 … from 10 days ago". */
export const cardDisputesBlockedTrace = TolerantTrace.parse({
  interaction_id: 'msg-1',
  intent: 'dispute_charge',
  entities: {
    'transaction.transaction-date': '2026-11-13',
    'transaction.transaction-amount': 120,
    'transaction.merchant-name': 'Coffee Corner',
    'transaction.days-since-transaction': 10,
    'user-profile.customer-name': 'Jane Doe',
    'user-profile.identity-verified': false,
    'user-profile.card-last-four': '4242',
    'user-profile.card-status': 'active',
  },
  parameters_extracted: ['merchant-name', 'transaction-date', 'transaction-amount'],
  rules_evaluated: [
    {
      rule_id: 'VERIFIED_IDENTITY_ABOVE_500',
      rule_type: 'authentication',
      predicate: 'transaction-amount > 500 and user-profile.identity-verified = false',
      result: 'allowed',
      reason: 'transaction-amount is 120, so transaction-amount > 500 does not hold',
    },
    {
      rule_id: 'DISPUTE_WINDOW',
      rule_type: 'policy',
      predicate: 'days_since(transaction-date) > 8',
      result: 'blocked',
      reason:
        'days_since(transaction-date) is 10 (transaction-date = "2026-11-13"), so days_since(transaction-date) > 8 holds',
    },
    {
      rule_id: 'FREEZE_BEFORE_FRAUD_DISPUTE',
      rule_type: 'sequencing',
      predicate: 'dispute-reason = "unauthorized" and user-profile.card-status != "frozen"',
      result: 'not_applicable',
      reason: 'dispute-reason is not known yet',
    },
    {
      rule_id: 'DISPUTE_CHARGE.params.required',
      rule_type: 'conditional',
      predicate:
        'filled(transaction-date) and filled(transaction-amount) and filled(dispute-reason) and (filled(contact-email) or filled(contact-phone))',
      result: 'blocked',
      reason:
        'missing dispute-reason, contact-email or contact-phone; have transaction-date = "2026-11-13", transaction-amount = 120',
    },
    {
      rule_id: 'ASK_CONTACT',
      rule_type: 'conditional',
      predicate: 'empty(contact-email) and empty(contact-phone)',
      result: 'allowed',
      reason: 'contact-email is empty; contact-phone is empty',
    },
  ],
  tools_considered: ['DISPUTE_CHARGE', 'FREEZE_CARD'],
  tools_invoked: [],
  decision: 'block_with_explanation',
  understanding: {
    intents: ['dispute_charge'],
    extracted_params: {
      'merchant-name': 'Coffee Corner',
      'transaction-date': '2026-11-13',
      'transaction-amount': 120,
    },
  },
  decisions: [
    { type: 'activate_tool', tool: 'DISPUTE_CHARGE', via: 'words' },
    { type: 'rule_triggered', tool: 'DISPUTE_CHARGE', rule: 'DISPUTE_WINDOW', action: 'BLOCK' },
    {
      type: 'params_check',
      tool: 'DISPUTE_CHARGE',
      missing: ['dispute-reason', 'contact-email', 'contact-phone'],
    },
    { type: 'rule_triggered', tool: 'DISPUTE_CHARGE', rule: 'ASK_CONTACT', action: 'ASK_A_QUESTION' },
    { type: 'block', tool: 'DISPUTE_CHARGE', rule: 'DISPUTE_WINDOW' },
  ],
});

/** A trace of `n` rules over `k` tools and `k` values (n/10 unless given), each rule naming a tool and reading a value. */
export function scaledTrace(n: number, k = Math.max(1, Math.floor(n / 10))) {
  const params = Array.from({ length: k }, (_, i) => `param-${i}`);
  return TolerantTrace.parse({
    intent: 'scaled',
    parameters_extracted: params,
    understanding: { extracted_params: Object.fromEntries(params.map((p, i) => [p, i])) },
    entities: Object.fromEntries(params.map((p, i) => [`entity.${p}`, i])),
    rules_evaluated: Array.from({ length: n }, (_, i) => ({
      rule_id: `RULE_${i}`,
      rule_type: ['policy', 'conditional', 'authentication'][i % 3],
      predicate: `param-${i % k} > ${i} and TOOL_${i % k} allowed`,
      result: i % 97 === 5 ? 'blocked' : i % 2 ? 'allowed' : 'not_applicable',
      reason: `param-${i % k} is ${i}, so param-${i % k} > ${i} holds`,
    })),
    tools_considered: Array.from({ length: k }, (_, i) => `TOOL_${i}`),
    tools_invoked: Array.from({ length: Math.ceil(k / 2) }, (_, i) => ({
      tool: `TOOL_${i * 2}`,
      parameters: { [`param-${i}`]: i },
      result: 'success',
    })),
    decision: 'block_with_explanation',
    decisions: Array.from({ length: n }, (_, i) => ({
      type: 'rule_triggered',
      tool: `TOOL_${i % k}`,
      rule: `RULE_${i}`,
    })),
  });
}
