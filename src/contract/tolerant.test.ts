import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MessageIn, RerunIn, TaskIn, TraceListIn } from './api';
import { readTrace, TolerantTrace } from './trace';

/** The deployed service's send-message answer, as wire-compat describes it. */
const vendorTrace = {
  interaction_id: 'm-1',
  intent: 'dispute_charge',
  entities: { merchant: 'Coffee Corner', amount: 120 },
  parameters_extracted: ['amount'],
  rules_evaluated: [
    { rule_id: 'r1', rule_type: 'policy', predicate: 'days <= 8', result: 'blocked', reason: 'too old' },
  ],
  tools_considered: ['dispute_charge'],
  tools_invoked: [{ tool: 'list_transactions', parameters: { card: 'x' }, result: 'success' }],
  decision: 'block_with_explanation',
  input: { message: 'I want to dispute' },
  understanding: { intents: ['dispute_charge'], extracted_params: { amount: 120 } },
  decisions: [{ type: 'block' }],
  rules_evaluations: [{ code: 'r1', triggered: true }],
  response: { type: 'blocked', message: 'No.' },
  latency: { elapsed: 12, unit: 'ms' },
};
const vendorMessage = {
  id: 'm-1',
  text: 'I cannot dispute a charge older than 8 days.',
  followup_suggestions: ['Freeze my card'],
  trace_info: vendorTrace,
  created_at: '2026-01-01T00:00:00Z',
  sender: { id: 'agent-1', type: 'agent' },
  receiver: { id: 'u', type: 'user' },
  cards: [],
  input_tokens: 10,
  output_tokens: 20,
};

const SPEC_TEXT_FIELDS = ['interaction_id', 'intent', 'decision'] as const;
const RULE_TEXT_FIELDS = ['rule_id', 'rule_type', 'predicate', 'result', 'reason'] as const;

describe('the vendor shapes read clean', () => {
  it('a send-message answer: every field as sent, nothing marked', () => {
    const m = MessageIn.parse(vendorMessage);
    expect(m).toMatchObject({ id: 'm-1', text: vendorMessage.text, created_at: vendorMessage.created_at });
    expect(m._unread).toBeUndefined();
    expect(m.trace_info?._unread).toBeUndefined();
    expect(m.trace_info?.decision).toBe('block_with_explanation');
    // Unknown fields are kept as data.
    expect(m.cards).toEqual([]);
    expect(m.trace_info?.latency).toEqual({ elapsed: 12, unit: 'ms' });
  });

  it('a task with id only, null welcome and null suggestions (pydantic optional fields)', () => {
    const t = TaskIn.parse({
      id: 't1',
      user_id: 'u',
      title: 'T',
      welcome_message: null,
      followup_suggestions: null,
    });
    expect(t).toMatchObject({ id: 't1', followup_suggestions: [] });
    expect(t.welcome_message).toBeUndefined();
    expect(t._unread).toBeUndefined();
  });

  it('a rerun answer and a page envelope', () => {
    const r = RerunIn.parse({ regenerated_task_id: 't2', message: vendorMessage });
    expect(r.message.id).toBe('m-1');
    const page = TraceListIn.parse({ items: [vendorTrace], total: 1, page: 1, size: 100, pages: 1 });
    expect(page.items[0]?.intent).toBe('dispute_charge');
  });
});

describe('each field degrades on its own', () => {
  it.each(SPEC_TEXT_FIELDS)('%s: null is absent, unmarked; the reply still arrives', (field) => {
    const m = MessageIn.parse({ ...vendorMessage, trace_info: { ...vendorTrace, [field]: null } });
    expect(m.text).toBe(vendorMessage.text);
    expect(m.trace_info?.[field]).toBe('');
    expect(m.trace_info?._unread).toBeUndefined();
  });

  it('decision: null is never the word "null"', () => {
    expect(readTrace({ decision: null }).decision).toBe('');
  });

  it.each(SPEC_TEXT_FIELDS)('%s: a number is shown as its text and marked with the raw value', (field) => {
    const t = readTrace({ ...vendorTrace, [field]: 42 });
    expect(t[field]).toBe('42');
    expect(t._unread).toEqual([{ path: field, raw: 42 }]);
  });

  it.each(SPEC_TEXT_FIELDS)('%s: an object is absent and marked with the raw value', (field) => {
    const t = readTrace({ ...vendorTrace, [field]: { nested: true } });
    expect(t[field]).toBe('');
    expect(t._unread).toEqual([{ path: field, raw: { nested: true } }]);
  });

  it.each(RULE_TEXT_FIELDS)(
    'rules_evaluated[].%s: one bad field keeps the rule and its other fields',
    (field) => {
      const rule = { ...vendorTrace.rules_evaluated[0], [field]: [1] };
      const t = readTrace({ ...vendorTrace, rules_evaluated: [rule, vendorTrace.rules_evaluated[0]] });
      expect(t.rules_evaluated).toHaveLength(2);
      expect(t.rules_evaluated[0]?.[field]).toBe('');
      expect(t._unread).toEqual([{ path: `rules_evaluated.0.${field}`, raw: [1] }]);
    },
  );

  it('lists: a bad item is marked and dropped, the others kept; a non-list is marked', () => {
    const t = readTrace({
      ...vendorTrace,
      rules_evaluated: ['nope', vendorTrace.rules_evaluated[0]],
      tools_considered: ['a', null, 7],
      tools_invoked: { tool: 'x' },
      entities: 'none',
      parameters_extracted: null,
    });
    expect(t.rules_evaluated.map((r) => r.rule_id)).toEqual(['r1']);
    expect(t.tools_considered).toEqual(['a', '7']);
    expect(t.tools_invoked).toEqual([]);
    expect(t.entities).toEqual({});
    expect(t.parameters_extracted).toEqual([]);
    expect(t._unread?.map((u) => u.path)).toEqual([
      'entities',
      'rules_evaluated.0',
      'tools_considered.1',
      'tools_considered.2',
      'tools_invoked',
    ]);
  });

  it('message fields: created_at, id and text of other types never drop the reply', () => {
    const m = MessageIn.parse({
      ...vendorMessage,
      id: null,
      created_at: 1700000000,
      text: { content: 'hi' },
    });
    expect(m.id).toBe('m-1'); // from the trace's interaction id
    expect(m.created_at).toBe('1700000000');
    expect(m.text).toBe('{"content":"hi"}');
    expect(m._unread?.map((u) => u.path)).toEqual(['id', 'text', 'created_at']);
  });

  it('a non-object trace_info is marked; the reply is kept', () => {
    const m = MessageIn.parse({ ...vendorMessage, trace_info: 'oops' });
    expect(m.trace_info).toBeUndefined();
    expect(m._unread).toEqual([{ path: 'trace_info', raw: 'oops' }]);
  });

  it('a re-read trace keeps its marks (an export opened again)', () => {
    const once = readTrace({ ...vendorTrace, intent: 5 });
    const twice = TolerantTrace.parse(JSON.parse(JSON.stringify(once)));
    expect(twice._unread).toEqual([{ path: 'intent', raw: 5 }]);
  });
});

describe('a trace list with bad items', () => {
  it('keeps every good item in order and marks each bad one with its raw value', () => {
    const list = TraceListIn.parse([vendorTrace, 'garbage', { ...vendorTrace, interaction_id: 'm-3' }, null]);
    expect(list.items.map((t) => t.interaction_id)).toEqual(['m-1', '', 'm-3', '']);
    expect(list.items[1]?._unread).toEqual([{ path: '', raw: 'garbage' }]);
    expect(list.items[3]?._unread).toEqual([{ path: '', raw: null }]);
    expect(list.items[0]?._unread).toBeUndefined();
  });

  it('an item without an interaction id is kept and says so', () => {
    const { interaction_id: _drop, ...noId } = vendorTrace;
    const list = TraceListIn.parse({ items: [noId], total: 1, page: 1, pages: 1 });
    expect(list.items[0]?.decision).toBe('block_with_explanation');
    expect(list.items[0]?._unread).toEqual([{ path: 'interaction_id', raw: undefined }]);
  });

  it('only a list that is neither an array nor an envelope fails', () => {
    expect(TraceListIn.safeParse({ detail: 'x' }).success).toBe(false);
  });
});

// ---------------------------------------------------------------- properties

const anyJson = fc.jsonValue({ maxDepth: 3 });
const traceLike = fc.dictionary(
  fc.constantFrom(
    'interaction_id',
    'intent',
    'entities',
    'parameters_extracted',
    'rules_evaluated',
    'tools_considered',
    'tools_invoked',
    'decision',
    'other',
  ),
  fc.oneof(
    anyJson,
    fc.array(fc.dictionary(fc.constantFrom(...RULE_TEXT_FIELDS, 'tool', 'parameters'), anyJson), {
      maxLength: 3,
    }),
  ),
);

describe('properties', () => {
  it('any value reads as a well-typed trace, and every non-null value of another type is marked', () => {
    fc.assert(
      fc.property(fc.oneof(traceLike, anyJson), (raw) => {
        const t = readTrace(raw);
        for (const f of SPEC_TEXT_FIELDS) expect(typeof t[f]).toBe('string');
        for (const f of ['parameters_extracted', 'tools_considered'] as const)
          expect(t[f].every((x) => typeof x === 'string')).toBe(true);
        for (const r of t.rules_evaluated)
          for (const f of RULE_TEXT_FIELDS) expect(typeof r[f]).toBe('string');
        for (const c of t.tools_invoked) expect(typeof c.parameters).toBe('object');
        const marked = new Set((t._unread ?? []).map((u) => u.path));
        if (raw !== null && typeof raw === 'object' && !Array.isArray(raw)) {
          const o = raw as Record<string, unknown>;
          for (const f of SPEC_TEXT_FIELDS) {
            const v = o[f];
            if (v !== null && v !== undefined && typeof v !== 'string') expect(marked.has(f)).toBe(true);
            if (typeof v === 'string') expect(t[f]).toBe(v);
          }
        } else expect(marked.has('')).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('a reply with any other fields of any type is never thrown away', () => {
    fc.assert(
      fc.property(fc.string(), fc.dictionary(fc.string(), anyJson), traceLike, (text, rest, trace) => {
        const m = MessageIn.parse({ ...rest, id: 'm', text, trace_info: trace });
        expect(m.text).toBe(text);
        expect(m.id).toBe('m');
      }),
      { numRuns: 150 },
    );
  });

  it('a trace list keeps every item, in order, whatever each holds', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(traceLike, anyJson), { maxLength: 8 }), (items) => {
        const list = TraceListIn.parse(items);
        expect(list.items).toHaveLength(items.length);
      }),
      { numRuns: 200 },
    );
  });
});

describe('a task', () => {
  it('accepts task_id alone; a wrong-typed field is marked once', () => {
    const t = TaskIn.parse({ task_id: 't9', title: 3 });
    expect(t.id).toBe('t9');
    expect(t._unread).toEqual([{ path: 'title', raw: 3 }]);
    const u = TaskIn.parse({ id: 't1', task_id: 7 });
    expect(u._unread).toEqual([{ path: 'task_id', raw: 7 }]);
  });

  it('refuses a task without any id', () => {
    expect(TaskIn.safeParse({ id: null, title: 'T' }).success).toBe(false);
  });
});
