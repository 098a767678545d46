/**
 * The `--upstream` proxy as a real process: the URL's credentials are never printed, and large
 * answers are streamed through rather than held in memory (the resident size stays flat while
 * several 100 MB answers pass at once; a generous behavioural bound, not a timing).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, get, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServiceProcess, type ServiceProcess } from '../../tools/lib/service-process';

const MB = 1024 * 1024;
const ANSWER_BYTES = 100 * MB;
let fake: Server;
let fakeUrl: string;
let dataDir: string;
let service: ServiceProcess;

beforeAll(async () => {
  const chunk = Buffer.alloc(MB, 'x');
  fake = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': ANSWER_BYTES });
    let sent = 0;
    const more = () => {
      while (sent < ANSWER_BYTES) {
        sent += MB;
        if (!res.write(chunk)) return void res.once('drain', more);
      }
      res.end();
    };
    more();
  });
  await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
  fakeUrl = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
  dataDir = mkdtempSync(join(tmpdir(), 'threadline-upstream-'));
  service = await startServiceProcess({
    data: dataDir,
    keys: 'k=*',
    env: {
      THREADLINE_UPSTREAM: fakeUrl.replace('//', '//deploy-user:s3cret-pass@'),
      THREADLINE_UPSTREAM_MAX_BYTES: String(2 * ANSWER_BYTES),
    },
  });
});
afterAll(async () => {
  await service?.stop();
  await new Promise((resolve) => fake?.close(resolve));
  rmSync(dataDir, { recursive: true, force: true });
});

/** Downloads through the service, counting bytes and throwing them away. */
function download(): Promise<number> {
  return new Promise((resolve, reject) => {
    get(
      `${service.url}/v1/messaging/tasks/t/trace-info`,
      { headers: { 'x-service-api-key': 'k' } },
      (res) => {
        let bytes = 0;
        res.on('data', (c: Buffer) => (bytes += c.length));
        res.on('end', () => resolve(bytes));
        res.on('error', reject);
      },
    ).on('error', reject);
  });
}

describe('--upstream as a process', () => {
  it('prints the upstream without its credentials', () => {
    expect(service.stdout()).toContain(`/v1/messaging/* is forwarded to ${fakeUrl}`);
    expect(service.stdout() + service.stderr()).not.toContain('s3cret-pass');
    expect(service.stdout() + service.stderr()).not.toContain('deploy-user');
  });

  it('streams four 100 MB answers at once without holding them in memory', async () => {
    const before = service.rss();
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, service.rss())), 20);
    try {
      const sizes = await Promise.all([download(), download(), download(), download()]);
      expect(sizes).toEqual([ANSWER_BYTES, ANSWER_BYTES, ANSWER_BYTES, ANSWER_BYTES]);
    } finally {
      clearInterval(sampler);
    }
    expect(peak - before).toBeLessThan(100 * MB);
  }, 60_000);
});
