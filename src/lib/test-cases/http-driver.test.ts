import { describe, expect, it } from 'vitest';
import type { TestCase } from './format';
import { httpDriver } from './http-driver';

const testCase: TestCase = {
  format: 'threadline-test-case',
  format_version: 1,
  name: 'A',
  agent_id: 'card-disputes',
  clock: '2025-03-15T12:00:00.000Z',
  turns: [{ say: 'one', expect: { decision: 'proceed' } }],
};

const trace = {
  interaction_id: 'm1',
  decision: 'proceed',
  rules_evaluated: [],
  tools_invoked: [],
  entities: {},
};

/** A service: `onTask` answers task creation (given the request body); messages answer a turn. */
function service(onTask: (body: Record<string, unknown>) => Response) {
  const tasks: Array<Record<string, unknown>> = [];
  const fetch = async (url: string | URL | Request, init?: RequestInit) => {
    const body = JSON.parse(String(init?.body)) as Record<string, unknown>;
    if (String(url).endsWith('/v1/messaging/tasks')) {
      tasks.push(body);
      return onTask(body);
    }
    return Response.json({ id: 'm1', text: 'ok', trace_info: trace });
  };
  return { tasks, fetch };
}

const run = async (fake: ReturnType<typeof service>) => {
  const started = await httpDriver({ baseUrl: 'http://svc.test/', apiKey: 'k', fetch: fake.fetch }).start(
    testCase,
  );
  const turn = await started.conversation.say('one');
  return { notes: started.notes, decision: turn.trace.decision };
};

describe('httpDriver', () => {
  it("reports the task's welcome and each reply's suggestions; with a bundle sent, says the welcome is not the bundle's", async () => {
    const fake = {
      fetch: async (url: string | URL | Request) =>
        String(url).endsWith('/v1/messaging/tasks')
          ? Response.json({ id: 't1', welcome_message: 'Welcome!', followup_suggestions: ['Book a room', 7] })
          : Response.json({ id: 'm1', text: 'ok', trace_info: trace, followup_suggestions: ['yes', 'no'] }),
    };
    const own = await httpDriver({ baseUrl: 'http://svc.test', apiKey: 'k', fetch: fake.fetch }).start(
      testCase,
    );
    expect(own.welcome).toEqual({ message: 'Welcome!', suggestions: ['Book a room'] });
    expect((await own.conversation.say('one')).suggestions).toEqual(['yes', 'no']);
    const sent = await httpDriver({
      baseUrl: 'http://svc.test',
      apiKey: 'k',
      fetch: fake.fetch,
      bundle: {},
    }).start({
      ...testCase,
      welcome: { suggestions: [] },
    });
    expect(sent.welcome).toBeUndefined();
    expect(sent.notes).toContainEqual(
      expect.stringMatching(/^the welcome was not checked: the service greets/),
    );
  });

  it('sends the case clock; a service that echoes it ran the task on it', async () => {
    const fake = service((body) => Response.json({ id: 't1', reference_clock: body.reference_clock }));
    expect(await run(fake)).toEqual({ notes: [], decision: 'proceed' });
    expect(fake.tasks).toEqual([expect.objectContaining({ reference_clock: '2025-03-15T12:00:00.000Z' })]);
  });

  it('asks again without the clock when a service refuses the unknown field, and says the clock was not used', async () => {
    const fake = service((body) =>
      'reference_clock' in body
        ? Response.json({ detail: 'extra fields not permitted' }, { status: 422 })
        : Response.json({ id: 't1' }),
    );
    const { notes, decision } = await run(fake);
    expect(decision).toBe('proceed');
    expect(fake.tasks.map((t) => 'reference_clock' in t)).toEqual([true, false]);
    expect(notes).toEqual([
      expect.stringContaining('did not confirm the task clock 2025-03-15T12:00:00.000Z'),
    ]);
  });

  it('does not ask again on other errors', async () => {
    const fake = service(() => Response.json({ message: 'down' }, { status: 503 }));
    await expect(run(fake)).rejects.toThrow('POST /v1/messaging/tasks answered 503: down');
    expect(fake.tasks).toHaveLength(1);
  });
});

describe('a service trusted with nothing', () => {
  it('refuses an answer past the size limit as it arrives', async () => {
    let pulled = 0;
    const endless = () =>
      new Response(
        new ReadableStream({
          pull(controller) {
            pulled += 1;
            controller.enqueue(new Uint8Array(64 * 1024));
          },
        }),
        { headers: { 'content-type': 'application/json' } },
      );
    const driver = httpDriver({
      baseUrl: 'http://svc.test',
      apiKey: 'k',
      fetch: async () => endless(),
      maxAnswerBytes: 1024 * 1024,
    });
    await expect(driver.start(testCase)).rejects.toThrow(/larger than 1048576 bytes/);
    expect(pulled).toBeLessThan(40);
  });

  it('gives up on a service that does not answer', async () => {
    const hanging = (_url: string | URL | Request, init?: RequestInit) =>
      new Promise<Response>((_resolve, reject) =>
        init?.signal?.addEventListener('abort', () => reject(init.signal!.reason as Error)),
      );
    const driver = httpDriver({ baseUrl: 'http://svc.test', apiKey: 'k', fetch: hanging, timeoutMs: 50 });
    await expect(driver.start(testCase)).rejects.toThrow(/did not answer within 0.05 s/);
  });
});
