/**
 * Runs cases through a Messaging API v1 service with the public API: create a task, then send
 * each message (with the bundle under test, when one is given) and read the turn's trace. The
 * case's clock travels as the reference service's `reference_clock` extension; a service that
 * does not echo it back ran the task on its own clock, and the case's result says so. A service
 * that refuses the unknown field (400 or 422) is asked again without it, with the same note.
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
}

/** The answer's message, and the `type` of each problem its `detail` lists (e.g. `unknown_agent`). */
async function readError(res: Response): Promise<{ text: string; types: string[] }> {
  const text = await res.text().catch(() => '');
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
export function unknownAgentMessage(agentId: string): string {
  return (
    `the service does not know the agent ${agentId}. Create it there first (New agent in the app, or ` +
    'POST /reference/v1/agents with its bundle), or start the service with --agents <folder> holding its ' +
    'project; or run this suite with --bundle <file or project folder> on the embedded engine, which accepts any agent_id.'
  );
}

export function httpDriver(options: HttpDriverOptions): Driver {
  const doFetch = options.fetch ?? fetch;
  const base = options.baseUrl.replace(/\/+$/, '');
  const post = async (path: string, body: unknown): Promise<unknown> => {
    const res = await doFetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-service-api-key': options.apiKey },
      body: JSON.stringify(body),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    if (!res.ok) {
      const error = await readError(res);
      throw new HttpError(`POST ${path} answered ${error.text}`, res.status, error.types);
    }
    return res.json();
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
      )) as { id?: unknown; reference_clock?: unknown };
      if (typeof task.id !== 'string') throw new Error('POST /v1/messaging/tasks answered no task id');
      const taskId = task.id;
      const echoed = typeof task.reference_clock === 'string' ? Date.parse(task.reference_clock) : NaN;
      const notes =
        echoed === Date.parse(clock)
          ? []
          : [
              `the service did not confirm the task clock ${clock} (it is not the reference service?): date-dependent turns ran on its own clock`,
            ];
      return {
        notes,
        taskId,
        bundleHash: options.bundleHash ?? null,
        conversation: {
          async say(text: string): Promise<ObservedTurn> {
            const reply = (await post('/v1/messaging/messages?include_trace=true', {
              type: 'message',
              task_id: taskId,
              text,
              ...(options.bundle ? { agent_settings_bundle: options.bundle } : {}),
            })) as { text?: unknown; trace_info?: unknown };
            if (reply.trace_info === undefined) throw new Error('the reply carries no trace_info');
            return {
              reply: typeof reply.text === 'string' ? reply.text : '',
              trace: TolerantTrace.parse(reply.trace_info),
            };
          },
        },
      };
    },
  };
}
