/**
 * The SQL of the history reads, written once for both datastores (SQLite and PostgreSQL differ only
 * in their placeholders, `?` and `$n`, and in LIKE: SQLite's is case-insensitive for ASCII, so
 * PostgreSQL uses ILIKE to give the same answers).
 */

import type { Actor, HistoryEntry, ReaperState } from '../../shared/domain.ts';
import {
  decodeCursor,
  type HistoryFilter,
  type HistoryQuery,
  type HistoryRow,
} from '../../shared/history.ts';
import type { Via } from '../../shared/people.ts';
import type { SavingsOldest, StateChange } from './contract.ts';

export type Dialect = 'sqlite' | 'postgres';
export type Param = string | number;

/** Placeholders in order, with their values. */
export class Binder {
  readonly params: Param[] = [];
  private readonly dialect: Dialect;
  constructor(dialect: Dialect) {
    this.dialect = dialect;
  }
  bind(value: Param): string {
    this.params.push(value);
    return this.dialect === 'sqlite' ? '?' : `$${this.params.length}`;
  }
}

export const HISTORY_COLUMNS = 'id, app_id, at, kind, from_state, to_state, actor, reason, by_name, by_via';

const SELECT = `SELECT h.id, h.app_id, h.at, h.kind, h.from_state, h.to_state, h.actor, h.reason, h.by_name, h.by_via,
  COALESCE(n.name, h.app_id) AS app_name
  FROM history h LEFT JOIN app_names n ON n.app_id = h.app_id`;

/** LIKE with its wildcards escaped: the text matches itself, at the start. */
function likePrefix(text: string): string {
  return `${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function where(filter: HistoryFilter, b: Binder, dialect: Dialect): string[] {
  const clauses: string[] = [];
  if (filter.appId !== undefined) clauses.push(`h.app_id = ${b.bind(filter.appId)}`);
  if (filter.state !== undefined) {
    clauses.push(`(h.to_state = ${b.bind(filter.state)} OR h.from_state = ${b.bind(filter.state)})`);
  }
  if (filter.cause !== undefined) {
    const like = dialect === 'sqlite' ? 'LIKE' : 'ILIKE';
    clauses.push(`h.to_state = 'Error' AND h.reason ${like} ${b.bind(likePrefix(filter.cause))} ESCAPE '\\'`);
  }
  if (filter.actor !== undefined) clauses.push(`h.actor = ${b.bind(filter.actor)}`);
  if (filter.kind !== undefined) clauses.push(`h.kind = ${b.bind(filter.kind)}`);
  if (filter.from !== undefined) clauses.push(`h.at >= ${b.bind(filter.from)}`);
  if (filter.to !== undefined) clauses.push(`h.at < ${b.bind(filter.to)}`);
  return clauses;
}

/** One page of the filtered history: the SQL and its parameters (it asks for limit + 1 rows). */
export function historyPageSql(query: HistoryQuery, dialect: Dialect): { sql: string; params: Param[] } {
  const b = new Binder(dialect);
  const clauses = where(query, b, dialect);
  if (query.cursor !== undefined) {
    const after = decodeCursor(query.cursor);
    if (after) {
      // A row value, so that the index is read from the cursor on (an OR would scan from the top).
      clauses.push(`(h.at, h.id) < (${b.bind(after.at)}, ${b.bind(after.id)})`);
    }
  }
  const sql = `${SELECT}${clauses.length ? ` WHERE ${clauses.join(' AND ')}` : ''}
    ORDER BY h.at DESC, h.id DESC LIMIT ${b.bind(query.limit + 1)}`;
  return { sql, params: b.params };
}

export function toHistoryEntry(row: Record<string, unknown>): HistoryEntry {
  return {
    id: Number(row.id),
    appId: String(row.app_id),
    at: Number(row.at),
    kind: row.kind as HistoryEntry['kind'],
    from: (row.from_state ?? null) as HistoryEntry['from'],
    to: (row.to_state ?? null) as HistoryEntry['to'],
    actor: row.actor as HistoryEntry['actor'],
    reason: String(row.reason),
    ...(row.by_name ? { by: { name: String(row.by_name), via: row.by_via as Via } } : {}),
  };
}

export function toHistoryRow(row: Record<string, unknown>): HistoryRow {
  const entry = toHistoryEntry(row);
  return { ...entry, id: entry.id!, appName: String(row.app_name) };
}

/** The kinds of entry that change an app's state (a release ends it: state null). */
const STATE_KINDS = "('transition', 'reset', 'release')";

/** Each app's last state change before the first parameter. */
export function initialStatesSql(dialect: Dialect): string {
  const p = dialect === 'sqlite' ? '?' : '$1';
  return `SELECT h.app_id, h.kind, h.to_state FROM app_names n JOIN history h ON h.id = (
       SELECT id FROM history WHERE app_id = n.app_id AND at < ${p} AND kind IN ${STATE_KINDS}
       ORDER BY at DESC, id DESC LIMIT 1)`;
}

/** State changes and dry-run notes between the two parameters, oldest first. */
export function changesSql(dialect: Dialect): string {
  const [from, to] = dialect === 'sqlite' ? ['?', '?'] : ['$1', '$2'];
  // The reason is only needed for dry-run notes (a "would stop" or not): the others leave it out.
  return `SELECT id, app_id, at, kind, to_state, actor, CASE WHEN kind = 'would-sleep' THEN reason END AS reason FROM history
     WHERE at >= ${from} AND at < ${to} AND kind IN ('transition', 'reset', 'release', 'would-sleep', 'would-wake')
     ORDER BY at, id`;
}

/** The kinds the savings read: state changes and dry-run notes. */
const SAVINGS_KINDS = "('transition', 'reset', 'release', 'would-sleep', 'would-wake')";
const SAVINGS_COLUMNS = `id, app_id, at, kind, to_state, actor, CASE WHEN kind = 'would-sleep' THEN reason END AS reason`;

/** SQLite: a column that does not choose the index (the kind or time index would be read whole). */
const notIndexed = (column: string, dialect: Dialect) => (dialect === 'sqlite' ? `+${column}` : column);

/** The savings' entries after an id (first parameter), by id, at most the second parameter of them. */
export function savingsAfterSql(dialect: Dialect): string {
  const [after, n] = dialect === 'sqlite' ? ['?', '?'] : ['$1', '$2'];
  // By the primary key from the id on: a slice costs its rows, however long the history.
  return `SELECT ${SAVINGS_COLUMNS} FROM history
     WHERE id > ${after} AND ${notIndexed('at', dialect)} >= 0 AND ${notIndexed('kind', dialect)} IN ${SAVINGS_KINDS}
     ORDER BY id LIMIT ${n}`;
}

/** One app's savings entries (first parameter) up to an id (second), in the order they happened. */
export function savingsOfAppSql(dialect: Dialect): string {
  const [app, upTo] = dialect === 'sqlite' ? ['?', '?'] : ['$1', '$2'];
  return `SELECT ${SAVINGS_COLUMNS} FROM history
     WHERE app_id = ${app} AND id <= ${upTo} AND at >= 0 AND kind IN ${SAVINGS_KINDS} ORDER BY at, id`;
}

/** The oldest instant of the savings' entries (the time index from its start), and the ids at it. */
export function savingsOldestSql(dialect: Dialect): string {
  return `SELECT id, at FROM history WHERE kind IN ${SAVINGS_KINDS} AND at = (
     SELECT at FROM history WHERE at >= 0 AND ${notIndexed('kind', dialect)} IN ${SAVINGS_KINDS} ORDER BY at LIMIT 1)
     ORDER BY id`;
}

/** Which of the given history ids are there: a JSON array (SQLite) or an array (PostgreSQL). */
export function historyIdsLeftSql(dialect: Dialect): string {
  return dialect === 'sqlite'
    ? 'SELECT id FROM history WHERE id IN (SELECT value FROM json_each(?))'
    : 'SELECT id FROM history WHERE id = ANY($1::bigint[])';
}

/** The savings' entries as the contract gives them. */
export function toSavingsChanges(rows: ChangeRow[]): StateChange[] {
  return toStateChanges([], rows).changes;
}

/** The oldest entries' instant and ids, or null when there is none. */
export function toOldest(rows: { id: number | string; at: number | string }[]): SavingsOldest | null {
  if (!rows.length) return null;
  return { at: Number(rows[0]!.at), ids: rows.map((r) => Number(r.id)) };
}

/** The entries of a start or stop, newest first: app, transit state (twice), row limit. */
export function transitionsSql(dialect: Dialect): string {
  const [a, t1, t2, n] = dialect === 'sqlite' ? ['?', '?', '?', '?'] : ['$1', '$2', '$3', '$4'];
  return `SELECT at, from_state, to_state FROM history
     WHERE app_id = ${a} AND kind IN ('transition', 'reset') AND (to_state = ${t1} OR from_state = ${t2})
     ORDER BY at DESC, id DESC LIMIT ${n}`;
}

/** Pair each exit of the transit state into `done` with its entry before: durations, newest first. */
export function durationsFrom(
  rows: { at: number; from_state: string | null; to_state: string | null }[],
  kind: 'start' | 'stop',
  limit: number,
): number[] {
  const [transit, done] = kind === 'start' ? ['WaitingForUp', 'Up'] : ['WaitingForShutdown', 'Down'];
  const out: number[] = [];
  for (let i = 0; i < rows.length - 1 && out.length < limit; i++) {
    const exit = rows[i]!;
    const entry = rows[i + 1]!;
    if (exit.from_state === transit && exit.to_state === done && entry.to_state === transit) {
      out.push(exit.at - entry.at);
      i++;
    }
  }
  return out;
}

export function transitState(kind: 'start' | 'stop'): string {
  return kind === 'start' ? 'WaitingForUp' : 'WaitingForShutdown';
}

/** The oldest entries before a cutoff, a batch at a time: cutoff, batch size. */
export function retentionSql(dialect: Dialect): string {
  const [c, n] = dialect === 'sqlite' ? ['?', '?'] : ['$1', '$2'];
  return `DELETE FROM history WHERE id IN (SELECT id FROM history WHERE at < ${c} ORDER BY at LIMIT ${n})`;
}

export interface StateRow {
  app_id: string;
  kind: string;
  to_state: ReaperState | null;
}

export interface ChangeRow {
  id: number;
  app_id: string;
  at: number;
  kind: StateChange['kind'];
  to_state: ReaperState | null;
  actor: Actor;
  reason: string | null;
}

export function toStateChanges(
  initialRows: StateRow[],
  rows: ChangeRow[],
): { initial: Map<string, ReaperState | null>; changes: StateChange[] } {
  const initial = new Map(
    initialRows.map((r) => [r.app_id, r.kind === 'release' ? null : (r.to_state ?? null)] as const),
  );
  const changes = rows.map((r) => ({
    appId: r.app_id,
    at: r.at,
    id: r.id,
    kind: r.kind,
    to: r.kind === 'release' ? null : (r.to_state ?? null),
    reason: r.reason ?? '',
    actor: r.actor,
  }));
  return { initial, changes };
}
