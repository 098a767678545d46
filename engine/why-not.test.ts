import { describe, expect, it } from 'vitest';
import { generateBundle, word } from '../bench/lib/generated-bundle';
import { exampleBundle } from '../server/agents/converse';
import { recordConversation, recordedTurns, type RecordedTurnRun } from './fixtures/conversations.fixture';
import { applyBundleChange, whyNot, type BundleChange } from './why-not';
import { whatIf, type ValueEdit } from './what-if';
import { diffOutcomes, turnOutcome } from './impact/diff';

const CLOCK = '2025-03-15T12:00:00.000Z';

/** The turn decided again with one change, independently of whyNot's own verification (a changed bundle compiled in full). */
function runWith(t: RecordedTurnRun, change: ValueEdit | BundleChange) {
  const input = {
    bundle: t.bundle,
    state: t.stateBefore,
    clock: t.clock,
    userId: 'user-1',
    recorded: t.output.trace,
  };
  return 'op' in change
    ? whatIf({ ...input, bundle: applyBundleChange(t.bundle, change), edits: [] })
    : whatIf({ ...input, edits: [change] });
}
const decideWith = (t: RecordedTurnRun, change: ValueEdit | BundleChange) =>
  runWith(t, change).trace.decision;

const whyNotOf = (t: RecordedTurnRun) =>
  whyNot({
    bundle: t.bundle,
    state: t.stateBefore,
    clock: t.clock,
    userId: 'user-1',
    recorded: t.output.trace,
  });

describe('every suggested change gives the decision it promises, and thresholds are exact', () => {
  const turns = recordedTurns();
  let suggested = 0;
  let pairs = 0;
  for (const t of turns)
    it(t.name, () => {
      const out = whyNotOf(t);
      expect(out.decision).toBe(t.output.trace.decision);
      for (const item of out.items) {
        suggested += 1;
        expect(item.decision).not.toBe(out.decision);
        const applied = item.edits
          ? whatIf({
              bundle: t.bundle,
              state: t.stateBefore,
              clock: t.clock,
              userId: 'user-1',
              recorded: t.output.trace,
              edits: item.edits,
            })
          : runWith(t, (item.edit ?? item.change)!);
        expect(applied.trace.decision).toBe(item.decision);
        expect(applied.reply).toBe(item.reply);
        expect(
          diffOutcomes(
            turnOutcome(t.output.reply, t.output.trace),
            turnOutcome(applied.reply, applied.trace),
          ),
        ).toEqual(item.differences);
        expect(item.differences[0]).toEqual({
          kind: 'decision',
          subject: '',
          before: out.decision,
          after: item.decision,
        });
        if (item.boundary) expect(decideWith(t, item.boundary.step_back)).not.toBe(item.decision);
        if (item.edits) {
          pairs += 1;
          // A pair is listed only for a decision no single change listed gives, and each change alone does not.
          expect(out.items.filter((i) => !i.edits).map((i) => i.decision)).not.toContain(item.decision);
          for (const e of item.edits) expect(decideWith(t, e)).not.toBe(item.decision);
        }
      }
    });
  it('finds changes across the example agents, pairs among them', () => {
    expect(suggested).toBeGreaterThan(20);
    expect(pairs).toBeGreaterThan(0);
  });
});

const first = (text: string) =>
  recordConversation({
    name: 'x',
    bundle: exampleBundle('card-disputes'),
    clock: CLOCK,
    messages: [text],
  })[0]!;

describe('the blocked 10-day dispute', () => {
  const out = whyNotOf(first('I want to dispute a charge of $120 at Coffee Corner from 10 days ago'));

  it('offers the 8-day date boundary, computed from the window', () => {
    const date = out.items.find((i) => i.edit?.code === 'transaction-date');
    expect(date).toMatchObject({
      family: 'data',
      decision: 'request_information',
      rule: 'DISPUTE_WINDOW',
      summary: 'transaction-date on or after 2025-03-07, i.e. ≤ 8 days ago (now 2025-03-05)',
      edit: { code: 'transaction-date', value: '2025-03-07' },
      boundary: { step_back: { code: 'transaction-date', value: '2025-03-06' } },
    });
    expect(date!.differences).toContainEqual({
      kind: 'rule',
      subject: 'DISPUTE_WINDOW',
      before: 'blocked',
      after: 'allowed',
    });
  });

  it('offers the window of 10 days or more, and switching the rule off', () => {
    expect(out.items.map((i) => i.summary)).toEqual(
      expect.arrayContaining([
        'DISPUTE_WINDOW with a window of 10 days or more (now 8)',
        'DISPUTE_WINDOW switched off',
      ]),
    );
    const window = out.items.find((i) => i.summary.startsWith('DISPUTE_WINDOW with a window'));
    expect(window?.change).toMatchObject({ op: 'set', value: 10 });
    expect(window?.boundary?.step_back).toMatchObject({ op: 'set', value: 9 });
  });
});

describe('the $620 dispute blocked by the identity rule', () => {
  const out = whyNotOf(first('dispute a $620 charge from yesterday'));
  it('offers 500 as the amount boundary and verifying the identity', () => {
    expect(out.items.map((i) => i.summary)).toEqual(
      expect.arrayContaining([
        'transaction-amount at most 500 (now 620)',
        'identity-verified true (now false)',
        'VERIFIED_IDENTITY_ABOVE_500 with a threshold of 620 or more (now 500)',
      ]),
    );
  });
});

describe('a turn asking for information', () => {
  it('offers the missing value supplied and the parameter made optional', () => {
    const t = recordConversation({
      name: 'x',
      bundle: exampleBundle('card-disputes'),
      clock: CLOCK,
      messages: ['I want to dispute a charge of $120 at Coffee Corner from 3 days ago'],
    })[0]!;
    expect(t.output.trace.decision).toBe('request_information');
    const out = whyNotOf(t);
    expect(out.items.some((i) => i.family === 'data')).toBe(true);
    for (const item of out.items) expect(item.decision).not.toBe('request_information');
  });
});

describe('generated bundles: every suggestion verified, every threshold exact', () => {
  const bundle = generateBundle({ tools: 12, params: 24, globalRules: 24, rulesPerTool: 6 });
  const turns = [0, 3, 5, 8].flatMap((tool) =>
    recordConversation({
      name: `generated TOOL_${tool}`,
      bundle,
      clock: CLOCK,
      messages: [
        `I need help with ${word(tool)} ${word(tool + 7)}: $${90 + tool * 7} from ${tool + 4} days ago, ID-${1000 + ((tool * 3) % 24)}`,
        'yes, go ahead',
      ],
    }),
  );
  for (const t of turns)
    it(t.name, () => {
      const out = whyNotOf(t);
      for (const item of out.items) {
        if (item.edits) {
          // A pair: both changes together give the decision, neither alone does.
          expect(
            whatIf({
              bundle: t.bundle,
              state: t.stateBefore,
              clock: t.clock,
              userId: 'user-1',
              recorded: t.output.trace,
              edits: item.edits,
            }).trace.decision,
          ).toBe(item.decision);
          for (const e of item.edits) expect(decideWith(t, e)).not.toBe(item.decision);
          continue;
        }
        expect(decideWith(t, (item.edit ?? item.change)!)).toBe(item.decision);
        if (item.boundary) expect(decideWith(t, item.boundary.step_back)).not.toBe(item.decision);
      }
    });
  it('suggests changes on them', () => {
    expect(turns.map((t) => whyNotOf(t).items.length).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
  });
});

describe('a decision only two values changed together give', () => {
  const t = recordedTurns().find(
    (r) => r.name === 'shop-returns/v1-30-day-returns/track-parcel.case.json#0',
  )!;
  const out = whyNotOf(t);

  it('lists the pair, verified, when no single change gives it', () => {
    expect(out.decision).toBe('request_information');
    const pair = out.items.find((i) => i.edits);
    expect(pair).toMatchObject({
      family: 'data',
      decision: 'proceed',
      summary: expect.stringMatching(/^parcel-number given, e\.g\. .+ and contact-email given, e\.g\. .+$/),
    });
    expect(pair!.edits!.map((e) => e.code)).toEqual(['parcel-number', 'contact-email']);
    expect(out.items.filter((i) => !i.edits).map((i) => i.decision)).not.toContain('proceed');
    for (const e of pair!.edits!) expect(decideWith(t, e)).not.toBe('proceed');
  });
});
