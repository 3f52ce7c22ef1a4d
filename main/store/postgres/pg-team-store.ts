/**
 * What team mode reads from PostgreSQL when the bus tells it of a change (store/team-contract.ts,
 * `TeamStore`): the records and history entries another instance wrote, and the requests handed
 * over to the owners this instance holds (the table `wake_requests`, migration 3 of pg-schema.ts).
 */
import type { AppRecord, HistoryEntry } from '../../../shared/domain.ts';
import { type By, VIAS, type Via } from '../../../shared/people.ts';
import { HISTORY_COLUMNS, toHistoryEntry } from '../history-sql.ts';
import type { HandedAction, TeamStore, WaitingRequest } from '../team-contract.ts';
import { DB_NOW, type PostgresStore } from './pg-store.ts';

/**
 * A forwarded request not acted on within this (no instance held its owner) is dropped, when no
 * time to live is given (team-sync.ts gives the fail timeout and 5 minutes).
 */
export const STALE_MS = 10 * 60_000;

export class PgTeamStore implements TeamStore {
  private readonly store: PostgresStore;

  constructor(store: PostgresStore) {
    this.store = store;
  }

  recordsOf(appIds: readonly string[]): Promise<AppRecord[]> {
    return this.store.recordsOf(appIds);
  }

  async historyBetween(from: number, to: number): Promise<HistoryEntry[]> {
    const { rows } = await this.store.pool.query(
      `SELECT ${HISTORY_COLUMNS} FROM history WHERE id BETWEEN $1 AND $2 ORDER BY id`,
      [from, to],
    );
    return rows.map(toHistoryEntry);
  }

  async historyAfter(id: number, limit: number): Promise<HistoryEntry[]> {
    const { rows } = await this.store.pool.query(
      `SELECT ${HISTORY_COLUMNS} FROM history WHERE id > $1 ORDER BY id LIMIT $2`,
      [id, limit],
    );
    return rows.map(toHistoryEntry);
  }

  async lastHistoryId(): Promise<number> {
    const { rows } = await this.store.pool.query<{ id: number | null }>('SELECT max(id) AS id FROM history');
    return rows[0]?.id ?? 0;
  }

  async waiting(ownerIds: readonly string[], ttlMs = STALE_MS): Promise<WaitingRequest[]> {
    if (ownerIds.length === 0) return [];
    // A request older than its time to live is forgotten, not acted on: its visitor is long gone.
    const { rows } = await this.store.pool.query<{
      id: number;
      app_id: string;
      owner_id: string;
      source: WaitingRequest['source'];
      at: number;
      action: string | null;
      until_at: number | null;
      by_name: string | null;
      by_via: string | null;
    }>(
      `WITH stale AS (
         DELETE FROM wake_requests WHERE owner_id = ANY($1::text[]) AND created_at < ${DB_NOW} - $2::bigint
       )
       SELECT id, app_id, owner_id, source, at, action, until_at, by_name, by_via FROM wake_requests
       WHERE owner_id = ANY($1::text[]) AND created_at >= ${DB_NOW} - $2::bigint ORDER BY id LIMIT 1000`,
      [ownerIds, ttlMs],
    );
    return rows.flatMap((r) => {
      const by = byOf(r.by_name, r.by_via);
      const request: WaitingRequest = {
        id: r.id,
        appId: r.app_id,
        ownerId: r.owner_id,
        source: r.source,
        at: r.at,
        ...(by ? { by } : {}),
      };
      if (r.action === null) return [request];
      const action = actionOf(r.action, r.until_at);
      return action ? [{ ...request, action }] : []; // an action of a newer version: left alone
    });
  }

  async done(ids: readonly number[]): Promise<void> {
    if (ids.length === 0) return;
    await this.store.pool.query('DELETE FROM wake_requests WHERE id = ANY($1::bigint[])', [ids]);
  }
}

/** Who asked for a handed-over action (migration 8), or null: nobody, or a row written before. */
function byOf(name: string | null, via: string | null): By | null {
  if (!name || !via) return null;
  // A way in of a newer version: the person is kept, the way said as the API.
  return { name, via: (VIAS as readonly string[]).includes(via) ? (via as Via) : 'api' };
}

function actionOf(kind: string, until: number | null): HandedAction | null {
  if (kind === 'keepAwake') return { kind, until };
  if (kind === 'reset' || kind === 'release') return { kind };
  return null;
}
