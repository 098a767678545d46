import { describe, expect, it } from 'vitest';
import type { TestCase } from './format';
import { caseProblems } from './report';
import { runSuite, type Driver } from './run';

const testCase: TestCase = {
  format: 'threadline-test-case',
  format_version: 1,
  name: 'A',
  agent_id: 'card-disputes',
  clock: '2025-03-15T12:00:00.000Z',
  turns: [
    { say: 'one', expect: { decision: 'proceed' } },
    { say: 'two', expect: { decision: 'proceed' } },
  ],
};

function driver(sent: string[], onSay?: () => void): Driver {
  let n = 0;
  return {
    async start() {
      n += 1;
      sent.push(`start task_${n}`);
      const taskId = `task_${n}`;
      return {
        taskId,
        bundleHash: null,
        notes: [],
        conversation: {
          async say(text) {
            sent.push(`${taskId}:${text}`);
            onSay?.();
            return {
              reply: '',
              trace: { decision: 'proceed', rules_evaluated: [], tools_invoked: [], entities: {} },
            };
          },
        },
      };
    },
  };
}

describe('runSuite', () => {
  const greeting = (welcome?: { message: string; suggestions: string[] }, notes: string[] = []): Driver => ({
    async start() {
      return {
        bundleHash: null,
        notes,
        ...(welcome ? { welcome } : {}),
        conversation: {
          async say() {
            return {
              reply: '',
              trace: { decision: 'proceed', rules_evaluated: [], tools_invoked: [], entities: {} },
            };
          },
        },
      };
    },
  });
  const welcomeCase: TestCase = { ...testCase, welcome: { suggestions: ['Book a room'] } };

  it('fails a case whose welcome differs, and says so in the report', async () => {
    const [ok] = await runSuite(greeting({ message: 'Hi', suggestions: ['Book a room'] }), [
      { source: 'a', testCase: welcomeCase },
    ]);
    expect(ok!.status).toBe('passed');
    const [bad] = await runSuite(greeting({ message: 'Hi', suggestions: [] }), [
      { source: 'a', testCase: welcomeCase },
    ]);
    expect(bad!.status).toBe('failed');
    expect(bad!.turns.every((t) => t.mismatches.length === 0)).toBe(true);
    expect(caseProblems(bad!).join('\n')).toContain(
      'welcome: welcome suggestions: expected ["Book a room"], got []',
    );
  });

  it('notes a welcome it could not check, rather than passing it silently or failing the case', async () => {
    const [r] = await runSuite(greeting(), [{ source: 'a', testCase: welcomeCase }]);
    expect(r!.status).toBe('passed');
    expect(r!.notes).toEqual(['the welcome was not checked: this run does not report the greeting']);
  });

  it('reports the task each case ran in, so the run can be opened and compared', async () => {
    const results = await runSuite(driver([]), [
      { source: 'a', testCase },
      { source: 'b', testCase },
    ]);
    expect(results.map((r) => [r.source, r.status, r.taskId])).toEqual([
      ['a', 'passed', 'task_1'],
      ['b', 'passed', 'task_2'],
    ]);
  });

  it('sends nothing more once cancelled', async () => {
    const sent: string[] = [];
    const controller = new AbortController();
    const cases = Array.from({ length: 5 }, (_, i) => ({ source: String(i), testCase }));
    const results = await runSuite(
      driver(sent, () => controller.abort()),
      cases,
      { concurrency: 1, signal: controller.signal },
    );
    expect(sent).toEqual(['start task_1', 'task_1:one']);
    expect(results.map((r) => [r.status, r.error, r.turns.length])).toEqual([
      ['error', 'cancelled', 1],
      ...Array.from({ length: 4 }, () => ['error', 'cancelled', 0]),
    ]);
  });
});
