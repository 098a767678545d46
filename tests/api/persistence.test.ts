import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import {
  call,
  comparable,
  createTask,
  rerun,
  sendMessage,
  startService,
  storeEnv,
  tempDataDir,
} from './helpers';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('restart persistence', () => {
  it('keeps tasks, messages, traces, pins and branches across a close and reopen of the store', async () => {
    const dataDir = tempDataDir();
    dirs.push(dataDir);
    const first = await startService({ dataDir });
    const task = (await createTask(first, { version_tag: 'v1' })).body;
    const replies = [];
    for (const text of ['I want to dispute a charge', 'duplicate charge', '$18'])
      replies.push((await sendMessage(first, task.id, text)).body);
    const branch = (
      await rerun(first, { task_id: task.id, interaction_id: replies[1].id, text: 'wrong amount' })
    ).body;
    const traces = (await call(first, 'GET', `/v1/messaging/tasks/${task.id}/trace-info`)).body;
    const branchTraces = (
      await call(first, 'GET', `/v1/messaging/tasks/${branch.regenerated_task_id}/trace-info`)
    ).body;
    await first.stop();

    const second = await startService({ dataDir });
    try {
      expect((await call(second, 'GET', `/v1/messaging/tasks/${task.id}/trace-info`)).body).toEqual(traces);
      expect(
        (await call(second, 'GET', `/v1/messaging/tasks/${branch.regenerated_task_id}/trace-info`)).body,
      ).toEqual(branchTraces);
      const next = await sendMessage(second, task.id, 'jane.doe@example.com');
      expect(next.status).toBe(200);
      expect(next.body.version_id).toBe('v1-30-day-window');
      const all = (await call(second, 'GET', `/v1/messaging/tasks/${task.id}/trace-info`)).body;
      expect(all.map((t: { interaction_id: string }) => t.interaction_id)).toEqual([
        ...replies.map((r) => r.id),
        next.body.id,
      ]);
    } finally {
      await second.stop();
    }
  });

  it('gives identical traces after a restart for the same state and message (ids and latency aside)', async () => {
    const dataDir = tempDataDir();
    dirs.push(dataDir);
    const first = await startService({ dataDir });
    const task = (await createTask(first)).body;
    const texts = [
      'I want to dispute a charge',
      'It was unauthorized, $700 at Skyline Electronics two days ago',
    ];
    const replies = [];
    for (const text of texts) replies.push((await sendMessage(first, task.id, text)).body);
    await first.stop();

    const second = await startService({ dataDir });
    try {
      for (const [i, reply] of replies.entries()) {
        const again = (await rerun(second, { task_id: task.id, interaction_id: reply.id, text: texts[i] }))
          .body;
        expect(again.message.text).toBe(reply.text);
        expect(comparable(again.message.trace_info)).toEqual(comparable(reply.trace_info));
      }
    } finally {
      await second.stop();
    }
  });
});

/** Starts `server/main.ts` as its own process and resolves with its URL once it listens. */
async function startProcess(dataDir: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts', '--port', '0'], {
    env: {
      ...process.env,
      ...(await storeEnv(dataDir)),
      THREADLINE_API_KEYS: 'root-key=*',
      THREADLINE_DIST: `${dataDir}/no-dist`,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /running at (http:\/\/\S+?)\/?\s/.exec(out);
      if (match) resolve({ child, url: match[1]! });
    });
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('exit', (code) => reject(new Error(`the service exited (${code}) before listening:\n${out}`)));
  });
}

function killHard(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.on('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

function stopGracefully(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    child.on('exit', (code) => resolve(code));
    child.kill('SIGTERM');
  });
}

describe('durability', () => {
  it('stops cleanly on SIGTERM and starts again on the same data', async () => {
    const dataDir = tempDataDir();
    dirs.push(dataDir);
    const first = await startProcess(dataDir);
    const task = (await createTask(first)).body;
    const sent = (await sendMessage(first, task.id, 'freeze my card')).body;
    expect(await stopGracefully(first.child)).toBe(0);

    const second = await startProcess(dataDir);
    try {
      const trace = await call(
        second,
        'GET',
        `/v1/messaging/tasks/${task.id}/interactions/${sent.id}/trace-info`,
      );
      expect(trace.status).toBe(200);
      expect(trace.body).toEqual(sent.trace_info);
    } finally {
      await stopGracefully(second.child);
    }
  });

  it('keeps an acknowledged message after kill -9', async () => {
    const dataDir = tempDataDir();
    dirs.push(dataDir);
    const first = await startProcess(dataDir);
    const task = (await createTask(first)).body;
    const sent = await sendMessage(first, task.id, 'I want to dispute a charge');
    expect(sent.status).toBe(200);
    await killHard(first.child);

    const second = await startProcess(dataDir);
    try {
      const traces = await call(second, 'GET', `/v1/messaging/tasks/${task.id}/trace-info`);
      expect(traces.status).toBe(200);
      expect(traces.body.map((t: { interaction_id: string }) => t.interaction_id)).toEqual([sent.body.id]);
    } finally {
      await killHard(second.child);
    }
  });
});
