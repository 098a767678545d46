/**
 * The reference service as a child process (`server/main.mjs`: the compiled service when its build
 * is current, else the sources through tsx) on a port the OS chooses, the bound
 * address read back from its start line: what the API reliability tests, the browser tests that
 * need a service of their own, the benchmarks and the scripts all start.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface ServiceOptions {
  /** The data folder (`--data`); a fresh one per service keeps runs apart. */
  data: string;
  /** `THREADLINE_API_KEYS`, e.g. `key=*`; without it the service takes any key (local mode). */
  keys?: string;
  /** The built SPA to serve; by default a folder that does not exist (an API-only service). */
  dist?: string;
  /** More command-line arguments (`--upstream URL`, `--agents DIR`, …). */
  args?: string[];
  env?: NodeJS.ProcessEnv;
  /** Options for node itself, before the script (e.g. `--cpu-prof`). */
  nodeArgs?: string[];
  /** Also print the service's stderr here (benchmarks); it is always kept for `stderr()`. */
  echoStderr?: boolean;
}

export interface ServiceProcess {
  /** `http://127.0.0.1:<port>` */
  url: string;
  child: ChildProcess;
  /** What the process printed on stdout (its start-up lines, then the request log), last 8 MB. */
  stdout(): string;
  /** What it printed on stderr, last 8 MB. */
  stderr(): string;
  /** The process's resident set size in bytes (Linux `/proc`). */
  rss(): number;
  /** SIGKILL, and wait for the exit. */
  kill9(): Promise<void>;
  /** SIGTERM, and wait for the exit. */
  stop(): Promise<void>;
}

/** Output kept per stream: a long benchmark logs every request, and only the end is ever read. */
const KEPT = 8 * 2 ** 20;

function keeper(stream: NodeJS.ReadableStream, echo?: NodeJS.WritableStream): () => string {
  let text = '';
  stream.on('data', (chunk: Buffer) => {
    text += chunk.toString();
    if (text.length > 2 * KEPT) text = text.slice(-KEPT);
    echo?.write(chunk);
  });
  return () => (text.length > KEPT ? text.slice(-KEPT) : text);
}

export function startServiceProcess(options: ServiceOptions): Promise<ServiceProcess> {
  const { data, keys, dist = join(data, 'no-dist'), args = [], env = {}, nodeArgs = [] } = options;
  const child = spawn(
    process.execPath,
    [...nodeArgs, 'server/main.mjs', '--port', '0', '--host', '127.0.0.1', '--data', data, ...args],
    {
      env: {
        ...process.env,
        THREADLINE_DIST: dist,
        ...(keys === undefined ? {} : { THREADLINE_API_KEYS: keys }),
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stdout = keeper(child.stdout);
  const stderr = keeper(child.stderr, options.echoStderr ? process.stderr : undefined);
  const pid = child.pid!;
  const running: Omit<ServiceProcess, 'url'> = {
    child,
    stdout,
    stderr,
    rss: () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024,
    kill9: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
  return new Promise((resolve, reject) => {
    const onData = () => {
      const match = /running at (http:\/\/[^/\s]+)/.exec(stdout());
      if (!match) return;
      child.stdout.off('data', onData);
      child.off('exit', onExit);
      resolve({ url: match[1]!, ...running });
    };
    const onExit = (code: number | null, signal: NodeJS.Signals | null) =>
      reject(new Error(`the service exited (${code ?? signal}) before listening:\n${stdout()}\n${stderr()}`));
    child.stdout.on('data', onData);
    child.once('exit', onExit);
  });
}
