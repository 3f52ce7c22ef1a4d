/**
 * The rows of the history table as both datastores write them: the same columns on SQLite and
 * PostgreSQL, the person who acted (`by`) in two of them. The reads are in history-sql.ts.
 */
import type { HistoryEntry } from '../../shared/domain.ts';

/** The columns an entry is written to, in the order of `historyValues`. */
export const HISTORY_WRITE_COLUMNS = [
  'app_id',
  'at',
  'kind',
  'from_state',
  'to_state',
  'actor',
  'reason',
  'by_name',
  'by_via',
] as const;

type HistoryColumn = (typeof HISTORY_WRITE_COLUMNS)[number];

/** An entry as a row of the history table, column by column. */
export function historyRow(h: HistoryEntry): Record<HistoryColumn, string | number | null> {
  return {
    app_id: h.appId,
    at: h.at,
    kind: h.kind,
    from_state: h.from,
    to_state: h.to,
    actor: h.actor,
    reason: h.reason,
    by_name: h.by?.name ?? null,
    by_via: h.by?.via ?? null,
  };
}

/** An entry's values in the order of HISTORY_WRITE_COLUMNS. */
export function historyValues(h: HistoryEntry): (string | number | null)[] {
  const row = historyRow(h);
  return HISTORY_WRITE_COLUMNS.map((c) => row[c]);
}
