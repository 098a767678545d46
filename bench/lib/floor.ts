/** The floor the service is compared with: a bare `node:http` server answering one JSON file. */
import { spawn } from 'node:child_process';

export interface Floor {
  url: string;
  stop(): Promise<void>;
}

export function startBare(file: string): Promise<Floor> {
  const child = spawn(process.execPath, ['bench/lib/bare-server.mjs', file], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening (http:\/\/\S+)/.exec(out);
      if (!match) return;
      child.stdout.off('data', onData);
      child.stdout.resume(); // drained, not kept
      resolve({
        url: match[1]!,
        stop: async () => {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
          await exited;
        },
      });
    };
    child.stdout.on('data', onData);
    child.once('exit', (code) =>
      reject(new Error(`the bare server exited (${code}) before listening:\n${out}`)),
    );
  });
}
