/**
 * Sending a file of the built web app: the precompressed copy the client accepts (`<file>.br`,
 * then `<file>.gz`, written beside each asset at build time), else the file itself; never a
 * compressed copy to a client that did not ask for one. Every answer carries its Content-Type
 * (from the original name), Content-Length (of what is sent), an ETag per representation and
 * `Vary: Accept-Encoding` when the file has compressed copies; a matching `If-None-Match` gets a
 * 304, and HEAD the same headers without a body.
 */
import type { Context } from 'hono';
import { getMimeType } from 'hono/utils/mime';
import { createReadStream, statSync, type Stats } from 'node:fs';
import { Readable } from 'node:stream';

/** The encodings written at build time, in order of preference, and the suffix of their files. */
const PRECOMPRESSED = [
  { encoding: 'br', suffix: '.br' },
  { encoding: 'gzip', suffix: '.gz' },
] as const;
export type Encoding = (typeof PRECOMPRESSED)[number]['encoding'];

/**
 * The q-value the client's Accept-Encoding gives each coding (RFC 9110 §12.5.3): a coding
 * named with no q (or `q` above 0) is accepted, `q=0` refuses it, `*` stands for codings not
 * named. No header means no compression (identity only). The header is short and split once: linear.
 */
function acceptedEncodings(header: string | undefined): (encoding: Encoding) => boolean {
  const q = new Map<string, number>();
  for (const part of (header ?? '').split(',')) {
    const [name = '', ...params] = part.split(';');
    const coding = name.trim().toLowerCase();
    if (!coding) continue;
    let value = 1;
    for (const param of params) {
      const [key, raw] = param.split('=');
      if (key?.trim().toLowerCase() === 'q') {
        const parsed = Number(raw?.trim());
        value = Number.isFinite(parsed) ? parsed : 0;
      }
    }
    q.set(coding, value);
  }
  return (encoding) => (q.get(encoding) ?? q.get('*') ?? 0) > 0;
}

const statOf = (path: string): Stats | undefined => {
  try {
    const stats = statSync(path);
    return stats.isFile() ? stats : undefined;
  } catch {
    return undefined;
  }
};

const etagOf = (stats: Stats, encoding: string | undefined) =>
  `"${stats.size.toString(36)}-${Math.floor(stats.mtimeMs).toString(36)}${encoding ? `-${encoding}` : ''}"`;

/** True when an If-None-Match header names the ETag (weak comparison, as for GET and HEAD). */
function matches(ifNoneMatch: string, etag: string): boolean {
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/** Answers the file at `path` (which must exist), or undefined when it does not. */
export function sendFile(c: Context, path: string, cacheControl: string): Response | undefined {
  const original = statOf(path);
  if (!original) return undefined;
  const accepts = acceptedEncodings(c.req.header('accept-encoding'));
  let variants = 0;
  let chosen: { path: string; stats: Stats; encoding?: Encoding } | undefined;
  for (const { encoding, suffix } of PRECOMPRESSED) {
    const stats = statOf(path + suffix);
    if (!stats) continue;
    variants += 1;
    if (!chosen && accepts(encoding)) chosen = { path: path + suffix, stats, encoding };
  }
  chosen ??= { path, stats: original };

  const etag = etagOf(chosen.stats, chosen.encoding);
  const headers: Record<string, string> = {
    'Cache-Control': cacheControl,
    ETag: etag,
    'Last-Modified': original.mtime.toUTCString(),
  };
  if (variants > 0) headers.Vary = 'Accept-Encoding';
  const ifNoneMatch = c.req.header('if-none-match');
  if (ifNoneMatch !== undefined && matches(ifNoneMatch, etag)) {
    for (const [name, value] of Object.entries(headers)) c.header(name, value);
    return c.body(null, 304);
  }
  headers['Content-Type'] = getMimeType(path) ?? 'application/octet-stream';
  headers['Content-Length'] = String(chosen.stats.size);
  if (chosen.encoding) headers['Content-Encoding'] = chosen.encoding;
  for (const [name, value] of Object.entries(headers)) c.header(name, value);
  if (c.req.method === 'HEAD') return c.body(null, 200);
  const stream = Readable.toWeb(createReadStream(chosen.path)) as ReadableStream<Uint8Array>;
  return c.body(stream, 200);
}
