/**
 * The datastore contract (contract.ts) on SQLite: the embedded default, one instance per file. Each
 * call runs at once on node:sqlite (synchronous) and resolves with its result; the engine and the
 * service see the same asynchronous interface as on PostgreSQL.
 */
import type { AppRecord, HistoryEntry, ReaperState } from '../../shared/domain.ts';
import type { HistoryFilter, HistoryPage, HistoryQuery, HistoryRow } from '../../shared/history.ts';
import type { WebhookStatus } from '../../shared/webhooks.ts';
import { readAppFacts } from './app-facts.ts';
import type {
  AppFacts,
  LeaseGuard,
  ReaperStore,
  SharedConfigBackend,
  StateChange,
  StoreCommit,
  StoredCredentialsStatus,
} from './contract.ts';
import type { Datastore } from './datastore.ts';
import { appNames, iterateHistory, queryHistory, stateChanges } from './history-queries.ts';
import { retentionSql } from './history-sql.ts';

export class SqliteStore implements ReaperStore {
  readonly kind = 'sqlite' as const;
  /** The synchronous datastore underneath (the engine's port until its writes are asynchronous). */
  readonly datastore: Datastore;

  constructor(datastore: Datastore) {
    this.datastore = datastore;
  }

  private get db() {
    return this.datastore.db;
  }

  async schemaVersion(): Promise<number> {
    return this.datastore.schemaVersion;
  }

  async loadRecords(): Promise<AppRecord[]> {
    return this.datastore.loadRecords();
  }

  async commit(change: StoreCommit, guard?: LeaseGuard): Promise<void> {
    this.datastore.commit(change, guard);
  }

  async historyOf(appId: string, limit?: number): Promise<HistoryEntry[]> {
    return this.datastore.historyOf(appId, limit);
  }

  async historySince(at: number): Promise<HistoryEntry[]> {
    return this.datastore.historySince(at);
  }

  async transitionDurations(appId: string, kind: 'start' | 'stop', limit?: number): Promise<number[]> {
    return this.datastore.transitionDurations(appId, kind, limit);
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

  async deleteHistoryBefore(cutoff: number, limit: number): Promise<number> {
    return Number(this.db.prepare(retentionSql('sqlite')).run(cutoff, limit).changes);
  }

  async readAppFacts(): Promise<Map<string, AppFacts>> {
    return readAppFacts(this.datastore);
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
    this.datastore.transaction(() => {
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

  async close(): Promise<void> {
    this.datastore.close();
  }
}
