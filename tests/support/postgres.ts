/**
 * PostgreSQL for test suites: the server the global setup started, and a fresh database on it
 * for each suite that asks, so suites running in parallel never see each other's rows.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';

const provided = inject('postgres');

/** The server's admin URL, or null when PostgreSQL is not available (see `skipReason`). */
export const postgresAdminUrl: string | null = provided.adminUrl;
/** Why the PostgreSQL suites are skipped; empty when they run. */
export const skipReason: string = provided.reason;

/** Creates an empty database on the test server and answers its URL. */
export async function freshDatabase(label: string): Promise<string> {
  if (!postgresAdminUrl) throw new Error(`no PostgreSQL server: ${skipReason}`);
  const name = `${label.replace(/[^a-z0-9_]/gi, '_').toLowerCase()}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: postgresAdminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(postgresAdminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
