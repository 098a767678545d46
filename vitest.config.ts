import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { findPostgresBin } from './tools/lib/postgres-server';

/**
 * Two projects: every test against the default (SQLite) store, and the API suites that exercise
 * the store again against PostgreSQL (`THREADLINE_TEST_STORE=postgres`, read by
 * tests/api/helpers.ts). The PostgreSQL project exists when a server can be started or is given.
 */
const postgres = Boolean(process.env.THREADLINE_TEST_POSTGRES_URL || findPostgresBin());
/** API suites that never reach the store (the SPA files, the upstream proxy): run once. */
const STORELESS = ['tests/api/spa.test.ts', 'tests/api/upstream.test.ts'];

export default defineConfig({
  plugins: [react()],
  test: {
    environment: 'node',
    globalSetup: ['tests/support/postgres.global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'default',
          include: [
            'src/**/*.test.{ts,tsx}',
            'engine/**/*.test.ts',
            'server/**/*.test.ts',
            'cli/**/*.test.ts',
            'tests/**/*.test.ts',
          ],
        },
      },
      ...(postgres
        ? [
            {
              extends: true as const,
              test: {
                name: 'api-postgres',
                include: ['tests/api/**/*.test.ts'],
                exclude: STORELESS,
                env: { THREADLINE_TEST_STORE: 'postgres' },
              },
            },
          ]
        : []),
    ],
  },
});
