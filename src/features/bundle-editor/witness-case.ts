/**
 * A test case from a witness conversation (a difference's or a lint finding's): the witness's
 * messages as turns at the witness's clock. The last turn expects the head side's decision and
 * deciding rules when the analysis gave them (a difference); every other turn expects the
 * decision the engine took when the messages were replayed with the head bundle. Pure: the replay
 * is done by the caller (in the worker) and handed in.
 */
import type { SideOutcome, Witness } from '../../contract/analysis';
import {
  TEST_CASE_FORMAT,
  TEST_CASE_FORMAT_VERSION,
  validateTestCase,
  type TestCase,
} from '../../lib/test-cases';

/** What the engine decided for one replayed message (see edit-analysis.worker.ts). */
export interface WitnessTurn {
  decision: string;
  /** rule id → result, for the rules the turn evaluated. */
  rules: Readonly<Record<string, string>>;
}

export interface WitnessCaseInput {
  agentId: string;
  /** The case's name, e.g. the region in words. */
  name: string;
  description?: string;
  witness: Witness;
  /** Each message's replay with the head bundle, in order. */
  replayed: readonly WitnessTurn[];
  /** The head side's outcome of a difference: the last turn's expectation. */
  expected?: SideOutcome;
}

export type WitnessCaseResult = { ok: true; testCase: TestCase } | { ok: false; errors: string[] };

/** The result a deciding rule has when the turn reaches `decision` and the replay does not say. */
function decidingResult(decision: string): string {
  if (decision === 'block_with_explanation') return 'blocked';
  if (decision === 'request_confirmation') return 'requires_confirmation';
  return 'allowed';
}

const NAME_MAX = 200;

export function caseFromWitness(input: WitnessCaseInput): WitnessCaseResult {
  const messages = input.witness.messages ?? [];
  if (messages.length === 0) return { ok: false, errors: ['The witness has no conversation to replay.'] };
  if (input.replayed.length !== messages.length)
    return {
      ok: false,
      errors: [`The replay answered ${input.replayed.length} of the witness's ${messages.length} messages.`],
    };
  const last = messages.length - 1;
  const turns = messages.map((say, i) => {
    const replayed = input.replayed[i]!;
    if (i !== last || !input.expected) return { say, expect: { decision: replayed.decision } };
    const { decision, rules } = input.expected;
    const expectedRules: Record<string, string> = {};
    for (const rule of rules) expectedRules[rule] = replayed.rules[rule] ?? decidingResult(decision);
    return {
      say,
      expect: { decision, ...(rules.length > 0 ? { rules: expectedRules } : {}) },
    };
  });
  const name = input.name.length > NAME_MAX ? `${input.name.slice(0, NAME_MAX - 1)}…` : input.name;
  const parsed = validateTestCase({
    format: TEST_CASE_FORMAT,
    format_version: TEST_CASE_FORMAT_VERSION,
    name,
    ...(input.description ? { description: input.description } : {}),
    agent_id: input.agentId,
    clock: input.witness.clock,
    turns,
  });
  return parsed.ok ? { ok: true, testCase: parsed.value } : { ok: false, errors: parsed.errors };
}
