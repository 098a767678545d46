// `npm start`: builds the web app when dist is missing or older than its sources, compiles the
// service when its build is missing or older than its sources (scripts/compile.mjs), then starts
// the reference service serving the web app (arguments pass through: npm start -- --port 9000).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { compile } from './compile.mjs';
import { ENTRIES, readManifest, staleness } from '../server/compiled.mjs';

const dist = process.env.THREADLINE_DIST ?? 'dist';
const SOURCES = ['src', 'public', 'index.html', 'vite.config.ts', 'package.json'];

/** The newest modification time below `path` (a file or a folder). */
function newest(path) {
  if (!existsSync(path)) return 0;
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  let latest = 0;
  for (const name of readdirSync(path)) latest = Math.max(latest, newest(join(path, name)));
  return latest;
}

function needsBuild() {
  const index = join(dist, 'index.html');
  if (!existsSync(index)) return true;
  const built = statSync(index).mtimeMs;
  return SOURCES.some((source) => newest(source) > built);
}

if (needsBuild()) {
  console.log(`Building the web app into ${dist}/ …`);
  execFileSync('npx', ['vite', 'build', '--logLevel', 'warn', '--outDir', dist], { stdio: 'inherit' });
}

if (Object.keys(ENTRIES).some((entry) => staleness(entry, readManifest()) !== null)) {
  console.log('Compiling the service into dist-node/ …');
  await compile();
}

const child = spawn(process.execPath, ['server/main.mjs', ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, THREADLINE_DIST: dist },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
