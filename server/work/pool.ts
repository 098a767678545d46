/**
 * A small fixed pool of worker threads running one job each at a time, with a bounded queue and
 * a deadline per job (counted from when a worker starts it). The request loop only posts jobs and
 * reads answers, so it keeps answering while the workers compute.
 *
 * - Queue full: the job is refused at once (`WorkRefusedError`, reason `busy`). A job thus waits
 *   at most about `queueLimit / size` deadlines.
 * - Deadline passed: the job's worker is terminated (a thread cannot be interrupted otherwise)
 *   and a fresh one started (reason `deadline`).
 * - A worker that dies (out of memory, a crash): its job is refused (reason `crashed`) and a fresh
 *   worker is started. The process itself is never taken down.
 *
 * Workers start when first needed. The worker script posts `{ ready: true }` once loaded (its
 * start-up is not counted against a job's deadline), then answers each `{ id, job }` message with
 * `{ id, ok: true, value }` or `{ id, ok: false, error: { name, message, code? } }`.
 */
import { Worker } from 'node:worker_threads';

export interface PoolOptions {
  /** The worker's script (an ES module file URL). */
  script: URL;
  /** Workers running at once. */
  size: number;
  /** Jobs that may wait for a worker; one more is refused. */
  queueLimit: number;
  /** Time a job may run on its worker. */
  deadlineMs: number;
  /** A worker's JavaScript heap limit (its old generation), in MB. */
  heapLimitMb: number;
  /** Given to each worker as its `workerData`. */
  workerData?: unknown;
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

/** An error the job itself threw in the worker, rebuilt with its name, message and code (if any). */
export class WorkFailedError extends Error {
  constructor(
    readonly errorName: string,
    message: string,
    readonly code?: string,
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
  /** Set once a worker runs it. */
  timer?: NodeJS.Timeout;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  running?: Pending | undefined;
}

type Answer =
  | { ready: true }
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: { name: string; message: string; code?: string } };

const STOPPING = 'The service is stopping.';

export class WorkerPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Pending[] = [];
  private nextId = 1;
  private closed = false;

  constructor(private readonly options: PoolOptions) {}

  /** Runs `job` on a worker; rejects with `WorkRefusedError` or `WorkFailedError`. */
  run<T>(job: unknown): Promise<T> {
    if (this.closed) return Promise.reject(new WorkRefusedError('busy', STOPPING));
    if (this.queue.length >= this.options.queueLimit)
      return Promise.reject(
        new WorkRefusedError(
          'busy',
          `The service is busy: ${this.options.queueLimit} requests are already waiting for validation or a turn.`,
        ),
      );
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ id: this.nextId++, job, resolve: resolve, reject });
      this.dispatch();
    });
  }

  /** Starts the workers (up to `size`) now, so that the first jobs do not wait for them to load. */
  start(): void {
    while (!this.closed && this.slots.length < this.options.size) this.slots.push(this.startWorker());
  }

  /** Stops every worker; jobs not answered yet are refused. */
  async close(): Promise<void> {
    this.closed = true;
    for (const pending of this.queue.splice(0)) this.settle(pending, new WorkRefusedError('busy', STOPPING));
    await Promise.all(
      this.slots.splice(0).map((slot) => {
        if (slot.running) this.settle(slot.running, new WorkRefusedError('busy', STOPPING));
        return slot.worker.terminate();
      }),
    );
  }

  /** Gives queued jobs to ready idle workers, starting workers (up to `size`) for the jobs left. */
  private dispatch(): void {
    if (this.closed) return;
    for (const slot of this.slots) {
      if (this.queue.length === 0) return;
      if (!slot.ready || slot.running) continue;
      const pending = this.queue.shift()!;
      slot.running = pending;
      pending.timer = setTimeout(() => this.overDeadline(slot, pending), this.options.deadlineMs);
      slot.worker.ref();
      slot.worker.postMessage({ id: pending.id, job: pending.job });
    }
    const starting = this.slots.filter((s) => !s.ready).length;
    for (let more = this.queue.length - starting; more > 0 && this.slots.length < this.options.size; more--)
      this.slots.push(this.startWorker());
  }

  private startWorker(): Slot {
    const worker = new Worker(this.options.script, {
      execArgv: [],
      workerData: this.options.workerData,
      resourceLimits: { maxOldGenerationSizeMb: this.options.heapLimitMb },
    });
    const slot: Slot = { worker, ready: false };
    worker.on('message', (answer: Answer) => {
      if ('ready' in answer) {
        slot.ready = true;
        worker.unref();
        this.dispatch();
        return;
      }
      const pending = slot.running;
      if (!pending || pending.id !== answer.id) return;
      slot.running = undefined;
      worker.unref();
      if (answer.ok) this.settle(pending, undefined, answer.value);
      else
        this.settle(pending, new WorkFailedError(answer.error.name, answer.error.message, answer.error.code));
      this.dispatch();
    });
    // 'error' (an uncaught exception, running out of memory) is followed by 'exit'.
    worker.on('error', () => {});
    worker.on('exit', () => this.replace(slot));
    return slot;
  }

  /** A worker ended on its own (crashed, ran out of memory): its job is refused, a fresh one takes its place. */
  private replace(slot: Slot): void {
    const index = this.slots.indexOf(slot);
    if (index < 0) return; // closed, or terminated past a deadline (already replaced)
    this.slots.splice(index, 1);
    if (slot.running)
      this.settle(
        slot.running,
        new WorkRefusedError(
          'crashed',
          'The work for this request stopped unexpectedly (it may have needed too much memory); the service restarted it.',
        ),
      );
    else if (!slot.ready)
      // It died while starting: refuse what waits rather than start it again and again.
      for (const pending of this.queue.splice(0))
        this.settle(
          pending,
          new WorkRefusedError('crashed', 'The service could not start its engine worker.'),
        );
    this.dispatch();
  }

  /** The job ran past its deadline: refused, and its worker replaced. */
  private overDeadline(slot: Slot, pending: Pending): void {
    if (slot.running !== pending) return;
    const seconds = this.options.deadlineMs / 1000;
    this.settle(
      pending,
      new WorkRefusedError(
        'deadline',
        `This request needed more than ${seconds.toLocaleString('en-US')} s of work, the most one request may take; it was stopped.`,
      ),
    );
    this.slots.splice(this.slots.indexOf(slot), 1);
    void slot.worker.terminate();
    this.dispatch();
  }

  private settle(pending: Pending, error: Error | undefined, value?: unknown): void {
    clearTimeout(pending.timer);
    if (error) pending.reject(error);
    else pending.resolve(value);
  }
}
