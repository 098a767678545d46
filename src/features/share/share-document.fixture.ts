/** A small shared document for tests: a blocked dispute turn with entities and tool parameters. */
import { TolerantTrace } from '../../contract/trace';
import type { Turn } from '../../domain/transcript/transcript';
import { buildShareDocument } from './build';
import type { ShareDocument } from './document';

const blockedTrace = TolerantTrace.parse({
  interaction_id: 'msg-2',
  intent: 'dispute_charge',
  entities: { card_last4: '4242', merchant: 'Acme Widgets', amount: 1250 },
  parameters_extracted: ['amount', 'merchant'],
  rules_evaluated: [
    {
      rule_id: 'max-amount',
      rule_type: 'policy',
      predicate: 'amount > 1000 and merchant = "Acme Widgets"',
      result: 'blocked',
      reason: 'Disputes over 1000 need an agent; Acme Widgets charged 1250.',
    },
  ],
  tools_considered: ['DISPUTE_CHARGE'],
  tools_invoked: [
    {
      tool: 'LOOKUP_CARD',
      parameters: { card: { last4: '4242' }, holder: 'Jane Q. Doe' },
      result: 'success',
    },
  ],
  decision: 'block_with_explanation',
  understanding: {
    intents: ['dispute_charge'],
    extracted_params: { amount: 1250, merchant: 'Acme Widgets' },
  },
  input: { message: 'Dispute the 1250 charge from Acme Widgets on card 4242' },
  response: { type: 'blocked', message: 'I cannot dispute 1250 at Acme Widgets here.' },
});

export const turns: Turn[] = [
  {
    id: 'msg-1',
    index: 0,
    userText: 'hi',
    replyText: 'Hello! How can I help?',
    suggestions: [],
    decision: 'proceed',
    textUnavailable: false,
  },
  {
    id: 'msg-2',
    index: 1,
    userText: 'Dispute the 1250 charge from Acme Widgets on card 4242',
    replyText: 'I cannot dispute 1250 at Acme Widgets here.',
    suggestions: ['Talk to an agent'],
    decision: 'block_with_explanation',
    trace: blockedTrace,
    rttMs: 42,
    createdAt: '2025-01-02T03:04:05.000Z',
    bundleHash: null,
    textUnavailable: false,
  },
];

export function sampleDocument(kind: 'snapshot' | 'export' = 'snapshot'): ShareDocument {
  return buildShareDocument({
    kind,
    focus: { task: 'task-1', turn: 'msg-2', node: 'rule:max-amount' },
    threads: [
      {
        id: 'task-1',
        record: { title: 'Disputes', agent_id: 'card-disputes', welcome_message: 'Welcome!' },
        turns,
      },
    ],
    now: new Date('2025-01-02T03:04:05.000Z'),
  });
}

/** The blocked turn rerun as a branch with another text, allowed this time. */
const allowedTrace = TolerantTrace.parse({
  ...blockedTrace,
  interaction_id: 'msg-b2',
  rules_evaluated: [{ ...blockedTrace.rules_evaluated[0], result: 'allowed', reason: 'Within the limit.' }],
  decision: 'proceed',
  response: { type: 'message', message: 'Your dispute of 900 is filed.' },
});

/** An export holding a thread (task-1) and its branch (task-2, a rerun of its second turn). */
export function familyDocument(): ShareDocument {
  const branchTurns: Turn[] = [
    { ...turns[0]!, id: 'msg-b1' },
    {
      ...turns[1]!,
      id: 'msg-b2',
      userText: 'Dispute the 900 charge from Acme Widgets on card 4242',
      replyText: 'Your dispute of 900 is filed.',
      decision: 'proceed',
      trace: allowedTrace,
      bundleHash: 'abcdef0123456789',
    },
  ];
  return buildShareDocument({
    kind: 'export',
    focus: { task: 'task-1' },
    threads: [
      { id: 'task-1', record: { title: 'Disputes', agent_id: 'card-disputes' }, turns },
      { id: 'task-2', record: { title: 'Disputes, 900', agent_id: 'card-disputes' }, turns: branchTurns },
    ],
    lineage: [
      {
        task_id: 'task-2',
        parent_task_id: 'task-1',
        parent_interaction_id: 'msg-2',
        edited_text: 'Dispute the 900 charge from Acme Widgets on card 4242',
        original_text: 'Dispute the 1250 charge from Acme Widgets on card 4242',
        bundle_hash: 'abcdef0123456789',
        version_id: null,
        version_tag: null,
        created_at: '2025-01-02T03:05:00.000Z',
      },
    ],
    now: new Date('2025-01-02T03:06:00.000Z'),
  });
}
