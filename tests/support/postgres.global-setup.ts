/**
 * Vitest global setup: one throwaway PostgreSQL server for the whole run (see
 * `tools/lib/postgres-server.ts`), handed to the tests as `inject('postgres')`. Each suite takes a database
 * of its own from it (`postgres.ts`). Where PostgreSQL is not installed the PostgreSQL suites are
 * skipped, and the reason is printed here and in their names.
 */
import type { TestProject } from 'vitest/node';
import { findPostgresBin, startPostgresServer } from '../../tools/lib/postgres-server';

export interface ProvidedPostgres {
  /** Admin URL of the server, or null when there is none. */
  adminUrl: string | null;
  /** Why there is no server. */
  reason: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    postgres: ProvidedPostgres;
  }
}

/**
 * Vitest runs a global setup once per project; the projects share one server (started by the
 * first, stopped by the last teardown) through this process-wide slot.
 */
const shared = globalThis as typeof globalThis & {
  threadlinePostgres?: { provided: Promise<ProvidedPostgres>; stop: () => Promise<void>; users: number };
};

async function provide(): Promise<{ provided: ProvidedPostgres; stop: () => void }> {
  const existing = process.env.THREADLINE_TEST_POSTGRES_URL;
  if (existing) return { provided: { adminUrl: existing, reason: '' }, stop: () => undefined };
  const bin = findPostgresBin();
  if (!bin) {
    const reason =
      'PostgreSQL not found (no initdb/pg_ctl in /usr/lib/postgresql/*/bin or PATH; apt-get install postgresql, or set THREADLINE_TEST_POSTGRES_URL)';
    process.stdout.write(`\n⚠ PostgreSQL suites skipped: ${reason}\n\n`);
    return { provided: { adminUrl: null, reason }, stop: () => undefined };
  }
  const server = await startPostgresServer(bin);
  return { provided: { adminUrl: server.adminUrl, reason: '' }, stop: () => server.stop() };
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (!shared.threadlinePostgres) {
    const started = provide();
    shared.threadlinePostgres = {
      provided: started.then((s) => s.provided),
      stop: () => started.then((s) => s.stop()),
      users: 0,
    };
  }
  const slot = shared.threadlinePostgres;
  slot.users += 1;
  project.provide('postgres', await slot.provided);
  return async () => {
    slot.users -= 1;
    if (slot.users === 0) {
      shared.threadlinePostgres = undefined;
      await slot.stop();
    }
  };
}
