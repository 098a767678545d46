/**
 * The floors the service is compared with, each a bare `node:http` server in its own process:
 * one answering a stored JSON file (`bare-server.mjs`), one doing a send's engine turn and store
 * write and nothing else (`send-floor-server.ts`).
 */
import { spawn } from 'node:child_process';

export interface Floor {
  url: string;
  stop: () => Promise<void>;
}

/** Starts `node <args>` and waits for its `listening <url> [rest]` line. */
function startListening(args: string[]): Promise<Floor & { rest: string }> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening (http:\/\/\S+) ?(.*)\n/.exec(out);
      if (!match) return;
      child.stdout.off('data', onData);
      child.stdout.resume(); // drained, not kept
      resolve({
        url: match[1]!,
        rest: match[2]!,
        stop: async () => {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
          await exited;
        },
      });
    };
    child.stdout.on('data', onData);
    child.once('exit', (code) =>
      reject(new Error(`the floor server exited (${code}) before listening:\n${out}`)),
    );
  });
}

export async function startBare(file: string): Promise<Floor> {
  const { url, stop } = await startListening(['bench/lib/bare-server.mjs', file]);
  return { url, stop };
}

/** The tasks a send floor made: `tasks` for the sends, `readTask` with five turns (`interactions`). */
export interface SendFloor extends Floor {
  tasks: string[];
  readTask: string;
  interactions: string[];
}

/** A send floor on SQLite in `dataDir`, with `tasks` tasks of the example agent `agentId`. */
export async function startSendFloor(dataDir: string, tasks: number, agentId: string): Promise<SendFloor> {
  const { url, stop, rest } = await startListening([
    '--import',
    'tsx',
    'bench/lib/send-floor-server.ts',
    dataDir,
    String(tasks),
    agentId,
  ]);
  return { url, stop, ...(JSON.parse(rest) as Omit<SendFloor, keyof Floor>) };
}
