import { describe, expect, it } from 'vitest';
import { KNOWN_RULE_RESULTS } from '../../contract/trace';
import { parseTestCase, serializeTestCase, validateTestCase, type TestCase } from './format';
import { testCaseJsonSchema } from './json-schema';

const valid: TestCase = {
  format: 'threadline-test-case',
  format_version: 1,
  name: 'Blocked outside the window',
  agent_id: 'card-disputes',
  version_tag: 'v2',
  bundle_hash: 'a'.repeat(64),
  clock: '2025-03-15T12:00:00.000Z',
  turns: [
    {
      say: 'dispute a $120 charge from 10 days ago',
      expect: {
        decision: 'block_with_explanation',
        rules: { DISPUTE_WINDOW: 'blocked' },
        tools_invoked: [],
        parameters: { 'transaction-amount': 120, 'contact-email': null },
        reply_contains: ['8 days'],
      },
    },
  ],
};

const errorsOf = (value: unknown) => {
  const r = validateTestCase(value);
  if (r.ok) throw new Error('expected the case to be refused');
  return r.errors;
};

describe('test case format', () => {
  it('round-trips: serialize then parse gives the same case, and serializing again the same text', () => {
    const text = serializeTestCase(valid);
    const parsed = parseTestCase(text);
    expect(parsed).toEqual({ ok: true, value: valid });
    expect(serializeTestCase(parsed.ok ? parsed.value : valid)).toBe(text);
  });

  it('writes diff-friendly JSON: fixed key order whatever the input order, two-space indent, trailing newline', () => {
    const shuffled = Object.fromEntries(Object.entries(valid).reverse()) as TestCase;
    expect(Object.keys(shuffled)[0]).toBe('turns');
    const text = serializeTestCase(shuffled);
    expect(text).toBe(serializeTestCase(valid));
    expect(text.endsWith('}\n')).toBe(true);
    expect(text.split('\n')[1]).toBe('  "format": "threadline-test-case",');
    expect(Object.keys(JSON.parse(text))).toEqual([
      'format',
      'format_version',
      'name',
      'agent_id',
      'version_tag',
      'bundle_hash',
      'clock',
      'turns',
    ]);
  });

  it('keeps the optional source (the thread and turn saved from) in its place, and reads cases without it', () => {
    const withSource = { ...valid, source: { interaction_id: 'msg_2', task_id: 'task_1' } };
    const text = serializeTestCase(withSource);
    expect(Object.keys(JSON.parse(text)).slice(-2)).toEqual(['source', 'turns']);
    expect(text).toContain('"source": {\n    "task_id": "task_1",\n    "interaction_id": "msg_2"\n  }');
    expect(parseTestCase(text)).toEqual({ ok: true, value: withSource });
    expect(validateTestCase(valid).ok).toBe(true);
    expect(errorsOf({ ...valid, source: { task_id: 'task_1' } })).toEqual([
      'source.interaction_id: missing (required)',
    ]);
  });

  it('reads and writes the finer expectations: welcome, suggestions, reply_not_contains, integrations, a rule not evaluated', () => {
    const richer: TestCase = {
      ...valid,
      welcome: { suggestions: ['Dispute a charge'], message_contains: ['Welcome'] },
      turns: [
        {
          say: 'dispute a $120 charge from 10 days ago',
          expect: {
            suggestions: [],
            reply_not_contains: ['Done'],
            integrations: { 'disputes-api': 'not_called' },
            rules: { DISPUTE_WINDOW: 'blocked', 'DISPUTE_CHARGE.requires_confirmation': 'not_evaluated' },
            decision: 'block_with_explanation',
          },
        },
      ],
    };
    const text = serializeTestCase(richer);
    expect(parseTestCase(text)).toEqual({ ok: true, value: richer });
    expect(Object.keys(JSON.parse(text) as object).slice(-2)).toEqual(['welcome', 'turns']);
    expect(Object.keys((JSON.parse(text) as TestCase).turns[0]!.expect)).toEqual([
      'decision',
      'rules',
      'integrations',
      'reply_not_contains',
      'suggestions',
    ]);
    expect(Object.keys((JSON.parse(text) as TestCase).welcome!)).toEqual(['message_contains', 'suggestions']);
    expect(errorsOf({ ...valid, welcome: { greeting: 'x' } })).toEqual([
      expect.stringContaining('welcome: unknown field "greeting"'),
    ]);
    expect(
      errorsOf({
        ...valid,
        turns: [{ say: 'x', expect: { decision: 'proceed', integrations: { a: 'maybe' } } }],
      })[0],
    ).toMatch(/^turns\[0\]\.expect\.integrations\.a: /);
  });

  it('keeps every case written before the finer expectations valid (the suites on disk)', async () => {
    const { readdirSync, readFileSync } = await import('node:fs');
    const root = new URL('../../../', import.meta.url);
    const folders = [
      'docs/bundle/starter-agent/tests/',
      ...['card-disputes', 'flight-changes', 'shop-returns'].map((a) => `server/agents/${a}/tests/`),
    ];
    let read = 0;
    for (const folder of folders)
      for (const file of readdirSync(new URL(folder, root)).filter((f) => f.endsWith('.case.json'))) {
        const text = readFileSync(new URL(folder + file, root), 'utf8');
        expect(parseTestCase(text).ok, folder + file).toBe(true);
        read += 1;
      }
    expect(read).toBeGreaterThan(10);
  });

  it('refuses an unknown field, such as an API key, naming it', () => {
    const errors = errorsOf({ ...valid, api_key: 'secret' });
    expect(errors).toEqual([expect.stringContaining('unknown field "api_key"')]);
    expect(errors[0]).toContain('no credentials');
  });

  it('names the path of each problem, all at once', () => {
    const errors = errorsOf({
      ...valid,
      clock: 'yesterday',
      turns: [
        { say: 'hi', expect: { rules: { A: 'blocked' } } },
        { say: '', expect: { decision: 'proceed' } },
      ],
    });
    expect(errors).toContain('turns[0].expect.decision: missing (required)');
    expect(errors.some((e) => e.startsWith('clock: '))).toBe(true);
    expect(errors.some((e) => e.startsWith('turns[1].say: '))).toBe(true);
  });

  it('refuses another format version with a message saying which one it reads', () => {
    expect(errorsOf({ ...valid, format_version: 2 })).toEqual([
      'format_version: this Threadline reads version 1; the file says 2',
    ]);
  });

  it('refuses both version_id and version_tag, a bad bundle hash, no turns and text that is not JSON', () => {
    expect(errorsOf({ ...valid, version_id: 'v2-8-day-window' })).toEqual([
      'version_tag: give version_id or version_tag, not both',
    ]);
    expect(errorsOf({ ...valid, bundle_hash: 'abc' })[0]).toMatch(/^bundle_hash: expected 64 lowercase hex/);
    expect(errorsOf({ ...valid, turns: [] })[0]).toMatch(/^turns: /);
    const notJson = parseTestCase('{"format": ');
    expect(notJson.ok).toBe(false);
    expect(notJson.ok ? '' : notJson.errors[0]).toMatch(/^not JSON: /);
  });
});

describe('test case JSON Schema', () => {
  const schema = testCaseJsonSchema() as {
    $schema: string;
    required: string[];
    additionalProperties: boolean;
    properties: Record<string, { description?: string; items?: unknown }>;
  };

  it('is draft-07, closed, with the required fields and a description on each field', () => {
    expect(schema.$schema).toBe('http://json-schema.org/draft-07/schema#');
    expect(schema.additionalProperties).toBe(false);
    expect(schema.required).toEqual(
      expect.arrayContaining(['format', 'format_version', 'name', 'agent_id', 'clock', 'turns']),
    );
    for (const [key, prop] of Object.entries(schema.properties)) expect(prop.description, key).toMatch(/\S/);
  });

  it('offers the known decisions and rule results as enums for completions', () => {
    const text = JSON.stringify(schema);
    expect(text).toContain(
      '"enum":["proceed","block_with_explanation","request_confirmation","request_information"]',
    );
    expect(text).toContain(`"enum":${JSON.stringify([...KNOWN_RULE_RESULTS, 'not_evaluated'])}`);
    expect(text).toContain('"enum":["called","not_called","success","not_found","failure"]');
    expect(KNOWN_RULE_RESULTS).toContain('blocked');
  });

  it('hands out copies', () => {
    const a = testCaseJsonSchema();
    a.title = 'changed';
    expect(testCaseJsonSchema().title).toBeUndefined();
  });
});
