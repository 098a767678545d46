/**
 * Serving the built single-page app: files from the dist folder (their precompressed copies when
 * the client accepts them; see static-files.ts), hashed assets cached for a year, everything else
 * revalidated, and index.html for client-side routes (paths without a file extension outside the
 * API prefixes).
 */
import type { Env, Hono } from 'hono';
import { join, resolve, sep } from 'node:path';
import { sendFile } from './static-files';

const API_PREFIXES = ['/v1/', '/reference/', '/openapi.json', '/healthz'];
const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';

function isClientRoute(path: string): boolean {
  if (API_PREFIXES.some((p) => path === p.replace(/\/$/, '') || path.startsWith(p))) return false;
  const last = path.split('/').pop() ?? '';
  return !last.includes('.');
}

/** The file a URL path names inside `root`, or undefined for a path that could leave it. */
function fileUnder(root: string, urlPath: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  if (/[\0\\]/.test(decoded) || decoded.split('/').some((s) => s === '.' || s === '..')) return undefined;
  const file = resolve(root, `.${decoded}`);
  return file === root || file.startsWith(root + sep) ? file : undefined;
}

export function mountSpa<E extends Env>(app: Hono<E>, distDir: string): void {
  const root = resolve(distDir);
  const assets = join(root, 'assets') + sep;
  const indexFile = join(root, 'index.html');
  // GET routes answer HEAD too (without the body).
  app.get('*', (c, next) => {
    const path = c.req.path;
    const file = fileUnder(root, path);
    const sent = file && sendFile(c, file, file.startsWith(assets) ? IMMUTABLE : REVALIDATE);
    if (sent) return sent;
    if (file === undefined || !isClientRoute(path)) return next();
    return (
      sendFile(c, indexFile, REVALIDATE) ??
      c.text('The web app is not built yet: run `npm run build` (or start with `npm start`).', 404)
    );
  });
}
