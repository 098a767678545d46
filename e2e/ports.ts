/**
 * The browser suite's ports, from the environment. `scripts/e2e.mjs` (what `npm run test:e2e` and
 * `npm test` run) asks the OS for two free ports and exports them before Playwright reads its
 * config, so no run ever reuses another checkout's port or attaches to its server.
 *
 * Developers may pin the service's port with `E2E_PORT` (the guard then defaults to
 * `E2E_PORT + 1000`, or `E2E_GUARD_PORT`). Without either there is no default: a fixed port is
 * exactly what lets two checkouts collide.
 */
export interface E2ePorts {
  /** The reference service serving the built SPA. */
  service: number;
  /** The network guard (see network-guard.ts) the browser uses as its proxy. */
  guard: number;
}

function port(name: string, value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 65535)
    throw new Error(`${name} must be a port number, got "${value}"`);
  return n;
}

export function e2ePorts(env: NodeJS.ProcessEnv = process.env): E2ePorts {
  if (!env.E2E_PORT) {
    throw new Error(
      'Browser tests need their ports: run them with `npm run test:e2e [-- <spec>]` (free ports from the OS), ' +
        'or set E2E_PORT (and optionally E2E_GUARD_PORT) yourself.',
    );
  }
  const service = port('E2E_PORT', env.E2E_PORT);
  const guard = env.E2E_GUARD_PORT ? port('E2E_GUARD_PORT', env.E2E_GUARD_PORT) : service + 1000;
  return { service, guard };
}

/** Where the run's webServer builds the SPA; specs that start a service of their own serve it too. */
export function builtSpaDir(ports: E2ePorts = e2ePorts()): string {
  return `.e2e/dist-${ports.service}`;
}
