/**
 * The thread list's rows, read by position without building them: this browser's threads (ids, in
 * order), then, when the service listed others, a heading and the team's threads. Building costs
 * nothing per thread, so the list can be redrawn on every send whatever its length.
 */
import type { TaskSummaryIn } from '../../api/task-list';

export type ListRow =
  { kind: 'local'; id: string } | { kind: 'heading' } | { kind: 'team'; item: TaskSummaryIn };

export interface ListRows {
  count: number;
  at: (index: number) => ListRow;
}

export function listRows(local: readonly string[], team: readonly TaskSummaryIn[]): ListRows {
  const heading = team.length > 0 ? 1 : 0;
  return {
    count: local.length + heading + team.length,
    at: (i) => {
      if (i < local.length) return { kind: 'local', id: local[i]! };
      if (i === local.length && heading) return { kind: 'heading' };
      return { kind: 'team', item: team[i - local.length - heading]! };
    },
  };
}

/** What the list is narrowed to: one agent ('' for all) and text of the title ('' for any). */
export interface ThreadFilter {
  agent: string;
  title: string;
}

/** Whether a thread of this browser passes the filter (the title compared case-insensitively). */
export function matchesThread(
  t: { id: string; agent_id?: string; title?: string } | undefined,
  f: ThreadFilter,
): boolean {
  if (!t) return false;
  if (f.agent && t.agent_id !== f.agent) return false;
  return !f.title || (t.title || t.id).toLowerCase().includes(f.title.toLowerCase());
}

/** The keys that move between the list's rows. */
export type RowKey = 'ArrowDown' | 'ArrowUp' | 'Home' | 'End';
export const isRowKey = (key: string): key is RowKey =>
  key === 'ArrowDown' || key === 'ArrowUp' || key === 'Home' || key === 'End';

/**
 * The row a key moves to from row `from` (the heading is passed over; it opens nothing), or
 * undefined when there is none in that direction. At most two rows are read.
 */
export function stepRow(rows: ListRows, from: number, key: RowKey): number | undefined {
  const isThread = (i: number) => i >= 0 && i < rows.count && rows.at(i).kind !== 'heading';
  const [start, step] =
    key === 'ArrowDown'
      ? [from + 1, 1]
      : key === 'ArrowUp'
        ? [from - 1, -1]
        : key === 'Home'
          ? [0, 1]
          : [rows.count - 1, -1];
  for (let i = start, tries = 0; tries < 2; i += step, tries += 1) if (isThread(i)) return i;
  return undefined;
}
