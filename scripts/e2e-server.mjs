// Builds the SPA into its own folder and starts the reference service on the given port with a
// fresh data folder: what Playwright's webServer runs (the port comes from playwright.config.ts).
import { execFileSync, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';

const port = process.argv[2];
if (!port) throw new Error('usage: node scripts/e2e-server.mjs <port>');
const dist = process.env.THREADLINE_DIST ?? `.e2e/dist-${port}`;
const data = process.env.THREADLINE_DATA ?? `.e2e/data-${port}`;
rmSync(data, { recursive: true, force: true });
// VITE_TEST_HOOKS: lets the tests read the bundle editor's markers through Monaco's model API
// (src/components/monaco/setup.ts); no other build has it.
execFileSync('npx', ['vite', 'build', '--logLevel', 'warn', '--outDir', dist], {
  stdio: 'inherit',
  env: { ...process.env, VITE_TEST_HOOKS: '1' },
});
const child = spawn(process.execPath, ['server/main.mjs'], {
  stdio: 'inherit',
  env: { ...process.env, PORT: port, THREADLINE_DATA: data, THREADLINE_DIST: dist },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));
