/**
 * A throwaway PostgreSQL server for tests: `initdb` in a temporary folder, a free port on
 * 127.0.0.1 and the Unix socket inside that folder, stopped with `pg_ctl -m immediate` and the
 * folder removed. PostgreSQL refuses to run as root, so as root (CI) the folder is given to the
 * `postgres` user and every PostgreSQL program runs through `runuser -u postgres`.
 *
 * `THREADLINE_TEST_POSTGRES_URL` (an admin URL of an existing server) skips all of this.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface PostgresServer {
  /** Connection URL of the `postgres` superuser on the `postgres` database. */
  adminUrl: string;
  stop(): void;
}

/** The folder holding `initdb` and `pg_ctl`, or undefined when PostgreSQL is not installed. */
export function findPostgresBin(): string | undefined {
  const candidates = [process.env.THREADLINE_TEST_POSTGRES_BIN];
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    const versions = readdirSync(root)
      .filter((v) => /^\d+$/.test(v))
      .sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((v) => join(root, v, 'bin')));
  }
  for (const dir of (process.env.PATH ?? '').split(':')) candidates.push(dir);
  return candidates.find((dir) => dir && existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl')));
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/**
 * `durable`: keep PostgreSQL's default fsync and synchronous commit (benchmarks); tests turn them
 * off, since nothing they check depends on the database server surviving a power loss.
 */
export async function startPostgresServer(
  bin: string,
  config: { durable?: boolean } = {},
): Promise<PostgresServer> {
  const asRoot = process.getuid?.() === 0;
  const dir = mkdtempSync(join(tmpdir(), 'threadline-pg-'));
  chmodSync(dir, 0o755);
  if (asRoot) {
    const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, id('-u'), id('-g'));
  }
  const run = (program: string, args: string[]) => {
    const [cmd, argv] = asRoot
      ? ['runuser', ['-u', 'postgres', '--', join(bin, program), ...args]]
      : [join(bin, program), args];
    execFileSync(cmd, argv, { stdio: 'pipe', cwd: dir });
  };
  const data = join(dir, 'db');
  const stop = () => {
    try {
      run('pg_ctl', ['-D', data, '-m', 'immediate', 'stop']);
    } catch {
      // not running (initdb or start failed): nothing to stop
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    run('initdb', ['-D', data, '--auth=trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
    // Up to 4 attempts: the free port may be taken by someone else between the probe and the start.
    for (let attempt = 1; ; attempt += 1) {
      const port = await freePort();
      const options = [
        `-p ${port}`,
        `-k ${dir}`,
        '-c listen_addresses=127.0.0.1',
        // A throwaway server for tests: no fsync, so they do not wait on the disk.
        ...(config.durable ? [] : ['-c fsync=off', '-c synchronous_commit=off', '-c full_page_writes=off']),
        '-c max_connections=200',
      ].join(' ');
      try {
        run('pg_ctl', ['-D', data, '-l', join(dir, 'log'), '-o', options, '-w', '-t', '30', 'start']);
        return { adminUrl: `postgres://postgres@127.0.0.1:${port}/postgres`, stop };
      } catch (error) {
        if (attempt >= 4) throw error;
      }
    }
  } catch (error) {
    stop();
    throw error;
  }
}
