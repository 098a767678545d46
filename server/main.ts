/**
 * The reference Messaging API service: `tsx server/main.ts [--port N] [--host H] [--data DIR]
 * [--upstream URL] [--dist DIR] [--agents DIR]...`. Serves the API and the built web app; stops cleanly on
 * SIGINT/SIGTERM (in-flight requests finish, then the database closes).
 */
import { serve } from '@hono/node-server';
import type { Server as NodeServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createApp } from './app';
import { describeProblem } from './agents/folders';
import { LiveAgentCatalog } from './agents/live-catalog';
import { ConfigError, parseConfig, redactedDatabaseUrl, type ServiceConfig } from './config';
import { connectionOptions, idleTimeoutMs, judgeOnlyTheClient } from './http/connections';
import { defaultDependencies, warmUp } from './default-dependencies';
import { DATABASE_FILE, StorageStartError } from './store/open-database';
import { openStore } from './store/open-store';
import { describeAtStart, storageFault } from './store/storage-faults';
import { StoreUnavailableError, type Store } from './store/store';
import { createEnginePool, defaultPoolSettings } from './work/engine-pool';

function fail(message: string): never {
  process.stderr.write(`threadline: ${message}\n`);
  process.exit(2);
}

/** What the agent folders gave: the agents loaded, each project skipped with its problems, and what was ignored. */
function folderReport(catalog: LiveAgentCatalog): string[] {
  const loaded = catalog.list().filter((a) => a.source === 'folder');
  const lines = loaded.length ? [`agents from folders: ${loaded.map((a) => a.id).join(', ')}`] : [];
  const problems = catalog.problems();
  const skipped = problems.filter((p) => p.severity !== 'warning');
  const ignored = problems.filter((p) => p.severity === 'warning');
  if (skipped.length)
    lines.push('some agent projects were skipped:', ...skipped.map((p) => `  ${describeProblem(p)}`));
  if (ignored.length)
    lines.push(
      'some files of loaded agent projects were ignored:',
      ...ignored.map((p) => `  ${describeProblem(p)}`),
    );
  return lines;
}

let config: ServiceConfig;
try {
  config = parseConfig(process.argv.slice(2), process.env);
} catch (error) {
  if (error instanceof ConfigError) fail(error.message);
  throw error;
}

async function open(): Promise<Store> {
  try {
    return await openStore(config);
  } catch (error) {
    if (error instanceof StoreUnavailableError) fail(`${error.message} (THREADLINE_DATABASE_URL)`);
    if (error instanceof StorageStartError) fail(error.message);
    const fault = storageFault(error);
    if (fault) fail(describeAtStart(fault, join(config.dataDir, DATABASE_FILE), config.dataDir));
    // Anything else met while opening (a schema newer than this service, ...): its message, no stack.
    const where = config.databaseUrl ? 'the database' : `the data folder ${config.dataDir}`;
    fail(`cannot use ${where}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

const store = await open();
const examples = defaultDependencies({
  work: createEnginePool({ ...defaultPoolSettings(), ...config.work }),
});
// Agent folders are read now: a project that does not load is reported and skipped.
const catalog = new LiveAgentCatalog(examples.agents, config.agentDirs, store);
const dependencies = { ...examples, agents: catalog };
for (const line of folderReport(catalog)) process.stderr.write(`threadline: ${line}\n`);
const app = createApp({
  store,
  dependencies,
  apiKeys: config.apiKeys,
  distDir: config.distDir,
  ...(config.upstream ? { upstream: config.upstream } : {}),
  ...(config.bodyLimitBytes ? { bodyLimitBytes: config.bodyLimitBytes } : {}),
  origins: { listenHost: config.host, allowedHosts: config.allowedHosts, corsOrigins: config.corsOrigins },
});

const server = serve(
  {
    fetch: app.fetch,
    port: config.port,
    hostname: config.host,
    serverOptions: connectionOptions(config.requestTimeoutMs),
  },
  (info: AddressInfo) => {
    const wildcard = info.address === '0.0.0.0' || info.address === '::';
    const host = wildcard ? 'localhost' : info.address.includes(':') ? `[${info.address}]` : info.address;
    const lines = [
      `Threadline is running at http://${host}:${info.port}/`,
      config.databaseUrl
        ? `  database: ${redactedDatabaseUrl(config.databaseUrl)}`
        : `  data: ${config.dataDir}`,
    ];
    if (config.defaultKey) lines.push('  API key: dev-key (set THREADLINE_API_KEYS to choose your own)');
    if (config.upstream) lines.push(`  /v1/messaging/* is forwarded to ${config.upstream.url}`);
    process.stdout.write(`${lines.join('\n')}\n`);
    // Forwarding messages upstream, this service runs no turns and stores none: its worker
    // threads start when first needed (a validation), not now. Otherwise the engine's workers and
    // the store's writer start now, not with the first message.
    if (!config.upstream) {
      store.warmUp?.();
      warmUp(dependencies).catch((error: unknown) => {
        process.stderr.write(
          `threadline: engine warm-up failed: ${error instanceof Error ? error.message : String(error)}\n`,
        );
      });
    }
  },
);
server.setTimeout(idleTimeoutMs(config.requestTimeoutMs));
judgeOnlyTheClient(server as NodeServer, idleTimeoutMs(config.requestTimeoutMs));

server.on('error', (error: NodeJS.ErrnoException) => {
  fail(
    error.code === 'EADDRINUSE'
      ? `port ${config.port} is already in use (choose another with --port or PORT)`
      : error.message,
  );
});

let stopping = false;
function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  process.stdout.write(`Received ${signal}, shutting down\n`);
  const force = setTimeout(() => process.exit(1), 5000);
  force.unref();
  server.close(() => {
    void store.close().then(() => process.exit(0));
  });
  (server as { closeIdleConnections?: () => void }).closeIdleConnections?.();
}
process.on('SIGINT', () => shutdown('SIGINT'));
process.on('SIGTERM', () => shutdown('SIGTERM'));
