/**
 * Where a report goes as it is written: the command's output, or a file given with --output
 * (written piece by piece, its head rewritten in place at the end when the report asks for it).
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import type { Io } from './io';

export interface ReportSink {
  write(text: string): Promise<void>;
  /** Writes `head` over the report's first bytes (the same length); false when it cannot. */
  rewriteHead(head: string): boolean;
  close(): void;
}

export function outputSink(io: Io): ReportSink {
  return {
    write: async (text) => {
      if (text) io.out(text);
      await io.drained?.();
    },
    rewriteHead: () => false,
    close: () => {},
  };
}

/** The report file could not be opened or written (its message says why). */
export class ReportWriteError extends Error {}

function writing<T>(act: () => T): T {
  try {
    return act();
  } catch (e) {
    throw new ReportWriteError(e instanceof Error ? e.message : String(e), { cause: e });
  }
}

/** Opens (creates or empties) the file; a failure to open or write throws a ReportWriteError. */
export function fileSink(path: string): ReportSink {
  const fd = writing(() => openSync(path, 'w'));
  return {
    write: (text) => {
      if (text) writing(() => writeSync(fd, text));
      return Promise.resolve();
    },
    rewriteHead: (head) => {
      writing(() => writeSync(fd, head, 0));
      return true;
    },
    close: () => closeSync(fd),
  };
}
