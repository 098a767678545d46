/**
 * A reference service of a spec's own, as a child process on a port the OS chooses (`--port 0`,
 * the bound address read back from its start line), serving the run's built SPA. For specs that
 * need a service configured differently from the run's (other keys, an upstream).
 */
import { spawn } from 'node:child_process';
import { builtSpaDir } from './ports';

export interface ServiceProcess {
  /** `http://127.0.0.1:<port>` */
  url: string;
  stop: () => Promise<void>;
}

export async function startServiceProcess(args: string[], env: NodeJS.ProcessEnv): Promise<ServiceProcess> {
  const child = spawn(
    process.execPath,
    ['node_modules/tsx/dist/cli.mjs', 'server/main.ts', '--port', '0', ...args],
    {
      env: { ...process.env, THREADLINE_DIST: builtSpaDir(), ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    let ready = false;
    // Keeps draining stdout for the child's whole life (a full pipe would stall it).
    child.stdout.on('data', (chunk: Buffer) => {
      if (ready) return;
      out += chunk.toString();
      const m = /running at (http:\/\/[^/\s]+)\//.exec(out);
      if (m) {
        ready = true;
        resolve(m[1]!);
      }
    });
    child.once('exit', (code) => reject(new Error(`the service exited before it was ready (${code})`)));
  });
  return {
    url,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
