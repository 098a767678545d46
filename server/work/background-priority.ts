/**
 * Worker threads that run heavy work (engine turns, validation, impact replays) ask the operating
 * system to schedule them behind the request loop: on a machine with few cores, a small request
 * then waits for its answer no longer than the request loop's own work, whatever the workers are
 * computing. A thread's priority is its own on Linux (a thread id is a process id to
 * `setpriority`); elsewhere, or when the system refuses, the thread keeps its priority.
 */
import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/** The niceness of background threads: the request loop (niceness 0) gets about nine tenths of a shared core. */
export const BACKGROUND_NICENESS = 10;

/**
 * Lowers the calling thread's scheduling priority to `BACKGROUND_NICENESS`, never raising it (a
 * service started with `nice` keeps its workers at least as low); true when the thread now runs
 * at that niceness or a higher one (a lower priority).
 */
export function runThisThreadInBackground(): boolean {
  try {
    // `/proc/thread-self` links to `<pid>/task/<tid>` for the calling thread.
    const tid = Number(/task\/(\d+)$/.exec(readlinkSync('/proc/thread-self'))?.[1]);
    if (!Number.isInteger(tid) || tid <= 0) return false;
    if (getPriority(tid) < BACKGROUND_NICENESS) setPriority(tid, BACKGROUND_NICENESS);
    return true;
  } catch {
    return false;
  }
}
