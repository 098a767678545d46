/**
 * Slow and vanishing clients against the real service process: clients trickling their headers
 * or body, or connecting and saying nothing, are cut after the request timeout (2 s here, 30 s by
 * default), not after Node's minutes; normal clients are served meanwhile; and an upload the
 * client abandons is logged as a client abort (499), not as a 500 unhandled error.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startServiceProcess, type ServiceProcess } from '../../tools/lib/service-process';
import { getJson } from './wire';

const KEY = 'slow-key';
const TIMEOUT_MS = 2000;
let service: ServiceProcess;
let dataDir: string;
let port: number;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'threadline-connections-'));
  service = await startServiceProcess({
    data: dataDir,
    keys: `${KEY}=*`,
    env: { THREADLINE_REQUEST_TIMEOUT_MS: String(TIMEOUT_MS) },
  });
  port = Number(new URL(service.url).port);
});
afterAll(async () => {
  await service?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

interface Trickle {
  /** Milliseconds from connecting until the server closed the connection (or the test gave up). */
  closedAfter: Promise<number>;
  received: () => string;
  socket: Socket;
}

/** Opens a connection, writes `head`, then one more byte of `drip` every `everyMs` until closed. */
function trickle(head: string, drip: string, everyMs = 250, giveUpMs = 15_000): Trickle {
  const socket = connect(port, '127.0.0.1');
  const started = performance.now();
  let received = '';
  socket.on('data', (c: Buffer) => (received += c.toString()));
  socket.on('error', () => undefined);
  const closedAfter = new Promise<number>((resolve) => {
    let i = 0;
    const timer = setInterval(() => {
      if (drip && !socket.destroyed) socket.write(drip[i++ % drip.length]!);
    }, everyMs);
    const done = () => {
      clearInterval(timer);
      clearTimeout(giveUp);
      resolve(performance.now() - started);
    };
    const giveUp = setTimeout(() => {
      socket.destroy();
      done();
    }, giveUpMs);
    socket.once('close', done);
  });
  socket.write(head);
  return { closedAfter, received: () => received, socket };
}

describe('slow clients are cut in seconds', () => {
  it('cuts a client trickling its headers, one byte at a time', async () => {
    const t = trickle('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n', 'x-slow: yes\r\n');
    const after = await t.closedAfter;
    expect(after).toBeLessThan(TIMEOUT_MS + 3000);
    expect(t.received()).toMatch(/^HTTP\/1\.1 408/);
  });

  it('cuts a client trickling its body, while serving normal clients', async () => {
    const body = JSON.stringify({ agent_id: 'card-disputes', user_id: 'slow' });
    const tricklers = Array.from({ length: 20 }, () =>
      trickle(
        `POST /v1/messaging/tasks HTTP/1.1\r\nHost: 127.0.0.1\r\nx-service-api-key: ${KEY}\r\ncontent-type: application/json\r\ncontent-length: 100000\r\n\r\n`,
        body,
      ),
    );
    // Meanwhile the service answers others.
    const agents = await getJson<{ agents: unknown[] }>(service.url, '/reference/v1/agents', KEY);
    expect(agents.agents.length).toBeGreaterThan(0);
    const times = await Promise.all(tricklers.map((t) => t.closedAfter));
    expect(Math.max(...times)).toBeLessThan(TIMEOUT_MS + 3000);
  });

  it('cuts a client that connects and says nothing', async () => {
    const t = trickle('', '');
    expect(await t.closedAfter).toBeLessThan(TIMEOUT_MS + 3000);
  });
});

describe('an abandoned upload', () => {
  it('is logged as a client abort (499), not a 500 unhandled error', async () => {
    for (const transfer of ['content-length: 100000', 'transfer-encoding: chunked']) {
      const before = service.stdout().length;
      const socket = connect(port, '127.0.0.1');
      socket.on('error', () => undefined);
      const closed = new Promise((resolve) => socket.once('close', resolve));
      // `expect: 100-continue`: the service's "100 Continue" says the request reached its handler.
      const handling = new Promise<void>((resolve) =>
        socket.on('data', (c: Buffer) => {
          if (c.toString().startsWith('HTTP/1.1 100')) resolve();
        }),
      );
      socket.write(
        `POST /v1/messaging/messages HTTP/1.1\r\nHost: 127.0.0.1\r\nx-service-api-key: ${KEY}\r\ncontent-type: application/json\r\nexpect: 100-continue\r\n${transfer}\r\n\r\n`,
      );
      await handling;
      // Part of the body, then the client vanishes.
      await new Promise<void>((resolve) =>
        socket.write(
          transfer.startsWith('transfer') ? '10\r\n{"type":"message",\r\n' : '{"type":"message",',
          () => resolve(),
        ),
      );
      socket.destroy();
      await closed;
      // The request log line follows within a few turns of the service's event loop.
      const requestLog = () =>
        service
          .stdout()
          .slice(before)
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as Record<string, unknown>);
      await vi.waitFor(
        () => expect(requestLog().some((l) => l.path === '/v1/messaging/messages')).toBe(true),
        {
          timeout: 5000,
          interval: 50,
        },
      );
      const lines = requestLog();
      expect(lines, transfer).toEqual([
        expect.objectContaining({
          level: 'info',
          method: 'POST',
          path: '/v1/messaging/messages',
          status: 499,
        }),
      ]);
    }
  });
});
