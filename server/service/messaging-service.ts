/**
 * The Messaging API v1 semantics, independent of HTTP: tasks, turns, rerun branches and traces.
 * Throws the refusals of `errors.ts` (not found, access denied, invalid input); the HTTP layer
 * turns them into answers.
 */
import type {
  CreateTaskRequest,
  MessageResponse,
  RerunRequest,
  RerunResponse,
  SendMessageRequest,
  TaskResponse,
} from '../../src/contract/api';
import type { Bundle } from '../../src/contract/bundle';
import type { Trace } from '../../src/contract/trace';
import type { ApiKey } from '../auth/api-keys';
import { keyAllowsAgent } from '../auth/api-keys';
import type { EngineState } from '../../engine/contract';
import { checkedTraceJson, parseStored } from '../store/damaged-values';
import type { ComputedTurn, Store, TaskRecord, TaskTraces } from '../store/store';
import { overWorkBudget, shareOf, workOf, type EngineWork, type WorkShare } from '../work/engine-work';
import { WorkRefusedError } from '../work/pool';
import { createBundleCache } from './bundle-cache';
import { AccessDeniedError, InvalidInputError, NotFoundError } from './errors';
import { nextLoopTurn } from './loop-turns';
import { pageCount, pageWindow } from './paging';
import { hasPin, requireAgent, requireVersion } from './pinning';
import type { AgentRecord, AgentVersionRecord, MessagingDependencies } from './dependencies';
import { messageJson, taskResponse } from './responses';
import type { KeyedSerializer } from './task-serializer';

const DEFAULT_ORIGIN = 'web-widget';

export interface TraceListQuery {
  interaction_id?: string | undefined;
  page?: number | undefined;
  size?: number | undefined;
}

export type TraceList =
  Trace[] | { items: Trace[]; total: number; page: number; size: number; pages: number };

/** The bundle a turn runs with, and the hash recorded for it (null when the agent's own). */
interface TurnConfig {
  version: AgentVersionRecord;
  bundle: Bundle;
  bundleHash: string | null;
  clientBundle: boolean;
}

/** The page envelope around trace JSON texts, as `JSON.stringify({items, total, page, size, pages})` writes it. */
function pageJson(items: string[], total: number, page: number, size: number, pages: number): string {
  return `{"items":[${items.join(',')}],"total":${total},"page":${page},"size":${size},"pages":${pages}}`;
}

/** Traces read for the first piece of a list (enough for a default page in one read). */
const FIRST_BATCH = 64;
/** The size a piece of a trace list aims at: read, joined and written in well under a millisecond. */
const BATCH_BYTES = 64 * 1024;

/** The next batch's trace count: scaled from the last one's bytes towards `BATCH_BYTES`, 1 to 1,000. */
export function nextBatchSize(lastCount: number, lastBytes: number, remaining: number): number {
  const scaled = Math.floor((lastCount * BATCH_BYTES) / Math.max(lastBytes, 1));
  return Math.max(1, Math.min(scaled, 1000, remaining));
}

/**
 * Times a turn is computed, outside any lock, and found outdated because the thread moved on
 * meanwhile (another instance added a turn to the same task), before it is computed while the
 * store holds the thread.
 */
export const TURN_ATTEMPTS = 3;

/** The thread had another turn while this one was computed: computed again from the new state. */
class ThreadMoved extends Error {}

async function* pieces(texts: string[]): AsyncGenerator<string> {
  yield* texts;
}

export class MessagingService {
  private readonly bundleCache = createBundleCache();
  private readonly work: EngineWork;

  constructor(
    private readonly store: Store,
    private readonly deps: MessagingDependencies,
    private readonly serializer: KeyedSerializer,
  ) {
    this.work = workOf(deps);
  }

  async createTask(key: ApiKey, req: CreateTaskRequest): Promise<TaskResponse> {
    if (!keyAllowsAgent(key, req.agent_id)) throw new AccessDeniedError(req.agent_id);
    const { agents, engine, clock } = this.deps;
    const agent = requireAgent(agents, req.agent_id, ['agent_id']);
    const version = requireVersion(
      agents,
      agent,
      { version_id: req.version_id, version_tag: req.version_tag },
      [],
    );
    const createdAt = clock.now().toISOString();
    // Reference-only extension: a task clock chosen by the client (e.g. a replayed test case).
    const now = req.reference_clock === undefined ? createdAt : new Date(req.reference_clock).toISOString();
    const welcome = engine.welcome(version.bundle, now);
    const task: TaskRecord = {
      id: this.deps.newId('task'),
      agentId: agent.id,
      userId: req.user_id,
      origin: req.task_origin_type ?? DEFAULT_ORIGIN,
      title: welcome.title,
      welcomeMessage: welcome.welcome_message,
      suggestions: welcome.suggestions,
      versionId: version.id,
      versionTag: version.tag,
      clock: now,
      initialState: engine.initialState(version.bundle, now, req.user_id),
      branchOf: null,
      createdAt,
    };
    await this.store.createTask(task);
    return taskResponse(task);
  }

  /** The answer to a send as its JSON text (a stored trace is answered as stored, never parsed). */
  async sendMessageJson(key: ApiKey, req: SendMessageRequest, includeTrace: boolean): Promise<string> {
    const task = await this.accessibleTask(key, req.task_id);
    const pin = req.agent;
    if (pin?.agent_id !== undefined && pin.agent_id !== task.agentId) {
      throw InvalidInputError.at(
        ['agent', 'agent_id'],
        `The task belongs to agent ${task.agentId}, not ${pin.agent_id}`,
      );
    }
    const agent = this.taskAgent(task);
    const version = hasPin(pin)
      ? requireVersion(this.deps.agents, agent, pin, ['agent'])
      : this.taskVersion(task, agent);
    const share = shareOf(key, task.agentId);
    const config = await this.turnConfig(version, req.agent_settings_bundle, share);
    const userMessageAt = this.deps.clock.now().toISOString();
    // The serializer keeps this process's sends to one task in arrival order without queueing
    // them on the store; `appendNextTurn` keeps the order against other instances.
    const turn = await this.serializer.run(task.id, () =>
      this.appendNextTurn(task, (state) =>
        this.computeTurn(task, config, state, { text: req.text, createdAt: userMessageAt }, share),
      ),
    );
    await this.keepBundle(task.agentId, config);
    return messageJson(task, turn, includeTrace);
  }

  async sendMessage(key: ApiKey, req: SendMessageRequest, includeTrace: boolean): Promise<MessageResponse> {
    return JSON.parse(await this.sendMessageJson(key, req, includeTrace)) as MessageResponse;
  }

  /** The answer to a rerun as its JSON text (see `sendMessageJson`). */
  async rerunJson(key: ApiKey, req: RerunRequest, includeTrace: boolean): Promise<string> {
    const origin = await this.accessibleTask(key, req.task_id);
    if (req.agent_id !== undefined && req.agent_id !== origin.agentId) {
      throw InvalidInputError.at(
        ['agent_id'],
        `The task belongs to agent ${origin.agentId}, not ${req.agent_id}`,
      );
    }
    const agent = this.taskAgent(origin);
    const pin = { version_id: req.version_id, version_tag: req.version_tag };
    const version = hasPin(pin)
      ? requireVersion(this.deps.agents, agent, pin, [])
      : this.taskVersion(origin, agent);
    const share = shareOf(key, origin.agentId);
    const config = await this.turnConfig(version, req.agent_settings_bundle, share);
    const userMessageAt = this.deps.clock.now().toISOString();

    // The branch inherits the turns before the interaction by reference; turns are append-only,
    // so that history cannot change under us.
    const fork = await this.store.forkPoint(origin.id, req.interaction_id);
    if (!fork) throw new NotFoundError(`Interaction not found: ${req.interaction_id}`);

    const branch: TaskRecord = {
      ...origin,
      id: this.deps.newId('task'),
      versionId: version.id,
      versionTag: version.tag,
      branchOf: { taskId: origin.id, interactionId: req.interaction_id },
      createdAt: userMessageAt,
    };
    const turn = await this.computeTurn(
      branch,
      config,
      fork.stateBefore,
      { text: req.text, createdAt: userMessageAt },
      share,
    );
    await this.store.createBranch(branch, turn);
    await this.keepBundle(branch.agentId, config);
    return `{"regenerated_task_id":${JSON.stringify(branch.id)},"message":${messageJson(branch, turn, includeTrace)}}`;
  }

  async rerun(key: ApiKey, req: RerunRequest, includeTrace: boolean): Promise<RerunResponse> {
    return JSON.parse(await this.rerunJson(key, req, includeTrace)) as RerunResponse;
  }

  /**
   * The trace list's JSON text in pieces: the stored trace JSON spliced into the array (or the
   * page envelope), never parsed and serialised again; the same bytes `JSON.stringify` gives for
   * the list. The task and the key's access are checked before the first piece (a 404 or 403 is
   * thrown here); the list is the thread as it was then, read a batch at a time (see `traceBatches`).
   */
  async traceList(key: ApiKey, taskId: string, query: TraceListQuery): Promise<AsyncIterable<string>> {
    const paged = query.page !== undefined || query.size !== undefined;
    if (query.interaction_id !== undefined) {
      const trace = checkedTraceJson(await this.storedTraceJson(key, taskId, query.interaction_id), taskId);
      if (!paged) return pieces([`[${trace}]`]);
      const { page, size } = pageWindow(query.page, query.size);
      return pieces([pageJson(page === 1 ? [trace] : [], 1, page, size, 1)]);
    }
    const { page, size, offset } = paged
      ? pageWindow(query.page, query.size)
      : { page: 1, size: Infinity, offset: 0 };
    const first = await this.store.listTraceJson(taskId, { offset, limit: Math.min(size, FIRST_BATCH) });
    this.accessible(key, taskId, first);
    const { total } = first!;
    const end = Math.min(total, offset + size);
    const envelope = paged
      ? {
          open: '{"items":[',
          close: `],"total":${total},"page":${page},"size":${size},"pages":${pageCount(total, size)}}`,
        }
      : { open: '[', close: ']' };
    return this.traceBatches(taskId, first!.traces, offset, end, envelope);
  }

  /**
   * Yields `open`, the traces after position `offset` up to `end` joined by commas, then `close`, in
   * pieces of about `BATCH_BYTES`, reading the next batch only when the previous piece was taken
   * and on a later event-loop turn shared with the other lists being answered (`nextLoopTurn`):
   * a 30 MB answer neither holds the loop nor the memory.
   */
  private async *traceBatches(
    taskId: string,
    first: string[],
    offset: number,
    end: number,
    envelope: { open: string; close: string },
  ): AsyncGenerator<string> {
    let batch = first.map((t) => checkedTraceJson(t, taskId));
    let position = offset + first.length;
    let piece = envelope.open + batch.join(',');
    while (position < end && batch.length > 0) {
      yield piece;
      await nextLoopTurn();
      const limit = nextBatchSize(batch.length, piece.length, end - position);
      batch = ((await this.store.listTraceJson(taskId, { offset: position, limit }))?.traces ?? []).map((t) =>
        checkedTraceJson(t, taskId),
      );
      position += batch.length;
      piece = batch.length > 0 ? `,${batch.join(',')}` : '';
    }
    yield piece + envelope.close;
  }

  /** The trace list as one string (for callers that want it whole: tests and small lists). */
  async listTracesJson(key: ApiKey, taskId: string, query: TraceListQuery): Promise<string> {
    let text = '';
    for await (const piece of await this.traceList(key, taskId, query)) text += piece;
    return text;
  }

  /** One interaction's trace as its stored JSON text (refused when damaged). */
  async getTraceJson(key: ApiKey, taskId: string, interactionId: string): Promise<string> {
    const trace = await this.storedTraceJson(key, taskId, interactionId);
    parseStored(trace, `trace of interaction ${interactionId} of task ${taskId}`);
    return trace;
  }

  private async storedTraceJson(key: ApiKey, taskId: string, interactionId: string): Promise<string> {
    const trace = this.accessible(key, taskId, await this.store.getTraceJson(taskId, interactionId));
    if (trace === null) throw new NotFoundError(`Interaction not found: ${interactionId}`);
    return trace;
  }

  async listTraces(key: ApiKey, taskId: string, query: TraceListQuery): Promise<TraceList> {
    return JSON.parse(await this.listTracesJson(key, taskId, query)) as TraceList;
  }

  async getTrace(key: ApiKey, taskId: string, interactionId: string): Promise<Trace> {
    return JSON.parse(await this.getTraceJson(key, taskId, interactionId)) as Trace;
  }

  /** What was read with the task, if the task exists (404) and the key may use its agent (403). */
  private accessible<T>(key: ApiKey, taskId: string, read: TaskTraces<T> | undefined): T {
    if (!read) throw new NotFoundError(`Task not found: ${taskId}`);
    if (!keyAllowsAgent(key, read.agentId)) throw new AccessDeniedError(read.agentId);
    return read.traces;
  }

  /** The task, if it exists (404) and the key may use its agent (403). */
  private async accessibleTask(key: ApiKey, taskId: string): Promise<TaskRecord> {
    const task = await this.store.getTask(taskId);
    if (!task) throw new NotFoundError(`Task not found: ${taskId}`);
    if (!keyAllowsAgent(key, task.agentId)) throw new AccessDeniedError(task.agentId);
    return task;
  }

  private taskAgent(task: TaskRecord): AgentRecord {
    const agent = this.deps.agents.get(task.agentId);
    if (!agent)
      throw new InvalidInputError(`The task's agent is no longer available: ${task.agentId}`, [
        { path: ['task_id'], message: `Unknown agent: ${task.agentId}`, type: 'unknown_agent' },
      ]);
    return agent;
  }

  private taskVersion(task: TaskRecord, agent: AgentRecord): AgentVersionRecord {
    return requireVersion(this.deps.agents, agent, { version_id: task.versionId }, ['task_id']);
  }

  /** A client's bundle is validated first and, when valid, replaces the version's for this turn. */
  private async turnConfig(
    version: AgentVersionRecord,
    clientBundle: Record<string, unknown> | undefined,
    share: WorkShare,
  ): Promise<TurnConfig> {
    if (clientBundle === undefined)
      return { version, bundle: version.bundle, bundleHash: null, clientBundle: false };
    const hash = this.deps.bundles.hash(clientBundle);
    const { bundle, issues } = await this.bundleCache.lookup(hash, async () => ({
      bundle: clientBundle,
      issues: await this.work.validate(clientBundle, share),
    }));
    if (issues.some((i) => i.severity === 'error'))
      throw InvalidInputError.bundle(issues, ['agent_settings_bundle']);
    return { version, bundle, bundleHash: hash, clientBundle: true };
  }

  /** A client's bundle that ran is kept by its hash, so a link can show it anywhere. */
  private async keepBundle(agentId: string, config: TurnConfig): Promise<void> {
    if (!config.clientBundle || !config.bundleHash) return;
    await this.store.putBundle(
      { hash: config.bundleHash, agentId, content: JSON.stringify(config.bundle) },
      this.deps.clock.now().toISOString(),
    );
  }

  /**
   * Appends the task's next turn, computed by `compute` from the state the thread's last turn left
   * (in the worker pool, outside any transaction), then stored only if the thread has not moved
   * on meanwhile; if it has (another instance added a turn), computed again from the new state.
   * After `TURN_ATTEMPTS` outdated turns, the turn is computed while the store holds the thread
   * (PostgreSQL: its row lock), so a send is never starved by busier instances.
   */
  private async appendNextTurn(
    task: TaskRecord,
    compute: (state: EngineState) => Promise<ComputedTurn>,
  ): Promise<ComputedTurn> {
    for (let attempt = 1; attempt <= TURN_ATTEMPTS; attempt++) {
      const tip = await this.store.threadTip(task.id);
      if (!tip) throw new NotFoundError(`Task not found: ${task.id}`);
      const turn = await compute(tip.state);
      try {
        return await this.store.appendTurn(
          task.id,
          (_state, turnsBefore) => {
            if (turnsBefore !== tip.turns) throw new ThreadMoved();
            return turn;
          },
          tip,
        );
      } catch (error) {
        if (!(error instanceof ThreadMoved)) throw error;
      }
    }
    return this.store.appendTurn(task.id, (state) => compute(state));
  }

  private async computeTurn(
    task: TaskRecord,
    config: TurnConfig,
    state: EngineState,
    user: { text: string; createdAt: string },
    share: WorkShare,
  ): Promise<ComputedTurn> {
    const interactionId = this.deps.newId('message');
    let run;
    try {
      run = await this.work.turn(
        {
          bundle: config.bundle,
          state,
          text: user.text,
          clock: task.clock,
          interactionId,
          userId: task.userId,
        },
        {
          taskId: task.id,
          agentId: task.agentId,
          versionId: config.version.id,
          bundleHash: config.bundleHash,
        },
        share,
      );
    } catch (error) {
      // A turn over its work budget: the bundle is too complex to run, whoever's it is.
      if (overWorkBudget(error))
        throw InvalidInputError.at(
          config.clientBundle ? ['agent_settings_bundle'] : ['task_id'],
          error.message,
          'bundle_too_complex',
        );
      // A bundle that passed validation but that the engine cannot run is the client's input
      // problem, not a server fault; the agents' own bundles failing is a real bug (500). The pool
      // refusing the work (busy, too slow, its worker died) is neither (503).
      if (!config.clientBundle || error instanceof WorkRefusedError) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      throw new InvalidInputError(`The agent settings bundle could not be run: ${reason}`, [
        { path: ['agent_settings_bundle'], message: reason, type: 'bundle_runtime_error' },
      ]);
    }
    return {
      taskId: task.id,
      interactionId,
      userMessage: { id: this.deps.newId('message'), text: user.text, createdAt: user.createdAt },
      reply: {
        text: run.reply,
        suggestions: run.suggestions,
        createdAt: this.deps.clock.now().toISOString(),
      },
      traceJson: run.traceJson,
      indexEntry: run.indexEntry,
      state: run.state,
      bundleHash: config.bundleHash,
      versionId: config.version.id,
    };
  }
}
