/**
 * The history across apps, in SQL: filters on indexed columns (app, kind, actor, from/to state, time),
 * keyset pages newest first by (at, id), and the app names kept after a release (app_names, filled by
 * a trigger on app_state). Reads only: the engine alone writes the history.
 */
import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import type { ReaperState } from '../../shared/domain.ts';
import {
  decodeCursor,
  encodeCursor,
  type HistoryFilter,
  type HistoryPage,
  type HistoryQuery,
  type HistoryRow,
} from '../../shared/history.ts';
import { toHistoryEntry } from './datastore.ts';

const SELECT = `SELECT h.id, h.app_id, h.at, h.kind, h.from_state, h.to_state, h.actor, h.reason,
  COALESCE(n.name, h.app_id) AS app_name
  FROM history h LEFT JOIN app_names n ON n.app_id = h.app_id`;

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

/** LIKE with its wildcards escaped: the text matches itself, at the start. */
function likePrefix(text: string): string {
  return `${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function where(filter: HistoryFilter): { clauses: string[]; params: SQLInputValue[] } {
  const clauses: string[] = [];
  const params: SQLInputValue[] = [];
  if (filter.appId !== undefined) {
    clauses.push('h.app_id = ?');
    params.push(filter.appId);
  }
  if (filter.state !== undefined) {
    clauses.push('(h.to_state = ? OR h.from_state = ?)');
    params.push(filter.state, filter.state);
  }
  if (filter.cause !== undefined) {
    clauses.push("h.to_state = 'Error' AND h.reason LIKE ? ESCAPE '\\'");
    params.push(likePrefix(filter.cause));
  }
  if (filter.actor !== undefined) {
    clauses.push('h.actor = ?');
    params.push(filter.actor);
  }
  if (filter.kind !== undefined) {
    clauses.push('h.kind = ?');
    params.push(filter.kind);
  }
  if (filter.from !== undefined) {
    clauses.push('h.at >= ?');
    params.push(filter.from);
  }
  if (filter.to !== undefined) {
    clauses.push('h.at < ?');
    params.push(filter.to);
  }
  return { clauses, params };
}

function toRow(row: Record<string, unknown>): HistoryRow {
  const entry = toHistoryEntry(row);
  return { ...entry, id: entry.id!, appName: String(row.app_name) };
}

/** One page of the filtered history, newest first; `cursor` continues after a previous page. */
export function queryHistory(db: DatabaseSync, query: HistoryQuery): HistoryPage {
  const { clauses, params } = where(query);
  if (query.cursor !== undefined) {
    const after = decodeCursor(query.cursor);
    if (after) {
      // A row value, so that SQLite reads the index from the cursor on (an OR would scan from the top).
      clauses.push('(h.at, h.id) < (?, ?)');
      params.push(after.at, after.id);
    }
  }
  const sql = `${SELECT}${clauses.length ? ` WHERE ${clauses.join(' AND ')}` : ''}
    ORDER BY h.at DESC, h.id DESC LIMIT ?`;
  const rows = prepare(db, sql).all(...params, query.limit + 1) as Record<string, unknown>[];
  const entries = rows.slice(0, query.limit).map(toRow);
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

/** The kinds of entry that change an app's state (a release ends it: state null). */
const STATE_KINDS = "('transition', 'reset', 'release')";

export interface StateChange {
  appId: string;
  at: number;
  id: number;
  kind: 'transition' | 'reset' | 'release' | 'would-sleep' | 'would-wake';
  /** The state after the entry: null after a release, and for would-sleep / would-wake notes. */
  to: ReaperState | null;
  reason: string;
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
  const initialRows = prepare(
    db,
    `SELECT h.app_id, h.kind, h.to_state FROM app_names n JOIN history h ON h.id = (
       SELECT id FROM history WHERE app_id = n.app_id AND at < ? AND kind IN ${STATE_KINDS}
       ORDER BY at DESC, id DESC LIMIT 1)`,
  ).all(from) as { app_id: string; kind: string; to_state: ReaperState | null }[];
  const initial = new Map(
    initialRows.map((r) => [r.app_id, r.kind === 'release' ? null : (r.to_state ?? null)] as const),
  );
  const rows = prepare(
    db,
    // The reason is only needed for dry-run notes (a "would stop" or not): the others leave it out.
    `SELECT id, app_id, at, kind, to_state, CASE WHEN kind = 'would-sleep' THEN reason END AS reason FROM history
     WHERE at >= ? AND at < ? AND kind IN ('transition', 'reset', 'release', 'would-sleep', 'would-wake')
     ORDER BY at, id`,
  ).all(from, to) as {
    id: number;
    app_id: string;
    at: number;
    kind: StateChange['kind'];
    to_state: ReaperState | null;
    reason: string | null;
  }[];
  const changes = rows.map((r) => ({
    appId: r.app_id,
    at: r.at,
    id: r.id,
    kind: r.kind,
    to: r.kind === 'release' ? null : (r.to_state ?? null),
    reason: r.reason ?? '',
  }));
  return { initial, changes };
}
