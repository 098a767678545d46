import { defineConfig } from '@playwright/test';
import { builtSpaDir, e2ePorts } from './e2e/ports';
import { chromiumLaunchOptions } from './tools/lib/chromium';

/**
 * Browser tests run in real Chromium against the real reference service (built SPA, SQLite in a
 * throwaway data folder). Run them with `npm run test:e2e` (scripts/e2e.mjs), which gives this
 * config two ports chosen by the OS (see e2e/ports.ts), so checkouts never share a server.
 */
const ports = e2ePorts();
const { service: port, guard } = ports;
const dataDir = `.e2e/data-${port}`;
const distDir = builtSpaDir(ports);

export default defineConfig({
  testDir: 'e2e',
  outputDir: `.e2e/results-${port}`,
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // Every request that would leave the machine goes to a refusing, recording proxy; the global
  // teardown it returns fails the run when anything reached it (see the file).
  globalSetup: './e2e/network-guard.ts',
  reporter: process.env.PLAYWRIGHT_JSON
    ? [['list'], ['json', { outputFile: process.env.PLAYWRIGHT_JSON }]]
    : 'list',
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: 'retain-on-failure',
    // Chromium never proxies loopback; the API request fixture needs to be told.
    proxy: { server: `http://127.0.0.1:${guard}`, bypass: '127.0.0.1,localhost,[::1]' },
    launchOptions: chromiumLaunchOptions,
  },
  webServer: {
    command: `node scripts/e2e-server.mjs ${port}`,
    url: `http://127.0.0.1:${port}/healthz`,
    // Never attach to a server already on the port (another checkout's): fail instead.
    reuseExistingServer: false,
    timeout: 180_000,
    env: { THREADLINE_DATA: dataDir, THREADLINE_DIST: distDir },
  },
});
