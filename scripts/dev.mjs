// `npm run dev`: the reference service on 8787 (restarted on change) and Vite's dev server (which
// proxies /v1, /reference and /openapi.json to it), stopped together. Run directly with node, not
// through npx, so that stopping this script really stops both.
import { spawn } from 'node:child_process';

const port = process.env.PORT ?? '8787';
// Vite's proxy presents the page's origin (Vite's own) to the service, which answers only its own
// origin and the listed ones.
const viteOrigins = ['http://localhost:5173', 'http://127.0.0.1:5173'];
const corsOrigins = [process.env.THREADLINE_CORS_ORIGINS, ...viteOrigins].filter(Boolean).join(',');
const children = [
  spawn(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'watch', 'server/main.ts'], {
    stdio: 'inherit',
    env: { ...process.env, PORT: port, THREADLINE_CORS_ORIGINS: corsOrigins },
  }),
  spawn(process.execPath, ['node_modules/vite/bin/vite.js'], {
    stdio: 'inherit',
    env: { ...process.env, THREADLINE_API: `http://127.0.0.1:${port}` },
  }),
];

let stopping = false;
function stopAll(code) {
  if (stopping) return;
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  setTimeout(() => process.exit(code), 500).unref();
}
for (const child of children) child.on('exit', (code) => stopAll(code ?? 0));
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => stopAll(0));
