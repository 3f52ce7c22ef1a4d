/**
 * The datastore contract (../contract.ts) on SQLite: the embedded default, one instance per file
 * (node:sqlite, built into Node 24 and Electron: no native module to rebuild). Each call runs at once
 * on node:sqlite (synchronous) and resolves with its result: the engine and the service see the same
 * asynchronous interface as on PostgreSQL.
 *
 * - A record and its history entries are written in one transaction (`commit`); a batch of changes
 *   too, its guard checked once.
 * - WAL journal with synchronous=NORMAL: a committed transaction survives a crash of the process.
 * - Versioned migrations (sqlite-schema.ts), each in its own transaction.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync, type SQLInputValue } from 'node:sqlite';
import type { AppRecord, HistoryEntry, ReaperState } from '../../../shared/domain.ts';
import type { HistoryFilter, HistoryPage, HistoryQuery, HistoryRow } from '../../../shared/history.ts';
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
import { restrictFile } from '../data-dir.ts';
import { HISTORY_WRITE_COLUMNS, historyValues } from '../history-rows.ts';
import {
  durationsFrom,
  HISTORY_COLUMNS,
  retentionSql,
  toHistoryEntry,
  transitionsSql,
  transitState,
} from '../history-sql.ts';
import { COLUMNS } from '../record-columns.ts';
import {
  appNames,
  historyIdsLeft,
  iterateHistory,
  queryHistory,
  savingsChangesAfter,
  savingsChangesOf,
  savingsOldest,
  stateChanges,
} from './sqlite-history.ts';
import { sqlitePeople } from './sqlite-people.ts';
import { migrate, userVersion } from './sqlite-schema.ts';

const COLS = COLUMNS.map(([, c]) => c);

export class SqliteStore implements ReaperStore {
  readonly kind = 'sqlite' as const;
  readonly file: string;
  /** The database underneath: this folder's queries, and tests that look under the contract. */
  readonly db: DatabaseSync;
  private readonly upsertStmt;
  private readonly deleteStmt;
  private readonly historyStmt;
  private readonly guardStmt;

  /** Open (or create) the file and bring its schema up to date; throws when it cannot. */
  constructor(file: string) {
    this.file = file;
    if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
    this.db = new DatabaseSync(file);
    try {
      this.db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000;');
      migrate(this.db);
      // Owner-only, whoever created them; SQLite gives a -wal or -shm it creates later the file's mode.
      if (file !== ':memory:') for (const suffix of ['', '-wal', '-shm']) restrictFile(file + suffix);
    } catch (error) {
      this.db.close();
      throw error;
    }
    this.upsertStmt = this.db.prepare(
      `INSERT OR REPLACE INTO app_state (${COLS.join(', ')}) VALUES (${COLS.map(() => '?').join(', ')})`,
    );
    this.deleteStmt = this.db.prepare('DELETE FROM app_state WHERE app_id = ?');
    this.historyStmt = this.db.prepare(
      `INSERT INTO history (${HISTORY_WRITE_COLUMNS.join(', ')}) VALUES (${HISTORY_WRITE_COLUMNS.map(() => '?').join(', ')})`,
    );
    this.guardStmt = this.db.prepare(
      'SELECT 1 AS ok FROM leases WHERE owner_id = ? AND holder = ? AND token = ? AND expires_at > ?',
    );
  }

  async schemaVersion(): Promise<number> {
    return userVersion(this.db);
  }

  async loadRecords(): Promise<AppRecord[]> {
    const rows = this.db.prepare(`SELECT ${COLS.join(', ')} FROM app_state`).all();
    return rows.map((row) => {
      const record = {} as Record<string, unknown>;
      for (const [field, column] of COLUMNS) record[field] = row[column] ?? null;
      return record as unknown as AppRecord;
    });
  }

  /**
   * Write each record (or remove it) and append its history entries, in one transaction. With a
   * guard, nothing is written unless the owner's lease row still names this holder and token and has
   * not expired (real time): LeaseLost otherwise. One instance uses a SQLite file, so no lease row is
   * ever written but by tests.
   */
  async commit(changes: StoreCommit | readonly StoreCommit[], guard?: LeaseGuard): Promise<void> {
    const list: readonly StoreCommit[] = Array.isArray(changes) ? changes : [changes as StoreCommit];
    this.transaction(() => {
      if (guard && !this.guardStmt.get(guard.ownerId, guard.holder, guard.token, Date.now())) {
        throw new LeaseLost(guard);
      }
      for (const change of list) {
        if (change.upsert) {
          const r = change.upsert;
          this.upsertStmt.run(...COLUMNS.map(([field]) => r[field] as SQLInputValue));
        }
        if (change.remove) this.deleteStmt.run(change.remove);
        for (const h of change.history) {
          this.historyStmt.run(...historyValues(h));
        }
      }
    });
  }

  async historyOf(appId: string, limit = 100): Promise<HistoryEntry[]> {
    const rows = this.db
      .prepare(`SELECT ${HISTORY_COLUMNS} FROM history WHERE app_id = ? ORDER BY at DESC, id DESC LIMIT ?`)
      .all(appId, limit);
    return rows.map(toHistoryEntry);
  }

  async historySince(at: number): Promise<HistoryEntry[]> {
    const rows = this.db
      .prepare(`SELECT ${HISTORY_COLUMNS} FROM history WHERE at >= ? ORDER BY at, id`)
      .all(at);
    return rows.map(toHistoryEntry);
  }

  async transitionDurations(appId: string, kind: 'start' | 'stop', limit = 20): Promise<number[]> {
    const transit = transitState(kind);
    const rows = this.db.prepare(transitionsSql('sqlite')).all(appId, transit, transit, limit * 4) as {
      at: number;
      from_state: string | null;
      to_state: string | null;
    }[];
    return durationsFrom(rows, kind, limit);
  }

  async queryHistory(query: HistoryQuery): Promise<HistoryPage> {
    return queryHistory(this.db, query);
  }

  async *iterateHistory(filter: HistoryFilter, pageSize?: number): AsyncGenerator<HistoryRow[], void, void> {
    yield* iterateHistory(this.db, filter, pageSize);
  }

  async appNames(): Promise<Map<string, { name: string; ownerId: string }>> {
    return appNames(this.db);
  }

  async stateChanges(
    from: number,
    to: number,
  ): Promise<{ initial: Map<string, ReaperState | null>; changes: StateChange[] }> {
    return stateChanges(this.db, from, to);
  }

  async savingsChangesAfter(afterId: number, limit: number): Promise<StateChange[]> {
    return savingsChangesAfter(this.db, afterId, limit);
  }

  async savingsChangesOf(appId: string, upToId: number): Promise<StateChange[]> {
    return savingsChangesOf(this.db, appId, upToId);
  }

  async savingsOldest(): Promise<SavingsOldest | null> {
    return savingsOldest(this.db);
  }

  async historyIdsLeft(ids: readonly number[]): Promise<Set<number>> {
    return historyIdsLeft(this.db, ids);
  }

  async deleteHistoryBefore(cutoff: number, limit: number): Promise<number> {
    // A store closed meanwhile (a session switch during a retention run) has nothing left to prune.
    if (!this.db.isOpen) return 0;
    return Number(this.db.prepare(retentionSql('sqlite')).run(cutoff, limit).changes);
  }

  async readAppFacts(): Promise<Map<string, AppFacts>> {
    const rows = this.db
      .prepare(
        'SELECT app_id, flavor_name, flavor_price, min_instances, max_instances, seen_at FROM app_facts',
      )
      .all() as {
      app_id: string;
      flavor_name: string | null;
      flavor_price: number | null;
      min_instances: number;
      max_instances: number;
      seen_at: number;
    }[];
    return new Map(
      rows.map((r) => [
        r.app_id,
        {
          appId: r.app_id,
          flavorName: r.flavor_name,
          flavorPrice: r.flavor_price,
          minInstances: r.min_instances,
          maxInstances: r.max_instances,
          seenAt: r.seen_at,
        },
      ]),
    );
  }

  async writeAppFacts(facts: readonly AppFacts[]): Promise<void> {
    if (facts.length === 0) return;
    const upsert = this.db.prepare(
      `INSERT INTO app_facts (app_id, flavor_name, flavor_price, min_instances, max_instances, seen_at)
       VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (app_id) DO UPDATE SET flavor_name = excluded.flavor_name,
         flavor_price = excluded.flavor_price, min_instances = excluded.min_instances,
         max_instances = excluded.max_instances, seen_at = excluded.seen_at`,
    );
    this.transaction(() => {
      for (const f of facts) {
        upsert.run(f.appId, f.flavorName, f.flavorPrice, f.minInstances, f.maxInstances, f.seenAt);
      }
    });
  }

  async webhookStatuses(): Promise<WebhookStatus[]> {
    const rows = this.db.prepare('SELECT status FROM webhook_deliveries ORDER BY url').all() as {
      status: string;
    }[];
    return rows.map((r) => JSON.parse(r.status) as WebhookStatus);
  }

  async saveWebhookStatus(status: WebhookStatus): Promise<void> {
    this.db
      .prepare(
        'INSERT INTO webhook_deliveries (url, status) VALUES (?, ?) ON CONFLICT (url) DO UPDATE SET status = excluded.status',
      )
      .run(status.url, JSON.stringify(status));
  }

  async forgetWebhooks(keep: readonly string[]): Promise<void> {
    this.db
      .prepare('DELETE FROM webhook_deliveries WHERE url NOT IN (SELECT value FROM json_each(?))')
      .run(JSON.stringify(keep));
  }

  async credentialsStatus(): Promise<StoredCredentialsStatus | null> {
    const row = this.db.prepare('SELECT status FROM credentials_status WHERE id = 1').get() as
      | { status: string }
      | undefined;
    return row ? (JSON.parse(row.status) as StoredCredentialsStatus) : null;
  }

  async saveCredentialsStatus(status: StoredCredentialsStatus): Promise<void> {
    this.db
      .prepare(
        'INSERT INTO credentials_status (id, status) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET status = excluded.status',
      )
      .run(JSON.stringify(status));
  }

  configBackend(): SharedConfigBackend {
    const db = this.db;
    return {
      async load() {
        const rows = db.prepare('SELECT key, value FROM config').all() as { key: string; value: string }[];
        return new Map(rows.map((r) => [r.key, JSON.parse(r.value) as unknown]));
      },
      async set(key, value) {
        db.prepare(
          'INSERT INTO config (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
        ).run(key, JSON.stringify(value));
      },
    };
  }

  people(): PeopleStore {
    return sqlitePeople(this.db, (fn) => this.transaction(fn));
  }

  /** Run `fn` in one write transaction (BEGIN IMMEDIATE), rolled back when it throws. */
  transaction<T>(fn: () => T): T {
    this.db.exec('BEGIN IMMEDIATE');
    try {
      const result = fn();
      this.db.exec('COMMIT');
      return result;
    } catch (error) {
      // SQLite rolls back by itself on some errors (a full disk): only roll back what is still open.
      if (this.db.isTransaction) this.db.exec('ROLLBACK');
      throw error;
    }
  }

  async close(): Promise<void> {
    if (this.db.isOpen) this.db.close();
  }
}
