/**
 * Raw HTTP over loopback with `node:http`, so any byte sequence (invalid UTF-8, truncated JSON,
 * odd percent-encodings) really goes on the wire. The service itself runs as its own process
 * (`tools/lib/service-process.ts`), which a test can `kill -9` and whose memory it can read.
 */
import { Agent, request } from 'node:http';

export interface RawReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The body parsed as JSON, or `undefined` when it is not JSON. */
  json: unknown;
}

export interface RawRequest {
  method: string;
  /** Sent as is: no normalisation or re-encoding. */
  path: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** Send the body with chunked transfer encoding (no Content-Length). */
  chunked?: boolean;
}

export const keepAlive = new Agent({ keepAlive: true, maxSockets: 32 });

export function raw(baseUrl: string, req: RawRequest, agent: Agent = keepAlive): Promise<RawReply> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { ...req.headers };
    if (req.body !== undefined && !req.chunked) headers['content-length'] = Buffer.byteLength(req.body);
    const r = request(
      { host: url.hostname, port: url.port, method: req.method, path: req.path, headers, agent },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
      },
    );
    r.setTimeout(30_000, () => r.destroy(new Error(`no answer in 30 s: ${req.method} ${req.path}`)));
    r.on('error', reject);
    if (req.body !== undefined) r.write(req.body);
    r.end();
  });
}

export const jsonHeaders = (key: string): Record<string, string> => ({
  'x-service-api-key': key,
  'content-type': 'application/json',
});

/** POSTs JSON and answers the parsed body; throws on a non-2xx status. */
export async function postJson<T = Record<string, unknown>>(
  baseUrl: string,
  path: string,
  key: string,
  body: unknown,
): Promise<T> {
  const reply = await raw(baseUrl, {
    method: 'POST',
    path,
    headers: jsonHeaders(key),
    body: JSON.stringify(body),
  });
  if (reply.status !== 200) throw new Error(`${path}: ${reply.status} ${reply.text.slice(0, 300)}`);
  return reply.json as T;
}

export async function getJson<T = unknown>(baseUrl: string, path: string, key: string): Promise<T> {
  const reply = await raw(baseUrl, { method: 'GET', path, headers: { 'x-service-api-key': key } });
  if (reply.status !== 200) throw new Error(`${path}: ${reply.status} ${reply.text.slice(0, 300)}`);
  return reply.json as T;
}
