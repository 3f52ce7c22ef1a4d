/**
 * The history across apps, in SQLite: filters on indexed columns (app, kind, actor, from/to state,
 * time), keyset pages newest first by (at, id), and the app names kept after a release (app_names,
 * filled by a trigger on app_state). Reads only: the engine alone writes the history. The SQL is
 * ../history-sql.ts, shared with the PostgreSQL datastore.
 */
import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import type { ReaperState } from '../../../shared/domain.ts';
import {
  encodeCursor,
  type HistoryFilter,
  type HistoryPage,
  type HistoryQuery,
  type HistoryRow,
} from '../../../shared/history.ts';
import type { SavingsOldest, StateChange } from '../contract.ts';
import {
  type ChangeRow,
  changesSql,
  historyIdsLeftSql,
  historyPageSql,
  initialStatesSql,
  type StateRow,
  savingsAfterSql,
  savingsOfAppSql,
  savingsOldestSql,
  toHistoryRow,
  toOldest,
  toSavingsChanges,
  toStateChanges,
} from '../history-sql.ts';

/** Statements by SQL text: a filter combination is prepared once. */
const cache = new WeakMap<DatabaseSync, Map<string, StatementSync>>();

function prepare(db: DatabaseSync, sql: string): StatementSync {
  let map = cache.get(db);
  if (!map) {
    map = new Map();
    cache.set(db, map);
  }
  let stmt = map.get(sql);
  if (!stmt) {
    stmt = db.prepare(sql);
    map.set(sql, stmt);
  }
  return stmt;
}

/** One page of the filtered history, newest first; `cursor` continues after a previous page. */
export function queryHistory(db: DatabaseSync, query: HistoryQuery): HistoryPage {
  const { sql, params } = historyPageSql(query, 'sqlite');
  const rows = prepare(db, sql).all(...(params as SQLInputValue[])) as Record<string, unknown>[];
  const entries = rows.slice(0, query.limit).map(toHistoryRow);
  const last = entries.at(-1);
  return { entries, nextCursor: rows.length > query.limit && last ? encodeCursor(last) : null };
}

/**
 * Every entry of the filtered history, newest first, read `pageSize` rows at a time (keyset), so an
 * export of millions of rows never holds more than a page, and yields between pages.
 */
export function* iterateHistory(
  db: DatabaseSync,
  filter: HistoryFilter,
  pageSize = 1000,
): Generator<HistoryRow[], void, void> {
  let cursor: string | undefined;
  for (;;) {
    const page = queryHistory(db, {
      ...filter,
      limit: pageSize,
      ...(cursor === undefined ? {} : { cursor }),
    });
    if (page.entries.length) yield page.entries;
    if (!page.nextCursor) return;
    cursor = page.nextCursor;
  }
}

/** The name of every app the datastore knows, released ones included. */
export function appNames(db: DatabaseSync): Map<string, { name: string; ownerId: string }> {
  const rows = prepare(db, 'SELECT app_id, name, owner_id FROM app_names').all() as {
    app_id: string;
    name: string;
    owner_id: string;
  }[];
  return new Map(rows.map((r) => [r.app_id, { name: r.name, ownerId: r.owner_id }]));
}

/**
 * What the savings need from the history between `from` and `to`: each app's state at `from` (its
 * last state change before), then its state changes and dry-run notes up to `to`, oldest first.
 */
export function stateChanges(
  db: DatabaseSync,
  from: number,
  to: number,
): { initial: Map<string, ReaperState | null>; changes: StateChange[] } {
  const initialRows = prepare(db, initialStatesSql('sqlite')).all(from) as unknown as StateRow[];
  const rows = prepare(db, changesSql('sqlite')).all(from, to) as unknown as ChangeRow[];
  return toStateChanges(initialRows, rows);
}

/** The savings' entries after an id, by id, `limit` at most (the savings' cache reads in slices). */
export function savingsChangesAfter(db: DatabaseSync, afterId: number, limit: number): StateChange[] {
  return toSavingsChanges(
    prepare(db, savingsAfterSql('sqlite')).all(afterId, limit) as unknown as ChangeRow[],
  );
}

/** One app's savings entries up to an id, oldest first. */
export function savingsChangesOf(db: DatabaseSync, appId: string, upToId: number): StateChange[] {
  return toSavingsChanges(
    prepare(db, savingsOfAppSql('sqlite')).all(appId, upToId) as unknown as ChangeRow[],
  );
}

/** Which of these history ids are still there. */
export function historyIdsLeft(db: DatabaseSync, ids: readonly number[]): Set<number> {
  const rows = prepare(db, historyIdsLeftSql('sqlite')).all(JSON.stringify(ids)) as { id: number }[];
  return new Set(rows.map((r) => Number(r.id)));
}

/** The oldest instant of the savings' entries, with the ids at it. */
export function savingsOldest(db: DatabaseSync): SavingsOldest | null {
  return toOldest(prepare(db, savingsOldestSql('sqlite')).all() as { id: number; at: number }[]);
}
