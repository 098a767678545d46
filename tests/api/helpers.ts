/**
 * Starts the real service (real engine, agents and SQLite store) on an ephemeral loopback port
 * with a throwaway data folder, and talks to it over HTTP.
 */
import { serve, type ServerType } from '@hono/node-server';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp, type AppOptions } from '../../server/app';
import { parseApiKeys } from '../../server/auth/api-keys';
import { defaultPorts } from '../../server/default-ports';
import type { MessagingPorts } from '../../server/service/ports';
import { SqliteStore } from '../../server/store/sqlite-store';

export const KEYS = 'root-key=*;cards-key=card-disputes';
export const ROOT = 'root-key';
export const CARDS_ONLY = 'cards-key';

export interface Service {
  url: string;
  dataDir: string;
  logs: string[];
  /** Stops the server and closes the store; the data folder stays (see `dispose`). */
  stop(): Promise<void>;
  /** Stops and deletes the data folder. */
  dispose(): Promise<void>;
}

export interface StartOptions extends Partial<Omit<AppOptions, 'store' | 'ports'>> {
  dataDir?: string;
  ports?: Partial<MessagingPorts>;
  keys?: string;
}

export function tempDataDir(): string {
  return mkdtempSync(join(tmpdir(), 'threadline-api-'));
}

export async function startService(options: StartOptions = {}): Promise<Service> {
  const dataDir = options.dataDir ?? tempDataDir();
  const store = new SqliteStore({ dataDir });
  const logs: string[] = [];
  const { dataDir: _d, ports, keys, ...appOptions } = options;
  const app = createApp({
    store,
    ports: { ...defaultPorts(), ...ports },
    apiKeys: parseApiKeys(keys ?? KEYS),
    log: (line) => logs.push(line),
    ...appOptions,
  });
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  const stop = async () => {
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      (server as { closeAllConnections?: () => void }).closeAllConnections?.();
    });
    await store.close();
  };
  return {
    url: `http://127.0.0.1:${port}`,
    dataDir,
    logs,
    stop,
    async dispose() {
      await stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface Reply<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

export async function call<T = any>( // eslint-disable-line @typescript-eslint/no-explicit-any
  service: { url: string },
  method: string,
  path: string,
  options: {
    key?: string | null;
    keyHeader?: string;
    body?: unknown;
    rawBody?: string | Uint8Array<ArrayBuffer>;
    headers?: Record<string, string>;
  } = {},
): Promise<Reply<T>> {
  const headers: Record<string, string> = { ...options.headers };
  const key = options.key === undefined ? ROOT : options.key;
  if (key !== null) headers[options.keyHeader ?? 'x-service-api-key'] = key;
  let body: string | Uint8Array<ArrayBuffer> | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(`${service.url}${path}`, {
    method,
    headers,
    ...(body !== undefined ? { body } : {}),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, body: parsed as T, headers: response.headers };
}

export const createTask = (s: { url: string }, body: Record<string, unknown> = {}, key?: string | null) =>
  call(s, 'POST', '/v1/messaging/tasks', {
    key,
    body: { agent_id: 'card-disputes', user_id: 'user-1', ...body },
  });

export const sendMessage = (
  s: { url: string },
  taskId: string,
  text: string,
  extra: Record<string, unknown> = {},
  query = '?include_trace=true',
) =>
  call(s, 'POST', `/v1/messaging/messages${query}`, {
    body: { type: 'message', task_id: taskId, text, ...extra },
  });

export const rerun = (s: { url: string }, body: Record<string, unknown>, query = '?include_trace=true') =>
  call(s, 'POST', `/v1/messaging/messages/rerun${query}`, { body });

/** A trace without the fields that legitimately differ between two runs: ids and latency. */
export function comparable(trace: Record<string, unknown>): Record<string, unknown> {
  const { interaction_id: _i, latency: _l, ...rest } = trace;
  return rest;
}
