/**
 * The one place a store is chosen: PostgreSQL when a database URL is given (several instances may
 * share it), else SQLite in the data folder (one process).
 */
import { PostgresStore } from './postgres-store';
import { SqliteStore } from './sqlite-store';
import type { Store } from './store';

export interface StoreChoice {
  /** `postgres://…` or `postgresql://…`; SQLite when undefined. */
  databaseUrl: string | undefined;
  dataDir: string;
}

export async function openStore(choice: StoreChoice): Promise<Store> {
  if (choice.databaseUrl) return PostgresStore.open({ url: choice.databaseUrl });
  return new SqliteStore({ dataDir: choice.dataDir });
}
