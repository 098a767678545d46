/**
 * The Messaging API v1 semantics, independent of HTTP: tasks, turns, rerun branches and traces.
 * Throws `ApiError`s for every refusal (403, 404, 422); the HTTP layer turns them into bodies.
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
import type { EngineState } from '../engine/contract';
import {
  forbidden,
  interactionNotFound,
  invalidBundle,
  invalidField,
  taskNotFound,
  unprocessable,
} from '../http/errors';
import type { Store, TaskRecord, TaskTraces, TurnRecord } from '../store/store';
import { createBundleCache } from './bundle-cache';
import { pageCount, pageWindow } from './paging';
import { hasPin, requireAgent, requireVersion } from './pinning';
import type { AgentRecord, AgentVersionRecord, MessagingPorts } from './ports';
import { messageResponse, taskResponse } from './responses';
import type { KeyedSerializer } from './task-serializer';

export const DEFAULT_ORIGIN = 'web-widget';

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

export class MessagingService {
  private readonly bundleCache = createBundleCache();

  constructor(
    private readonly store: Store,
    private readonly ports: MessagingPorts,
    private readonly serializer: KeyedSerializer,
  ) {}

  async createTask(key: ApiKey, req: CreateTaskRequest): Promise<TaskResponse> {
    if (!keyAllowsAgent(key, req.agent_id)) throw forbidden(req.agent_id);
    const { agents, engine, clock } = this.ports;
    const agent = requireAgent(agents, req.agent_id, ['body', 'agent_id']);
    const version = requireVersion(
      agents,
      agent,
      { version_id: req.version_id, version_tag: req.version_tag },
      ['body'],
    );
    const createdAt = clock.now().toISOString();
    // Reference-only extension: a task clock chosen by the client (e.g. a replayed test case).
    const now = req.reference_clock === undefined ? createdAt : new Date(req.reference_clock).toISOString();
    const welcome = engine.welcome(version.bundle, now);
    const task: TaskRecord = {
      id: this.ports.newId('task'),
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

  async sendMessage(key: ApiKey, req: SendMessageRequest, includeTrace: boolean): Promise<MessageResponse> {
    const task = await this.accessibleTask(key, req.task_id);
    const pin = req.agent;
    if (pin?.agent_id !== undefined && pin.agent_id !== task.agentId) {
      throw invalidField(
        ['body', 'agent', 'agent_id'],
        `The task belongs to agent ${task.agentId}, not ${pin.agent_id}`,
      );
    }
    const agent = this.taskAgent(task);
    const version = hasPin(pin)
      ? requireVersion(this.ports.agents, agent, pin, ['body', 'agent'])
      : this.taskVersion(task, agent);
    const config = this.turnConfig(version, req.agent_settings_bundle);
    const userMessageAt = this.ports.clock.now().toISOString();
    const turn = await this.serializer.run(task.id, async () => {
      const state = (await this.store.latestState(task.id)) ?? task.initialState;
      const next = this.runTurn(task, config, state, { text: req.text, createdAt: userMessageAt });
      await this.store.appendTurn(next);
      return next;
    });
    return messageResponse(task, turn, includeTrace);
  }

  async rerun(key: ApiKey, req: RerunRequest, includeTrace: boolean): Promise<RerunResponse> {
    const origin = await this.accessibleTask(key, req.task_id);
    if (req.agent_id !== undefined && req.agent_id !== origin.agentId) {
      throw invalidField(
        ['body', 'agent_id'],
        `The task belongs to agent ${origin.agentId}, not ${req.agent_id}`,
      );
    }
    const agent = this.taskAgent(origin);
    const pin = { version_id: req.version_id, version_tag: req.version_tag };
    const version = hasPin(pin)
      ? requireVersion(this.ports.agents, agent, pin, ['body'])
      : this.taskVersion(origin, agent);
    const config = this.turnConfig(version, req.agent_settings_bundle);
    const userMessageAt = this.ports.clock.now().toISOString();

    // Turns are append-only, so the history before the interaction cannot change under us.
    const turns = await this.store.listTurns(origin.id);
    const index = turns.findIndex((t) => t.interactionId === req.interaction_id);
    if (index === -1) throw interactionNotFound(req.interaction_id);
    const history = turns.slice(0, index);
    const stateBefore = history.at(-1)?.state ?? origin.initialState;

    const branch: TaskRecord = {
      ...origin,
      id: this.ports.newId('task'),
      versionId: version.id,
      versionTag: version.tag,
      branchOf: { taskId: origin.id, interactionId: req.interaction_id },
      createdAt: userMessageAt,
    };
    const turn = this.runTurn(branch, config, stateBefore, { text: req.text, createdAt: userMessageAt });
    await this.store.createBranch(branch, [...history, turn]);
    return { regenerated_task_id: branch.id, message: messageResponse(branch, turn, includeTrace) };
  }

  /**
   * The traces as JSON text: the stored trace JSON spliced into the array (or the page envelope),
   * never parsed and serialised again. The same bytes `JSON.stringify` gives for `listTraces`.
   */
  async listTracesJson(key: ApiKey, taskId: string, query: TraceListQuery): Promise<string> {
    const paged = query.page !== undefined || query.size !== undefined;
    if (query.interaction_id !== undefined) {
      const trace = await this.getTraceJson(key, taskId, query.interaction_id);
      if (!paged) return `[${trace}]`;
      const { page, size } = pageWindow(query.page, query.size);
      return pageJson(page === 1 ? [trace] : [], 1, page, size, 1);
    }
    if (!paged) return `[${this.accessible(key, taskId, await this.store.listTraceJson(taskId)).join(',')}]`;
    const { page, size, offset } = pageWindow(query.page, query.size);
    const traces = this.accessible(
      key,
      taskId,
      await this.store.listTraceJson(taskId, { offset, limit: size }),
    );
    const total = await this.store.countTurns(taskId);
    return pageJson(traces, total, page, size, pageCount(total, size));
  }

  /** One interaction's trace as its stored JSON text. */
  async getTraceJson(key: ApiKey, taskId: string, interactionId: string): Promise<string> {
    const trace = this.accessible(key, taskId, await this.store.getTraceJson(taskId, interactionId));
    if (trace === null) throw interactionNotFound(interactionId);
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
    if (!read) throw taskNotFound(taskId);
    if (!keyAllowsAgent(key, read.agentId)) throw forbidden(read.agentId);
    return read.traces;
  }

  /** The task, if it exists (404) and the key may use its agent (403). */
  private async accessibleTask(key: ApiKey, taskId: string): Promise<TaskRecord> {
    const task = await this.store.getTask(taskId);
    if (!task) throw taskNotFound(taskId);
    if (!keyAllowsAgent(key, task.agentId)) throw forbidden(task.agentId);
    return task;
  }

  private taskAgent(task: TaskRecord): AgentRecord {
    const agent = this.ports.agents.get(task.agentId);
    if (!agent)
      throw unprocessable(`The task's agent is no longer available: ${task.agentId}`, [
        { loc: ['body', 'task_id'], msg: `Unknown agent: ${task.agentId}`, type: 'unknown_agent' },
      ]);
    return agent;
  }

  private taskVersion(task: TaskRecord, agent: AgentRecord): AgentVersionRecord {
    return requireVersion(this.ports.agents, agent, { version_id: task.versionId }, ['body', 'task_id']);
  }

  /** A client's bundle is validated first and, when valid, replaces the version's for this turn. */
  private turnConfig(
    version: AgentVersionRecord,
    clientBundle: Record<string, unknown> | undefined,
  ): TurnConfig {
    if (clientBundle === undefined)
      return { version, bundle: version.bundle, bundleHash: null, clientBundle: false };
    const { bundles } = this.ports;
    const hash = bundles.hash(clientBundle);
    const { bundle, issues } = this.bundleCache.lookup(hash, () => ({
      bundle: clientBundle,
      issues: bundles.validate(clientBundle),
    }));
    if (issues.some((i) => i.severity === 'error'))
      throw invalidBundle(issues, ['body', 'agent_settings_bundle']);
    return { version, bundle, bundleHash: hash, clientBundle: true };
  }

  private runTurn(
    task: TaskRecord,
    config: TurnConfig,
    state: EngineState,
    user: { text: string; createdAt: string },
  ): TurnRecord {
    const interactionId = this.ports.newId('message');
    const started = performance.now();
    let output;
    try {
      output = this.ports.engine.runTurn({
        bundle: config.bundle,
        state,
        text: user.text,
        clock: task.clock,
        interactionId,
        userId: task.userId,
      });
    } catch (error) {
      // A bundle that passed validation but that the engine cannot run is the client's input
      // problem, not a server fault; the agents' own bundles failing is a real bug (500).
      if (!config.clientBundle) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      throw unprocessable(`The agent settings bundle could not be run: ${reason}`, [
        { loc: ['body', 'agent_settings_bundle'], msg: reason, type: 'bundle_runtime_error' },
      ]);
    }
    const elapsed = Math.round((performance.now() - started) * 1000) / 1000;
    return {
      taskId: task.id,
      interactionId,
      userMessage: { id: this.ports.newId('message'), text: user.text, createdAt: user.createdAt },
      reply: {
        text: output.reply,
        suggestions: output.suggestions,
        createdAt: this.ports.clock.now().toISOString(),
      },
      trace: { ...output.trace, interaction_id: interactionId, latency: { elapsed, unit: 'ms' } },
      state: output.state,
      bundleHash: config.bundleHash,
      versionId: config.version.id,
    };
  }
}
