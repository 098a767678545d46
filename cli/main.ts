/**
 * `threadline`: `test` runs a suite of conversation test cases, `validate` checks a bundle, `lint`
 * and `diff` analyse bundles; each reports for people and for CI. A command's modules are loaded
 * only when it runs, so `--help` and `--version` answer at once.
 */
import { once } from 'node:events';
import type { Io } from './io';
import { COMMAND_USAGE, USAGE } from './usage';
import { version } from './version';

export type { Io } from './io';

const processIo: Io = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  env: process.env,
  drained: () =>
    process.stdout.writableNeedDrain ? once(process.stdout, 'drain').then(() => {}) : undefined,
};

/**
 * What reaches the terminal: control characters (an ANSI escape in a case name or a server's
 * message, a carriage return, bidirectional overrides) are dropped; newlines and tabs stay.
 */
export function printable(text: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what is removed
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '');
}

const COMMANDS = Object.keys(COMMAND_USAGE);

function usageError(io: Io, error: string, usage = USAGE): number {
  io.err(`threadline: ${error}\n\n${usage}\n`);
  return 2;
}

/** `threadline help [command]`. */
function help(argv: readonly string[], io: Io): number {
  if (argv.length === 0) {
    io.out(`${USAGE}\n`);
    return 0;
  }
  if (argv.length > 1) return usageError(io, 'help takes one command', COMMAND_USAGE.help);
  const usage = COMMAND_USAGE[argv[0]!];
  if (usage === undefined)
    return usageError(io, `there is no command "${argv[0]}" (the commands are: ${COMMANDS.join(', ')})`);
  io.out(`${usage}\n`);
  return 0;
}

/** Runs the command; resolves to the exit status. */
export async function main(argv: readonly string[], rawIo: Io = processIo): Promise<number> {
  const io: Io = {
    ...rawIo,
    out: (text) => rawIo.out(printable(text)),
    err: (text) => rawIo.err(printable(text)),
  };
  const [command, ...rest] = argv;
  switch (command) {
    case undefined:
    case '--help':
    case '-h':
      io.out(`${USAGE}\n`);
      return 0;
    case '--version':
      io.out(`${version()}\n`);
      return 0;
    case 'help':
      return help(rest, io);
    case 'test':
      return (await import('./test-command')).testMain(rest, io);
    case 'validate':
      return (await import('./validate')).validateMain(rest, io);
    case 'lint':
    case 'diff':
      return (await import('./analysis')).analysisMain(argv, io);
    default:
      return usageError(
        io,
        command.startsWith('-')
          ? `unknown option ${command}`
          : `unknown command "${command}" (the commands are: ${COMMANDS.join(', ')})`,
      );
  }
}
