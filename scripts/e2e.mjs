// Runs the browser tests: asks the OS for two free ports (the reference service and the network
// guard), exports them as E2E_PORT and E2E_GUARD_PORT before Playwright reads its config, then
// runs `playwright test` with the given arguments. Playwright's webServer builds the SPA and
// starts the service on that port (never reusing a running server); the global setup starts the
// guard. `E2E_PORT` (and `E2E_GUARD_PORT`) set by hand are kept. See e2e/README.md.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createServer } from 'node:net';

/** Binds `count` listeners to port 0 at once (so the ports differ), reads the ports, frees them. */
async function freePorts(count) {
  const servers = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise((resolve, reject) => {
          const s = createServer();
          s.once('error', reject);
          s.listen(0, '127.0.0.1', () => resolve(s));
        }),
    ),
  );
  const ports = servers.map((s) => s.address().port);
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  return ports;
}

const [service, guard] = await freePorts(2);
const env = { ...process.env };
if (!env.E2E_PORT) env.E2E_PORT = String(service);
if (!env.E2E_GUARD_PORT) env.E2E_GUARD_PORT = String(guard);
console.log(`browser tests: service on port ${env.E2E_PORT}, network guard on port ${env.E2E_GUARD_PORT}`);
const r = spawnSync('npx', ['playwright', 'test', ...process.argv.slice(2)], { stdio: 'inherit', env });
// The run's build and database go; its results (traces of failures) stay when something failed.
const port = env.E2E_PORT;
const leftovers = [`.e2e/dist-${port}`, `.e2e/data-${port}`];
if (r.status === 0) leftovers.push(`.e2e/results-${port}`, `.e2e/network-leaks-${env.E2E_GUARD_PORT}.log`);
for (const path of leftovers) rmSync(path, { recursive: true, force: true });
process.exit(r.status ?? 1);
