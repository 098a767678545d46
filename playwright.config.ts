import { defineConfig } from '@playwright/test';
import { guardPort } from './e2e/network-guard';
import { chromiumLaunchOptions } from './scripts/chromium';

/**
 * Browser tests run in real Chromium against the real reference service (built SPA, SQLite in a
 * throwaway data folder). E2E_PORT lets several checkouts run the suite side by side.
 */
const port = Number(process.env.E2E_PORT ?? 8790);
const dataDir = `.e2e/data-${port}`;
const distDir = `.e2e/dist-${port}`;

export default defineConfig({
  testDir: 'e2e',
  outputDir: `.e2e/results-${port}`,
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // Every request that would leave the machine goes to a refusing, recording proxy (see the file).
  globalSetup: './e2e/network-guard.ts',
  reporter: process.env.PLAYWRIGHT_JSON
    ? [['list'], ['json', { outputFile: process.env.PLAYWRIGHT_JSON }]]
    : 'list',
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: 'retain-on-failure',
    // Chromium never proxies loopback; the API request fixture needs to be told.
    proxy: { server: `http://127.0.0.1:${guardPort(port)}`, bypass: '127.0.0.1,localhost,[::1]' },
    launchOptions: chromiumLaunchOptions,
  },
  webServer: {
    command: `node scripts/e2e-server.mjs ${port}`,
    url: `http://127.0.0.1:${port}/healthz`,
    reuseExistingServer: !process.env.CI,
    timeout: 180_000,
    env: { THREADLINE_DATA: dataDir, THREADLINE_DIST: distDir },
  },
});
