/**
 * A stand-in for the deployed Messaging API that speaks only its shapes, as the wire-compat notes
 * describe them (not the reference service's): `x-aui-api-key`, `{detail}` errors, `id`-only
 * tasks with `null` for empty optional fields, page envelopes for trace lists, FastAPI-style 404s
 * for paths it does not have. Started by a test on an OS-chosen port, in the test's process, so
 * the test can see what it received and plant what it should answer.
 *
 * What a reply holds is chosen by the message text: "nulls" (null intent, interaction id,
 * created_at, decision), "wrong types" (numbers and objects where texts belong), "huge <n>"
 * (a reply of n characters of dense Markdown; "huge plain <n>": plain paragraphs), "numeric ids"
 * (a trace whose interaction_id, intent and created_at are numbers, the id not the message's),
 * anything else a short echo.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const VENDOR_KEY = 'vendor-key';

export interface SeenRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

interface Exchange {
  user: string;
  trace: unknown;
}

export interface FakeVendor {
  url: string;
  requests: SeenRequest[];
  /** Replaces the trace at `index` of a task's trace list with anything (a malformed item). */
  plantTrace(taskId: string, index: number, value: unknown): void;
  close(): Promise<void>;
}

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers':
    'content-type, accept, x-aui-api-key, x-api-key, authorization, x-aui-organization-id, x-aui-account-id, x-aui-user-id',
};

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json', ...CORS }).end(JSON.stringify(body));
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const missing = (loc: string[]) => ({ detail: [{ loc, msg: 'Field required', type: 'missing' }] });

let numericIds = 1000;

function traceFor(id: string, text: string, reply: string): Record<string, unknown> {
  const base: Record<string, unknown> = {
    interaction_id: id,
    intent: 'chit_chat',
    entities: {},
    parameters_extracted: [],
    rules_evaluated: [
      { rule_id: 'greeting_ok', rule_type: 'policy', predicate: 'true', result: 'allowed', reason: 'always' },
    ],
    tools_considered: [],
    tools_invoked: [],
    decision: 'proceed',
    input: { message: text },
    response: { type: 'answer', message: reply },
  };
  if (text === 'nulls')
    return {
      ...base,
      intent: null,
      interaction_id: null,
      decision: null,
      entities: null,
      tools_invoked: null,
    };
  if (text === 'numeric ids')
    return { ...base, interaction_id: (numericIds += 1), intent: 7, created_at: 1_700_000_000 };
  if (text === 'wrong types')
    return {
      ...base,
      intent: 42,
      decision: { kind: 'escalate' },
      rules_evaluated: ['not a rule', base.rules_evaluated],
    };
  return base;
}

function replyText(text: string): string {
  const huge = /^huge (plain )?(\d+)$/.exec(text);
  if (huge) {
    const size = Number(huge[2]);
    const line = huge[1]
      ? 'A long answer paragraph in plain words, without any formatting at all.\n\n'
      : 'A long answer line with **bold** words and a [link](https://example.com/x).\n';
    return `# Statement\n${line.repeat(Math.ceil(size / line.length))}`.slice(0, size);
  }
  return `You said: ${text}`;
}

export async function startFakeVendor(): Promise<FakeVendor> {
  const tasks = new Map<string, Exchange[]>();
  const requests: SeenRequest[] = [];

  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://vendor');
      const body = req.method === 'POST' ? await readJson(req) : undefined;
      requests.push({
        method: req.method ?? '',
        path: url.pathname + url.search,
        headers: req.headers,
        body,
      });
      if (req.method === 'OPTIONS') return void res.writeHead(204, CORS).end();

      const route = url.pathname;
      const key =
        req.headers['x-aui-api-key'] ??
        req.headers['x-api-key'] ??
        req.headers.authorization?.replace(/^Bearer /, '');
      const isApi = route.startsWith('/v1/messaging/');
      // FastAPI: a path it does not have is a 404 whatever the key.
      if (!isApi) return send(res, 404, { detail: 'Not Found' });
      if (key !== VENDOR_KEY) return send(res, 401, { detail: 'Not authenticated' });

      const b = (body ?? {}) as Record<string, unknown>;
      if (req.method === 'POST' && route === '/v1/messaging/tasks') {
        if (typeof b.agent_id !== 'string') return send(res, 422, missing(['body', 'agent_id']));
        const id = randomUUID();
        tasks.set(id, []);
        return send(res, 200, {
          id,
          user_id: b.user_id,
          title: 'New conversation',
          welcome_message: null,
          followup_suggestions: null,
        });
      }
      const includeTrace = url.searchParams.get('include_trace') === 'true';
      const message = (taskId: string, text: string) => {
        const id = randomUUID();
        const reply = replyText(text);
        const trace = traceFor(id, text, reply);
        tasks.get(taskId)?.push({ user: text, trace });
        const created =
          text === 'nulls'
            ? null
            : text === 'wrong types' || text === 'numeric ids'
              ? 1_700_000_000
              : new Date().toISOString();
        return {
          id,
          text: reply,
          followup_suggestions: ['Tell me more'],
          ...(includeTrace ? { trace_info: trace } : {}),
          created_at: created,
          sender: { id: 'agent', type: 'agent' },
          receiver: { id: 'user', type: 'user' },
          cards: [],
        };
      };
      if (req.method === 'POST' && route === '/v1/messaging/messages') {
        if (typeof b.task_id !== 'string') return send(res, 422, missing(['body', 'task_id']));
        if (!tasks.has(b.task_id)) return send(res, 404, { detail: 'Task not found' });
        return send(res, 200, message(b.task_id, String(b.text ?? '')));
      }
      if (req.method === 'POST' && route === '/v1/messaging/messages/rerun') {
        const original = typeof b.task_id === 'string' ? tasks.get(b.task_id) : undefined;
        if (!original) return send(res, 404, { detail: 'Task not found' });
        const at = original.findIndex(
          (e) => (e.trace as { interaction_id?: unknown }).interaction_id === b.interaction_id,
        );
        if (at < 0) return send(res, 404, { detail: 'Interaction not found' });
        const branch = randomUUID();
        tasks.set(branch, original.slice(0, at));
        return send(res, 200, {
          regenerated_task_id: branch,
          message: message(branch, String(b.text ?? '')),
        });
      }
      const one = /^\/v1\/messaging\/tasks\/([^/]+)\/interactions\/([^/]+)\/trace-info$/.exec(route);
      if (req.method === 'GET' && one) {
        const exchanges = tasks.get(decodeURIComponent(one[1]!));
        const hit = exchanges?.find(
          (e) => (e.trace as { interaction_id?: unknown }).interaction_id === decodeURIComponent(one[2]!),
        );
        return hit ? send(res, 200, hit.trace) : send(res, 404, { detail: 'Not Found' });
      }
      const list = /^\/v1\/messaging\/tasks\/([^/]+)\/trace-info$/.exec(route);
      if (req.method === 'GET' && list) {
        const exchanges = tasks.get(decodeURIComponent(list[1]!));
        if (!exchanges) return send(res, 404, { detail: 'Task not found' });
        const items = exchanges.map((e) => e.trace);
        const page = Number(url.searchParams.get('page') ?? 0);
        const size = Number(url.searchParams.get('size') ?? 0);
        if (!page && !size) return send(res, 200, items);
        const p = page || 1;
        const s = size || 50;
        return send(res, 200, {
          items: items.slice((p - 1) * s, p * s),
          total: items.length,
          page: p,
          size: s,
          pages: Math.max(1, Math.ceil(items.length / s)),
        });
      }
      return send(res, 404, { detail: 'Not Found' });
    })().catch(() => send(res, 500, { detail: 'Internal Server Error' }));
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    plantTrace(taskId, index, value) {
      const exchanges = tasks.get(taskId);
      const at = exchanges?.[index];
      if (at) at.trace = value;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
