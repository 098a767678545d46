/**
 * The turn index in SQLite (the tables of migrations 8 and 12 in `migrations.ts`): written by the
 * store in the transaction that stores the turn, so it is never lost; searched and counted with
 * the SQL of `turn-search.ts`. A turn is one row of `turn_index` (with its rules and tools, for the
 * counts, as JSON text, and its numbers and dates, for comparisons, as JSONB, SQLite's binary JSON,
 * which a comparison reads two to three times faster than text; rows written before hold text,
 * which the same SQL reads) and one row of the contentless FTS5
 * table `turn_index_text` keyed by that row's id (its message, its reply, and its terms in a column
 * of their own).
 *
 * Neither is written in the turn's transaction: the index row with its two indexes and the FTS5
 * row cost a send more than twice what one plain row does. The turn's transaction writes its whole
 * entry to one row of `turn_index_pending`, with the id its index row will have, and whoever writes
 * sends moves pending rows into both tables between sends, many in one transaction (`indexStep`),
 * then merges FTS5's segments (`mergeStep`), a bounded step at a time. A search first has every
 * pending row moved (`catchUp`), so it is never behind either.
 */
import type Database from 'better-sqlite3';
import { prefixed, storedTurn, TURN_COLUMNS, type TurnRow } from './rows';
import { turnIndexEntry, type TurnIndexEntry } from '../../engine/turn-index-entry';
import { datesColumn, numbersColumn, rulesColumn, toolsColumn } from './turn-index-columns';
import {
  planSearch,
  runCount,
  runFacets,
  runSearch,
  type TurnFacetCounts,
  type TurnHits,
  type TurnQuery,
  type Where,
} from './turn-search';
import { term } from './turn-terms';
import { indexedText } from './turn-words';

/** Turns indexed per transaction when indexing those stored before the index (or its layout) existed. */
const BACKFILL_BATCH = 1000;
/** Pending rows one step moves into FTS5 (one transaction, about a millisecond). */
const INDEX_STEP_ROWS = 50;
/**
 * Pages of FTS5 segments one merge step writes: on a million turns, about a millisecond, and
 * more than the merging a send's row needs on average, so steps between sends keep up.
 */
const MERGE_STEP_PAGES = 8;

/** The columns of a turn's index row, and of its pending row before its words. */
const ROW_COLUMNS =
  'task_id, seq, interaction_id, agent_id, version_id, bundle_hash, user_id, created_at, day, intent, decision, deciding_rule, rules, tools, numbers, dates';
/** The entry's named values for those columns, in their order (`task_id` → `@taskId`). */
const ROW_VALUES = ROW_COLUMNS.replace(
  /\w+/g,
  (column) => `@${column.replace(/_(\w)/g, (_, letter: string) => letter.toUpperCase())}`,
);
/** The id after every turn indexed or pending: turns keep the order they were stored in. */
const NEXT_ID = `COALESCE((SELECT MAX(id) FROM (SELECT MAX(id) AS id FROM turn_index
  UNION ALL SELECT MAX(id) FROM turn_index_pending)), 0) + 1`;

export class SqliteTurnIndex {
  private readonly insertPending;
  private readonly moveRows;
  private readonly moveText;
  private readonly dropMoved;
  private readonly lastOfStep;
  private readonly merge;
  private readonly totalChanges;

  constructor(private readonly db: Database.Database) {
    this.insertPending = db.prepare(
      `INSERT INTO turn_index_pending (id, ${ROW_COLUMNS}, message, reply, terms)
       VALUES (${NEXT_ID}, ${ROW_VALUES}, @message, @reply, @terms)`,
    );
    this.moveRows = db.prepare(
      `INSERT INTO turn_index (id, ${ROW_COLUMNS})
       SELECT id, ${ROW_COLUMNS.replace(/\b(numbers|dates)\b/g, 'jsonb($1)')}
       FROM turn_index_pending WHERE id <= ? ORDER BY id`,
    );
    this.moveText = db.prepare(
      `INSERT INTO turn_index_text (rowid, message, reply, terms)
       SELECT id, message, reply, terms FROM turn_index_pending WHERE id <= ? ORDER BY id`,
    );
    this.dropMoved = db.prepare('DELETE FROM turn_index_pending WHERE id <= ?');
    this.lastOfStep = db
      .prepare(`SELECT MAX(id) FROM (SELECT id FROM turn_index_pending ORDER BY id LIMIT ${INDEX_STEP_ROWS})`)
      .pluck();
    this.merge = db.prepare(
      `INSERT INTO turn_index_text (turn_index_text, rank) VALUES ('merge', ${MERGE_STEP_PAGES})`,
    );
    this.totalChanges = db.prepare('SELECT total_changes()').pluck();
  }

  /**
   * Moves the oldest pending rows (up to INDEX_STEP_ROWS) into `turn_index` and FTS5, in one
   * transaction; false when none was pending. Whoever writes sends calls it between them.
   */
  indexStep(): boolean {
    return this.db
      .transaction(() => {
        const last = this.lastOfStep.get() as number | null;
        if (last === null) return false;
        this.moveRows.run(last);
        this.moveText.run(last);
        this.dropMoved.run(last);
        return true;
      })
      .immediate();
  }

  /** Moves every pending row into the index (a step at a time): what a search calls first. */
  catchUp(): void {
    while (this.indexStep());
  }

  /**
   * Merges some of the FTS5 segments that sends left (a transaction of its own, bounded work);
   * false when there was nothing left to merge. Whoever writes sends calls it between them.
   */
  mergeStep(): boolean {
    // A merge that did some work adds two or more to the connection's total changes (FTS5's rule).
    const before = this.totalChanges.get() as number;
    this.merge.run();
    return (this.totalChanges.get() as number) - before >= 2;
  }

  /** Indexes one turn; call it inside the transaction that stores the turn. It waits in `turn_index_pending`. */
  add(entry: TurnIndexEntry): void {
    this.insertPending.run(columns(entry));
  }

  search(
    query: TurnQuery,
    allowedAgents: readonly string[] | null,
    before: number | null,
    limit: number,
  ): Promise<TurnHits> {
    return runSearch(this.all, planSearch(query, allowedAgents, 'sqlite', before), limit);
  }

  facets(query: TurnQuery, allowedAgents: readonly string[] | null): Promise<TurnFacetCounts> {
    return runFacets(this.all, planSearch(query, allowedAgents, 'sqlite', null));
  }

  count(query: TurnQuery, allowedAgents: readonly string[] | null): Promise<number> {
    return runCount(this.all, planSearch(query, allowedAgents, 'sqlite', null));
  }

  private readonly all = (q: Where): Promise<Record<string, unknown>[]> =>
    Promise.resolve(this.db.prepare(q.sql).all(...q.args) as Record<string, unknown>[]);

  /**
   * Indexes the turns stored before the index (or its present layout) existed, oldest first, a
   * batch of pending entries per transaction, each moved in before the next is read; a start that was cut short goes on where it stopped. Drops the helper
   * index, which the index's migrations create, when done.
   */
  backfill(): void {
    const pending = this.db
      .prepare("SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = 'turns_unindexed'")
      .get();
    if (!pending) return;
    const next = this.db.prepare(
      `SELECT ${prefixed(TURN_COLUMNS, 'turns')}, tasks.agent_id AS task_agent_id, tasks.user_id AS task_user_id
       FROM turns JOIN tasks ON tasks.id = turns.task_id
       WHERE (turns.reply_created_at, turns.task_id, turns.seq) > (@at, @task, @seq)
         AND NOT EXISTS (SELECT 1 FROM turn_index WHERE turn_index.task_id = turns.task_id AND turn_index.seq = turns.seq)
       ORDER BY turns.reply_created_at, turns.task_id, turns.seq LIMIT ${BACKFILL_BATCH}`,
    );
    let after = { at: '', task: '', seq: 0 };
    for (;;) {
      this.catchUp(); // what is pending (from before, or the batch before) is indexed first, never twice
      const rows = next.all(after) as (TurnRow & { task_agent_id: string; task_user_id: string })[];
      if (rows.length === 0) break;
      this.db.transaction(() => {
        for (const r of rows)
          this.add(
            turnIndexEntry({ agentId: r.task_agent_id, userId: r.task_user_id }, storedTurn(r), r.seq, term),
          );
      })();
      const last = rows[rows.length - 1]!;
      after = { at: last.reply_created_at, task: last.task_id, seq: last.seq };
    }
    this.db.exec('DROP INDEX turns_unindexed');
  }
}

/** An entry as the named values of its row's columns and of its words. */
const columns = (entry: TurnIndexEntry) => ({
  ...entry,
  message: indexedText(entry.message),
  reply: indexedText(entry.reply),
  day: entry.createdAt.slice(0, 10),
  rules: rulesColumn(entry),
  tools: toolsColumn(entry),
  numbers: numbersColumn(entry),
  dates: datesColumn(entry),
  terms: entry.terms.join(' '),
});
