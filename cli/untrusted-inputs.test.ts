/**
 * The CLI trusts nothing it reads: case files are regular files within the suite folder and of a
 * bounded size (no FIFO, device or link leading out), what it prints holds no control
 * characters, a --server redirect is never followed (so the key never leaves), and an --output it
 * cannot write is said before anything runs.
 */
import { execFileSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_CASE_BYTES } from './files';
import { main, type Io } from './main';

const PASSING = 'server/agents/card-disputes/tests/list-transactions.case.json';

async function run(argv: string[], env: Record<string, string> = {}) {
  let out = '';
  let err = '';
  const io: Io = { out: (t) => (out += t), err: (t) => (err += t), env };
  const code = await main(argv, io);
  return { code, out, err };
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'threadline-cli-untrusted-'));
  writeFileSync(join(dir, 'a-passing.case.json'), readFileSync(PASSING));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('what the CLI reads', () => {
  it('refuses a FIFO named like a case, without waiting on it', async () => {
    execFileSync('mkfifo', [join(dir, 'pipe.case.json')]);
    const { code, err } = await run(['test', dir]);
    expect(code).toBe(2);
    expect(err).toContain('pipe.case.json: cannot read: it is not a regular file');
  });

  it('refuses /dev/zero given as the case file', async () => {
    const { code, err } = await run(['test', '/dev/zero']);
    expect(code).toBe(2);
    expect(err).toContain('it is not a regular file');
  });

  it('refuses a link leading out of the suite folder, and prints nothing of its target', async () => {
    symlinkSync('/etc/passwd', join(dir, 'leak.case.json'));
    const { code, err } = await run(['test', dir]);
    expect(code).toBe(2);
    expect(err).toContain('leak.case.json: cannot read: it leads out of the folder');
    expect(err).not.toContain('root:');
  });

  it('refuses a case file over the size limit', async () => {
    writeFileSync(join(dir, 'huge.case.json'), ' '.repeat(MAX_CASE_BYTES + 1));
    const { code, err } = await run(['test', dir]);
    expect(code).toBe(2);
    expect(err).toContain(`huge.case.json: cannot read: it is larger than ${MAX_CASE_BYTES} bytes`);
  });
});

describe('what the CLI prints and writes', () => {
  it('drops control characters (ANSI escapes) from case names', async () => {
    const testCase = JSON.parse(readFileSync(PASSING, 'utf8')) as { name: string };
    testCase.name = 'Evil \u001b[2J\u001b]0;owned\u0007name\r';
    writeFileSync(join(dir, 'b-evil.case.json'), JSON.stringify(testCase));
    const { code, out } = await run(['test', dir]);
    expect(code).toBe(0);
    expect(out).toContain('Evil [2J]0;ownedname');
    const control = [...out].filter((ch) => {
      const c = ch.charCodeAt(0);
      return c <= 8 || (c >= 11 && c <= 31) || c === 127;
    });
    expect(control).toEqual([]);
  });

  it('says an --output it cannot write before running anything, without a stack trace', async () => {
    const { code, err } = await run(['test', dir, '--output', join(dir, 'no-such-folder', 'report.xml')]);
    expect(code).toBe(2);
    expect(err).toMatch(/nothing was run:\n {2}the report cannot be written to .*report\.xml: ENOENT/);
    expect(err).not.toContain('    at ');
    expect((await run(['test', dir, '--output', dir])).err).toContain('it is a folder');
  });
});

describe('--server', () => {
  let servers: Server[] = [];
  const listen = async (handler: Parameters<typeof createServer>[1]) => {
    const server = createServer(handler);
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };
  afterEach(async () => {
    for (const s of servers) await new Promise((resolve) => s.close(resolve));
    servers = [];
  });

  it('never follows a redirect to another origin: the key and the body stay', async () => {
    const seen: string[] = [];
    const elsewhere = await listen((req, res) => {
      seen.push(String(req.headers['x-service-api-key']));
      res.end('{}');
    });
    const redirecting = await listen((_req, res) => {
      res.writeHead(307, { location: `${elsewhere}/v1/messaging/tasks` }).end();
    });
    const { code, out } = await run(['test', dir, '--server', redirecting, '--key-env', 'TL_KEY'], {
      TL_KEY: 'secret-key',
    });
    expect(code).toBe(1);
    expect(out).toContain('answered a redirect to');
    expect(out).toContain('which is not followed');
    expect(seen).toEqual([]);
  });
});
