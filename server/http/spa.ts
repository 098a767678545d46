/**
 * Serving the built single-page app: files from the dist folder, hashed assets cached for a year,
 * everything else revalidated, and index.html for client-side routes (paths without a file
 * extension outside the API prefixes).
 */
import { serveStatic } from '@hono/node-server/serve-static';
import type { Context, Env, Hono } from 'hono';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';

export const API_PREFIXES = ['/v1/', '/reference/', '/openapi.json', '/healthz'];
const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';

export function isClientRoute(path: string): boolean {
  if (API_PREFIXES.some((p) => path === p.replace(/\/$/, '') || path.startsWith(p))) return false;
  const last = path.split('/').pop() ?? '';
  return !last.includes('.');
}

export function mountSpa<E extends Env>(app: Hono<E>, distDir: string): void {
  const root = resolve(distDir);
  const indexFile = join(root, 'index.html');
  if (existsSync(root)) {
    app.use(
      '*',
      serveStatic({
        root,
        onFound: (path: string, c: Context<E>) => {
          c.header('Cache-Control', path.startsWith(join(root, 'assets')) ? IMMUTABLE : REVALIDATE);
        },
      }),
    );
  }
  app.get('*', async (c, next) => {
    if (!isClientRoute(c.req.path)) return next();
    if (!existsSync(indexFile)) {
      return c.text('The web app is not built yet: run `npm run build` (or start with `npm start`).', 404);
    }
    c.header('Cache-Control', REVALIDATE);
    return c.html(await readFile(indexFile, 'utf8'));
  });
}
