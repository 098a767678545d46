/**
 * The test case format: one conversation replayed turn by turn, with what each turn must decide.
 * A case is diff-friendly JSON (`serializeTestCase` writes keys in a fixed order, two-space
 * indent, one trailing newline) and holds no credentials: the schema is strict, so an unknown
 * field (an API key among them) is refused rather than kept.
 */
import { z } from 'zod';
import { ClockDateTime } from '../../contract/api';

export const TEST_CASE_FORMAT = 'threadline-test-case';
export const TEST_CASE_FORMAT_VERSION = 1;
/** Bounds that keep a suite run linear and finite. */
export const MAX_TURNS = 200;
const MAX_MESSAGE = 20_000;

const Id = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z0-9._:-]+$/, 'use letters, digits and . _ : - only');

const JsonValue = z.unknown().describe('Any JSON value; compared by value (key order ignored).');

/** A rule expected not to be in the turn's trace at all (its tool stopped before it, or another tool ran). */
export const NOT_EVALUATED = 'not_evaluated';
/** What a case may expect of an integration in a turn: called (with any outcome) or not, or one outcome. */
const INTEGRATION_EXPECTATIONS = ['called', 'not_called', 'success', 'not_found', 'failure'] as const;

const Texts = z.array(z.string().min(1));

export const TurnExpectation = z
  .strictObject({
    decision: z
      .string()
      .min(1)
      .describe(
        'The decision the turn must reach: proceed, block_with_explanation, request_confirmation or request_information.',
      ),
    rules: z
      .record(z.string().min(1), z.string().min(1))
      .optional()
      .describe(
        `rule_id → result (allowed, blocked, requires_confirmation, not_applicable, error): each rule must be evaluated with that result; "${NOT_EVALUATED}": the rule must not be in the turn's trace.`,
      ),
    tools_invoked: z
      .array(z.string().min(1))
      .optional()
      .describe('Exactly the tools invoked in this turn, in any order; [] means none.'),
    parameters: z
      .record(z.string().min(1), JsonValue)
      .optional()
      .describe(
        'Parameter code (or entity.parameter) → the value the conversation holds after the turn; null means not filled.',
      ),
    integrations: z
      .record(z.string().min(1), z.enum(INTEGRATION_EXPECTATIONS))
      .optional()
      .describe(
        'Integration code → called (at least once, by the tool or by an API rule), not_called, or the outcome of a call (success, not_found, failure).',
      ),
    reply_contains: Texts.optional().describe("Texts the agent's reply must contain (case-sensitive)."),
    reply_not_contains: Texts.optional().describe(
      "Texts the agent's reply must not contain (case-sensitive).",
    ),
    suggestions: z
      .array(z.string())
      .optional()
      .describe("Exactly the reply's follow-up suggestions, in order; [] means none."),
  })
  .describe('What the turn must do: the decision, plus optional finer expectations.');
export type TurnExpectation = z.infer<typeof TurnExpectation>;

export const WelcomeExpectation = z
  .strictObject({
    message_contains: Texts.optional().describe('Texts the welcome message must contain (case-sensitive).'),
    message_not_contains: Texts.optional().describe('Texts the welcome message must not contain.'),
    suggestions: z
      .array(z.string())
      .optional()
      .describe('Exactly the starter suggestions offered with the welcome message, in order.'),
  })
  .describe('What the new thread must greet with, before the first message.');
export type WelcomeExpectation = z.infer<typeof WelcomeExpectation>;

const TestTurn = z.strictObject({
  say: z.string().min(1).max(MAX_MESSAGE).describe("The user's message."),
  expect: TurnExpectation,
});
type TestTurn = z.infer<typeof TestTurn>;

const CaseSource = z
  .strictObject({
    task_id: z.string().min(1).max(200).describe('The thread (task id) the case was saved from.'),
    interaction_id: z
      .string()
      .min(1)
      .max(200)
      .describe("The turn (interaction id) the case was saved from: the case's last turn."),
  })
  .describe('Where the case was saved from, so that a failing run can be compared with that thread.');
type CaseSource = z.infer<typeof CaseSource>;

export const TestCase = z
  .strictObject({
    format: z.literal(TEST_CASE_FORMAT).describe(`Always "${TEST_CASE_FORMAT}".`),
    format_version: z
      .literal(TEST_CASE_FORMAT_VERSION)
      .describe('Version of this format; 1 is the only one.'),
    name: z.string().min(1).max(200).describe('What the case checks, in words.'),
    description: z.string().max(5_000).optional().describe('Why the case exists.'),
    agent_id: Id.describe('The agent the conversation is held with.'),
    version_id: Id.optional().describe('Run against this version of the agent (unless a bundle is given).'),
    version_tag: Id.optional().describe(
      'Run against the version with this tag, e.g. v2 (unless a bundle is given).',
    ),
    bundle_hash: z
      .string()
      .regex(/^[0-9a-f]{64}$/, 'expected 64 lowercase hex digits (a bundle hash)')
      .optional()
      .describe('Hash of the bundle the case was recorded against; a run with another bundle says so.'),
    clock: ClockDateTime.describe(
      'The task\'s clock (ISO-8601): dates such as "10 days ago" are computed against it.',
    ),
    user_id: Id.optional().describe('The user id of the task; test-user when absent.'),
    source: CaseSource.optional(),
    welcome: WelcomeExpectation.optional(),
    turns: z
      .array(TestTurn)
      .min(1)
      .max(MAX_TURNS)
      .describe("The user's messages in order, each with what its turn must do."),
  })
  .refine((c) => c.version_id === undefined || c.version_tag === undefined, {
    message: 'give version_id or version_tag, not both',
    path: ['version_tag'],
  })
  .describe('A Threadline test case: one conversation and what each of its turns must decide.');
export type TestCase = z.infer<typeof TestCase>;

export type ParseResult = { ok: true; value: TestCase } | { ok: false; errors: string[] };

function where(path: readonly PropertyKey[]): string {
  let out = '';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : out ? `.${String(p)}` : String(p);
  return out || '(the case)';
}

function describeIssue(issue: z.core.$ZodIssue, value: unknown): string {
  const at = where(issue.path);
  if (issue.code === 'unrecognized_keys') {
    const keys = issue.keys.map((k) => `"${k}"`).join(', ');
    return `${at}: unknown field ${keys} (a case holds no credentials or extra data; see the format in the README)`;
  }
  if (issue.code === 'invalid_value' && issue.path.length === 1 && issue.path[0] === 'format_version')
    return `format_version: this Threadline reads version ${TEST_CASE_FORMAT_VERSION}; the file says ${JSON.stringify((value as { format_version?: unknown }).format_version)}`;
  if (issue.code === 'invalid_type' && /received undefined$/.test(issue.message))
    return `${at}: missing (required)`;
  return `${at}: ${issue.message}`;
}

/** Validates a parsed JSON value; every problem at once, each as `path: what is wrong`. */
export function validateTestCase(value: unknown): ParseResult {
  const parsed = TestCase.safeParse(value);
  if (parsed.success) return { ok: true, value: parsed.data };
  return { ok: false, errors: parsed.error.issues.map((i) => describeIssue(i, value)) };
}

/** Parses a case file's text. */
export function parseTestCase(text: string): ParseResult {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { ok: false, errors: [`not JSON: ${e instanceof Error ? e.message : String(e)}`] };
  }
  return validateTestCase(value);
}

const CASE_KEYS = [
  'format',
  'format_version',
  'name',
  'description',
  'agent_id',
  'version_id',
  'version_tag',
  'bundle_hash',
  'clock',
  'user_id',
  'source',
  'welcome',
  'turns',
] as const;
const EXPECT_KEYS = [
  'decision',
  'rules',
  'tools_invoked',
  'integrations',
  'parameters',
  'reply_contains',
  'reply_not_contains',
  'suggestions',
] as const;
const WELCOME_KEYS = ['message_contains', 'message_not_contains', 'suggestions'] as const;

function pick<T extends object>(value: T, keys: readonly (keyof T)[]): Partial<T> {
  const out: Partial<T> = {};
  for (const k of keys) if (value[k] !== undefined) out[k] = value[k];
  return out;
}

/** The case as stable JSON text: fixed key order, two-space indent, trailing newline. */
export function serializeTestCase(testCase: TestCase): string {
  const ordered = {
    ...pick(testCase, CASE_KEYS),
    ...(testCase.source
      ? { source: { task_id: testCase.source.task_id, interaction_id: testCase.source.interaction_id } }
      : {}),
    ...(testCase.welcome ? { welcome: pick(testCase.welcome, WELCOME_KEYS) } : {}),
    turns: testCase.turns.map((t) => ({ say: t.say, expect: pick(t.expect, EXPECT_KEYS) })),
  };
  return `${JSON.stringify(ordered, null, 2)}\n`;
}
