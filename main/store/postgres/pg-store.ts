/**
 * The datastore contract (contract.ts) on PostgreSQL, with node-postgres (`pg`): team mode, where
 * several reaper instances share one database (a Clever Cloud PostgreSQL add-on). A pool of
 * connections; a commit is one transaction on one connection, its guard checked first with the lease
 * row locked (FOR SHARE) until the commit ends, so a takeover (an UPDATE of that row) waits for it or
 * is seen by it: an instance that lost its lease can never write after the new holder's first write.
 */
import type pg from 'pg';
import type { AppRecord, HistoryEntry, ReaperState } from '../../../shared/domain.ts';
import {
  encodeCursor,
  type HistoryFilter,
  type HistoryPage,
  type HistoryQuery,
  type HistoryRow,
} from '../../../shared/history.ts';
import type { WebhookStatus } from '../../../shared/webhooks.ts';
import {
  type AppFacts,
  type LeaseGuard,
  LeaseLost,
  type PeopleStore,
  type ReaperStore,
  type SavingsOldest,
  type SharedConfigBackend,
  type StateChange,
  type StoreCommit,
  type StoredCredentialsStatus,
} from '../contract.ts';
import {
  type ChangeRow,
  changesSql,
  durationsFrom,
  HISTORY_COLUMNS,
  historyIdsLeftSql,
  historyPageSql,
  initialStatesSql,
  retentionSql,
  type StateRow,
  savingsAfterSql,
  savingsOfAppSql,
  savingsOldestSql,
  toHistoryEntry,
  toHistoryRow,
  toOldest,
  toSavingsChanges,
  toStateChanges,
  transitionsSql,
  transitState,
} from '../history-sql.ts';
import { COLUMNS } from '../record-columns.ts';
import { CommitLanes, oneStatementFits } from './pg-commit.ts';
import {
  DEFAULT_PG_TIMEOUTS,
  DEFAULT_POOL_SIZE,
  databasePlace,
  explainedPool,
  type PgTimeouts,
} from './pg-errors.ts';
import { pgPeople } from './pg-people.ts';
import { DB_NOW, migratePostgres, schemaVersionOf } from './pg-schema.ts';
import { type Exclusive, retentionExclusive } from './retention-lock.ts';

export { DB_NOW };

import { HISTORY_WRITE_COLUMNS, historyValues } from '../history-rows.ts';
import { REAPER_TYPES } from './pg-types.ts';

const COLS = COLUMNS.map(([, c]) => c);
const UPSERT = `INSERT INTO app_state (${COLS.join(', ')}) VALUES (${COLS.map((_, i) => `$${i + 1}`).join(', ')})
  ON CONFLICT (app_id) DO UPDATE SET ${COLS.slice(1)
    .map((c) => `${c} = excluded.${c}`)
    .join(', ')}`;
const HISTORY_FIELDS = HISTORY_WRITE_COLUMNS.length;
const HISTORY_INSERT = HISTORY_WRITE_COLUMNS.join(', ');

export interface PostgresStoreOptions {
  /** Connections in the pool (default 10). */
  max?: number;
  /** How long the database is waited for (pg-errors.ts: connect 10 s, statement 30 s). */
  timeouts?: Partial<PgTimeouts>;
  /** An idle connection failed (the server restarted...): the pool replaces it. */
  onError?: (error: Error) => void;
}

function toRecord(row: Record<string, unknown>): AppRecord {
  const record = {} as Record<string, unknown>;
  for (const [field, column] of COLUMNS) record[field] = row[column] ?? null;
  return record as unknown as AppRecord;
}

export class PostgresStore implements ReaperStore {
  readonly kind = 'postgres' as const;
  readonly pool: pg.Pool;
  /**
   * The server processes of this store's connections: a NOTIFY names the process that sent it, so an
   * instance knows its own changes (team mode's bus, pg-bus.ts).
   */
  readonly backends: ReadonlySet<number>;

  private readonly lanes: CommitLanes;

  private constructor(pool: pg.Pool, backends: ReadonlySet<number>) {
    this.pool = pool;
    this.backends = backends;
    this.lanes = new CommitLanes(pool);
  }

  /** Connect, create or migrate the schema, and check it answers. Rejects (pool closed) otherwise. */
  static async open(url: string, options: PostgresStoreOptions = {}): Promise<PostgresStore> {
    // Timeouts set, and their failures (and a refusal for lack of slots) said with the database named.
    const pool = explainedPool(
      { connectionString: url, types: REAPER_TYPES, application_name: 'clever-reaper' },
      {
        where: databasePlace(url),
        timeouts: { ...DEFAULT_PG_TIMEOUTS, ...options.timeouts },
        poolSize: options.max ?? DEFAULT_POOL_SIZE,
      },
    );
    pool.on('error', (error) => options.onError?.(error));
    // A connection that ends while checked out between two queries (the server terminated it, or
    // stopped) emits an error with no listener of the pool's: without this one, an uncaught exception.
    // Its next query fails, and the transaction's release drops it from the pool.
    pool.on('connect', (client) => client.on('error', () => {}));
    const backends = new Set<number>();
    const pid = (client: pg.PoolClient) => (client as unknown as { processID: number | null }).processID;
    pool.on('connect', (client) => {
      const id = pid(client);
      if (id) backends.add(id);
    });
    pool.on('remove', (client) => {
      const id = pid(client);
      if (id) backends.delete(id);
    });
    try {
      const client = await pool.connect();
      try {
        await migratePostgres(client);
      } finally {
        client.release();
      }
    } catch (error) {
      await pool.end().catch(() => {});
      throw error;
    }
    return new PostgresStore(pool, backends);
  }

  /** Run `fn` in one transaction on one connection. */
  async transaction<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      const result = await fn(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      try {
        await client.query('ROLLBACK');
      } catch (rollback) {
        // The connection is gone: the server rolls the transaction back; the pool drops it.
        broken = rollback instanceof Error ? rollback : new Error(String(rollback));
      }
      throw error;
    } finally {
      client.release(broken);
    }
  }

  async schemaVersion(): Promise<number> {
    const client = await this.pool.connect();
    try {
      return await schemaVersionOf(client);
    } finally {
      client.release();
    }
  }

  async loadRecords(): Promise<AppRecord[]> {
    const { rows } = await this.pool.query(`SELECT ${COLS.join(', ')} FROM app_state ORDER BY app_id`);
    return rows.map(toRecord);
  }

  /** The records of these apps (team mode: another instance changed them). */
  async recordsOf(appIds: readonly string[]): Promise<AppRecord[]> {
    if (appIds.length === 0) return [];
    const { rows } = await this.pool.query(
      `SELECT ${COLS.join(', ')} FROM app_state WHERE app_id = ANY($1::text[]) ORDER BY app_id`,
      [appIds],
    );
    return rows.map(toRecord);
  }

  /**
   * One statement, one round trip, for one change or a batch (a sweep's writes of one owner): the
   * guard's lease row locked FOR SHARE in a CTE and checked once, and every write conditioned on it,
   * all in the statement's own transaction (a 1,000-app sweep on PostgreSQL was over 3x SQLite's
   * with a transaction of five statements per change). Values travel as JSON, typed by the tables'
   * own row types (json_populate_recordset); history entries keep their order. Commits asked for
   * while earlier ones are under way go together in one statement, each fenced by its own guard
   * (pg-commit.ts). A batch that names an app twice, or a change that both writes and removes a
   * record (none does today), takes the transaction of several statements.
   */
  async commit(changes: StoreCommit | readonly StoreCommit[], guard?: LeaseGuard): Promise<void> {
    const list: readonly StoreCommit[] = Array.isArray(changes) ? changes : [changes as StoreCommit];
    if (list.length === 0) return;
    if (!oneStatementFits(list)) return this.commitInSteps(list, guard);
    await this.lanes.commit(list, guard);
  }

  /** The same changes as several statements in one transaction, the guard checked first. */
  private async commitInSteps(list: readonly StoreCommit[], guard?: LeaseGuard): Promise<void> {
    await this.transaction(async (client) => {
      if (guard) {
        const held = await client.query(
          `SELECT 1 FROM leases WHERE owner_id = $1 AND holder = $2 AND token = $3 AND expires_at > ${DB_NOW} FOR SHARE`,
          [guard.ownerId, guard.holder, guard.token],
        );
        if (held.rowCount === 0) throw new LeaseLost(guard);
      }
      for (const change of list) {
        if (change.upsert) {
          const r = change.upsert;
          await client.query(
            UPSERT,
            COLUMNS.map(([field]) => r[field] ?? null),
          );
        }
        if (change.remove) await client.query('DELETE FROM app_state WHERE app_id = $1', [change.remove]);
        if (change.history.length) {
          const values: unknown[] = [];
          const tuples = change.history.map((h, i) => {
            values.push(...historyValues(h));
            const base = i * HISTORY_FIELDS;
            return `(${Array.from({ length: HISTORY_FIELDS }, (_, k) => `$${base + k + 1}`).join(', ')})`;
          });
          await client.query(`INSERT INTO history (${HISTORY_INSERT}) VALUES ${tuples.join(', ')}`, values);
        }
      }
    });
  }

  async historyOf(appId: string, limit = 100): Promise<HistoryEntry[]> {
    const { rows } = await this.pool.query(
      `SELECT ${HISTORY_COLUMNS} FROM history WHERE app_id = $1 ORDER BY at DESC, id DESC LIMIT $2`,
      [appId, limit],
    );
    return rows.map(toHistoryEntry);
  }

  async historySince(at: number): Promise<HistoryEntry[]> {
    const { rows } = await this.pool.query(
      `SELECT ${HISTORY_COLUMNS} FROM history WHERE at >= $1 ORDER BY at, id`,
      [at],
    );
    return rows.map(toHistoryEntry);
  }

  async transitionDurations(appId: string, kind: 'start' | 'stop', limit = 20): Promise<number[]> {
    const transit = transitState(kind);
    const { rows } = await this.pool.query(transitionsSql('postgres'), [appId, transit, transit, limit * 4]);
    return durationsFrom(rows, kind, limit);
  }

  async queryHistory(query: HistoryQuery): Promise<HistoryPage> {
    const { sql, params } = historyPageSql(query, 'postgres');
    const { rows } = await this.pool.query(sql, params);
    const entries = rows.slice(0, query.limit).map(toHistoryRow);
    const last = entries.at(-1);
    return { entries, nextCursor: rows.length > query.limit && last ? encodeCursor(last) : null };
  }

  async *iterateHistory(filter: HistoryFilter, pageSize = 1000): AsyncGenerator<HistoryRow[], void, void> {
    let cursor: string | undefined;
    for (;;) {
      const page = await this.queryHistory({
        ...filter,
        limit: pageSize,
        ...(cursor === undefined ? {} : { cursor }),
      });
      if (page.entries.length) yield page.entries;
      if (!page.nextCursor) return;
      cursor = page.nextCursor;
    }
  }

  async appNames(): Promise<Map<string, { name: string; ownerId: string }>> {
    const { rows } = await this.pool.query<{ app_id: string; name: string; owner_id: string }>(
      'SELECT app_id, name, owner_id FROM app_names',
    );
    return new Map(rows.map((r) => [r.app_id, { name: r.name, ownerId: r.owner_id }]));
  }

  async stateChanges(
    from: number,
    to: number,
  ): Promise<{ initial: Map<string, ReaperState | null>; changes: StateChange[] }> {
    const initial = await this.pool.query<StateRow>(initialStatesSql('postgres'), [from]);
    const changes = await this.pool.query<ChangeRow>(changesSql('postgres'), [from, to]);
    return toStateChanges(initial.rows, changes.rows);
  }

  async savingsChangesAfter(afterId: number, limit: number): Promise<StateChange[]> {
    const { rows } = await this.pool.query<ChangeRow>(savingsAfterSql('postgres'), [afterId, limit]);
    return toSavingsChanges(rows);
  }

  async savingsChangesOf(appId: string, upToId: number): Promise<StateChange[]> {
    const { rows } = await this.pool.query<ChangeRow>(savingsOfAppSql('postgres'), [appId, upToId]);
    return toSavingsChanges(rows);
  }

  async savingsOldest(): Promise<SavingsOldest | null> {
    const { rows } = await this.pool.query<{ id: number; at: number }>(savingsOldestSql('postgres'));
    return toOldest(rows);
  }

  async historyIdsLeft(ids: readonly number[]): Promise<Set<number>> {
    const { rows } = await this.pool.query<{ id: number | string }>(historyIdsLeftSql('postgres'), [ids]);
    return new Set(rows.map((r) => Number(r.id)));
  }

  async deleteHistoryBefore(cutoff: number, limit: number): Promise<number> {
    const result = await this.pool.query(retentionSql('postgres'), [cutoff, limit]);
    return result.rowCount ?? 0;
  }

  async readAppFacts(): Promise<Map<string, AppFacts>> {
    const { rows } = await this.pool.query(
      'SELECT app_id, flavor_name, flavor_price, min_instances, max_instances, seen_at FROM app_facts',
    );
    return new Map(
      rows.map((r: Record<string, unknown>) => [
        String(r.app_id),
        {
          appId: String(r.app_id),
          flavorName: (r.flavor_name ?? null) as string | null,
          flavorPrice: (r.flavor_price ?? null) as number | null,
          minInstances: r.min_instances as number,
          maxInstances: r.max_instances as number,
          seenAt: r.seen_at as number,
        },
      ]),
    );
  }

  async writeAppFacts(facts: readonly AppFacts[]): Promise<void> {
    if (facts.length === 0) return;
    await this.transaction(async (client) => {
      for (const f of facts) {
        await client.query(
          `INSERT INTO app_facts (app_id, flavor_name, flavor_price, min_instances, max_instances, seen_at)
           VALUES ($1, $2, $3, $4, $5, $6)
           ON CONFLICT (app_id) DO UPDATE SET flavor_name = excluded.flavor_name,
             flavor_price = excluded.flavor_price, min_instances = excluded.min_instances,
             max_instances = excluded.max_instances, seen_at = excluded.seen_at`,
          [f.appId, f.flavorName, f.flavorPrice, f.minInstances, f.maxInstances, f.seenAt],
        );
      }
    });
  }

  async webhookStatuses(): Promise<WebhookStatus[]> {
    const { rows } = await this.pool.query<{ status: WebhookStatus }>(
      'SELECT status FROM webhook_deliveries ORDER BY url COLLATE "C"',
    );
    return rows.map((r) => r.status);
  }

  async saveWebhookStatus(status: WebhookStatus): Promise<void> {
    await this.pool.query(
      `INSERT INTO webhook_deliveries (url, status) VALUES ($1, $2::jsonb)
       ON CONFLICT (url) DO UPDATE SET status = excluded.status`,
      [status.url, JSON.stringify(status)],
    );
  }

  async forgetWebhooks(keep: readonly string[]): Promise<void> {
    await this.pool.query('DELETE FROM webhook_deliveries WHERE NOT (url = ANY($1::text[]))', [keep]);
  }

  async credentialsStatus(): Promise<StoredCredentialsStatus | null> {
    const { rows } = await this.pool.query<{ status: StoredCredentialsStatus }>(
      'SELECT status FROM credentials_status WHERE id = 1',
    );
    return rows[0]?.status ?? null;
  }

  async saveCredentialsStatus(status: StoredCredentialsStatus): Promise<void> {
    await this.pool.query(
      `INSERT INTO credentials_status (id, status) VALUES (1, $1::jsonb)
       ON CONFLICT (id) DO UPDATE SET status = excluded.status`,
      [JSON.stringify(status)],
    );
  }

  people(): PeopleStore {
    return pgPeople(this.pool);
  }

  configBackend(): SharedConfigBackend {
    const pool = this.pool;
    return {
      async load() {
        const { rows } = await pool.query<{ key: string; value: unknown }>('SELECT key, value FROM config');
        return new Map(rows.map((r) => [r.key, r.value]));
      },
      async set(key, value) {
        await pool.query(
          'INSERT INTO config (key, value) VALUES ($1, $2::jsonb) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
          [key, JSON.stringify(value)],
        );
      },
    };
  }

  /** Team mode: the history retention runs on one instance at a time (retention-lock.ts). */
  retentionExclusive(instanceId: string, leaseMs: number): Exclusive {
    return retentionExclusive(this.pool, instanceId, leaseMs);
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
