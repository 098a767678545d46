import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setApiConfigSource, type ApiConfig } from './client';
import { createTask } from './create-task';
import { ApiError } from './errors';
import { rerunMessage } from './rerun';
import { sendMessage } from './send-message';
import { getAllTraces } from './all-traces';
import { getTraceWindow, traceListQueryOptions } from './trace-list';
import { QueryClient } from '@tanstack/react-query';
import { apiKeys } from './keys';
import { listAgents } from './agents';
import { PROBE_PATH, testConnection } from './test-connection';

const config: ApiConfig = {
  baseUrl: 'http://svc.test/',
  keyHeader: 'x-aui-api-key',
  apiKey: 'secret-key',
  extraHeaders: [
    { name: 'x-aui-organization-id', value: 'org1' },
    { name: 'bad header', value: 'x' },
  ],
  timeoutMs: 5000,
};

type Call = { url: string; init: RequestInit };
let calls: Call[] = [];
let answers: Array<() => Response> = [];

function json(body: unknown, status = 200) {
  return () =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

beforeEach(() => {
  calls = [];
  answers = [];
  setApiConfigSource(() => config);
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    const next = answers.shift();
    if (!next) throw new TypeError('Failed to fetch');
    return next();
  });
});
afterEach(() => vi.unstubAllGlobals());

const trace = (id: string) => ({
  interaction_id: id,
  intent: 'x',
  entities: {},
  parameters_extracted: [],
  rules_evaluated: [],
  tools_considered: [],
  tools_invoked: [],
  decision: 'proceed',
});

describe('the fetch client', () => {
  it('sends the key only in the chosen header, with extra headers, never in the URL', async () => {
    answers.push(
      json({ id: 't1', user_id: 'u', title: 'T', welcome_message: 'Hi', followup_suggestions: ['a'] }),
    );
    await createTask({ agent_id: 'card-disputes', user_id: 'u' });
    const call = calls[0]!;
    expect(call.url).toBe('http://svc.test/v1/messaging/tasks');
    expect(call.url).not.toContain('secret-key');
    const headers = call.init.headers as Headers;
    expect(headers.get('x-aui-api-key')).toBe('secret-key');
    expect(headers.get('x-aui-organization-id')).toBe('org1');
    expect(headers.get('content-type')).toBe('application/json');
    expect(call.init.method).toBe('POST');
  });

  it('accepts a task with `id` only, with `task_id` only, and null welcome/suggestions', async () => {
    answers.push(
      json({ id: 'a', user_id: 'u', title: 'T', welcome_message: null, followup_suggestions: null }),
    );
    answers.push(json({ task_id: 'b', user_id: 'u' }));
    const a = await createTask({ agent_id: 'x', user_id: 'u' });
    const b = await createTask({ agent_id: 'x', user_id: 'u' });
    expect(a.id).toBe('a');
    expect(a.followup_suggestions).toEqual([]);
    expect(a.welcome_message).toBeUndefined(); // null: absent
    expect(b.id).toBe('b');
  });

  it('rejects a task with neither id as an unexpected answer', async () => {
    answers.push(json({ user_id: 'u' }));
    await expect(createTask({ agent_id: 'x', user_id: 'u' })).rejects.toMatchObject({ kind: 'parse' });
  });

  it('sends messages with include_trace=true and reads a minimal reply', async () => {
    answers.push(
      json({ id: 'm1', text: 'Hello', followup_suggestions: [{ text: 'More?' }], unknown_field: 1 }),
    );
    const r = await sendMessage({ task_id: 't1', text: 'hi' });
    expect(calls[0]!.url).toBe('http://svc.test/v1/messaging/messages?include_trace=true');
    expect(JSON.parse(String(calls[0]!.init.body))).toEqual({ type: 'message', task_id: 't1', text: 'hi' });
    expect(r.message.text).toBe('Hello');
    expect(r.message.followup_suggestions).toEqual(['More?']);
    expect(r.message.trace_info).toBeUndefined();
    expect((r.message as Record<string, unknown>).unknown_field).toBe(1);
    expect(r.rttMs).toBeGreaterThanOrEqual(0);
  });

  it('fills a trace that lacks optional fields with defaults', async () => {
    answers.push(
      json({ id: 'm1', text: null, trace_info: { intent: 'dispute', decision: 'mystery', extra: { a: 1 } } }),
    );
    const r = await sendMessage({ task_id: 't1', text: 'hi' });
    expect(r.message.text).toBe('');
    expect(r.message.trace_info).toMatchObject({
      intent: 'dispute',
      decision: 'mystery',
      rules_evaluated: [],
      entities: {},
      extra: { a: 1 },
    });
  });

  it('reads the rerun answer', async () => {
    answers.push(json({ regenerated_task_id: 't2', message: { id: 'm9', text: 'again' } }));
    const r = await rerunMessage({ task_id: 't1', interaction_id: 'm1', text: 'hi' });
    expect(calls[0]!.url).toContain('/v1/messaging/messages/rerun?include_trace=true');
    expect(r.rerun.regenerated_task_id).toBe('t2');
  });

  it('sends the acting user on a rerun (x-aui-user-id), unless the user set that header', async () => {
    answers.push(json({ regenerated_task_id: 't2', message: { id: 'm9', text: 'again' } }));
    await rerunMessage({ task_id: 't1', interaction_id: 'm1', text: 'hi' }, { userId: 'alice' });
    const sent = new Headers(calls[0]!.init.headers);
    expect(sent.get('x-aui-user-id')).toBe('alice');
    expect(sent.get('x-aui-api-key')).toBe('secret-key');
    expect(sent.get('x-aui-organization-id')).toBe('org1');

    setApiConfigSource(() => ({ ...config, extraHeaders: [{ name: 'x-aui-user-id', value: 'chosen' }] }));
    answers.push(json({ regenerated_task_id: 't3', message: { id: 'm10', text: 'again' } }));
    await rerunMessage({ task_id: 't1', interaction_id: 'm1', text: 'hi' }, { userId: 'alice' });
    expect(new Headers(calls[1]!.init.headers).get('x-aui-user-id')).toBe('chosen');
  });

  it('shows a reply that came without any id under a stand-in id', async () => {
    answers.push(json({ text: 'hello', created_at: null }));
    const { message } = await sendMessage({ task_id: 't1', text: 'hi' });
    expect(message.text).toBe('hello');
    expect(message.id).toMatch(/^unidentified-/);
    expect(message._unread).toEqual([{ path: 'id', raw: undefined }]);
  });

  it('reads a bare trace array (spec)', async () => {
    answers.push(json([trace('1'), trace('2')]));
    const list = await getAllTraces('t 1');
    expect(list.map((t) => t.interaction_id)).toEqual(['1', '2']);
    expect(calls[0]!.url).toBe('http://svc.test/v1/messaging/tasks/t%201/trace-info?page=1&size=500');
  });

  it('follows every page of a paged envelope', async () => {
    answers.push(json({ items: [trace('1')], total: 3, page: 1, size: 1, pages: 3 }));
    answers.push(json({ items: [trace('2')], total: 3, page: 2, size: 1, pages: 3 }));
    answers.push(json({ items: [trace('3')], total: 3, page: 3, size: 1, pages: 3 }));
    const list = await getAllTraces('t1');
    expect(list.map((t) => t.interaction_id)).toEqual(['1', '2', '3']);
    expect(calls.map((c) => new URL(c.url).searchParams.get('page'))).toEqual(['1', '2', '3']);
  });

  it('fetches the further pages of a long thread four at a time, kept in thread order', async () => {
    let inFlight = 0;
    let peak = 0;
    vi.stubGlobal('fetch', async (url: string) => {
      const page = Number(new URL(url).searchParams.get('page'));
      inFlight += 1;
      peak = Math.max(peak, inFlight);
      // Later pages answer sooner: the order must come from the page numbers.
      await new Promise((r) => setTimeout(r, page === 1 ? 0 : 30 - page));
      inFlight -= 1;
      return json({ items: [trace(`p${page}`)], total: 20, page, size: 1, pages: 20 })();
    });
    const list = await getAllTraces('t1');
    expect(list.map((t) => t.interaction_id)).toEqual(Array.from({ length: 20 }, (_, i) => `p${i + 1}`));
    expect(peak).toBe(4);
  });

  it('names the page that did not load (and the turns it holds) instead of leaving a hole', async () => {
    vi.stubGlobal('fetch', async (url: string) => {
      const page = Number(new URL(url).searchParams.get('page'));
      if (page === 3) return json({ error: 'internal', message: 'disk on fire' }, 500)();
      return json({ items: [trace(`a${page}`), trace(`b${page}`)], total: 10, page, size: 2, pages: 5 })();
    });
    const err = (await getAllTraces('t1').catch((e: unknown) => e)) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 500, message: 'disk on fire' });
    expect(err.title).toBe("Page 3 of 5 of this thread's traces did not load (turns 5–6)");
  });

  it('opens a long thread on its newest page: the first page for the count, then the last', async () => {
    vi.stubGlobal('fetch', async (url: string) => {
      const page = Number(new URL(url).searchParams.get('page'));
      const items = Array.from({ length: page === 4 ? 200 : 500 }, (_, i) => trace(`p${page}-${i}`));
      return json({ items, total: 1700, page, size: 500, pages: 4 })();
    });
    const w = await getTraceWindow('t1');
    expect(calls).toEqual([]);
    expect(w).toMatchObject({ total: 1700, pageSize: 500, start: 1500 });
    expect(w.items.map((t) => t.interaction_id)).toEqual(Array.from({ length: 200 }, (_, i) => `p4-${i}`));
  });

  it('shows a short newest page with the page before it', async () => {
    const asked: number[] = [];
    vi.stubGlobal('fetch', async (url: string) => {
      const page = Number(new URL(url).searchParams.get('page'));
      asked.push(page);
      const items = Array.from({ length: page === 3 ? 1 : 2 }, (_, i) => trace(`p${page}-${i}`));
      return json({ items, total: 5, page, size: 2, pages: 3 })();
    });
    const w = await getTraceWindow('t1');
    expect(asked).toEqual([1, 3, 2]);
    expect(w).toMatchObject({ total: 5, start: 2 });
    expect(w.items.map((t) => t.interaction_id)).toEqual(['p2-0', 'p2-1', 'p3-0']);
  });

  /** A service holding a thread of `total` turns in pages of `size` (at most `cap`), recording the pages asked. */
  function pagedThread(total: number, asked: number[], { cap = 500 } = {}) {
    vi.stubGlobal('fetch', async (url: string) => {
      const params = new URL(url).searchParams;
      const page = Number(params.get('page'));
      const size = Math.min(cap, Number(params.get('size')));
      if (Number(params.get('size')) > cap) return json({ detail: `size must be at most ${cap}` }, 422)();
      asked.push(page);
      const from = (page - 1) * size;
      const items = Array.from({ length: Math.max(0, Math.min(size, total - from)) }, (_, i) =>
        trace(`t${from + i + 1}`),
      );
      return json({ items, total, page, size, pages: Math.ceil(total / size) })();
    });
  }
  const ids = (w: { items: readonly { interaction_id?: string }[] }) => w.items.map((t) => t.interaction_id);

  it('opens a thread of a known length with one request: its newest page', async () => {
    const asked: number[] = [];
    pagedThread(100_000, asked);
    const w = await getTraceWindow('t1', undefined, 100_000);
    expect(asked).toEqual([200]);
    expect(w).toMatchObject({ total: 100_000, pageSize: 500, start: 99_500 });
    expect(ids(w).at(-1)).toBe('t100000');
  });

  it('asks for where the thread ends now when it grew past the page it was known to end on', async () => {
    const asked: number[] = [];
    pagedThread(1_620, asked);
    const w = await getTraceWindow('t1', undefined, 1_480);
    // Page 3 said the thread has 4 pages now; page 4 is short (120 ≥ 50 turns): shown alone.
    expect(asked).toEqual([3, 4]);
    expect(w).toMatchObject({ total: 1_620, start: 1_500 });
    expect(ids(w)).toHaveLength(120);
    expect(ids(w).at(-1)).toBe('t1620');
  });

  it('shows the page before a short newest page, asking only for what it does not have', async () => {
    const asked: number[] = [];
    pagedThread(1_510, asked);
    const known = await getTraceWindow('t1', undefined, 1_510);
    expect(asked).toEqual([4, 3]);
    expect(known).toMatchObject({ total: 1_510, start: 1_000 });
    expect(ids(known)).toHaveLength(510);
    asked.length = 0;
    // Known to end on page 3, now ending with 10 turns on page 4: page 3 is not asked twice.
    const grown = await getTraceWindow('t1', undefined, 1_490);
    expect(asked).toEqual([3, 4]);
    expect(grown).toEqual(known);
  });

  it('reads a thread that is shorter than it was known to be from where it ends', async () => {
    const asked: number[] = [];
    pagedThread(700, asked);
    const w = await getTraceWindow('t1', undefined, 2_400);
    expect(asked).toEqual([5, 2]);
    expect(w).toMatchObject({ total: 700, start: 500 });
    expect(ids(w).at(-1)).toBe('t700');
  });

  it('opens a known length from the first page when a service pages by another size', async () => {
    const asked: number[] = [];
    pagedThread(1_200, asked, { cap: 100 });
    const w = await getTraceWindow('t1', undefined, 1_200);
    // 500 refused: the first page at 100 gives the count, then the newest page of 100.
    expect(asked).toEqual([1, 12]);
    expect(w).toMatchObject({ total: 1_200, pageSize: 100, start: 1_100 });
    expect(ids(w).at(-1)).toBe('t1200');
  });

  it("knows a thread's length from the thread list, and from the window it holds when read again", async () => {
    const asked: number[] = [];
    pagedThread(100_000, asked);
    const client = new QueryClient();
    const summary = { task_id: 't1', turn_count: 100_000 };
    client.setQueryData(apiKeys.taskList('', ''), {
      pages: [{ items: [summary], next_cursor: null }],
      pageParams: [''],
    });
    const w = await client.fetchQuery(traceListQueryOptions('t1'));
    expect(asked).toEqual([200]);
    expect(w).toMatchObject({ total: 100_000, start: 99_500 });
    asked.length = 0;
    client.removeQueries({ queryKey: apiKeys.taskList('', '') });
    await client.refetchQueries({ queryKey: apiKeys.traces('t1') });
    expect(asked).toEqual([200]);
  });

  it('opens a known length whole from a server without paging, with one request', async () => {
    answers.push(json(Array.from({ length: 600 }, (_, i) => trace(`t${i + 1}`))));
    const w = await getTraceWindow('t1', undefined, 600);
    expect(calls).toHaveLength(1);
    expect(w).toMatchObject({ total: 600, pageSize: 0, start: 0 });
  });

  it('keeps a bare array whole (a server without paging)', async () => {
    answers.push(json([trace('1'), trace('2')]));
    const w = await getTraceWindow('t1');
    expect(w).toMatchObject({ total: 2, pageSize: 0, start: 0 });
    expect(calls).toHaveLength(1);
  });

  it('names the turns of a newest page that did not load', async () => {
    vi.stubGlobal('fetch', async (url: string) => {
      const page = Number(new URL(url).searchParams.get('page'));
      if (page === 3) return json({ error: 'internal', message: 'disk on fire' }, 500)();
      return json({ items: [trace(`a${page}`), trace(`b${page}`)], total: 6, page, size: 2, pages: 3 })();
    });
    const err = (await getTraceWindow('t1').catch((e: unknown) => e)) as ApiError;
    expect(err.title).toBe("Page 3 of 3 of this thread's traces did not load (turns 5–6)");
  });

  it('asks again with pages of 100 when a service refuses pages of 500', async () => {
    answers.push(json({ detail: 'size must be at most 100' }, 422));
    answers.push(json({ items: [trace('1')], total: 2, page: 1, size: 100, pages: 2 }));
    answers.push(json({ items: [trace('2')], total: 2, page: 2, size: 100, pages: 2 }));
    const list = await getAllTraces('t1');
    expect(list.map((t) => t.interaction_id)).toEqual(['1', '2']);
    expect(calls.map((c) => new URL(c.url).searchParams.get('size'))).toEqual(['500', '100', '100']);
  });

  it('does not ask again when the first page is refused for another reason', async () => {
    answers.push(json({ detail: 'Not authenticated' }, 401));
    expect(await getAllTraces('t1').catch((e: unknown) => (e as ApiError).status)).toBe(401);
    expect(calls.length).toBe(1);
  });

  it('reads an envelope without paging numbers as one page', async () => {
    answers.push(json({ items: [trace('1')] }));
    expect((await getAllTraces('t1')).length).toBe(1);
    expect(calls.length).toBe(1);
  });

  it('turns HTTP errors into ApiError with the decoded message', async () => {
    answers.push(json({ detail: 'Not authenticated' }, 401));
    const err = await getAllTraces('t1').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 401, message: 'Not authenticated' });
  });

  it('turns a fetch failure into a network ApiError that does not contain the key', async () => {
    const err = (await getAllTraces('t1').catch((e: unknown) => e)) as ApiError;
    expect(err.kind).toBe('network');
    expect(JSON.stringify({ ...err, m: err.message })).not.toContain('secret-key');
  });

  it('answers null for the agent list when the server does not offer it', async () => {
    answers.push(json({ error: 'Not Found', message: 'no' }, 404));
    expect(await listAgents()).toBeNull();
  });

  it('tests a connection: the Messaging API first (404 = accepted), then the reference agent list', async () => {
    answers.push(json({ error: 'Not Found', message: 'Task not found' }, 404));
    answers.push(
      json({
        agents: [
          { id: 'card-disputes', name: 'Card disputes', description: '', active_version: 'v1', versions: [] },
        ],
      }),
    );
    const r = await testConnection(config);
    expect(r.ok).toBe(true);
    expect(r.ok && r.agents?.[0]?.id).toBe('card-disputes');
    expect(calls[0]!.url).toBe(`http://svc.test${PROBE_PATH}`);
    expect(calls[0]!.init.method).toBe('GET');
    expect(calls[1]!.url).toBe('http://svc.test/reference/v1/agents');
  });

  it('tests a connection elsewhere: a deployed 404 on the probe is enough; the helpers need not exist', async () => {
    answers.push(json({ detail: 'Task not found' }, 404));
    answers.push(json({ detail: 'Not Found' }, 404));
    const r = await testConnection(config);
    expect(r).toMatchObject({ ok: true, agents: null });
    expect(r.message).toMatch(/accepted the key.*type the agent id/);
  });

  it('tests a connection: reference helpers that refuse this key do not turn an accepted key into a refusal', async () => {
    answers.push(json({ detail: 'Task not found' }, 404));
    answers.push(json({ error: 'Unauthorized', message: 'Invalid or missing API key' }, 401));
    const r = await testConnection(config);
    expect(r).toMatchObject({ ok: true, agents: null });
  });

  it('tests a connection: a deployed 403 with no body is a refusal, and the helpers are not asked', async () => {
    answers.push(() => new Response(null, { status: 403 }));
    const r = await testConnection(config);
    expect(r.ok).toBe(false);
    expect(calls).toHaveLength(1);
  });

  it('tests a connection: a 422 on the probe says the key could not be judged', async () => {
    answers.push(json({ detail: [{ loc: ['path', 'task_id'], msg: 'bad', type: 'x' }] }, 422));
    const r = await testConnection(config);
    expect(r.ok).toBe(false);
    expect(r.message).toMatch(/whether it accepts the key is unknown/);
  });

  it('tests a connection: 401 is reported in plain words', async () => {
    answers.push(json({ error: 'Unauthorized', message: 'Invalid or missing API key' }, 401));
    const r = await testConnection(config);
    expect(r.ok).toBe(false);
    expect(r.message).toMatch(/did not accept the API key/);
  });
});
