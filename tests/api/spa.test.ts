import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type Service } from './helpers';

let service: Service;
let dist: string;
const INDEX =
  '<!doctype html><html><head><script type="module" src="/assets/index-abc123.js"></script></head><body><div id="root"></div></body></html>';

beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), 'threadline-dist-'));
  mkdirSync(join(dist, 'assets'));
  writeFileSync(join(dist, 'index.html'), INDEX);
  writeFileSync(join(dist, 'assets', 'index-abc123.js'), 'console.log("app")');
  writeFileSync(join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
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
