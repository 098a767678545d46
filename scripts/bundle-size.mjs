// First-load budget: the JavaScript a browser fetches before the app is interactive (the entry
// script and its modulepreloads, as listed in the built index.html), gzipped. Lazy chunks
// (Monaco, the editor) are not in it. Prints the figure; fails above the budget.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';

export const BUDGET_KB = 200;
const dist = process.argv[2] ?? '.e2e/dist-size';

execFileSync('npx', ['vite', 'build', '--logLevel', 'warn', '--outDir', dist], { stdio: 'inherit' });
const html = readFileSync(join(dist, 'index.html'), 'utf8');
const files = [...html.matchAll(/(?:src|href)="\/([^"]+\.js)"/g)].map((m) => m[1]);
let total = 0;
for (const file of files) {
  const size = gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;
  total += size;
  console.log(`  ${file}: ${(size / 1024).toFixed(1)} KB gzip`);
}
const kb = total / 1024;
console.log(`first-load JS: ${kb.toFixed(1)} KB gzip (budget ${BUDGET_KB} KB) in ${files.length} files`);
if (files.some((f) => /monaco|editor\.(main|api)/i.test(f))) {
  console.error('Monaco is in the first load.');
  process.exit(1);
}
if (kb > BUDGET_KB) process.exit(1);
