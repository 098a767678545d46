/**
 * Starts the real service (real engine, agents and store) on an ephemeral loopback port with a
 * throwaway data folder, and talks to it over HTTP. The store is SQLite, or PostgreSQL when
 * `THREADLINE_TEST_STORE=postgres` (the `api-postgres` test project): then each data folder
 * stands for a database of its own on the test server, so a suite that restarts the service on the
 * same folder finds its data again.
 */
import { serve, type ServerType } from '@hono/node-server';
import Database from 'better-sqlite3';
import pg from 'pg';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp, type AppOptions } from '../../server/app';
import { parseApiKeys } from '../../server/auth/api-keys';
import { defaultDependencies } from '../../server/default-dependencies';
import type { MessagingDependencies } from '../../server/service/dependencies';
import { openStore } from '../../server/store/open-store';
import { freshDatabase } from '../support/postgres';

/** The store the API suites run against in this test project. */
export const STORE_KIND: 'sqlite' | 'postgres' =
  process.env.THREADLINE_TEST_STORE === 'postgres' ? 'postgres' : 'sqlite';
const databases = new Map<string, Promise<string>>();
/** The PostgreSQL database standing for a data folder (made on first use). */
function databaseFor(dataDir: string): Promise<string> {
  let url = databases.get(dataDir);
  if (!url) databases.set(dataDir, (url = freshDatabase('api')));
  return url;
}

/** The environment that points a service process (`server/main.ts`) at a data folder's store. */
export async function storeEnv(dataDir: string): Promise<Record<string, string>> {
  return {
    THREADLINE_DATA: dataDir,
    ...(STORE_KIND === 'postgres' ? { THREADLINE_DATABASE_URL: await databaseFor(dataDir) } : {}),
  };
}

/**
 * Runs one SQL statement straight on a service's database (`$1`-style parameters, each used once
 * and in order), behind the service's back: for tests that damage what is stored.
 */
export async function runSql(service: Service, sql: string, params: unknown[] = []): Promise<void> {
  if (service.storeKind === 'postgres') {
    const client = new pg.Client({ connectionString: await databaseFor(service.dataDir) });
    await client.connect();
    try {
      await client.query(sql, params);
    } finally {
      await client.end();
    }
    return;
  }
  const db = new Database(join(service.dataDir, 'threadline.db'));
  try {
    // Several statements at once (a migration's SQL) when no parameter is bound.
    if (params.length === 0) db.exec(sql);
    else db.prepare(sql.replace(/\$(\d+)/g, '?')).run(...params);
  } finally {
    db.close();
  }
}

export const KEYS = 'root-key=*;cards-key=card-disputes';
export const ROOT = 'root-key';
export const CARDS_ONLY = 'cards-key';

export interface Service {
  url: string;
  storeKind: 'sqlite' | 'postgres';
  dataDir: string;
  logs: string[];
  /** Stops the server and closes the store; the data folder stays (see `dispose`). */
  stop(): Promise<void>;
  /** Stops and deletes the data folder. */
  dispose(): Promise<void>;
}

export interface StartOptions extends Partial<Omit<AppOptions, 'store' | 'dependencies'>> {
  dataDir?: string;
  /** A PostgreSQL database to use instead of the data folder's store. */
  databaseUrl?: string;
  dependencies?: Partial<MessagingDependencies>;
  keys?: string;
}

export function tempDataDir(): string {
  return mkdtempSync(join(tmpdir(), 'threadline-api-'));
}

export async function startService(options: StartOptions = {}): Promise<Service> {
  const dataDir = options.dataDir ?? tempDataDir();
  const store = await openStore({
    dataDir,
    databaseUrl: options.databaseUrl ?? (STORE_KIND === 'postgres' ? await databaseFor(dataDir) : undefined),
  });
  const logs: string[] = [];
  const { dataDir: _d, databaseUrl: _u, dependencies, keys, ...appOptions } = options;
  const app = createApp({
    store,
    // An engine of the test's own runs in the test's thread (the worker pool runs the real one).
    dependencies: {
      ...defaultDependencies(),
      ...(dependencies?.engine ? { work: undefined } : {}),
      ...dependencies,
    },
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
    storeKind: STORE_KIND,
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
