/**
 * Every example of the bundle guide (`docs/bundle/*.md`) that shows a bundle and a message runs
 * here against the engine, so a changed behaviour fails the example's test, not a reader.
 *
 * An example is a fenced block right after a comment naming what it runs with:
 *
 *     <!-- example: examples/hotel.json -->            a conversation with that bundle (or project folder)
 *     <!-- example: agent:card-disputes@v2 clock=2025-03-15T12:00:00Z -->   an example agent's version
 *
 * A conversation block (the syntax is written for readers first):
 *
 *     welcome: Welcome to …                  (before the first message) the welcome contains it
 *     starters: Book a room | Book a suite   the starter suggestions, exactly
 *     > I'd like to book a suite             a user message; the lines below are what its turn does
 *     decision: request_confirmation
 *     rules: MAX_NIGHTS allowed, HELD not_evaluated
 *     tools_invoked: BOOK_ROOM               (or `none`)
 *     integrations: card-hold-api not_called, booking-api success
 *     values: nights = 3, room-type = suite  (a value not JSON is a text; `null`: not filled)
 *     reply: Booked! …                       the whole reply (`reply contains:` / `reply not contains:` a part)
 *     suggestions: Yes, go ahead | No, cancel
 *     what if transaction-date = 2025-03-12: request_information, DISPUTE_WINDOW allowed
 *
 * A line starting with two spaces continues the line above it (a long reply). The expectations
 * are the test case format's (`src/lib/test-cases`), compared by the same code as `threadline test`.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Bundle } from '../../src/contract/bundle';
import { assembleProject } from '../../src/lib/bundle/assemble';
import { validateBundle } from '../../src/lib/bundle/validate';
import {
  compareTurn,
  compareWelcome,
  describeMismatch,
  type TurnExpectation,
  type WelcomeExpectation,
} from '../../src/lib/test-cases';
import { projectFiles } from '../../server/agents/registry';
import { exampleBundle } from '../../server/agents/converse';
import { engine } from '../../engine';
import { whatIf, type ValueEdit } from '../../engine/what-if';

const DOCS = fileURLToPath(new URL('../../docs/bundle/', import.meta.url));
const DEFAULT_CLOCK = '2025-03-15T12:00:00Z';

interface WhatIf {
  edits: ValueEdit[];
  expect: TurnExpectation;
}
interface Turn {
  say: string;
  expect: TurnExpectation;
  reply?: string;
  whatIfs: WhatIf[];
}
interface Example {
  file: string;
  line: number;
  runsWith: string;
  clock: string;
  welcome: WelcomeExpectation;
  turns: Turn[];
}

const list = (text: string, sep: string) =>
  text
    .split(sep)
    .map((s) => s.trim())
    .filter(Boolean);
const none = (text: string) => (text.trim() === 'none' ? [] : null);
const valueOf = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
};
/** `ID result, ID result` → `{ID: result}`. */
const pairs = (text: string): Record<string, string> =>
  Object.fromEntries(
    list(text, ',').map((p) => {
      const at = p.lastIndexOf(' ');
      if (at < 0) throw new Error(`expected "NAME result", got ${JSON.stringify(p)}`);
      return [p.slice(0, at).trim(), p.slice(at + 1).trim()];
    }),
  );
/** `code = value, code = value` → `{code: value}`. */
const assignments = (text: string): Record<string, unknown> =>
  Object.fromEntries(
    list(text, ',').map((p) => {
      const [code, ...rest] = p.split('=');
      if (!rest.length) throw new Error(`expected "code = value", got ${JSON.stringify(p)}`);
      return [code!.trim(), valueOf(rest.join('=').trim())];
    }),
  );

/** Joins continuation lines (two leading spaces) to the line above. */
function logicalLines(body: string): string[] {
  const lines: string[] = [];
  for (const raw of body.split('\n')) {
    if (raw.startsWith('  ') && lines.length) lines[lines.length - 1] += ` ${raw.trim()}`;
    else if (raw.trim()) lines.push(raw.trim());
  }
  return lines;
}

/** Reads one turn expectation line into `e`; false when the line is not one. */
function expectation(e: TurnExpectation & { reply?: string }, key: string, value: string): boolean {
  switch (key) {
    case 'decision':
      e.decision = value;
      return true;
    case 'rules':
      e.rules = { ...e.rules, ...pairs(value) };
      return true;
    case 'tools_invoked':
      e.tools_invoked = none(value) ?? list(value, ',');
      return true;
    case 'integrations':
      e.integrations = { ...e.integrations, ...(pairs(value) as TurnExpectation['integrations']) };
      return true;
    case 'values':
      e.parameters = { ...e.parameters, ...assignments(value) };
      return true;
    case 'reply':
      e.reply = value;
      return true;
    case 'reply contains':
      (e.reply_contains ??= []).push(value);
      return true;
    case 'reply not contains':
      (e.reply_not_contains ??= []).push(value);
      return true;
    case 'suggestions':
      e.suggestions = none(value) ?? list(value, '|');
      return true;
    default:
      return false;
  }
}

function parseConversation(body: string, where: string): Pick<Example, 'welcome' | 'turns'> {
  const welcome: WelcomeExpectation = {};
  const turns: Turn[] = [];
  for (const line of logicalLines(body)) {
    const fail = (why: string) => {
      throw new Error(`${where}: ${why}: ${JSON.stringify(line)}`);
    };
    if (line.startsWith('> ')) {
      turns.push({ say: line.slice(2).trim(), expect: { decision: '' }, whatIfs: [] });
      continue;
    }
    const turn = turns[turns.length - 1];
    const whatIf = /^what if (.+?): (.+)$/.exec(line);
    if (whatIf) {
      if (!turn) fail('a what-if before any message');
      const [decision, ...rules] = list(whatIf[2]!, ',');
      const edits = Object.entries(assignments(whatIf[1]!.replaceAll(' and ', ', '))).map(
        ([code, value]): ValueEdit =>
          value === null ? { code, missing: true } : { code, value: value as string | number | boolean },
      );
      turn!.whatIfs.push({
        edits,
        expect: { decision: decision!, ...(rules.length ? { rules: pairs(rules.join(',')) } : {}) },
      });
      continue;
    }
    const colon = line.indexOf(': ');
    if (colon < 0) fail('not an example line');
    const key = line.slice(0, colon);
    const value = line.slice(colon + 2).trim();
    if (!turn) {
      if (key === 'welcome') (welcome.message_contains ??= []).push(value);
      else if (key === 'starters') welcome.suggestions = none(value) ?? list(value, '|');
      else fail('before the first message, only "welcome:" and "starters:"');
      continue;
    }
    const e = turn.expect as TurnExpectation & { reply?: string };
    if (!expectation(e, key, value)) fail(`unknown expectation "${key}"`);
    if (e.reply !== undefined) {
      turn.reply = e.reply;
      delete e.reply;
    }
  }
  for (const t of turns)
    if (!t.expect.decision) throw new Error(`${where}: ${JSON.stringify(t.say)} has no decision`);
  if (!turns.length) throw new Error(`${where}: an example with no message`);
  return { welcome, turns };
}

const MARK = /^<!-- example: (.+?) -->$/;

/** Every marked block of one markdown file, and every unmarked block that looks like a transcript. */
function readDoc(file: string): { examples: Example[]; unmarked: number[] } {
  const lines = readFileSync(join(DOCS, file), 'utf8').split('\n');
  const examples: Example[] = [];
  const unmarked: number[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i]!.trimStart().startsWith('```')) continue;
    const open = i;
    const indent = lines[i]!.length - lines[i]!.trimStart().length;
    let end = i + 1;
    while (end < lines.length && lines[end]!.trim() !== '```') end++;
    const body = lines
      .slice(open + 1, end)
      .map((l) => l.slice(indent))
      .join('\n');
    let before = open - 1;
    while (before >= 0 && !lines[before]!.trim()) before--;
    const mark = before >= 0 ? MARK.exec(lines[before]!.trim()) : null;
    const where = `${file}:${open + 1}`;
    if (mark) {
      const [runsWith, ...options] = mark[1]!.split(/\s+/);
      const clock = options.find((o) => o.startsWith('clock='))?.slice(6) ?? DEFAULT_CLOCK;
      examples.push({ file, line: open + 1, runsWith: runsWith!, clock, ...parseConversation(body, where) });
    } else if (/^> |→/m.test(body)) unmarked.push(open + 1);
    i = end;
  }
  return { examples, unmarked };
}

const bundles = new Map<string, Bundle>();
/** `agent:<id>[@<tag>]`, a bundle file or a project folder under docs/bundle. */
function bundleFor(runsWith: string): Bundle {
  let b = bundles.get(runsWith);
  if (b) return b;
  if (runsWith.startsWith('agent:')) {
    const [id, tag] = runsWith.slice(6).split('@');
    b = exampleBundle(id!, tag ? { version_tag: tag } : {});
  } else {
    const path = join(DOCS, runsWith);
    if (!existsSync(path)) throw new Error(`no ${runsWith} under docs/bundle`);
    if (statSync(path).isDirectory()) {
      const { bundle, issues } = assembleProject(projectFiles(path));
      if (issues.some((i) => i.severity === 'error')) throw new Error(`${runsWith}: ${issues[0]!.message}`);
      b = bundle;
    } else b = JSON.parse(readFileSync(path, 'utf8')) as Bundle;
  }
  bundles.set(runsWith, b);
  return b;
}

const DOC_FILES = readdirSync(DOCS).filter((f) => f.endsWith('.md'));
const docs = DOC_FILES.map((f) => [f, readDoc(f)] as const);

describe('the bundle guide runs as written', () => {
  it('every block that shows a conversation is a checked example', () => {
    const unmarked = docs.flatMap(([f, d]) => d.unmarked.map((l) => `${f}:${l}`));
    expect(unmarked, 'mark each with <!-- example: … --> (see tests/docs/guide-examples.test.ts)').toEqual(
      [],
    );
    expect(docs.reduce((n, [, d]) => n + d.examples.length, 0)).toBeGreaterThan(10);
  });

  it('every bundle the examples run with validates without issues', () => {
    const used = new Set(docs.flatMap(([, d]) => d.examples.map((e) => e.runsWith)));
    for (const runsWith of used) expect(validateBundle(bundleFor(runsWith)), runsWith).toEqual([]);
  });

  for (const [file, doc] of docs) {
    for (const ex of doc.examples)
      it(`${file}:${ex.line} (${ex.runsWith}): ${ex.turns.map((t) => t.say).join(' / ')}`, () => {
        const bundle = bundleFor(ex.runsWith);
        const userId = 'user-1';
        const problems: string[] = [];
        if (ex.welcome.message_contains || ex.welcome.suggestions) {
          const w = engine.welcome(bundle, ex.clock);
          for (const m of compareWelcome(ex.welcome, {
            message: w.welcome_message,
            suggestions: w.suggestions,
          }))
            problems.push(`welcome: ${describeMismatch(m)}`);
        }
        let state = engine.initialState(bundle, ex.clock, userId);
        for (const [i, turn] of ex.turns.entries()) {
          const input = {
            bundle,
            state,
            text: turn.say,
            clock: ex.clock,
            interactionId: `msg-${i + 1}`,
            userId,
          };
          const out = engine.runTurn(input);
          const at = `> ${turn.say}`;
          for (const m of compareTurn(turn.expect, {
            reply: out.reply,
            trace: out.trace,
            suggestions: out.suggestions,
          }))
            problems.push(`${at}: ${describeMismatch(m)}`);
          if (turn.reply !== undefined && out.reply !== turn.reply)
            problems.push(
              `${at}: reply: expected ${JSON.stringify(turn.reply)}, got ${JSON.stringify(out.reply)}`,
            );
          for (const w of turn.whatIfs) {
            const again = whatIf({
              bundle,
              state,
              clock: ex.clock,
              userId,
              recorded: out.trace,
              edits: w.edits,
            });
            for (const m of compareTurn(w.expect, { reply: again.reply, trace: again.trace }))
              problems.push(`${at}, what if ${JSON.stringify(w.edits)}: ${describeMismatch(m)}`);
          }
          state = out.state;
        }
        expect(problems).toEqual([]);
      });
  }
});
