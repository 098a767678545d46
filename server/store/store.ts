/**
 * Persistence of tasks and their turns behind an async interface, so the SQLite implementation
 * can later be swapped for a networked database without touching the service.
 */
import type { EngineState } from '../engine/contract';
import type { Trace } from '../../src/contract/trace';

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

export interface Store {
  createTask(task: TaskRecord): Promise<void>;
  /** Creates a branch task holding copies of the given turns (in order), atomically. */
  createBranch(task: TaskRecord, history: TurnRecord[]): Promise<void>;
  getTask(taskId: string): Promise<TaskRecord | undefined>;
  appendTurn(turn: TurnRecord): Promise<void>;
  /** The task's turns in thread order; a page of them when `page` is given. */
  listTurns(taskId: string, page?: PageRequest): Promise<TurnRecord[]>;
  /** Only the traces of the task's turns, in thread order (cheaper than `listTurns`). */
  listTraces(taskId: string, page?: PageRequest): Promise<Trace[]>;
  countTurns(taskId: string): Promise<number>;
  /** The task's agent and one turn's trace JSON (null when the task has no such turn); undefined when no such task. */
  getTraceJson(taskId: string, interactionId: string): Promise<TaskTraces<string | null> | undefined>;
  /** The task's agent and its traces' JSON in thread order (a page of them when `page` is given); undefined when no such task. */
  listTraceJson(taskId: string, page?: PageRequest): Promise<TaskTraces<string[]> | undefined>;
  getTurn(taskId: string, interactionId: string): Promise<TurnRecord | undefined>;
  /** What each of the task's turns ran with, in thread order (no traces, no states). */
  listTurnConfigs(taskId: string): Promise<TurnConfigRecord[]>;
  /** The tasks regenerated from `taskId` (its direct branches), oldest first, at most `limit`. */
  listBranches(taskId: string, limit: number): Promise<TaskRecord[]>;
  /** Keeps a bundle by hash for an agent (a no-op when already kept). */
  putBundle(bundle: StoredBundle, createdAt: string): Promise<void>;
  /** The copies of a bundle kept under `hash`, one per agent it was sent to. */
  getBundles(hash: string): Promise<StoredBundle[]>;
  /** The engine state after the task's last turn, or its initial state when it has none. */
  latestState(taskId: string): Promise<EngineState | undefined>;
  close(): Promise<void>;
}
