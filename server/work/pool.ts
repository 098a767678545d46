/**
 * A small fixed pool of worker threads running one job each at a time, with a bounded queue that
 * is fair between API keys (`fair-queue.ts`) and a deadline per job. The request loop only posts
 * jobs and reads answers, so it keeps answering while the workers compute.
 *
 * - Queue full, or the job's key over its share of it: the job is refused (`WorkRefusedError`,
 *   reason `busy`) after a short pause (`refusalPauseMs`); with several keys waiting, the key
 *   holding the most of the queue is the one refused (see `fair-queue.ts`).
 * - A job's deadline counts from when it is queued: it may wait at most `maxWaitMs` for a
 *   worker (refused `busy` beyond), then run for what is left of `deadlineMs`; past it, its
 *   worker is terminated (a thread cannot be interrupted otherwise) and a fresh one started
 *   (reason `deadline`). Time spent while no worker of the pool has loaded yet is not counted.
 * - A worker that dies (out of memory, a crash): its job is refused (reason `crashed`) and a fresh
 *   worker is started. The process itself is never taken down.
 *
 * Workers start when first needed. The worker script posts `{ ready: true }` once loaded, then
 * answers each `{ id, job }` message with `{ id, ok: true, value }` or
 * `{ id, ok: false, error: { name, message, code? } }`.
 */
import { Worker } from 'node:worker_threads';
import { FairQueue, type Refusal, type WorkShare } from './fair-queue';

export interface PoolOptions {
  /** The worker's script (an ES module file URL). */
  script: URL;
  /** Workers running at once. */
  size: number;
  /**
   * Jobs one API key may have running at once (default: `size`); with fewer than `size`, the
   * threads left over are always there for other keys' work.
   */
  keyRunLimit?: number | undefined;
  /** Jobs that may wait for a worker; one more is refused (or pushes out a job of the key with most waiting). */
  queueLimit: number;
  /** Jobs one API key may have waiting (default: a quarter of `queueLimit`, at least 1). */
  keyQueueLimit?: number | undefined;
  /** Time a job may take, from when it is queued: waiting for a worker, then running on it. */
  deadlineMs: number;
  /** Time a job may wait for a worker (default: a third of `deadlineMs`; at most `deadlineMs`). */
  maxWaitMs?: number | undefined;
  /**
   * A job refused because its key is over its share of the queue is refused after this pause
   * (default 1,000 ms; at most `MAX_PAUSED` refusals wait at once, the rest are refused at once),
   * so that a client retrying at once, Retry-After unheeded, cannot keep the request loop busy
   * refusing it.
   */
  refusalPauseMs?: number | undefined;
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
  share: WorkShare;
  resolve(value: unknown): void;
  reject(error: Error): void;
  /** When its wait began counting: once queued while a worker of the pool is ready. */
  waitingSince?: number;
  /** Its wait bound while it waits, its deadline once it runs. */
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

/** The share of work done for no request (warming up, the service's own writes). */
export const SERVICE_SHARE: WorkShare = { key: '\u0000service', agent: '' };

/** Refusals held for their pause at once; beyond, refused at once. */
const MAX_PAUSED = 256;

const seconds = (ms: number) => (ms / 1000).toLocaleString('en-US', { maximumFractionDigits: 3 });

export class WorkerPool {
  private readonly slots: Slot[] = [];
  private readonly queue: FairQueue<Pending>;
  private readonly keyQueueLimit: number;
  private readonly maxWaitMs: number;
  private nextId = 1;
  private closed = false;
  private paused = 0;

  constructor(private readonly options: PoolOptions) {
    this.keyQueueLimit = options.keyQueueLimit ?? Math.max(1, Math.floor(options.queueLimit / 4));
    this.maxWaitMs = Math.min(options.maxWaitMs ?? Math.floor(options.deadlineMs / 3), options.deadlineMs);
    this.queue = new FairQueue({
      total: options.queueLimit,
      perKey: this.keyQueueLimit,
      running: options.keyRunLimit ?? options.size,
    });
  }

  /**
   * Runs `job` on a worker, in its turn among the jobs of other keys and agents (`share`);
   * rejects with `WorkRefusedError` or `WorkFailedError`.
   */
  run<T>(job: unknown, share: WorkShare = SERVICE_SHARE): Promise<T> {
    if (this.closed) return Promise.reject(new WorkRefusedError('busy', STOPPING));
    return new Promise<T>((resolve, reject) => {
      const pending: Pending = {
        id: this.nextId++,
        job,
        share,
        resolve,
        reject,
      };
      const admission = this.queue.push(share, pending);
      if (!admission.admitted) {
        this.refuseAfterPause(reject, admission.refusal);
        return;
      }
      if (admission.pushedOut)
        this.settle(
          admission.pushedOut,
          new WorkRefusedError(
            'busy',
            `The service is busy: ${this.options.queueLimit} requests are waiting for validation or a turn, and this key has the most of them; another key's request took this one's place.`,
          ),
        );
      if (this.slots.some((slot) => slot.ready)) this.startWaiting(pending);
      this.dispatch();
    });
  }

  /**
   * Refuses at once (`WorkRefusedError`, busy) a job of `share` that `run` would refuse now, so
   * that a caller can say so before reading what the job needs.
   */
  checkRoom(share: WorkShare = SERVICE_SHARE): Promise<void> {
    if (this.closed) return Promise.reject(new WorkRefusedError('busy', STOPPING));
    const refusal = this.queue.refusal(share);
    if (!refusal) return Promise.resolve();
    return new Promise((_resolve, reject) => this.refuseAfterPause(reject, refusal));
  }

  /** A refusal of a key over its share, said after the pause (see `refusalPauseMs`). */
  private refuseAfterPause(reject: (error: Error) => void, refusal: Refusal): void {
    const error = new WorkRefusedError('busy', this.refusalMessage(refusal));
    const pause = this.options.refusalPauseMs ?? 1_000;
    if (pause <= 0 || this.paused >= MAX_PAUSED) {
      reject(error);
      return;
    }
    this.paused += 1;
    setTimeout(() => {
      this.paused -= 1;
      reject(error);
    }, pause).unref();
  }

  /** Starts the workers (up to `size`) now, so that the first jobs do not wait for them to load. */
  start(): void {
    while (!this.closed && this.slots.length < this.options.size) this.slots.push(this.startWorker());
  }

  /** Stops every worker; jobs not answered yet are refused. */
  async close(): Promise<void> {
    this.closed = true;
    for (const pending of this.queue.drain()) this.settle(pending, new WorkRefusedError('busy', STOPPING));
    await Promise.all(
      this.slots.splice(0).map((slot) => {
        if (slot.running) this.settle(slot.running, new WorkRefusedError('busy', STOPPING));
        return slot.worker.terminate();
      }),
    );
  }

  private refusalMessage(refusal: Refusal): string {
    return refusal === 'key-full'
      ? `The service is busy: this key already has ${this.keyQueueLimit} requests waiting for validation or a turn, the most one key may have waiting while other keys have work too.`
      : `The service is busy: ${this.options.queueLimit} requests are already waiting for validation or a turn.`;
  }

  /** The job's wait starts counting: refused if no worker takes it within `maxWaitMs`. */
  private startWaiting(pending: Pending): void {
    if (pending.waitingSince !== undefined) return;
    pending.waitingSince = performance.now();
    pending.timer = setTimeout(() => {
      if (!this.queue.remove(pending.share, pending)) return;
      this.settle(
        pending,
        new WorkRefusedError(
          'busy',
          `The service is busy: this request waited ${seconds(this.maxWaitMs)} s for a thread, the most a request may wait.`,
        ),
      );
    }, this.maxWaitMs);
  }

  /** Gives queued jobs to ready idle workers (fairly, see `fair-queue.ts`), starting workers (up to `size`) for the jobs left. */
  private dispatch(): void {
    if (this.closed) return;
    for (const slot of this.slots) {
      if (this.queue.size === 0) return;
      if (!slot.ready || slot.running) continue;
      const next = this.queue.take();
      if (!next) break; // what waits belongs to keys running as many jobs as they may
      const pending = next.job;
      clearTimeout(pending.timer);
      const waited = performance.now() - (pending.waitingSince ?? performance.now());
      slot.running = pending;
      pending.timer = setTimeout(
        () => this.overDeadline(slot, pending, waited),
        Math.max(1, this.options.deadlineMs - waited),
      );
      slot.worker.ref();
      slot.worker.postMessage({ id: pending.id, job: pending.job });
    }
    const starting = this.slots.filter((s) => !s.ready).length;
    for (let more = this.queue.size - starting; more > 0 && this.slots.length < this.options.size; more--)
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
        // The pool can take work now: what waited for it starts counting its wait.
        for (const pending of this.queue.waiting()) this.startWaiting(pending);
        this.dispatch();
        return;
      }
      const pending = slot.running;
      if (!pending || pending.id !== answer.id) return;
      slot.running = undefined;
      worker.unref();
      this.queue.finished(pending.share);
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
    if (slot.running) this.queue.finished(slot.running.share);
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
      for (const pending of this.queue.drain())
        this.settle(
          pending,
          new WorkRefusedError('crashed', 'The service could not start its engine worker.'),
        );
    this.dispatch();
  }

  /** The job ran past its deadline: refused, and its worker replaced. */
  private overDeadline(slot: Slot, pending: Pending, waited: number): void {
    if (slot.running !== pending) return;
    this.queue.finished(pending.share);
    const deadline = seconds(this.options.deadlineMs);
    this.settle(
      pending,
      new WorkRefusedError(
        'deadline',
        waited < 1
          ? `This request needed more than ${deadline} s of work, the most one request may take; it was stopped.`
          : `This request needed more than ${deadline} s, the most one request may take (${seconds(waited)} s of it waiting for a thread, the rest working); it was stopped.`,
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
