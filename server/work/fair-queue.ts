/**
 * The worker pool's waiting room, fair between API keys and, within a key, between its agents.
 * Pure: no threads, no timers, no clock.
 *
 * - Who runs next: the key with the fewest jobs running, and among those the one served longest
 *   ago (a key not seen before first); within that key, its agent chosen the same way; that
 *   agent's oldest waiting job. A key flooding the pool thus gets a free thread only when no
 *   other key with fewer jobs running waits for one. A key with `running` jobs running waits
 *   for one of them to end (so a pool with one thread more than that always has one for others).
 * - Who is refused: a key with `perKey` jobs waiting has its next one refused while another key
 *   has work waiting or running (a key alone may fill the queue: there is no one to be fair to,
 *   and one client of one key sending many requests at once is the common case). When `total` jobs
 *   wait in all, the key with the most waiting gives up its newest one for the newcomer, if it has
 *   at least two more waiting than the newcomer's key; otherwise the newcomer is refused. Either
 *   way the refusal goes to the key that holds the most of the queue.
 *
 * What it holds is bounded: lanes exist only for keys and agents with jobs waiting or running.
 */

/** Whose work a job is: the API key, and the agent within it (`''` when no agent is concerned). */
export interface WorkShare {
  readonly key: string;
  readonly agent: string;
}

export interface FairQueueLimits {
  /** Jobs that may wait in all. */
  total: number;
  /** Jobs one key may have waiting. */
  perKey: number;
  /** Jobs one key may have running at once (no limit when omitted). */
  running?: number;
}

/** Why a job was not let in: its key has `perKey` waiting while others have work, or the queue is full of others' jobs at most as many. */
export type Refusal = 'key-full' | 'queue-full';

export type Admission<T> =
  | {
      admitted: true;
      /** A job of the key holding the most of the queue, taken out to make room. */ pushedOut?: T;
    }
  | { admitted: false; refusal: Refusal };

interface Turns {
  running: number;
  /** When it was last served (the queue's count of jobs handed out then); 0 = never. */
  servedAt: number;
}

interface AgentLane extends Turns {
  agent: string;
  waiting: unknown[];
}

interface KeyLane extends Turns {
  key: string;
  waiting: number;
  agents: Map<string, AgentLane>;
}

/** The lane with the fewest running, then the one served longest ago; among those with jobs waiting. */
function nextOf<L extends Turns>(lanes: Iterable<L>, hasWaiting: (lane: L) => boolean): L | undefined {
  let best: L | undefined;
  for (const lane of lanes) {
    if (!hasWaiting(lane)) continue;
    if (
      !best ||
      lane.running < best.running ||
      (lane.running === best.running && lane.servedAt < best.servedAt)
    )
      best = lane;
  }
  return best;
}

export class FairQueue<T> {
  private readonly keys = new Map<string, KeyLane>();
  private waitingCount = 0;
  private handedOut = 0;

  constructor(private readonly limits: FairQueueLimits) {}

  /** Jobs waiting. */
  get size(): number {
    return this.waitingCount;
  }

  /** Why a job of `share` would be refused now, if it would (`push` says the same, and takes it). */
  refusal(share: WorkShare): Refusal | undefined {
    const queued = this.keys.get(share.key)?.waiting ?? 0;
    if (queued >= this.limits.perKey && this.othersActive(share.key)) return 'key-full';
    if (this.waitingCount < this.limits.total) return undefined;
    const heaviest = this.heaviestKey();
    return !heaviest || heaviest.waiting <= queued + 1 ? 'queue-full' : undefined;
  }

  /** Whether a key other than `key` has jobs waiting or running (lanes exist only for those). */
  private othersActive(key: string): boolean {
    for (const other of this.keys.keys()) if (other !== key) return true;
    return false;
  }

  /** Lets `job` wait for its turn, or says why not; room may be made by pushing out another key's job. */
  push(share: WorkShare, job: T): Admission<T> {
    const refusal = this.refusal(share);
    if (refusal) return { admitted: false, refusal };
    let pushedOut: T | undefined;
    if (this.waitingCount >= this.limits.total) pushedOut = this.popNewest(this.heaviestKey()!);
    const keyLane = this.keyLane(share.key);
    let agentLane = keyLane.agents.get(share.agent);
    if (!agentLane)
      keyLane.agents.set(
        share.agent,
        (agentLane = { agent: share.agent, waiting: [], running: 0, servedAt: 0 }),
      );
    agentLane.waiting.push(job);
    keyLane.waiting += 1;
    this.waitingCount += 1;
    return pushedOut === undefined ? { admitted: true } : { admitted: true, pushedOut };
  }

  /**
   * The job to run next, counted as running for its key and agent until `finished`; undefined
   * when none waits, or only jobs of keys running as many as they may.
   */
  take(): { job: T; share: WorkShare } | undefined {
    const most = this.limits.running ?? Infinity;
    const keyLane = nextOf(this.keys.values(), (lane) => lane.waiting > 0 && lane.running < most);
    if (!keyLane) return undefined;
    const agentLane = nextOf(keyLane.agents.values(), (lane) => lane.waiting.length > 0)!;
    const job = agentLane.waiting.shift() as T;
    keyLane.waiting -= 1;
    this.waitingCount -= 1;
    this.handedOut += 1;
    for (const lane of [keyLane, agentLane]) {
      lane.running += 1;
      lane.servedAt = this.handedOut;
    }
    return { job, share: { key: keyLane.key, agent: agentLane.agent } };
  }

  /** A job `take` handed out has ended (answered, refused or failed). */
  finished(share: WorkShare): void {
    const keyLane = this.keys.get(share.key);
    const agentLane = keyLane?.agents.get(share.agent);
    if (!keyLane || !agentLane) return;
    keyLane.running = Math.max(0, keyLane.running - 1);
    agentLane.running = Math.max(0, agentLane.running - 1);
    this.forgetIdle(keyLane, agentLane);
  }

  /** Takes a waiting job out (its wait ran out); false when it is not waiting (any more). */
  remove(share: WorkShare, job: T): boolean {
    const keyLane = this.keys.get(share.key);
    const agentLane = keyLane?.agents.get(share.agent);
    const index = agentLane?.waiting.indexOf(job) ?? -1;
    if (!keyLane || !agentLane || index < 0) return false;
    agentLane.waiting.splice(index, 1);
    keyLane.waiting -= 1;
    this.waitingCount -= 1;
    this.forgetIdle(keyLane, agentLane);
    return true;
  }

  /** Every waiting job, in no particular order. */
  *waiting(): Iterable<T> {
    for (const keyLane of this.keys.values())
      for (const agentLane of keyLane.agents.values()) yield* agentLane.waiting as T[];
  }

  /** Takes every waiting job out (the pool is closing). */
  drain(): T[] {
    const all = [...this.waiting()];
    this.keys.clear();
    this.waitingCount = 0;
    return all;
  }

  private keyLane(key: string): KeyLane {
    let lane = this.keys.get(key);
    if (!lane) this.keys.set(key, (lane = { key, waiting: 0, running: 0, servedAt: 0, agents: new Map() }));
    return lane;
  }

  /** The key with the most jobs waiting (the first such key met on a tie). */
  private heaviestKey(): KeyLane | undefined {
    let heaviest: KeyLane | undefined;
    for (const lane of this.keys.values()) if (!heaviest || lane.waiting > heaviest.waiting) heaviest = lane;
    return heaviest;
  }

  /** The newest job of the key's agent with the most waiting: the one that waited least. */
  private popNewest(keyLane: KeyLane): T {
    let fullest: AgentLane | undefined;
    for (const lane of keyLane.agents.values())
      if (!fullest || lane.waiting.length > fullest.waiting.length) fullest = lane;
    const job = fullest!.waiting.pop() as T;
    keyLane.waiting -= 1;
    this.waitingCount -= 1;
    this.forgetIdle(keyLane, fullest!);
    return job;
  }

  private forgetIdle(keyLane: KeyLane, agentLane: AgentLane): void {
    if (agentLane.waiting.length === 0 && agentLane.running === 0) keyLane.agents.delete(agentLane.agent);
    if (keyLane.waiting === 0 && keyLane.running === 0) this.keys.delete(keyLane.key);
  }
}
