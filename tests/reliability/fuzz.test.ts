/**
 * Fuzzing the real service over loopback: at least 10,000 generated malformed requests across
 * every endpoint (wrong and missing fields, wrong types, huge strings, deep nesting, broken JSON,
 * invalid UTF-8 bytes, wrong content types, bad query values, odd path ids, mutated bundles, and
 * bundles built to make the work explode: long unclosed `{{`, long near-miss names, many
 * formulas, names like `__proto__`, numbers beyond JSON's range, values doubled again and again
 * or printed thousands of times).
 * The service must never answer 5xx, every error must be a readable JSON body with a message,
 * nothing may be logged as an unhandled error, and a valid flow must still work afterwards.
 *
 * Reproducible: a fixed seed (override with FUZZ_SEED, the count with FUZZ_COUNT); a failure
 * prints the seed and each failing request's index and description.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, startService, type Service } from '../api/helpers';
import { raw, type RawReply, type RawRequest } from './wire';

const SEED = Number(process.env.FUZZ_SEED ?? 0x7e11ad);
const COUNT = Number(process.env.FUZZ_COUNT ?? 10_000);
const IN_FLIGHT = 8;
const LIMIT = 256 * 1024; // a small body limit so that "too large" is reached cheaply

// ---------------------------------------------------------------- a seeded generator

function mulberry32(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class Gen {
  private readonly next: () => number;
  constructor(seed: number) {
    this.next = mulberry32(seed);
  }
  float = () => this.next();
  int = (lo: number, hi: number) => lo + Math.floor(this.next() * (hi - lo + 1));
  bool = (p = 0.5) => this.next() < p;
  pick = <T>(items: readonly T[]): T => items[Math.floor(this.next() * items.length)]!;
}

const ODD_STRINGS = [
  '',
  ' ',
  '\u0000',
  'null',
  'undefined',
  '<script>window.__pwned=1</script>',
  "'; DROP TABLE tasks; --",
  '../../etc/passwd',
  '%00',
  '\ud800', // a lone surrogate (valid JSON escape, not encodable as UTF-8)
  '\udfff\ud800',
  '𝕿𝖍𝖗𝖊𝖆𝖉 🧵👩🏽‍💻',
  'مرحبا بالعالم',
  'e\u0301\u200b\u200f\u2028\u2029',
  '{{transaction-amount}}{{',
  '$'.repeat(50),
  'I want to dispute a charge of $1e308 from 99999999 days ago',
  'yes',
  'no',
  '9'.repeat(400),
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
];

const PROTOTYPE_NAMES = Object.getOwnPropertyNames(Object.prototype);

function oddString(g: Gen): string {
  const r = g.float();
  if (r < 0.6) return g.pick(ODD_STRINGS);
  if (r < 0.9) {
    let s = '';
    const n = g.int(1, 40);
    for (let i = 0; i < n; i += 1)
      s += String.fromCodePoint(
        g.pick([g.int(0, 0x7f), g.int(0x80, 0x7ff), g.int(0x800, 0xd7ff), g.int(0xe000, 0x10ffff)]),
      );
    return s;
  }
  if (r < 0.99) return g.pick(['a', 'ü', '🧵', '\\', '"']).repeat(g.int(200, 25_000));
  return 'x'.repeat(g.int(LIMIT - 2000, LIMIT + 5000)); // around the body limit
}

/**
 * Very deep values are written as JSON text directly (a structured clone or JSON.stringify of them
 * would overflow the test's own stack): the tree holds a placeholder string, `encode` swaps it.
 */
const deepTexts = new Map<string, string>();
function deep(g: Gen, depth: number): unknown {
  const asArray = g.bool();
  if (depth > 200) {
    const id = `__deep_${asArray ? 'a' : 'o'}${depth}__`;
    if (!deepTexts.has(id))
      deepTexts.set(
        id,
        asArray
          ? `${'['.repeat(depth)}1${']'.repeat(depth)}`
          : `${'{"all":'.repeat(depth)}null${'}'.repeat(depth)}`,
      );
    return id;
  }
  let value: unknown = g.pick([1, 'leaf', null, true]);
  for (let i = 0; i < depth; i += 1)
    value = asArray ? [value] : { [g.pick(['a', 'when', 'all', 'not', 'then'])]: value };
  return value;
}

function randomValue(g: Gen, budget = 3): unknown {
  const r = g.float();
  if (r < 0.1) return null;
  if (r < 0.18) return g.bool();
  if (r < 0.3) return g.pick([0, -1, 1.5, -0, 1e308, -1e308, 2 ** 53 + 1, 123456789, 0.1, 5e-324]);
  if (r < 0.55) return oddString(g);
  if (r < 0.68 && budget > 0) return Array.from({ length: g.int(0, 4) }, () => randomValue(g, budget - 1));
  if (r < 0.82 && budget > 0) {
    const o: Record<string, unknown> = {};
    for (let i = g.int(0, 4); i > 0; i -= 1)
      o[
        g.pick([
          'code',
          'when',
          'then',
          'type',
          'text',
          '__proto__',
          'constructor',
          'toString',
          oddString(g).slice(0, 20),
        ])
      ] = randomValue(g, budget - 1);
    return o;
  }
  if (r < 0.95) return deep(g, g.int(5, 120));
  return deep(g, g.pick([1_000, 5_000, 20_000]));
}

/** JSON text of a value; strings like `__proto__` become real own keys (JSON.parse keeps them). */
const encode = (value: unknown) =>
  JSON.stringify(value).replace(/"(__deep_[ao]\d+__)"/g, (_, id: string) => deepTexts.get(id)!);

// ---------------------------------------------------------------- mutations of valid requests

type Json = Record<string, unknown>;

function mutateObject(g: Gen, body: Json, fields: readonly string[]): Json {
  const out: Json = structuredClone(body);
  const n = g.int(1, 3);
  for (let i = 0; i < n; i += 1) {
    const field = g.bool(0.85) ? g.pick(fields) : oddString(g).slice(0, 30) || 'x';
    const r = g.float();
    if (r < 0.3) delete out[field];
    else out[field] = randomValue(g);
  }
  return out;
}

/** Walks to a random node of a JSON tree and replaces, deletes or duplicates it. */
function mutateTree(g: Gen, root: unknown): unknown {
  const copy = structuredClone(root);
  const path: (string | number)[] = [];
  let node: unknown = copy;
  let parent: unknown;
  let key: string | number | undefined;
  for (let depth = 0; depth < 12; depth += 1) {
    if (node === null || typeof node !== 'object' || g.bool(0.2)) break;
    const keys: (string | number)[] = Array.isArray(node) ? node.map((_, i) => i) : Object.keys(node);
    if (keys.length === 0) break;
    parent = node;
    key = g.pick(keys);
    path.push(key);
    node = (node as Record<string | number, unknown>)[key];
  }
  if (parent === undefined || key === undefined) return randomValue(g);
  const container = parent as Record<string | number, unknown>;
  const r = g.float();
  if (r < 0.2 && !Array.isArray(parent)) delete container[key];
  else if (r < 0.3 && Array.isArray(parent)) parent.push(structuredClone(parent[key as number]));
  else if (r < 0.4 && typeof node === 'string')
    container[key] = `${node}${g.pick(['', '-x', ' ', '{{unknown-param}}'])}`;
  else if (r < 0.5 && Array.isArray(parent) && typeof key === 'number') parent.splice(key, 1);
  else container[key] = randomValue(g, 2);
  return copy;
}

const BAD_UTF8: number[][] = [
  [0xff],
  [0xc3, 0x28],
  [0xe2, 0x28, 0xa1],
  [0xf0, 0x28, 0x8c, 0xbc],
  [0xed, 0xa0, 0x80], // an encoded surrogate
  [0xc0, 0xaf], // an overlong slash
  [0xf8, 0x88, 0x80, 0x80, 0x80],
  [0x80],
];

function mutateBytes(g: Gen, text: string): Uint8Array {
  let bytes = Buffer.from(text, 'utf8');
  const r = g.float();
  if (r < 0.25) return bytes.subarray(0, g.int(0, Math.max(0, bytes.length - 1)));
  if (r < 0.45) {
    const at = g.int(0, bytes.length);
    return Buffer.concat([bytes.subarray(0, at), Buffer.from(g.pick(BAD_UTF8)), bytes.subarray(at)]);
  }
  if (r < 0.6) {
    bytes = Buffer.from(bytes);
    for (let i = g.int(1, 4); i > 0 && bytes.length; i -= 1)
      bytes[g.int(0, bytes.length - 1)] = g.int(0, 255);
    return bytes;
  }
  if (r < 0.7) return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), bytes]); // a BOM
  if (r < 0.8)
    return Buffer.concat([bytes, Buffer.from(g.pick([',', '}', ' garbage', '\u0000', '{}', '[]']))]);
  if (r < 0.9)
    return Buffer.from(
      g.pick([
        '[',
        '{',
        '"',
        'nul',
        'tru',
        '1e99999',
        '-',
        '{"a":}',
        '{"a" 1}',
        "{'a':1}",
        'NaN',
        '[1,]',
        '{"a":1,}',
        '0x10',
      ]),
    );
  return Buffer.from(text.replace(/"/g, g.pick(["'", '`', ''])));
}

const CONTENT_TYPES = [
  undefined,
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  'application/json; charset=latin1',
  'application/json;charset=utf-16',
  'APPLICATION/JSON',
  'application/vnd.api+json',
  'application/jsonx',
  'json',
  '',
  ';;;',
  'application/json, text/plain',
];

const QUERY_VALUES = [
  '',
  'true',
  'TRUE',
  'yes',
  '2',
  '-1',
  '0',
  '1.5',
  '1e3',
  'NaN',
  'Infinity',
  '%00',
  '%ZZ',
  '%E0%A4%A',
  '%F0%9F%A7%B5',
  '99999999999999999999',
  'null',
  '[]',
  '{}',
  'a'.repeat(300),
  '%2F..%2F',
];

function oddId(g: Gen, real: string[]): string {
  const r = g.float();
  if (r < 0.25) return g.pick(real);
  if (r < 0.35) return `${g.pick(real)}${g.pick(['%2F', '%2f', '/', '%00', '%20', '..', '%2e%2e', 'x'])}`;
  return g.pick([
    '%2F',
    'a%2Fb',
    '%2e%2e',
    '..',
    '.',
    '%00',
    '%ZZ',
    '%E0%A4%A',
    '%F0%9F%A7%B5',
    '%C3%BC%C3%BC',
    encodeURIComponent('𝕿𝖍𝖗𝖊𝖆𝖉'),
    encodeURIComponent('<img src=x onerror=alert(1)>'),
    'x'.repeat(g.pick([199, 200, 201, 5000])),
    '%ED%A0%80',
    '%FF',
    '~',
    "'",
    'task_',
    'msg_0',
    '-1',
    '%252F',
  ]);
}

/** A bundle shaped to make validation or a turn do as much work as the body limit allows. */
function hostileBundle(g: Gen, base: Json): { description: string; bundle: Json; raw?: [string, string] } {
  const tool = (extra: Json) => ({
    code: 'DISPUTE_CHARGE',
    name: 'Dispute a charge',
    main_tool: true,
    ...extra,
  });
  const n = g.int(1_000, 60_000);
  switch (g.int(0, 7)) {
    case 0: {
      const message = `${g.pick(['', 'Filed ', '{'])}{{${g.pick([' ', 'a', '-'])}${' '.repeat(n)}`;
      return {
        description: `unclosed {{ in a message (${n})`,
        bundle: { ...base, rules: [{ code: 'R', when: null, then: { action: 'TEXT', message } }] },
      };
    }
    case 1:
      return {
        description: `unclosed {{ in a formula (${n})`,
        bundle: {
          ...base,
          parameters: [
            { code: 'fee', type: 'numeric', usage: 'computed', computation: `1 + {{${' '.repeat(n)}` },
          ],
          agent_tools: [tool({})],
        },
      };
    case 2: {
      const code = 'a'.repeat(Math.min(n, 60_000));
      return {
        description: `near-miss names (${code.length})`,
        bundle: {
          parameters: [{ code, type: 'string' }],
          agent_tools: [tool({ config: { params: { required: [`${code.slice(1)}b`, `b${code}`] } } })],
        },
      };
    }
    case 3: {
      const count = g.int(100, 2_500);
      return {
        description: `${count} formulas named like prototype members`,
        bundle: {
          parameters: [
            { code: 'amount', type: 'numeric' },
            ...Array.from({ length: count }, (_, i) => ({
              code: i < PROTOTYPE_NAMES.length ? PROTOTYPE_NAMES[i] : `${g.pick(PROTOTYPE_NAMES)}-${i}`,
              type: 'numeric',
              usage: 'computed',
              computation: `{{${g.pick(['amount', 'missing', PROTOTYPE_NAMES[i % PROTOTYPE_NAMES.length]])}}} + ${i}`,
            })),
          ],
          agent_tools: [tool({ config: { params: { required: [g.pick(PROTOTYPE_NAMES), 'amount'] } } })],
        },
      };
    }
    case 4: {
      const name = g.pick(PROTOTYPE_NAMES);
      return {
        description: `everything named ${name}`,
        bundle: {
          parameters: [{ code: name, type: 'string' }],
          entities: [{ name, parameters: [name] }],
          integrations: [{ code: name, type: 'API', settings: { response_mapping: { [name]: name } } }],
          agent_tools: [
            tool({
              config: { params: { required: [name] } },
              integrations: [{ code: name }],
              rules: {
                pre: {
                  constraint: [{ code: name, when: null, then: { action: 'TEXT', message: `{{${name}}}` } }],
                },
              },
            }),
          ],
        },
      };
    }
    case 5: {
      // Output amplification: each value doubles the one before, the last is printed.
      const depth = g.int(6, 22);
      return {
        description: `a value doubled ${depth} times and printed`,
        bundle: {
          parameters: [
            { code: 'd0', type: 'string', usage: 'computed', computation: `"${'x'.repeat(g.int(1, 500))}"` },
            ...Array.from({ length: depth }, (_, i) => ({
              code: `d${i + 1}`,
              type: 'string',
              usage: 'computed',
              computation: g.bool() ? `concat({{d${i}}}, {{d${i}}})` : `{{d${i}}} + {{d${i}}}`,
            })),
          ],
          agent_tools: [
            tool({
              rules: {
                pre: { constraint: [{ when: null, then: { action: 'BLOCK', message: `{{d${depth}}}` } }] },
              },
            }),
          ],
        },
      };
    }
    case 6: {
      const times = g.int(1_000, 40_000);
      return {
        description: `a value printed ${times} times`,
        bundle: {
          parameters: [{ code: 'x', type: 'string' }],
          agent_tools: [
            tool({
              rules: {
                pre: {
                  constraint: [{ when: null, then: { action: 'TEXT', message: '{{x}}'.repeat(times) } }],
                },
              },
            }),
          ],
        },
      };
    }
    default:
      // JSON.stringify cannot write Infinity: the number is put into the text itself.
      return {
        description: 'a number beyond JSON (1e309)',
        bundle: { ...base, general_settings: { name: 'Fuzz', max_turns: 12345.678 } },
        raw: ['12345.678', g.pick(['1e309', '-1e309', '1e400'])],
      };
  }
}

// ---------------------------------------------------------------- the run

interface Context {
  taskIds: string[];
  interactionIds: string[];
  bundle: Json;
}

interface Case {
  description: string;
  request: RawRequest;
}

function makeCase(g: Gen, ctx: Context): Case {
  const taskId = g.pick(ctx.taskIds);
  const interactionId = g.pick(ctx.interactionIds);
  const bodies: [string, string, Json, readonly string[]][] = [
    [
      'POST',
      '/v1/messaging/tasks',
      { agent_id: 'card-disputes', user_id: 'fuzz' },
      ['agent_id', 'user_id', 'task_origin_type', 'version_id', 'version_tag'],
    ],
    [
      'POST',
      `/v1/messaging/messages?include_trace=${g.pick(['true', 'false'])}`,
      { type: 'message', task_id: taskId, text: 'I want to dispute a charge' },
      [
        'type',
        'task_id',
        'text',
        'agent_settings_bundle',
        'context',
        'agent_variables',
        'selected_tools',
        'agent',
      ],
    ],
    [
      'POST',
      '/v1/messaging/messages/rerun?include_trace=true',
      { task_id: taskId, interaction_id: interactionId, text: 'It was a duplicate charge' },
      ['task_id', 'interaction_id', 'text', 'agent_id', 'version_id', 'version_tag', 'agent_settings_bundle'],
    ],
    ['POST', '/reference/v1/validate', { agent_settings_bundle: ctx.bundle }, ['agent_settings_bundle']],
  ];
  const key: Record<string, string> = g.bool(0.9) ? { 'x-service-api-key': ROOT } : { 'x-aui-api-key': ROOT };
  const kind = g.float();

  if (kind < 0.04) {
    const [method, path, base] = g.pick(bodies.slice(1));
    const hostile = hostileBundle(g, ctx.bundle);
    let body = encode({ ...base, agent_settings_bundle: hostile.bundle });
    if (hostile.raw) body = body.replace(hostile.raw[0], hostile.raw[1]);
    return {
      description: `complexity ${hostile.description} ${path}`,
      request: { method, path, headers: { ...key, 'content-type': 'application/json' }, body },
    };
  }
  if (kind < 0.3) {
    const [method, path, base, fields] = g.pick(bodies);
    const body = g.bool(0.1) ? randomValue(g) : mutateObject(g, base, fields);
    return {
      description: `fields ${path}`,
      request: { method, path, headers: { ...key, 'content-type': 'application/json' }, body: encode(body) },
    };
  }
  if (kind < 0.5) {
    const [method, path, base] = g.pick(bodies.slice(1));
    let bundle: unknown = ctx.bundle;
    for (let i = g.int(1, 4); i > 0; i -= 1) bundle = mutateTree(g, bundle);
    return {
      description: `bundle ${path}`,
      request: {
        method,
        path,
        headers: { ...key, 'content-type': 'application/json' },
        body: encode({ ...base, agent_settings_bundle: bundle }),
      },
    };
  }
  if (kind < 0.65) {
    const [method, path, base] = g.pick(bodies);
    return {
      description: `bytes ${path}`,
      request: {
        method,
        path,
        headers: { ...key, 'content-type': 'application/json' },
        body: mutateBytes(g, encode(base)),
      },
    };
  }
  if (kind < 0.72) {
    const [method, path, base] = g.pick(bodies);
    const contentType = g.pick(CONTENT_TYPES);
    const headers: Record<string, string> = {
      ...key,
      ...(contentType === undefined ? {} : { 'content-type': contentType }),
    };
    const body = g.bool(0.8) ? encode(base) : g.bool() ? '' : undefined;
    return {
      description: `content-type ${JSON.stringify(contentType)} ${path}`,
      request: { method, path, headers, ...(body === undefined ? {} : { body }), chunked: g.bool(0.1) },
    };
  }
  if (kind < 0.85) {
    const names = ['interaction_id', 'page', 'size', 'include_trace', 'version', g.pick(QUERY_VALUES)];
    const query = Array.from({ length: g.int(1, 4) }, () => `${g.pick(names)}=${g.pick(QUERY_VALUES)}`).join(
      '&',
    );
    const path = g.pick([
      `/v1/messaging/tasks/${taskId}/trace-info`,
      `/v1/messaging/tasks/${taskId}/interactions/${interactionId}/trace-info`,
      '/reference/v1/agents/card-disputes/bundle',
      '/reference/v1/agents',
      '/reference/v1/schemas/bundle.json',
      '/healthz',
    ]);
    if (g.bool(0.3)) {
      const [method, p, base] = g.pick(bodies);
      return {
        description: `query ${p}`,
        request: {
          method,
          path: `${p.split('?')[0]}?${query}`,
          headers: { ...key, 'content-type': 'application/json' },
          body: encode(base),
        },
      };
    }
    return {
      description: `query GET ${path}`,
      request: { method: 'GET', path: `${path}?${query}`, headers: key },
    };
  }
  if (kind < 0.95) {
    const ids = [...ctx.taskIds, ...ctx.interactionIds];
    const path = g.pick([
      `/v1/messaging/tasks/${oddId(g, ids)}/trace-info`,
      `/v1/messaging/tasks/${oddId(g, ids)}/interactions/${oddId(g, ids)}/trace-info`,
      `/v1/messaging/tasks/${oddId(g, ids)}/trace-info?interaction_id=${oddId(g, ids)}`,
      `/reference/v1/agents/${oddId(g, ['card-disputes', 'flight-changes'])}/bundle`,
      `/reference/v1/agents/card-disputes/bundle?version=${oddId(g, ['v1', 'v2', 'v1-30-day-window'])}`,
      `/v1/messaging/${oddId(g, ids)}`,
      `/v1/${oddId(g, ids)}/${oddId(g, ids)}`,
    ]);
    return { description: `path ${path.slice(0, 120)}`, request: { method: 'GET', path, headers: key } };
  }
  // Methods the endpoints do not serve, with or without bodies.
  const method = g.pick(['PUT', 'DELETE', 'PATCH', 'OPTIONS', 'GET', 'POST']);
  const path = g.pick([
    ...bodies.map((b) => b[1]),
    `/v1/messaging/tasks/${taskId}/trace-info`,
    '/openapi.json',
    '/reference/v1/agents',
  ]);
  const headers: Record<string, string> = { ...key, 'content-type': 'application/json' };
  if (method === 'OPTIONS')
    Object.assign(headers, {
      origin: 'http://127.0.0.1:5173',
      'access-control-request-method': g.pick(['POST', 'DELETE', 'GET']),
    });
  return {
    description: `method ${method} ${path}`,
    request: { method, path, headers, ...(g.bool() ? { body: encode({ a: 1 }) } : {}) },
  };
}

const isApiPath = (path: string) =>
  path.startsWith('/v1/') ||
  path.startsWith('/reference/') ||
  path === '/openapi.json' ||
  path === '/healthz';

/** What every answer must satisfy: no 5xx; a JSON body; an error body with a message. */
function problemWith(c: Case, reply: RawReply): string | undefined {
  if (reply.status >= 500) return `status ${reply.status}: ${reply.text.slice(0, 200)}`;
  if (c.request.method === 'OPTIONS' && reply.status === 204) return undefined; // a CORS preflight has no body
  // `/v1/../x` is `/x` once resolved: the web app's ground, where a plain-text 404 is right.
  const path = new URL(c.request.path, 'http://127.0.0.1').pathname;
  if (!isApiPath(path))
    return reply.status === 404 ? undefined : `status ${reply.status} for a path outside the API: ${path}`;
  if (reply.json === undefined || reply.json === null || typeof reply.json !== 'object')
    return `status ${reply.status} with a body that is not a JSON object: ${reply.text.slice(0, 200)}`;
  if (reply.status >= 400) {
    const { error, message } = reply.json as { error?: unknown; message?: unknown };
    if (typeof error !== 'string' || typeof message !== 'string' || message.length === 0)
      return `status ${reply.status} without {error, message}: ${reply.text.slice(0, 200)}`;
  }
  return undefined;
}

let service: Service;
const ctx: Context = { taskIds: [], interactionIds: [], bundle: {} };

beforeAll(async () => {
  service = await startService({ bodyLimitBytes: LIMIT });
  for (const agent of [
    'card-disputes',
    'flight-changes',
    'card-disputes',
    'card-disputes',
    'card-disputes',
    'card-disputes',
    'card-disputes',
    'card-disputes',
  ]) {
    const task = (
      await raw(service.url, {
        method: 'POST',
        path: '/v1/messaging/tasks',
        headers: { 'x-service-api-key': ROOT, 'content-type': 'application/json' },
        body: encode({ agent_id: agent, user_id: 'fuzz' }),
      })
    ).json as { id: string };
    ctx.taskIds.push(task.id);
    for (const text of ['I want to dispute a charge', 'It was a duplicate charge of $42.50 yesterday']) {
      const reply = await raw(service.url, {
        method: 'POST',
        path: '/v1/messaging/messages',
        headers: { 'x-service-api-key': ROOT, 'content-type': 'application/json' },
        body: encode({ type: 'message', task_id: task.id, text }),
      });
      ctx.interactionIds.push((reply.json as { id: string }).id);
    }
  }
  const bundle = await raw(service.url, {
    method: 'GET',
    path: '/reference/v1/agents/card-disputes/bundle',
    headers: { 'x-service-api-key': ROOT },
  });
  ctx.bundle = (bundle.json as { bundle: Json }).bundle;
});
afterAll(() => service.dispose());

describe(`fuzzing every endpoint (seed ${SEED}, ${COUNT} requests)`, () => {
  it('never answers 5xx, always answers a JSON error with a message, and logs no unhandled error', async () => {
    console.log(`fuzz seed: ${SEED} (rerun with FUZZ_SEED=${SEED} FUZZ_COUNT=${COUNT})`);
    const g = new Gen(SEED);
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    let next = 0;
    // Each case is made when it is sent (in index order, so a seed gives the same cases): made
    // all up front, they took seconds under load, long enough for the server to close the idle
    // keep-alive sockets of the setup just as the first requests reused them.
    const worker = async () => {
      while (next < COUNT) {
        const index = next++;
        const c = makeCase(g, ctx);
        let problem: string | undefined;
        try {
          const reply = await raw(service.url, c.request);
          statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
          problem = problemWith(c, reply);
        } catch (error) {
          problem = `no answer: ${error instanceof Error ? error.message : String(error)}`;
        }
        if (problem) failures.push(`#${index} ${c.request.method} ${c.description}: ${problem}`);
      }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
    console.log(
      `[figure] fuzz: ${COUNT} requests, seed ${SEED}, answers by status ${JSON.stringify(Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])))}, ${failures.length} failing`,
    );
    if (failures.length)
      console.log(
        `fuzz seed ${SEED}: ${failures.length} failing requests, first ones:\n${failures.slice(0, 15).join('\n')}`,
      );

    const unhandled = service.logs.filter((line) => line.includes('"unhandled error"'));
    if (unhandled.length) console.log(`logged unhandled errors:\n${unhandled.slice(0, 10).join('\n')}`);

    expect([...statuses.values()].reduce((a, b) => a + b, 0)).toBe(COUNT);
    expect(failures.slice(0, 15)).toEqual([]);
    // Several kinds of refusal were really exercised, not one path over and over.
    for (const status of [404, 413, 415, 422]) expect(statuses.get(status) ?? 0).toBeGreaterThan(0);
    expect(unhandled.slice(0, 5)).toEqual([]);
  }, 240_000);

  it('still answers a valid flow correctly afterwards', async () => {
    const headers = { 'x-service-api-key': ROOT, 'content-type': 'application/json' };
    const task = await raw(service.url, {
      method: 'POST',
      path: '/v1/messaging/tasks',
      headers,
      body: encode({ agent_id: 'card-disputes', user_id: 'after-fuzz' }),
    });
    expect(task.status).toBe(200);
    const taskId = (task.json as { id: string }).id;
    const sent = await raw(service.url, {
      method: 'POST',
      path: '/v1/messaging/messages?include_trace=true',
      headers,
      body: encode({ type: 'message', task_id: taskId, text: 'I want to dispute a charge' }),
    });
    expect(sent.status).toBe(200);
    const message = sent.json as {
      id: string;
      text: string;
      trace_info: { interaction_id: string; intent: string };
    };
    expect(message.text.length).toBeGreaterThan(0);
    expect(message.trace_info).toMatchObject({ interaction_id: message.id, intent: 'dispute_charge' });
    const traces = await raw(service.url, {
      method: 'GET',
      path: `/v1/messaging/tasks/${taskId}/trace-info`,
      headers,
    });
    expect(traces.status).toBe(200);
    expect(traces.json).toEqual([message.trace_info]);
    // The tasks the fuzzer hammered still start with their two original turns, in order.
    const before = await raw(service.url, {
      method: 'GET',
      path: `/v1/messaging/tasks/${ctx.taskIds[1]}/trace-info`,
      headers,
    });
    expect((before.json as { interaction_id: string }[]).map((t) => t.interaction_id).slice(0, 2)).toEqual(
      ctx.interactionIds.slice(2, 4),
    );
  });
});
