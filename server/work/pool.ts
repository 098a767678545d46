/**
 * A small fixed pool of worker threads running one job each at a time, with a bounded queue and
 * a deadline per job (counted from when it was asked for, waiting in the queue included). The
 * request loop only posts jobs and reads answers, so it keeps answering while the workers compute.
 *
 * - Queue full: the job is refused at once (`WorkRefusedError`, reason `busy`).
 * - Deadline passed: a queued job leaves the queue; a running one's worker is terminated and a
 *   fresh one started (reason `deadline`).
 * - A worker that dies (out of memory, a crash): its job is refused (reason `crashed`) and a fresh
 *   worker is started. The process itself is never taken down.
 *
 * The worker script answers each `{ id, job }` message with `{ id, ok: true, value }` or
 * `{ id, ok: false, error: { name, message } }`.
 */
import { Worker } from 'node:worker_threads';

export interface PoolOptions {
  /** The worker's script (an ES module file URL). */
  script: URL;
  /** Workers running at once. */
  size: number;
  /** Jobs that may wait for a worker; one more is refused. */
  queueLimit: number;
  /** Time a job may take from being asked for to its answer. */
  deadlineMs: number;
  /** A worker's JavaScript heap limit (its old generation), in MB. */
  heapLimitMb: number;
}

export type RefusalReason = 'busy' | 'deadline' | 'crashed';

/** The pool did not run the job to its end: too busy, too slow or its worker died. */
export class WorkRefusedError extends Error {
  constructor(
    readonly reason: RefusalReason,
    message: string,
  ) {
    super(message);
    this.name = 'WorkRefusedError';
  }
}

/** An error the job itself threw in the worker, rebuilt with its name and message. */
export class WorkFailedError extends Error {
  constructor(
    readonly errorName: string,
    message: string,
  ) {
    super(message);
    this.name = 'WorkFailedError';
  }
}

interface Pending {
  id: number;
  job: unknown;
  resolve(value: unknown): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
  /** The worker running it, once started. */
  slot?: Slot;
}

interface Slot {
  worker: Worker;
  running?: Pending;
}

type Answer =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: { name: string; message: string } };

export class WorkerPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Pending[] = [];
  private nextId = 1;
  private closed = false;

  constructor(private readonly options: PoolOptions) {}

  /** Runs `job` on a worker; rejects with `WorkRefusedError` or `WorkFailedError`. */
  run<T>(job: unknown): Promise<T> {
    if (this.closed) return Promise.reject(new WorkRefusedError('busy', 'The service is stopping.'));
    if (this.queue.length >= this.options.queueLimit && !this.idleSlot())
      return Promise.reject(
        new WorkRefusedError(
          'busy',
          `The service is busy: ${this.options.queueLimit} heavy requests are already waiting.`,
        ),
      );
    return new Promise<T>((resolve, reject) => {
      const pending: Pending = {
        id: this.nextId++,
        job,
        resolve: resolve,
        reject,
        timer: setTimeout(() => this.overDeadline(pending), this.options.deadlineMs),
      };
      this.queue.push(pending);
      this.dispatch();
    });
  }

  /** Jobs running and waiting now. */
  load(): { running: number; queued: number; workers: number } {
    return {
      running: this.slots.filter((s) => s.running).length,
      queued: this.queue.length,
      workers: this.options.size,
    };
  }

  /** Stops every worker; jobs not answered yet are refused. */
  async close(): Promise<void> {
    this.closed = true;
    for (const pending of this.queue.splice(0))
      this.settle(pending, new WorkRefusedError('busy', 'The service is stopping.'));
    await Promise.all(
      this.slots.splice(0).map((slot) => {
        if (slot.running) this.settle(slot.running, new WorkRefusedError('busy', 'The service is stopping.'));
        return slot.worker.terminate();
      }),
    );
  }

  private idleSlot(): Slot | undefined {
    const idle = this.slots.find((s) => !s.running);
    if (idle) return idle;
    if (this.slots.length < this.options.size) {
      const slot = this.startWorker();
      this.slots.push(slot);
      return slot;
    }
    return undefined;
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const slot = this.idleSlot();
      if (!slot) return;
      const pending = this.queue.shift()!;
      slot.running = pending;
      pending.slot = slot;
      slot.worker.ref();
      slot.worker.postMessage({ id: pending.id, job: pending.job });
    }
  }

  private startWorker(): Slot {
    const worker = new Worker(this.options.script, {
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: this.options.heapLimitMb },
    });
    const slot: Slot = { worker };
    worker.unref();
    worker.on('message', (answer: Answer) => {
      const pending = slot.running;
      if (!pending || pending.id !== answer.id) return;
      slot.running = undefined;
      worker.unref();
      if (answer.ok) this.settle(pending, undefined, answer.value);
      else this.settle(pending, new WorkFailedError(answer.error.name, answer.error.message));
      this.dispatch();
    });
    // 'error' (an uncaught exception, running out of memory) is followed by 'exit'.
    worker.on('error', () => {});
    worker.on('exit', () => this.replace(slot));
    return slot;
  }

  /** A worker ended (crashed, or terminated past a deadline): its job is refused, a fresh one takes its place. */
  private replace(slot: Slot): void {
    const index = this.slots.indexOf(slot);
    if (index < 0) return; // closed, or already replaced
    if (slot.running)
      this.settle(
        slot.running,
        new WorkRefusedError(
          'crashed',
          'The work for this request stopped unexpectedly (it may have needed too much memory); the service restarted it.',
        ),
      );
    slot.running = undefined;
    this.slots.splice(index, 1);
    if (!this.closed) this.dispatch();
  }

  private overDeadline(pending: Pending): void {
    const seconds = this.options.deadlineMs / 1000;
    const error = new WorkRefusedError(
      'deadline',
      `The request needed more than ${seconds.toLocaleString('en-US')} s of work; it was stopped.`,
    );
    const queued = this.queue.indexOf(pending);
    if (queued >= 0) {
      this.queue.splice(queued, 1);
      this.settle(pending, error);
      return;
    }
    const slot = pending.slot;
    this.settle(pending, error);
    if (slot && slot.running === pending) {
      slot.running = undefined;
      this.slots.splice(this.slots.indexOf(slot), 1);
      void slot.worker.terminate();
      this.dispatch();
    }
  }

  private settle(pending: Pending, error: Error | undefined, value?: unknown): void {
    clearTimeout(pending.timer);
    if (error) pending.reject(error);
    else pending.resolve(value);
  }
}
