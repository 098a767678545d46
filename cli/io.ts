/** Where a command writes, and the environment it reads (the process's, or a test's). */
export interface Io {
  out: (text: string) => void;
  err: (text: string) => void;
  env: Readonly<Record<string, string | undefined>>;
  /** Resolves once what `out` was given has been handed on (a stream's backpressure). */
  drained?: () => Promise<void> | void;
}
