import { describe, expect, it } from 'vitest';
import type { Bundle } from '../src/contract/bundle';
import { compileBundle } from './compile';
import { callIntegration, readPath } from './integrations';

const bundle: Bundle = {
  parameters: [
    { code: 'ref', type: 'string' },
    { code: 'fare', type: 'enum', values: ['Economy', 'Business'] },
    { code: 'date', type: 'date' },
  ],
  integrations: [
    {
      code: 'lookup',
      type: 'API',
      settings: {
        request_schema: { properties: { ref: {} } },
        response_mapping: { fare: 'items[ref={{ref}}].fare', date: 'items[ref={{ref}}].when' },
        test_curl_response: { items: [{ ref: 'A1', fare: 'business', when: '2025-05-01T09:30:00Z' }] },
      },
    },
    { code: 'broken', type: 'API', settings: { test_curl_response: { error: 'boom' } } },
    { code: 'gone', type: 'API', settings: { test_curl_response: { status: 404, error: 'no such record' } } },
    { code: 'down', type: 'API', settings: { test_curl_response: { status: 503 } } },
    { code: 'stub', type: 'RAG' },
  ],
};
const compiled = compileBundle(bundle);

describe('integrations (never the network)', () => {
  it('answers from test_curl_response through response_mapping, coercing types', () => {
    const call = callIntegration(compiled, 'lookup', { ref: 'A1', other: 1 }, []);
    expect(call).toMatchObject({
      result: 'success',
      parameters: { ref: 'A1' },
      outputs: { fare: 'Business', date: '2025-05-01' },
    });
  });

  it('finds nothing when nothing mapped is found; fails when the canned response reports an error', () => {
    expect(callIntegration(compiled, 'lookup', { ref: 'ZZ' }, []).result).toBe('not_found');
    expect(callIntegration(compiled, 'broken', {}, []).result).toBe('failure');
    expect(callIntegration(compiled, 'gone', {}, []).result).toBe('not_found');
    expect(callIntegration(compiled, 'down', {}, []).result).toBe('failure');
  });

  it('answers with a deterministic stub when there is no canned response', () => {
    const a = callIntegration(compiled, 'stub', { ref: 'A1' }, ['ref']);
    expect(a).toMatchObject({ result: 'success', parameters: { ref: 'A1' }, outputs: {} });
    expect(callIntegration(compiled, 'stub', { ref: 'A1' }, ['ref'])).toEqual(a);
  });

  it('reads dot paths with indexes', () => {
    expect(readPath({ a: { b: [{ c: 1 }, { c: 2 }] } }, 'a.b[1].c')).toBe(2);
    expect(readPath({ a: [5] }, 'a.0')).toBe(5);
    expect(readPath({ a: 1 }, 'a.b.c')).toBeUndefined();
  });
});
