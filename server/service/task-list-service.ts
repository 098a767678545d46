/**
 * The thread list (`GET /reference/v1/tasks`): the tasks the key may see, by latest activity,
 * newest first, with an opaque cursor; filtered by agent (403 when it names one the key may not
 * use) and by words of the title.
 */
import type { TaskListPage, TaskSummary } from '../../src/contract/api';
import type { ApiKey } from '../auth/api-keys';
import { keyAllowsAgent } from '../auth/api-keys';
import type { Store } from '../store/store';
import type { TaskListEntry } from '../store/task-list';
import { listOf, TurnQueryError } from '../store/turn-search';
import { AccessDeniedError, InvalidInputError } from './errors';
import type { QueryValues } from './turn-search-service';

const DEFAULT_TASK_PAGE = 100;
const MAX_TASK_PAGE = 500;
/** Title filters longer than this are refused. */
const MAX_TITLE_QUERY = 200;

const KNOWN = new Set(['agent', 'q', 'cursor', 'limit']);

const summaryOf = (t: TaskListEntry): TaskSummary => ({
  task_id: t.id,
  agent_id: t.agentId,
  user_id: t.userId,
  title: t.title,
  version_id: t.versionId,
  version_tag: t.versionTag,
  created_at: t.createdAt,
  turn_count: t.turnCount,
  last_activity_at: t.lastActivityAt,
  parent: t.branchOf && { task_id: t.branchOf.taskId, interaction_id: t.branchOf.interactionId },
});

const cursorAfter = (activity: number): string => Buffer.from(`a1:${activity}`).toString('base64url');

function readCursor(cursor: string): number {
  const text = Buffer.from(cursor, 'base64url').toString();
  const n = text.startsWith('a1:') ? Number(text.slice(3)) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < 0)
    throw InvalidInputError.at(
      ['query', 'cursor'],
      'cursor: not one this service gave; start again without it',
    );
  return n;
}

function single(values: QueryValues, name: string): string | undefined {
  const v = values[name];
  if (v && v.length > 1) throw InvalidInputError.at(['query', name], `${name}: give it once`);
  return v?.[0];
}

export class TaskListService {
  constructor(private readonly store: Store) {}

  async list(key: ApiKey, values: QueryValues): Promise<TaskListPage> {
    const unknown = Object.keys(values).find((k) => !KNOWN.has(k));
    if (unknown !== undefined)
      throw InvalidInputError.at(
        ['query', unknown],
        `${unknown}: not a parameter of the thread list (agent, q, cursor, limit)`,
      );
    let agents: string[];
    try {
      agents = listOf(values, 'agent');
    } catch (error) {
      if (error instanceof TurnQueryError) throw InvalidInputError.at(['query', error.field], error.message);
      throw error;
    }
    const refused = agents.find((a) => !keyAllowsAgent(key, a));
    if (refused !== undefined) throw new AccessDeniedError(refused);
    const title = single(values, 'q')?.trim();
    if (title !== undefined && title.length > MAX_TITLE_QUERY)
      throw InvalidInputError.at(['query', 'q'], `q: at most ${MAX_TITLE_QUERY} characters`);
    const limitText = single(values, 'limit');
    const limit = limitText === undefined ? DEFAULT_TASK_PAGE : Number(limitText);
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_TASK_PAGE)
      throw InvalidInputError.at(['query', 'limit'], `limit: a whole number from 1 to ${MAX_TASK_PAGE}`);
    const cursor = single(values, 'cursor');
    const before = cursor === undefined ? null : readCursor(cursor);
    const allowed = key.agents === '*' ? null : key.agents;
    const { tasks, next } = await this.store.listTasks({ agents, title }, allowed, before, limit);
    return { items: tasks.map(summaryOf), next_cursor: next === null ? null : cursorAfter(next) };
  }
}
