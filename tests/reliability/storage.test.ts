/**
 * Storage faults on the real service process (`server/main.ts`):
 *
 * - data folders it cannot use (not writable, holding a read-only, damaged or foreign database,
 *   already used by another running service, on a full disk) → it refuses to start with one
 *   readable line naming the file and what to do, exit code 2, no stack trace;
 * - the disk filling up while it runs → 507 with a body that says so (never a 500, never a 200
 *   with a broken body), and it carries on by itself once space returns, nothing lost.
 *
 * A full disk is a small tmpfs, and "not writable" is the service running as `nobody`: both need
 * root (as CI runs); elsewhere those tests are skipped, the others still run.
 */
import { spawn, execFileSync } from 'node:child_process';
import {
  chownSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
  writeSync,
  closeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServiceProcess, type ServiceProcess } from '../../tools/lib/service-process';
import { raw, postJson } from './wire';

const KEY = 'storage-key';
const NOBODY = 65534;
const isRoot = process.getuid?.() === 0;
const folders: string[] = [];
const mounts: string[] = [];

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'threadline-storage-'));
  folders.push(dir);
  return dir;
}

function canMount(): boolean {
  if (!isRoot) return false;
  const dir = folder();
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', dir], { stdio: 'ignore' });
    execFileSync('umount', [dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
const tmpfsAvailable = canMount();

/** A tmpfs of `size` bytes: a disk that can really fill up. */
function smallDisk(size: number): string {
  const dir = folder();
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir]);
  mounts.push(dir);
  return dir;
}

/** Writes a file until the disk is full; returns its path (delete it to give the space back). */
function fillDisk(dir: string): string {
  const file = join(dir, 'filler');
  const fd = openSync(file, 'w');
  const chunk = Buffer.alloc(16 * 1024, 1);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (error) {
    expect((error as NodeJS.ErrnoException).code).toBe('ENOSPC');
  } finally {
    closeSync(fd);
  }
  return file;
}

afterAll(() => {
  for (const dir of mounts) execFileSync('umount', ['-l', dir], { stdio: 'ignore' });
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

interface Refusal {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Starts the service and expects it to exit on its own (within 30 s). */
function startExpectingRefusal(dataDir: string, options: { uid?: number } = {}): Promise<Refusal> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'server/main.ts', '--port', '0', '--host', '127.0.0.1', '--data', dataDir],
    {
      env: { ...process.env, THREADLINE_API_KEYS: `${KEY}=*`, THREADLINE_DIST: join(dataDir, 'no-dist') },
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(options.uid !== undefined ? { uid: options.uid, gid: options.uid } : {}),
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** One line on stderr (npm's own warnings aside), no stack trace, exit code 2, never "running". */
function expectRefusal(refusal: Refusal, pattern: RegExp) {
  const lines = refusal.stderr.split('\n').filter((l) => l.trim() && !l.startsWith('npm warn'));
  expect(lines, refusal.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^threadline: /);
  expect(lines[0]).toMatch(pattern);
  expect(refusal.stderr).not.toMatch(/\n\s+at /);
  expect(refusal.stdout).not.toContain('running at');
  expect(refusal.code).toBe(2);
}

async function seed(dataDir: string): Promise<void> {
  const service = await startServiceProcess({ data: dataDir, keys: `${KEY}=*` });
  try {
    const task = await postJson<{ id: string }>(service.url, '/v1/messaging/tasks', KEY, {
      agent_id: 'card-disputes',
      user_id: 'storage',
    });
    for (let i = 0; i < 20; i += 1) {
      await postJson(service.url, '/v1/messaging/messages?include_trace=true', KEY, {
        type: 'message',
        task_id: task.id,
        text: `I want to dispute a charge of ${i} euros`,
      });
    }
  } finally {
    await service.stop();
  }
}

describe('refusing to start on a data folder it cannot use', () => {
  it('refuses a second service on the same data folder, naming the lock, and starts once the first stops', async () => {
    const dir = folder();
    const first = await startServiceProcess({ data: dir, keys: `${KEY}=*` });
    try {
      expectRefusal(
        await startExpectingRefusal(dir),
        new RegExp(
          `another Threadline service is using the data folder ${dir} \\(${dir}/threadline.lock is locked\\): stop it`,
        ),
      );
      // The first one is untouched.
      expect((await raw(first.url, { method: 'GET', path: '/healthz' })).status).toBe(200);
    } finally {
      await first.kill9();
    }
    // The lock went with the killed process: no stale lock to clean up.
    const second = await startServiceProcess({ data: dir, keys: `${KEY}=*` });
    await second.stop();
  });

  it('refuses a database whose pages are damaged (checked at start), and a file that is no database', async () => {
    const dir = folder();
    await seed(dir);
    const file = join(dir, 'threadline.db');
    const bytes = readFileSync(file);
    const pageSize = bytes.readUInt16BE(16);
    expect(bytes.length / pageSize).toBeGreaterThan(4);
    // Overwrite the pages after the schema with noise, as a failing disk would.
    let seedValue = 7;
    for (let i = 2 * pageSize; i < bytes.length; i += 1) {
      seedValue = (seedValue * 1103515245 + 12345) & 0x7fffffff;
      bytes[i] = seedValue & 0xff;
    }
    writeFileSync(file, bytes);
    expectRefusal(
      await startExpectingRefusal(dir),
      new RegExp(`${file} is damaged or is not a Threadline database: move it away`),
    );

    const foreign = folder();
    writeFileSync(join(foreign, 'threadline.db'), 'these are my notes, not a database'.repeat(200));
    expectRefusal(
      await startExpectingRefusal(foreign),
      /threadline\.db is damaged or is not a Threadline database/,
    );
  });

  it('refuses a data path that is a file', async () => {
    const path = join(folder(), 'a-file');
    writeFileSync(path, 'x');
    expectRefusal(await startExpectingRefusal(path), new RegExp(`${path}`));
  });

  it.skipIf(!isRoot)('refuses an empty data folder it may not write to', async () => {
    const dir = folder(); // owned by root, mode 700: nobody may not even look inside
    expectRefusal(
      await startExpectingRefusal(dir, { uid: NOBODY }),
      new RegExp(
        `cannot write to ${dir}/threadline.lock: the data folder ${dir} or the database in it is read-only`,
      ),
    );
    const missing = join(dir, 'sub');
    expectRefusal(await startExpectingRefusal(missing, { uid: NOBODY }), new RegExp(`${missing}`));
  });

  it.skipIf(!isRoot)('refuses an existing database it may read but not write', async () => {
    const dir = folder();
    await seed(dir); // files owned by root, mode 644
    chownSync(dir, NOBODY, NOBODY);
    chownSync(join(dir, 'threadline.lock'), NOBODY, NOBODY);
    expectRefusal(
      await startExpectingRefusal(dir, { uid: NOBODY }),
      new RegExp(`cannot write to ${dir}/threadline.db: .* read-only`),
    );
  });

  it.skipIf(!tmpfsAvailable)('refuses to start on a full disk', async () => {
    const disk = smallDisk(256 * 1024);
    fillDisk(disk);
    const dir = join(disk, 'data');
    mkdirSync(dir);
    expectRefusal(await startExpectingRefusal(dir), /the disk holding .* is full: free some space/);
  });
});

describe.skipIf(!tmpfsAvailable)('the disk filling up while it runs', () => {
  let service: ServiceProcess | undefined;
  afterAll(() => service?.stop());

  it('answers 507 saying so, never a 500 or a broken 200, and carries on by itself once space returns', async () => {
    const disk = smallDisk(4 * 1024 * 1024);
    service = await startServiceProcess({ data: join(disk, 'data'), keys: `${KEY}=*` });
    const url = service.url;
    const task = await postJson<{ id: string }>(url, '/v1/messaging/tasks', KEY, {
      agent_id: 'card-disputes',
      user_id: 'disk',
    });
    const send = (text: string) =>
      raw(url, {
        method: 'POST',
        path: '/v1/messaging/messages?include_trace=true',
        headers: { 'x-service-api-key': KEY, 'content-type': 'application/json' },
        body: JSON.stringify({ type: 'message', task_id: task.id, text }),
      });
    const acknowledged: string[] = [];
    expect((await send('I want to dispute a charge')).status).toBe(200);

    const filler = fillDisk(disk);
    let full: Awaited<ReturnType<typeof send>> | undefined;
    // The WAL may still have room for a few turns; the disk runs out within a few hundred.
    for (let i = 0; i < 400 && !full; i += 1) {
      const reply = await send(`It was ${i} euros, ${'and here is a long explanation. '.repeat(100)}`);
      expect([200, 507], reply.text.slice(0, 300)).toContain(reply.status);
      if (reply.status === 200) acknowledged.push((reply.json as { id: string }).id);
      else full = reply;
    }
    expect(full, 'the disk never filled up').toBeDefined();
    expect(full!.json).toEqual({
      error: 'Insufficient Storage',
      message:
        'The disk holding the service’s database is full, so nothing was saved. Free some space; the service carries on by itself once there is room.',
    });
    // Reads still work while the disk is full.
    const traces = await raw(url, {
      method: 'GET',
      path: `/v1/messaging/tasks/${task.id}/trace-info`,
      headers: { 'x-service-api-key': KEY },
    });
    expect(traces.status).toBe(200);
    expect(traces.json).toBeInstanceOf(Array);

    rmSync(filler);
    const after = await send('Space is back');
    expect(after.status).toBe(200);
    const all = await raw(url, {
      method: 'GET',
      path: `/v1/messaging/tasks/${task.id}/trace-info`,
      headers: { 'x-service-api-key': KEY },
    });
    const ids = (all.json as { interaction_id: string }[]).map((t) => t.interaction_id);
    expect(ids).toEqual(expect.arrayContaining([...acknowledged, (after.json as { id: string }).id]));
    expect(ids).toHaveLength(acknowledged.length + 2);
    expect(service.stdout()).toMatch(/"msg":"storage fault: full"/);
  });
});
