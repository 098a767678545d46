import { describe, expect, it } from 'vitest';
import { Hono } from 'hono';
import { validator } from 'hono/validator';
import { jsonBody, jsonDepth } from './json-body';

describe('jsonDepth', () => {
  it('counts the deepest nesting of arrays and objects', () => {
    expect(jsonDepth('1')).toBe(0);
    expect(jsonDepth('{"a":[1,{"b":2}],"c":{}}')).toBe(3);
    expect(jsonDepth('[[[[]]],[]]')).toBe(4);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(jsonDepth('{"a":"[[[{{{"}')).toBe(1);
    expect(jsonDepth('{"a":"\\"[[[","b":[]}')).toBe(2);
  });
});

describe('jsonBody', () => {
  it("hands the value it parsed to the route's validator: the body is read and parsed once", async () => {
    const app = new Hono();
    let parsedByMiddleware: unknown;
    app.use('*', jsonBody(1024));
    app.use('*', async (c, next) => {
      parsedByMiddleware = await (c.req.bodyCache as { json: Promise<unknown> }).json;
      await next();
    });
    app.post(
      '/echo',
      validator('json', (value) => value as { text: string }),
      async (c) => {
        const body = c.req.valid('json');
        return c.json({ text: body.text, same: body === parsedByMiddleware, raw: await c.req.text() });
      },
    );
    const response = await app.request('/echo', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"text":"hello"}',
    });
    expect(await response.json()).toEqual({ text: 'hello', same: true, raw: '{"text":"hello"}' });
  });
});
