// Builds the SPA into its own folder and starts the reference service on the given port with a
// fresh data folder: what Playwright's webServer runs.
import { execFileSync, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';

const port = process.argv[2] ?? '8790';
const dist = process.env.THREADLINE_DIST ?? `.e2e/dist-${port}`;
const data = process.env.THREADLINE_DATA ?? `.e2e/data-${port}`;
rmSync(data, { recursive: true, force: true });
execFileSync('npx', ['vite', 'build', '--logLevel', 'warn', '--outDir', dist], { stdio: 'inherit' });
const child = spawn('npx', ['tsx', 'server/main.ts'], {
  stdio: 'inherit',
  env: { ...process.env, PORT: port, THREADLINE_DATA: data, THREADLINE_DIST: dist },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));
