/** Child processes for the benchmarks: the real service (`server/main.ts`) and the bare floor. */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

export interface Running {
  child: ChildProcess;
  url: string;
  stop(): Promise<void>;
}

function waitForUrl(child: ChildProcess, pattern: RegExp, what: string): Promise<Running> {
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const match = pattern.exec(out);
      if (!match) return;
      child.stdout!.off('data', onData);
      child.stdout!.resume(); // from here on (the request log): drained, not kept
      const exited = new Promise<void>((r) => child.once('exit', () => r()));
      resolve({
        child,
        url: match[1]!,
        stop: async () => {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
          await exited;
        },
      });
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${what} exited (${code}) before listening:\n${out}`)));
  });
}

/** The reference service on an ephemeral loopback port, with its own data folder. */
export function startService(
  dataDir: string,
  key: string,
  distDir = join(dataDir, 'no-dist'),
  env: Record<string, string> = {},
): Promise<Running> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'server/main.ts', '--port', '0', '--host', '127.0.0.1'],
    {
      env: {
        ...process.env,
        THREADLINE_DATA: dataDir,
        THREADLINE_API_KEYS: `${key}=*`,
        THREADLINE_DIST: distDir,
        ...env,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  return waitForUrl(child, /running at (http:\/\/\S+?)\/?\s/, 'the service');
}

/** A bare `node:http` server answering the given JSON file to every request. */
export function startBare(file: string): Promise<Running> {
  const child = spawn(process.execPath, ['bench/lib/bare-server.mjs', file], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return waitForUrl(child, /listening (http:\/\/\S+)/, 'the bare server');
}
