/**
 * Raw HTTP over loopback with `node:http`, so any byte sequence (invalid UTF-8, truncated JSON,
 * odd percent-encodings) really goes on the wire, plus a way to run the real service as its own
 * process (`server/main.ts`), which a test can `kill -9` and whose memory it can read.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
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

export interface ServiceProcess {
  url: string;
  child: ChildProcess;
  /** The process's resident set size in bytes (Linux `/proc`). */
  rss(): number;
  /** SIGKILL, and wait for the exit. */
  kill9(): Promise<void>;
  /** SIGTERM, and wait for the exit. */
  stop(): Promise<void>;
}

/** Runs `server/main.ts` as its own process on an ephemeral loopback port with the given data folder. */
export function spawnService(
  dataDir: string,
  keys: string,
  env: Record<string, string> = {},
): Promise<ServiceProcess> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'server/main.ts', '--port', '0', '--host', '127.0.0.1', '--data', dataDir],
    {
      env: { ...process.env, THREADLINE_API_KEYS: keys, THREADLINE_DIST: `${dataDir}/no-dist`, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const match = /running at (http:\/\/\S+?)\/?\s/.exec(out);
      if (!match) return;
      child.stdout.off('data', onData);
      child.stdout.resume(); // the request log: drain it
      const pid = child.pid!;
      resolve({
        url: match[1]!,
        child,
        rss: () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024,
        kill9: async () => {
          child.kill('SIGKILL');
          await exited;
        },
        stop: async () => {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
          await exited;
        },
      });
    };
    child.stdout.on('data', onData);
    child.once('exit', (code, signal) =>
      reject(new Error(`the service exited (${code ?? signal}) before listening:\n${out}\n${stderr}`)),
    );
  });
}
