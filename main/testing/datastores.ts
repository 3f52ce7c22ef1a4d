/**
 * Both implementations of the datastore contract (main/store/contract.ts) for tests: each fixture
 * opens a fresh datastore, reopens it (a restart), and reaches under the contract where a test must
 * (a lease row, the schema version). PostgreSQL fixtures share one throwaway cluster per test file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, afterEach, beforeAll, describe } from 'vitest';
import type { ReaperStore } from '../store/contract.ts';
import { PostgresStore } from '../store/postgres/pg-store.ts';
import { SqliteStore } from '../store/sqlite/sqlite-store.ts';
import { type PostgresCluster, postgresSkipReason, startPostgresCluster } from './postgres-cluster.ts';

export interface StoreFixture {
  store: ReaperStore;
  /** Close the datastore and open it again on the same data (a restart). */
  reopen(): Promise<ReaperStore>;
  /** Another handle on the same data, as a second instance would have (PostgreSQL only). */
  second(): Promise<ReaperStore>;
  setLease(lease: { ownerId: string; holder: string; token: number; expiresAt: number }): Promise<void>;
  /** Write a schema version as a newer reaper would have (the datastore closed first). */
  forgeSchemaVersion(version: number): Promise<void>;
  /** Open again, as reopen(), but without keeping the result (to see it refused). */
  open(): Promise<ReaperStore>;
  close(): Promise<void>;
}

export interface StoreKind {
  name: 'sqlite' | 'postgres';
  /** Why this kind cannot run here; null when it can. */
  skip: string | null;
  /** Once per test file (a PostgreSQL cluster). */
  setup(): Promise<void>;
  teardown(): Promise<void>;
  fixture(): Promise<StoreFixture>;
}

export function sqliteKind(): StoreKind {
  const dirs: string[] = [];
  return {
    name: 'sqlite',
    skip: null,
    async setup() {},
    async teardown() {
      for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
    },
    async fixture() {
      const dir = mkdtempSync(join(tmpdir(), 'reaper-contract-'));
      dirs.push(dir);
      const file = join(dir, 'reaper.sqlite');
      const open = async () => new SqliteStore(file);
      const handles: ReaperStore[] = [];
      const fixture: StoreFixture = {
        store: await open(),
        async reopen() {
          await fixture.store.close();
          fixture.store = await open();
          return fixture.store;
        },
        async second() {
          throw new Error('a SQLite datastore belongs to one instance');
        },
        async setLease({ ownerId, holder, token, expiresAt }) {
          (fixture.store as SqliteStore).db
            .prepare(
              `INSERT INTO leases (owner_id, holder, token, expires_at) VALUES (?, ?, ?, ?)
               ON CONFLICT (owner_id) DO UPDATE SET holder = excluded.holder, token = excluded.token, expires_at = excluded.expires_at`,
            )
            .run(ownerId, holder, token, expiresAt);
        },
        async forgeSchemaVersion(version) {
          await fixture.store.close();
          const raw = new DatabaseSync(file);
          raw.exec(`PRAGMA user_version = ${version}`);
          raw.close();
        },
        async open() {
          const store = await open();
          handles.push(store);
          return store;
        },
        async close() {
          await fixture.store.close();
          for (const h of handles) await h.close();
        },
      };
      return fixture;
    },
  };
}

export function postgresKind(): StoreKind {
  let cluster: PostgresCluster | null = null;
  const skip = postgresSkipReason();
  return {
    name: 'postgres',
    skip,
    async setup() {
      if (!skip) cluster = await startPostgresCluster();
    },
    async teardown() {
      await cluster?.stop();
      cluster = null;
    },
    async fixture() {
      if (!cluster) throw new Error('no PostgreSQL cluster: setup() first');
      const url = await cluster.createDatabase();
      const handles: ReaperStore[] = [];
      const open = async () => {
        const store = await PostgresStore.open(url);
        handles.push(store);
        return store;
      };
      const fixture: StoreFixture = {
        store: await PostgresStore.open(url),
        async reopen() {
          await fixture.store.close();
          fixture.store = await PostgresStore.open(url);
          return fixture.store;
        },
        second: open,
        open,
        async setLease({ ownerId, holder, token, expiresAt }) {
          await (fixture.store as PostgresStore).pool.query(
            `INSERT INTO leases (owner_id, holder, token, expires_at) VALUES ($1, $2, $3, $4)
             ON CONFLICT (owner_id) DO UPDATE SET holder = excluded.holder, token = excluded.token, expires_at = excluded.expires_at`,
            [ownerId, holder, token, expiresAt],
          );
        },
        async forgeSchemaVersion(version) {
          await (fixture.store as PostgresStore).pool.query('UPDATE schema_version SET version = $1', [
            version,
          ]);
          await fixture.store.close();
        },
        async close() {
          await fixture.store.close().catch(() => {});
          for (const h of handles) await h.close().catch(() => {});
        },
      };
      return fixture;
    },
  };
}

/**
 * One suite per implementation, SQLite then PostgreSQL (skipped, with the reason, where it cannot
 * run): `title` names it, `body` declares its tests; each test's `open()` gives it a fresh fixture,
 * closed after the test (the PostgreSQL cluster is started once for the suite).
 */
export function describeEachDatastore(
  title: (name: StoreKind['name']) => string,
  body: (open: () => Promise<StoreFixture>, kind: StoreKind) => void,
): void {
  for (const kind of [sqliteKind(), postgresKind()]) {
    const named = title(kind.name);
    describe.skipIf(kind.skip !== null)(kind.skip ? `${named} (skipped: ${kind.skip})` : named, () => {
      let f: StoreFixture | undefined;
      beforeAll(() => kind.setup(), 60_000);
      afterAll(() => kind.teardown());
      afterEach(() => f?.close());
      body(async () => {
        f = await kind.fixture();
        return f;
      }, kind);
    });
  }
}
