import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type Service } from './helpers';

let service: Service;
let dist: string;
const INDEX =
  '<!doctype html><html><head><script type="module" src="/assets/index-abc123.js"></script></head><body><div id="root"></div></body></html>';
/** A hashed asset with gzip and brotli copies beside it, as the build writes them. */
const APP = Buffer.from(
  `export const rules = [${Array.from({ length: 400 }, (_, i) => `"RULE_${i}"`).join(', ')}];\n`,
);
const APP_GZ = gzipSync(APP, { level: 9 });
const APP_BR = brotliCompressSync(APP);

beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), 'threadline-dist-'));
  mkdirSync(join(dist, 'assets'));
  writeFileSync(join(dist, 'index.html'), INDEX);
  writeFileSync(join(dist, 'assets', 'index-abc123.js'), 'console.log("app")');
  writeFileSync(join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(join(dist, 'assets', 'app-def456.js'), APP);
  writeFileSync(join(dist, 'assets', 'app-def456.js.gz'), APP_GZ);
  writeFileSync(join(dist, 'assets', 'app-def456.js.br'), APP_BR);
  writeFileSync(join(dist, 'index.html.gz'), gzipSync(INDEX));
  writeFileSync(join(dist, 'index.html.br'), brotliCompressSync(INDEX));
  service = await startService({ distDir: dist });
});
afterAll(async () => {
  await service.dispose();
  rmSync(dist, { recursive: true, force: true });
});

const get = (path: string) => fetch(`${service.url}${path}`);

describe('serving the web app', () => {
  it('serves index.html at / with security headers and no long cache', async () => {
    const response = await get('/');
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(INDEX);
    expect(response.headers.get('content-type')).toMatch(/text\/html/);
    expect(response.headers.get('cache-control')).toBe('no-cache');
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("worker-src 'self' blob:");
    expect(csp).toContain("style-src 'self' 'unsafe-inline'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
  });

  it('answers index.html for client routes', async () => {
    for (const path of ['/tasks/task_1', '/compare/a/b', '/settings']) {
      const response = await get(path);
      expect(response.status, path).toBe(200);
      expect(await response.text()).toBe(INDEX);
    }
  });

  it('caches hashed assets for a year and serves other files revalidated', async () => {
    const asset = await get('/assets/index-abc123.js');
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toMatch(/javascript/);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const icon = await get('/favicon.svg');
    expect(icon.status).toBe(200);
    expect(icon.headers.get('cache-control')).toBe('no-cache');
  });

  it('answers 404, not index.html, for a missing file and an unknown API path', async () => {
    const missing = await get('/assets/missing-123.js');
    expect(missing.status).toBe(404);
    const api = await fetch(`${service.url}/reference/v1/nothing`, {
      headers: { 'x-service-api-key': 'root-key' },
    });
    expect(api.status).toBe(404);
    expect(await api.json()).toEqual({
      error: 'Not Found',
      message: 'No such endpoint: GET /reference/v1/nothing',
    });
  });

  it('refuses path traversal out of the dist folder', async () => {
    const response = await get('/..%2f..%2fetc%2fpasswd');
    expect(response.status).toBe(404);
  });
});

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The bytes as they came over the wire (not decoded). */
  body: Buffer;
}

/** A request with exactly the given headers (fetch would add its own Accept-Encoding and decode). */
function raw(path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(`${service.url}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('precompressed assets', () => {
  const ASSET = '/assets/app-def456.js';

  it('sends the brotli copy to a client that accepts brotli, with the headers of the original', async () => {
    const r = await raw(ASSET, { 'accept-encoding': 'gzip, deflate, br' });
    expect(r.status).toBe(200);
    expect(r.headers['content-encoding']).toBe('br');
    expect(r.headers['content-type']).toMatch(/^text\/javascript/);
    expect(r.headers['content-length']).toBe(String(APP_BR.length));
    expect(r.headers.vary).toBe('Accept-Encoding');
    expect(r.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(r.body).equals(APP)).toBe(true);
  });

  it('sends the gzip copy when brotli is not accepted', async () => {
    for (const accept of ['gzip', 'gzip, deflate', 'br;q=0, gzip;q=0.8', 'deflate, GZIP']) {
      const r = await raw(ASSET, { 'accept-encoding': accept });
      expect(r.headers['content-encoding'], accept).toBe('gzip');
      expect(r.headers['content-length'], accept).toBe(String(APP_GZ.length));
      expect(gunzipSync(r.body).equals(APP), accept).toBe(true);
    }
  });

  it('never sends a compressed copy to a client that did not ask for one', async () => {
    const cases: Array<Record<string, string>> = [
      {},
      { 'accept-encoding': 'identity' },
      { 'accept-encoding': 'deflate' },
      { 'accept-encoding': 'br;q=0, gzip;q=0' },
      { 'accept-encoding': '*;q=0, identity' },
    ];
    for (const headers of cases) {
      const r = await raw(ASSET, headers);
      const label = JSON.stringify(headers);
      expect(r.status, label).toBe(200);
      expect(r.headers['content-encoding'], label).toBeUndefined();
      expect(r.headers['content-length'], label).toBe(String(APP.length));
      expect(r.headers.vary, label).toBe('Accept-Encoding');
      expect(r.body.equals(APP), label).toBe(true);
    }
  });

  it('compresses index.html too, at / and for client routes, revalidated', async () => {
    for (const path of ['/', '/tasks/task_1']) {
      const r = await raw(path, { 'accept-encoding': 'gzip' });
      expect(r.status, path).toBe(200);
      expect(r.headers['content-encoding'], path).toBe('gzip');
      expect(r.headers['content-type'], path).toMatch(/^text\/html/);
      expect(r.headers['cache-control'], path).toBe('no-cache');
      expect(gunzipSync(r.body).toString(), path).toBe(INDEX);
    }
  });

  it('leaves a file without compressed copies as it is, without Vary', async () => {
    const r = await raw('/assets/index-abc123.js', { 'accept-encoding': 'gzip, br' });
    expect(r.headers['content-encoding']).toBeUndefined();
    expect(r.headers.vary).toBeUndefined();
    expect(r.body.toString()).toBe('console.log("app")');
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    for (const accept of ['br', 'gzip', 'identity']) {
      const get = await raw(ASSET, { 'accept-encoding': accept });
      const head = await raw(ASSET, { 'accept-encoding': accept }, 'HEAD');
      expect(head.status, accept).toBe(200);
      expect(head.body.length, accept).toBe(0);
      for (const name of [
        'content-type',
        'content-length',
        'content-encoding',
        'etag',
        'vary',
        'cache-control',
      ])
        expect(head.headers[name], `${accept} ${name}`).toEqual(get.headers[name]);
    }
  });

  it('revalidates with ETags, one per representation', async () => {
    const br = await raw(ASSET, { 'accept-encoding': 'br' });
    const plain = await raw(ASSET);
    const gz = await raw(ASSET, { 'accept-encoding': 'gzip' });
    const tags = [br, plain, gz].map((r) => r.headers.etag);
    expect(tags.every((t) => typeof t === 'string' && /^"[^"]+"$/.test(t))).toBe(true);
    expect(new Set(tags).size).toBe(3);

    const again = await raw(ASSET, { 'accept-encoding': 'br', 'if-none-match': br.headers.etag as string });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers.etag).toBe(br.headers.etag);
    expect(again.headers.vary).toBe('Accept-Encoding');
    expect(again.headers['cache-control']).toBe('public, max-age=31536000, immutable');

    // A cached brotli copy does not validate for a client that takes no brotli: it gets the file.
    const other = await raw(ASSET, { 'if-none-match': br.headers.etag as string });
    expect(other.status).toBe(200);
    expect(other.body.equals(APP)).toBe(true);

    const index = await raw('/', { 'accept-encoding': 'gzip' });
    const indexAgain = await raw('/', {
      'accept-encoding': 'gzip',
      'if-none-match': `W/${String(index.headers.etag)}`,
    });
    expect(indexAgain.status).toBe(304);
    expect(indexAgain.headers['cache-control']).toBe('no-cache');
  });
});
