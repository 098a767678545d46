// Runs every check (lint, format, typecheck, unused exports, unit and API tests, the example agents' conversation
// suites, first-load budget, browser tests), goes on
// after a failure so one run shows everything, and ends with one line: `N passed, N failed`.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';

mkdirSync('.e2e', { recursive: true });
let passed = 0;
let failed = 0;
const failures = [];

function run(label, cmd, args, env = {}) {
  console.log(`\n▶ ${label}: ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  return r.status === 0;
}

function check(label, cmd, args) {
  if (run(label, cmd, args)) passed += 1;
  else {
    failed += 1;
    failures.push(label);
  }
}

function counted(label, cmd, args, reportFile, env, count) {
  rmSync(reportFile, { force: true });
  const ok = run(label, cmd, args, env);
  if (!existsSync(reportFile)) {
    failed += 1;
    failures.push(`${label} (no report)`);
    return;
  }
  const { p, f } = count(JSON.parse(readFileSync(reportFile, 'utf8')));
  passed += p;
  failed += f;
  if (f > 0 || !ok) failures.push(label);
  if (!ok && f === 0) failed += 1; // the runner failed outside any test (e.g. a crash in setup)
}

// The CLI, the service and its workers compiled as at install, so that what follows runs them.
check('compile', 'node', ['scripts/compile.mjs']);
check('lint', 'npx', ['eslint', '.', '--max-warnings=0']);
check('format', 'npx', ['prettier', '--check', '.']);
check('typecheck', 'npx', ['tsc', '-b']);
check('unused exports', 'npx', ['tsx', 'scripts/unused-exports.ts']);
counted(
  'unit and API tests',
  'npx',
  ['vitest', 'run', '--reporter=default', '--reporter=json', '--outputFile.json=.e2e/vitest.json'],
  '.e2e/vitest.json',
  {},
  (r) => ({ p: r.numPassedTests, f: r.numFailedTests }),
);
// Every example agent's conversation suite, through the CLI on the embedded engine.
for (const agent of readdirSync('server/agents', { withFileTypes: true })) {
  const suite = `server/agents/${agent.name}/tests`;
  if (!agent.isDirectory() || !existsSync(suite)) continue;
  const report = `.e2e/suite-${agent.name}.json`;
  counted(
    `${agent.name} conversation suite`,
    'node',
    ['cli/threadline.mjs', 'test', suite, '--reporter', 'json', '--output', report],
    report,
    {},
    (r) => ({ p: r.summary.passed, f: r.summary.failed + r.summary.errors }),
  );
}
// What the browser fetches for the welcome screen and a one-turn thread, against their budgets.
check('first-load budget', 'npx', ['tsx', 'scripts/first-load-budget.ts']);
counted(
  'browser tests',
  'node',
  ['scripts/e2e.mjs'],
  '.e2e/playwright.json',
  { PLAYWRIGHT_JSON: '.e2e/playwright.json' },
  (r) => ({ p: r.stats.expected + r.stats.flaky, f: r.stats.unexpected }),
);

if (failures.length) console.log(`\nFailed: ${failures.join(', ')}`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
