/**
 * "Save as test": a thread's turns up to the chosen one become an editable case draft, with
 * expectations prefilled from what happened (the decision, the deciding rules' results, the tools
 * invoked, the parameters filled in that turn, the start of the reply); the draft becomes a
 * validated `TestCase` with the format's own validator. Pure: no React, no I/O.
 *
 * Bounded: a turn lists at most MAX_LISTED rules and parameters (the deciding ones and those
 * filled in the turn first); the rest are counted, not listed.
 */
import { decisionCause } from '../../lib/decision-cause';
import {
  MAX_TURNS,
  TEST_CASE_FORMAT,
  TEST_CASE_FORMAT_VERSION,
  validateTestCase,
  type TestCase,
  type TurnExpectation,
} from '../../lib/test-cases';

export const MAX_LISTED = 50;
const MAX_REPLY_SNIPPET = 80;

/** The parts of a chat turn a case is made from. */
export interface SourceTurn {
  id: string;
  userText: string;
  replyText: string;
  decision: string;
  textUnavailable?: boolean;
  trace?: {
    decision: string;
    rules_evaluated: readonly { rule_id: string; predicate: string; result: string; reason: string }[];
    tools_invoked: readonly { tool: string; result: string }[];
    entities: Readonly<Record<string, unknown>>;
    parameters_extracted: readonly string[];
    decisions?: unknown;
  };
  versionId?: string;
  bundleHash?: string | null;
}

export interface RuleDraft {
  id: string;
  result: string;
  checked: boolean;
  /** One of the rules that decided the turn. */
  deciding: boolean;
}

export interface ParameterDraft {
  code: string;
  /** The value as JSON text (editable). */
  value: string;
  checked: boolean;
}

export interface TurnDraft {
  say: string;
  decision: string;
  rules: RuleDraft[];
  /** Rules evaluated in the turn but not listed (beyond MAX_LISTED). */
  moreRules: number;
  tools: { checked: boolean; text: string };
  parameters: ParameterDraft[];
  moreParameters: number;
  reply: { checked: boolean; text: string };
}

export interface CaseDraft {
  name: string;
  /** Why the case exists (a what-if says what it changed and how the case states it). */
  description?: string;
  agentId: string;
  versionId?: string;
  bundleHash?: string;
  clock: string;
  userId?: string;
  source: { task_id: string; interaction_id: string };
  turns: TurnDraft[];
}

export interface PrefillInput {
  taskId: string;
  title: string;
  agentId: string;
  userId?: string;
  /** The task's clock (ISO-8601). */
  clock: string;
  /** The thread's turns in order; the case takes them up to and including `turnId`. */
  turns: readonly SourceTurn[];
  turnId: string;
}

export type PrefillResult = { ok: true; draft: CaseDraft } | { ok: false; reason: string };

/** The reply's first sentence (or line), cut to a short, stable snippet. */
export function replySnippet(reply: string): string {
  const line = reply.trim().split('\n')[0] ?? '';
  const stop = line.search(/[.!?](\s|$)/);
  const sentence = (stop > 0 ? line.slice(0, stop + 1) : line).trim();
  if (sentence.length <= MAX_REPLY_SNIPPET) return sentence;
  const cut = sentence.slice(0, MAX_REPLY_SNIPPET);
  const space = cut.lastIndexOf(' ');
  return space > MAX_REPLY_SNIPPET / 2 ? cut.slice(0, space) : cut;
}

function json(value: unknown): string {
  return value === undefined ? 'null' : JSON.stringify(value);
}

export function prefillTurn(turn: SourceTurn): TurnDraft {
  const trace = turn.trace;
  const decision = trace?.decision || turn.decision;
  const rules: RuleDraft[] = [];
  let moreRules = 0;
  if (trace) {
    const deciding = new Set(
      (decisionCause(trace)?.ruleIndices ?? []).map((i) => trace.rules_evaluated[i]?.rule_id ?? ''),
    );
    const seen = new Set<string>();
    const decidingFirst = [...trace.rules_evaluated].sort(
      (a, b) => Number(deciding.has(b.rule_id)) - Number(deciding.has(a.rule_id)),
    );
    for (const r of decidingFirst) {
      if (!r.rule_id || seen.has(r.rule_id)) continue;
      seen.add(r.rule_id);
      if (rules.length >= MAX_LISTED) {
        moreRules += 1;
        continue;
      }
      const isDeciding = deciding.has(r.rule_id);
      rules.push({ id: r.rule_id, result: r.result, checked: isDeciding, deciding: isDeciding });
    }
  }
  const parameters: ParameterDraft[] = [];
  let moreParameters = 0;
  if (trace) {
    const filled = new Set(trace.parameters_extracted);
    const keys = Object.keys(trace.entities);
    // `entity.parameter` keys count as filled when their parameter was extracted in the turn.
    const isFilled = (k: string) => filled.has(k) || filled.has(k.slice(k.lastIndexOf('.') + 1));
    keys.sort((a, b) => Number(isFilled(b)) - Number(isFilled(a)));
    for (const code of keys) {
      if (parameters.length >= MAX_LISTED) {
        moreParameters += 1;
        continue;
      }
      const value = trace.entities[code];
      parameters.push({ code, value: json(value), checked: isFilled(code) && value !== null });
    }
  }
  const tools = trace ? [...new Set(trace.tools_invoked.map((t) => t.tool))] : [];
  const snippet = replySnippet(turn.replyText);
  return {
    say: turn.userText,
    decision,
    rules,
    moreRules,
    tools: { checked: Boolean(trace), text: tools.join(', ') },
    parameters,
    moreParameters,
    reply: { checked: snippet.length > 0, text: snippet },
  };
}

export function prefillCase(input: PrefillInput): PrefillResult {
  const end = input.turns.findIndex((t) => t.id === input.turnId);
  if (end < 0) return { ok: false, reason: 'This turn is not in the thread any more. Reload the thread.' };
  if (end + 1 > MAX_TURNS)
    return { ok: false, reason: `A case holds at most ${MAX_TURNS} turns; this is turn ${end + 1}.` };
  const turns = input.turns.slice(0, end + 1);
  const missing = turns.findIndex((t) => t.textUnavailable || !t.userText);
  if (missing >= 0)
    return {
      ok: false,
      reason: `Turn ${missing + 1}'s message is not known here (the server does not record texts and this browser did not send it), so the conversation cannot be replayed.`,
    };
  const last = turns.at(-1)!;
  return {
    ok: true,
    draft: {
      name: `${input.title || input.agentId} — turn ${end + 1}`,
      agentId: input.agentId,
      ...(last.versionId ? { versionId: last.versionId } : {}),
      ...(last.bundleHash ? { bundleHash: last.bundleHash } : {}),
      clock: input.clock,
      ...(input.userId ? { userId: input.userId } : {}),
      source: { task_id: input.taskId, interaction_id: last.id },
      turns: turns.map(prefillTurn),
    },
  };
}

/** What is known of the thread a turn belongs to: this browser's record and the service's task info. */
export interface ThreadFacts {
  taskId: string;
  turnId: string;
  turns: readonly SourceTurn[];
  /** This browser's record of the thread, when it keeps one. */
  thread?: { title?: string; agent_id?: string; user_id?: string; created_at?: string } | undefined;
  /** What the service keeps about the task (null or absent when it keeps nothing). */
  info?: { agent_id?: string; reference_clock?: string | undefined } | null | undefined;
  /** The agent when neither names it (a search result names its agent). */
  agentId?: string;
  /** Now (ISO-8601): the clock when nothing else says it. */
  now: string;
  /** The chosen turn as a what-if decided it: the case expects the what-if's outcome instead. */
  whatIf?: WhatIfTurn | undefined;
}

/**
 * A what-if of a turn, to be saved as a case. A case replays messages and cannot hold edited
 * values, so the turn's message is one that states them (`say`), and the values themselves are
 * expected as the turn's parameters: a replay that does not understand them so fails and says so.
 */
export interface WhatIfTurn {
  say: string;
  reply: string;
  trace: NonNullable<SourceTurn['trace']>;
  /** The rules the what-if changed: expected too (with their result in the what-if). */
  changedRules: readonly string[];
  /** The edited values (parameter code → value, null: not known), expected after the turn. */
  values: Readonly<Record<string, unknown>>;
  /** What the case checks, in words. */
  description: string;
}

/** The what-if's turn in place of the recorded one, its edited values and changed rules expected. */
function withWhatIf(draft: CaseDraft, whatIf: WhatIfTurn): CaseDraft {
  const last = draft.turns.at(-1)!;
  const changed = new Set(whatIf.changedRules);
  const codes = Object.keys(whatIf.values);
  // The stated values replace the turn's own expectation of them (by code or `entity.code`).
  const parameters = last.parameters.filter(
    (p) => !codes.some((c) => p.code === c || p.code.endsWith(`.${c}`)),
  );
  const stated = Object.entries(whatIf.values).map(([code, value]) => ({
    code,
    value: json(value),
    checked: true,
  }));
  return {
    ...draft,
    name: `${draft.name} (what if)`,
    description: whatIf.description,
    turns: [
      ...draft.turns.slice(0, -1),
      {
        ...last,
        rules: last.rules.map((r) => (changed.has(r.id) ? { ...r, checked: true } : r)),
        parameters: [...stated, ...parameters],
      },
    ],
  };
}

/**
 * The case draft for a thread's turn from what is known of the thread: the agent from the
 * service, else this browser's record, else the caller; the clock from the service, else the
 * thread's creation time, else now.
 */
export function prefillFromThread(facts: ThreadFacts): PrefillResult {
  const { thread, info } = facts;
  const agentId = info?.agent_id || thread?.agent_id || facts.agentId || '';
  if (!agentId)
    return {
      ok: false,
      reason:
        'This thread’s agent is not known here, so it cannot be saved as a test. Open it from the thread list.',
    };
  const whatIf = facts.whatIf;
  const prefill = prefillCase({
    taskId: facts.taskId,
    title: thread?.title ?? '',
    agentId,
    ...(thread?.user_id ? { userId: thread.user_id } : {}),
    clock: info?.reference_clock ?? thread?.created_at ?? facts.now,
    turns: whatIf
      ? facts.turns.map((t) =>
          t.id === facts.turnId
            ? {
                ...t,
                userText: whatIf.say,
                replyText: whatIf.reply,
                decision: whatIf.trace.decision,
                trace: whatIf.trace,
                textUnavailable: false,
              }
            : t,
        )
      : facts.turns,
    turnId: facts.turnId,
  });
  return prefill.ok && whatIf ? { ok: true, draft: withWhatIf(prefill.draft, whatIf) } : prefill;
}

export type BuildResult = { ok: true; testCase: TestCase } | { ok: false; errors: string[] };

/** The draft as a validated case: every problem named with its turn. */
export function buildCase(draft: CaseDraft): BuildResult {
  const errors: string[] = [];
  const turns = draft.turns.map((t, i) => {
    const expect: TurnExpectation = { decision: t.decision.trim() };
    const rules = t.rules.filter((r) => r.checked);
    if (rules.length) {
      const record: Record<string, string> = Object.create(null) as Record<string, string>;
      for (const r of rules) record[r.id] = r.result.trim();
      expect.rules = { ...record };
    }
    if (t.tools.checked)
      expect.tools_invoked = t.tools.text
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
    const params = t.parameters.filter((p) => p.checked);
    if (params.length) {
      const record: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
      for (const p of params) {
        try {
          record[p.code] = JSON.parse(p.value) as unknown;
        } catch {
          errors.push(
            `turns[${i}].expect.parameters.${p.code}: ${JSON.stringify(p.value)} is not a JSON value (write text in "quotes")`,
          );
        }
      }
      expect.parameters = { ...record };
    }
    if (t.reply.checked && t.reply.text.trim()) expect.reply_contains = [t.reply.text];
    return { say: t.say, expect };
  });
  const candidate = {
    format: TEST_CASE_FORMAT,
    format_version: TEST_CASE_FORMAT_VERSION,
    name: draft.name.trim(),
    ...(draft.description?.trim() ? { description: draft.description.trim() } : {}),
    agent_id: draft.agentId,
    ...(draft.versionId ? { version_id: draft.versionId } : {}),
    ...(draft.bundleHash ? { bundle_hash: draft.bundleHash } : {}),
    clock: draft.clock.trim(),
    ...(draft.userId ? { user_id: draft.userId } : {}),
    source: draft.source,
    turns,
  };
  const checked = validateTestCase(candidate);
  if (!checked.ok) errors.push(...checked.errors);
  if (errors.length || !checked.ok) return { ok: false, errors };
  return { ok: true, testCase: checked.value };
}
