/**
 * Persistence of tasks and their turns behind an async interface, so the SQLite implementation
 * can later be swapped for a networked database without touching the service.
 */
import type { EngineState } from '../../engine/contract';
import type { Trace } from '../../src/contract/trace';
import type { TaskListPage, TaskListQuery } from './task-list';
import type { TurnIndexEntry } from '../../engine/turn-index-entry';
import type { TurnFacetCounts, TurnHits, TurnQuery } from './turn-search';

export interface TaskRecord {
  id: string;
  agentId: string;
  userId: string;
  origin: string;
  title: string;
  welcomeMessage: string | null;
  suggestions: string[];
  /** The version the task runs with (its pin, or the agent's active version at creation). */
  versionId: string;
  versionTag: string | null;
  /** The task's clock (ISO-8601): its creation time, or its origin's clock for a rerun branch. */
  clock: string;
  /** The engine state before the first turn. */
  initialState: EngineState;
  /** For a rerun branch: the task and interaction it was regenerated from. */
  branchOf: { taskId: string; interactionId: string } | null;
  createdAt: string;
}

/** One exchange: the user's message, the agent's reply (whose id is the interaction id), its trace. */
export interface TurnRecord {
  taskId: string;
  /** The agent reply's message id, which is also the interaction id. */
  interactionId: string;
  userMessage: { id: string; text: string; createdAt: string };
  reply: { text: string; suggestions: string[]; createdAt: string };
  trace: Trace;
  /** The engine state after this turn. */
  state: EngineState;
  /** Hash of the bundle sent with the request this turn ran with, or null when none was sent. */
  bundleHash: string | null;
  versionId: string;
}

/**
 * A turn computed off the request loop (in the worker pool), to be stored: its trace as the JSON
 * text stored and answered, and its turn index entry computed beside it, so storing it never
 * parses or walks the trace. The store sets the entry's task, position, owner and time as it
 * stores the turn (`indexEntryAt`).
 */
export interface ComputedTurn extends Omit<TurnRecord, 'trace'> {
  traceJson: string;
  indexEntry: TurnIndexEntry;
}

/** A turn `appendTurn` and `createBranch` store: with its trace, or computed elsewhere. */
export type NewTurn = TurnRecord | ComputedTurn;

/** What one turn ran with, and the user's text (the lineage endpoints read only these). */
export interface TurnConfigRecord {
  interactionId: string;
  userText: string;
  bundleHash: string | null;
  versionId: string;
}

/** A bundle a client sent, kept by content hash for the agent it was sent to. */
export interface StoredBundle {
  hash: string;
  agentId: string;
  /** The bundle's JSON text. */
  content: string;
}

export interface PageRequest {
  offset: number;
  limit: number;
}

/**
 * A task's agent (for the key's access check) with stored trace JSON text, read together. The
 * text is the trace exactly as stored, so it can be answered without parsing it again.
 */
export interface TaskTraces<T> {
  agentId: string;
  traces: T;
}

/** A page of a task's traces as stored JSON text, with the thread's length when it was read. */
export interface TracePage extends TaskTraces<string[]> {
  total: number;
}

/** Where a thread ends now: a turn computed from `state` is stored only while the thread still has `turns` turns. */
export interface ThreadTip {
  turns: number;
  state: EngineState;
}

/** Where a rerun of one interaction forks a thread. */
export interface ForkPoint {
  /** The turns of the thread before the regenerated one (the branch inherits them). */
  turnsBefore: number;
  /** The engine state after those turns (the task's initial state when there are none). */
  stateBefore: EngineState;
}

/**
 * Tasks and their threads. A task's thread is the turns it inherits from the task it branched
 * from (`branchOf`: the turns before the regenerated interaction, read through that task, never
 * copied), followed by its own turns. Every read below is of the thread, in thread order; a
 * page, a turn, a count or a fork costs the same whatever the thread's length.
 */
export interface Store extends AgentStore {
  createTask(task: TaskRecord): Promise<void>;
  /**
   * Creates a rerun branch (`task.branchOf` names the parent task and the regenerated
   * interaction) with its first own turn, atomically. The branch inherits the parent's thread up
   * to that interaction by reference. Rejects when the parent's thread has no such interaction.
   */
  createBranch(task: TaskRecord, firstTurn: NewTurn): Promise<void>;
  getTask(taskId: string): Promise<TaskRecord | undefined>;
  /** Gives the task a new title (what people call the thread); false when there is no such task. */
  renameTask(taskId: string, title: string): Promise<boolean>;
  /**
   * Appends the task's next turn: `next` receives the engine state after the thread's last turn
   * and the thread's length, and returns the turn to store (its `taskId` is the task's), or a
   * promise of it. The turn stored is one `next` computed from the state the thread still ends
   * with when it is stored, atomically against every other writer of the task, whichever process
   * it runs in, so turns are applied one at a time, each on the state the previous one left
   * (PostgreSQL holds the task's row lock while `next` runs; SQLite, with one writing process,
   * calls `next` again if the thread moved meanwhile). When `next` throws, nothing is stored.
   * Rejects when there is no such task. `known`, the tip the caller has just read (`threadTip`),
   * spares reading it again when the thread still ends there.
   */
  appendTurn<T extends NewTurn>(
    taskId: string,
    next: (stateBefore: EngineState, turnsBefore: number) => T | Promise<T>,
    known?: ThreadTip,
  ): Promise<T>;
  /** The thread's length and the engine state after its last turn (or the initial state); undefined when no such task. */
  threadTip(taskId: string): Promise<ThreadTip | undefined>;
  /** Where a rerun of the interaction forks the task's thread; undefined when the thread has no such interaction. */
  forkPoint(taskId: string, interactionId: string): Promise<ForkPoint | undefined>;
  /**
   * The thread's turns (a page of them when `page` is given). Inherited turns keep the `taskId`
   * of the task that ran them.
   */
  listTurns(taskId: string, page?: PageRequest): Promise<TurnRecord[]>;
  countTurns(taskId: string): Promise<number>;
  /** The task's agent and one turn's trace JSON (null when the thread has no such turn); undefined when no such task. */
  getTraceJson(taskId: string, interactionId: string): Promise<TaskTraces<string | null> | undefined>;
  /** The task's agent, a page of its thread's traces as JSON text and the thread's length; undefined when no such task. */
  listTraceJson(taskId: string, page: PageRequest): Promise<TracePage | undefined>;
  getTurn(taskId: string, interactionId: string): Promise<TurnRecord | undefined>;
  /** Where an interaction is in the task's thread (from 0; inherited turns too), or undefined. */
  turnPosition(taskId: string, interactionId: string): Promise<number | undefined>;
  /** What each of the task's turns ran with (all of them, or the page asked for), in thread order (no traces, no states). */
  listTurnConfigs(taskId: string, page?: PageRequest): Promise<TurnConfigRecord[]>;
  /** The tasks regenerated from `taskId` (its direct branches), oldest first, at most `limit`. */
  listBranches(taskId: string, limit: number): Promise<TaskRecord[]>;
  /** Keeps a bundle by hash for an agent (a no-op when already kept). */
  putBundle(bundle: StoredBundle, createdAt: string): Promise<void>;
  /** The copies of a bundle kept under `hash`, one per agent it was sent to. */
  getBundles(hash: string): Promise<StoredBundle[]>;
  /** The engine state after the thread's last turn, or the task's initial state when it has none. */
  latestState(taskId: string): Promise<EngineState | undefined>;
  /**
   * Turns matching `query` among the agents `allowedAgents` (null: all), newest first, at most
   * `limit`, below the order key `before` when given (a page after a previous one). The turn index
   * is written with each turn, so every stored turn is found (inherited turns once, under the task
   * that ran them).
   */
  searchTurns(
    query: TurnQuery,
    allowedAgents: readonly string[] | null,
    before: number | null,
    limit: number,
  ): Promise<TurnHits>;
  /** Counts over the turns matching `query`: per decision, intent, rule and result, tool, day. */
  turnFacets(query: TurnQuery, allowedAgents: readonly string[] | null): Promise<TurnFacetCounts>;
  /**
   * How many turns match `query` among the agents `allowedAgents` (null: all): every one of them,
   * with no window (the semantic diff's `recorded` counts; give `query.from` to bound the work).
   */
  countMatchingTurns(query: TurnQuery, allowedAgents: readonly string[] | null): Promise<number>;
  /**
   * Tasks matching `query` among the agents `allowedAgents` (null: all), by latest activity (a new
   * task or a stored turn), newest first, at most `limit`, below the order key `before` when given.
   */
  listTasks(
    query: TaskListQuery,
    allowedAgents: readonly string[] | null,
    before: number | null,
    limit: number,
  ): Promise<TaskListPage>;
  /** Which database this is and whether it answers now (for `/healthz`); never rejects. */
  health(): Promise<StoreHealth>;
  /** Starts now what the first write would otherwise wait for (a writer thread), if anything. */
  warmUp?(): void;
  close(): Promise<void>;
}

/** A published version of an agent created through the API: immutable once stored. */
export interface StoredAgentVersion {
  id: string;
  tag: string | null;
  note: string;
  /** The bundle's JSON text. */
  bundle: string;
  createdAt: string;
}

/** An agent created through the API, with its versions oldest first. */
export interface StoredAgent {
  id: string;
  activeVersion: string;
  createdAt: string;
  versions: StoredAgentVersion[];
}

/** An agent's server-side draft: the bundle being edited (JSON text, not necessarily valid). */
export interface AgentDraft {
  content: string;
  updatedAt: string;
}

/**
 * Agents created through the API. Every write bumps one revision number, so an instance can tell
 * cheaply whether another instance changed an agent since it last read them.
 */
export interface AgentStore {
  agentsRevision(): Promise<number>;
  listStoredAgents(): Promise<StoredAgent[]>;
  /** Creates the agent with its first version (active) and its draft; false when the id is taken. */
  createAgent(
    agent: { id: string; createdAt: string },
    first: StoredAgentVersion,
    draft: AgentDraft,
  ): Promise<boolean>;
  getAgentDraft(agentId: string): Promise<AgentDraft | undefined>;
  /** False when there is no such agent. */
  putAgentDraft(agentId: string, draft: AgentDraft): Promise<boolean>;
  /** Adds a published version; `taken` when its id or tag is already one of the agent's. */
  addAgentVersion(agentId: string, version: StoredAgentVersion): Promise<'added' | 'no-agent' | 'taken'>;
  /** Makes one of the agent's versions the active one; false when no such agent or version. */
  setActiveAgentVersion(agentId: string, versionId: string): Promise<boolean>;
  /** Deletes the agent, its versions and draft, unless a task (a thread) uses it. */
  deleteAgent(agentId: string): Promise<'deleted' | 'no-agent' | 'has-tasks'>;
}

export interface StoreHealth {
  store: 'sqlite' | 'postgres';
  reachable: boolean;
}

/**
 * The database cannot be reached (down, restarting, refusing connections): the call's outcome is
 * not acknowledged (a write whose commit was cut off may or may not be stored), and
 * the same call may succeed later. The HTTP layer answers 503.
 */
export class StoreUnavailableError extends Error {
  constructor(cause: unknown) {
    super(`The database is unreachable: ${cause instanceof Error ? cause.message : String(cause)}`, {
      cause,
    });
    this.name = 'StoreUnavailableError';
  }
}
