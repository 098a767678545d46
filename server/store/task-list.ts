/**
 * The thread list (`GET /reference/v1/tasks`), the same SQL on SQLite and PostgreSQL: tasks by
 * latest activity, newest first. Each task's `activity` (migration 7 in SQLite, 6 in PostgreSQL)
 * is a number that every new task and every stored turn raises above all others, so a task's
 * place moves to the top when it gets a turn and never otherwise: paging below an `activity`
 * neither repeats nor skips the tasks that did not change meanwhile.
 *
 * A request reads the next window of at most `TASK_SCAN` candidates (the key's agents, the agent
 * filter) from the `(activity, agent_id)` index alone, then the page within it, filtered by title:
 * its work is bounded whatever the store's size, and a window that ends before the page is full
 * says where the next request goes on.
 */
import type { Dialect, Where } from './turn-search';

/** Candidate tasks a listing reads at most per request. */
const TASK_SCAN = 20_000;

export interface TaskListQuery {
  /** Only these agents' tasks (any of them); every agent when empty. */
  agents: readonly string[];
  /** Only tasks whose title contains this text (case-insensitive for ASCII letters). */
  title?: string | undefined;
}

/** One task of the list: who runs it, its name, how long its thread is, when it last moved. */
export interface TaskListEntry {
  id: string;
  agentId: string;
  userId: string;
  title: string;
  versionId: string;
  versionTag: string | null;
  createdAt: string;
  /** The thread's length (its inherited turns included). */
  turnCount: number;
  /** Its last reply's time, or its creation's when it has no turn. */
  lastActivityAt: string;
  branchOf: { taskId: string; interactionId: string } | null;
  /** The order key: larger is more recent. */
  activity: number;
}

export interface TaskListPage {
  tasks: TaskListEntry[];
  /** The order key to list below for the next page; null when every task was listed. */
  next: number | null;
}

type Row = Record<string, unknown>;

function conditions(
  q: TaskListQuery,
  allowedAgents: readonly string[] | null,
  before: number | null,
  dialect: Dialect,
): Where[] {
  // `+` keeps SQLite walking the activity index rather than the one by agent.
  const agent = dialect === 'sqlite' ? '+t.agent_id' : 't.agent_id';
  const out: Where[] = [];
  const inList = (values: readonly string[]) =>
    out.push({ sql: `${agent} IN (${values.map(() => '?').join(', ')})`, args: [...values] });
  if (allowedAgents) {
    if (allowedAgents.length === 0) out.push({ sql: '1 = 0', args: [] });
    else inList(allowedAgents);
  }
  if (q.agents.length) inList(q.agents);
  if (before !== null) out.push({ sql: 't.activity < ?', args: [before] });
  return out;
}

const and = (parts: Where[]): Where => ({
  sql: parts.length ? parts.map((p) => p.sql).join(' AND ') : '1 = 1',
  args: parts.flatMap((p) => p.args),
});

/** `%`, `_` and `\` taken literally in a LIKE pattern. */
const likeText = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** How many candidates the next window holds (at most `size`), and the oldest of them. */
function taskWindowSql(
  q: TaskListQuery,
  allowedAgents: readonly string[] | null,
  before: number | null,
  dialect: Dialect,
  size: number,
): Where {
  const where = and(conditions(q, allowedAgents, before, dialect));
  return {
    sql: `SELECT COUNT(*) AS n, MIN(w.activity) AS oldest FROM (
      SELECT t.activity FROM tasks AS t WHERE ${where.sql} ORDER BY t.activity DESC LIMIT ?) AS w`,
    args: [...where.args, size],
  };
}

/** The page: tasks of the window (from `low`, when the window is bounded) matching the title. */
function taskPageSql(
  q: TaskListQuery,
  allowedAgents: readonly string[] | null,
  before: number | null,
  dialect: Dialect,
  low: number | null,
  limit: number,
): Where {
  const parts = conditions(q, allowedAgents, before, dialect);
  if (low !== null) parts.push({ sql: 't.activity >= ?', args: [low] });
  if (q.title !== undefined && q.title !== '')
    parts.push({
      sql: `t.title ${dialect === 'sqlite' ? 'LIKE' : 'ILIKE'} ? ESCAPE '\\'`,
      args: [likeText(q.title)],
    });
  const where = and(parts);
  return {
    sql: `SELECT t.id, t.agent_id, t.user_id, t.title, t.version_id, t.version_tag, t.created_at,
        t.branch_of_task_id, t.branch_of_interaction_id, t.activity,
        COALESCE((SELECT MAX(seq) FROM turns WHERE turns.task_id = t.id), t.inherited_turns) AS turn_count,
        COALESCE((SELECT reply_created_at FROM turns WHERE turns.task_id = t.id ORDER BY seq DESC LIMIT 1),
          t.created_at) AS last_activity_at
      FROM tasks AS t WHERE ${where.sql} ORDER BY t.activity DESC LIMIT ?`,
    args: [...where.args, limit],
  };
}

const str = (v: unknown) => String(v ?? '');
const num = (v: unknown) => Number(v ?? 0);

function entryOf(r: Row): TaskListEntry {
  return {
    id: str(r.id),
    agentId: str(r.agent_id),
    userId: str(r.user_id),
    title: str(r.title),
    versionId: str(r.version_id),
    versionTag: r.version_tag === null || r.version_tag === undefined ? null : str(r.version_tag),
    createdAt: str(r.created_at),
    turnCount: num(r.turn_count),
    lastActivityAt: str(r.last_activity_at),
    branchOf:
      r.branch_of_task_id && r.branch_of_interaction_id
        ? { taskId: str(r.branch_of_task_id), interactionId: str(r.branch_of_interaction_id) }
        : null,
    activity: num(r.activity),
  };
}

/** Runs a listing with a store's `all` (rows of a statement with `?` placeholders). */
export async function runTaskList(
  all: (w: Where) => Promise<Row[]>,
  dialect: Dialect,
  q: TaskListQuery,
  allowedAgents: readonly string[] | null,
  before: number | null,
  limit: number,
): Promise<TaskListPage> {
  const w = (await all(taskWindowSql(q, allowedAgents, before, dialect, TASK_SCAN)))[0];
  const low = num(w?.n) < TASK_SCAN ? null : num(w?.oldest);
  const rows = await all(taskPageSql(q, allowedAgents, before, dialect, low, limit + 1));
  const tasks = rows.slice(0, limit).map(entryOf);
  if (rows.length > limit) return { tasks, next: tasks[tasks.length - 1]!.activity };
  // A short page: the window held every candidate left, or the next request goes on below it.
  return { tasks, next: low };
}
