/**
 * Runs cases through a Messaging API v1 service with the public API: create a task, then send
 * each message (with the bundle under test, when one is given) and read the turn's trace. The
 * case's clock travels as the reference service's `reference_clock` extension; a service that
 * does not echo it back ran the task on its own clock, and the case's result says so. A service
 * that refuses the unknown field (400 or 422) is asked again without it, with the same note.
 *
 * The service is trusted with nothing: a redirect is never followed (the key and the body would
 * go wherever it points), an answer larger than `maxAnswerBytes` is refused as it arrives, and a
 * request unanswered within `timeoutMs` is given up.
 */
import type { Bundle } from '../../contract/bundle';
import { TolerantTrace } from '../../contract/trace';
import type { ObservedTurn } from './compare';
import type { TestCase } from './format';
import type { Driver } from './run';

export interface HttpDriverOptions {
  /** The service's base URL, e.g. http://127.0.0.1:8787 (no trailing path). */
  baseUrl: string;
  apiKey: string;
  /** Sent with every message: the bundle under test. Absent: the case's version on the service. */
  bundle?: Bundle;
  bundleHash?: string;
  fetch?: typeof fetch;
  signal?: AbortSignal;
  /** Largest answer read (default 32 MiB). */
  maxAnswerBytes?: number;
  /** How long one request may take, answer included (default 60 s). */
  timeoutMs?: number;
}

const DEFAULT_MAX_ANSWER_BYTES = 32 * 1024 * 1024;
const DEFAULT_TIMEOUT_MS = 60_000;

/** The answer's text, refused once it passes `limit` bytes. */
async function readCapped(res: Response, limit: number, what: string): Promise<string> {
  const declared = Number(res.headers.get('content-length') ?? NaN);
  if (declared > limit) {
    await res.body?.cancel().catch(() => undefined);
    throw new Error(`${what}: the answer is larger than ${limit} bytes`);
  }
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw new Error(`${what}: the answer is larger than ${limit} bytes`);
    }
    chunks.push(value);
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.byteLength;
  }
  return new TextDecoder().decode(all);
}

/** The answer's message, and the `type` of each problem its `detail` lists (e.g. `unknown_agent`). */
async function readError(res: Response, limit: number): Promise<{ text: string; types: string[] }> {
  const text = await readCapped(res, Math.min(limit, 64 * 1024), 'the error').catch(() => '');
  try {
    const body = JSON.parse(text) as { message?: unknown; detail?: unknown };
    const types = Array.isArray(body.detail)
      ? body.detail
          .map((d: unknown) => (d as { type?: unknown } | null)?.type)
          .filter((t) => typeof t === 'string')
      : [];
    if (typeof body.message === 'string') return { text: `${res.status}: ${body.message}`, types };
  } catch {
    // not JSON: show the start of the text
  }
  return { text: `${res.status}: ${text.slice(0, 300) || res.statusText}`, types: [] };
}

class HttpError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly types: string[] = [],
  ) {
    super(message);
  }
}

/** What to do when the service does not know the case's agent. */
function unknownAgentMessage(agentId: string): string {
  return (
    `the service does not know the agent ${agentId}. Create it there first (New agent in the app, or ` +
    'POST /reference/v1/agents with its bundle), or start the service with --agents <folder> holding its ' +
    'project; or run this suite with --bundle <file or project folder> on the embedded engine, which accepts any agent_id.'
  );
}

export function httpDriver(options: HttpDriverOptions): Driver {
  const doFetch = options.fetch ?? fetch;
  const base = options.baseUrl.replace(/\/+$/, '');
  const limit = options.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const post = async (path: string, body: unknown): Promise<unknown> => {
    const timeout = AbortSignal.timeout(timeoutMs);
    try {
      const res = await doFetch(`${base}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-service-api-key': options.apiKey },
        body: JSON.stringify(body),
        redirect: 'manual',
        signal: options.signal ? AbortSignal.any([options.signal, timeout]) : timeout,
      });
      if (res.type === 'opaqueredirect' || (res.status >= 300 && res.status < 400)) {
        await res.body?.cancel().catch(() => undefined);
        const to = res.headers.get('location');
        throw new HttpError(
          `POST ${path} answered a redirect${to ? ` to ${to.slice(0, 200)}` : ''}, which is not followed (the key would go with it): give the service's own URL`,
          res.status,
        );
      }
      if (!res.ok) {
        const error = await readError(res, limit);
        throw new HttpError(`POST ${path} answered ${error.text}`, res.status, error.types);
      }
      return JSON.parse(await readCapped(res, limit, `POST ${path}`)) as unknown;
    } catch (error) {
      if (timeout.aborted && !options.signal?.aborted)
        throw new Error(`POST ${path}: the service did not answer within ${timeoutMs / 1000} s`, {
          cause: error,
        });
      throw error;
    }
  };

  return {
    async start(testCase: TestCase) {
      const clock = new Date(testCase.clock).toISOString();
      const request = {
        agent_id: testCase.agent_id,
        user_id: testCase.user_id ?? 'test-user',
        task_origin_type: 'test-case',
        ...(testCase.version_id ? { version_id: testCase.version_id } : {}),
        ...(testCase.version_tag ? { version_tag: testCase.version_tag } : {}),
      };
      const task = (await post('/v1/messaging/tasks', { ...request, reference_clock: clock }).catch(
        (error: unknown) => {
          if (error instanceof HttpError && error.types.includes('unknown_agent'))
            throw new Error(unknownAgentMessage(testCase.agent_id));
          if (error instanceof HttpError && (error.status === 400 || error.status === 422))
            return post('/v1/messaging/tasks', request);
          throw error;
        },
      )) as {
        id?: unknown;
        reference_clock?: unknown;
        welcome_message?: unknown;
        followup_suggestions?: unknown;
      };
      if (typeof task.id !== 'string') throw new Error('POST /v1/messaging/tasks answered no task id');
      const taskId = task.id;
      const echoed = typeof task.reference_clock === 'string' ? Date.parse(task.reference_clock) : NaN;
      const notes =
        echoed === Date.parse(clock)
          ? []
          : [
              `the service did not confirm the task clock ${clock} (it is not the reference service?): date-dependent turns ran on its own clock`,
            ];
      // The service greets with the agent's own version: the greeting is the bundle's only without one.
      const texts = (v: unknown) =>
        Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
      const welcome = options.bundle
        ? undefined
        : {
            message: typeof task.welcome_message === 'string' ? task.welcome_message : '',
            suggestions: texts(task.followup_suggestions),
          };
      if (options.bundle && testCase.welcome)
        notes.push(
          "the welcome was not checked: the service greets with the agent's own version, not the bundle sent with the messages",
        );
      return {
        notes,
        taskId,
        ...(welcome ? { welcome } : {}),
        bundleHash: options.bundleHash ?? null,
        conversation: {
          async say(text: string): Promise<ObservedTurn> {
            const reply = (await post('/v1/messaging/messages?include_trace=true', {
              type: 'message',
              task_id: taskId,
              text,
              ...(options.bundle ? { agent_settings_bundle: options.bundle } : {}),
            })) as { text?: unknown; trace_info?: unknown; followup_suggestions?: unknown };
            if (reply.trace_info === undefined) throw new Error('the reply carries no trace_info');
            return {
              reply: typeof reply.text === 'string' ? reply.text : '',
              suggestions: texts(reply.followup_suggestions),
              trace: TolerantTrace.parse(reply.trace_info),
            };
          },
        },
      };
    },
  };
}
