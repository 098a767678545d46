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
