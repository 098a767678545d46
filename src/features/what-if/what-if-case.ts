/**
 * A what-if as a test case's turn (pure): a case replays messages and cannot hold edited values,
 * so the turn's message states them (the same message "Open as branch" offers), the what-if's
 * decision, rules and reply are expected, and the stated values are expected as the turn's
 * parameters, so a replay that does not understand them as the what-if assumed fails and says so.
 */
import type { ValueEditBody, WhatIfResponse } from '../../contract/what-if';
import { readTrace } from '../../contract/trace';
import { editsText, messageStatingEdits } from './what-if-model';

export interface WhatIfCaseTurn {
  say: string;
  reply: string;
  trace: ReturnType<typeof readTrace>;
  changedRules: string[];
  values: Record<string, unknown>;
  description: string;
}

export function whatIfCaseTurn(input: {
  edits: readonly ValueEditBody[];
  /** The turn's own message. */
  message: string;
  turnNumber: number;
  recordedDecision: string;
  result: { decision: string; reply: string; trace: unknown; differences: WhatIfResponse['differences'] };
}): WhatIfCaseTurn {
  const { edits, result } = input;
  const values: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const e of edits) values[e.code] = 'missing' in e ? null : e.value;
  return {
    say: messageStatingEdits(edits, input.message),
    reply: result.reply,
    trace: readTrace(result.trace),
    changedRules: result.differences.filter((d) => d.kind === 'rule').map((d) => d.subject),
    values: { ...values },
    description:
      `What if turn ${input.turnNumber} had ${editsText(edits)}: the reference engine decided the turn again ` +
      `with what it understood and the tool it chose held fixed (${input.recordedDecision} → ${result.decision}). ` +
      'A case replays messages, so the values are stated in the message and expected as parameters: ' +
      'the replay understands the message again, and fails if it does not read them so.',
  };
}
