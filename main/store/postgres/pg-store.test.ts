/**
 * What only the PostgreSQL datastore has to show: instances starting together on one database, a
 * failing migration, BIGINT read back as numbers, the test cluster removed afterwards. The contract
 * both datastores keep is datastore.contract.test.ts.
 */
import { existsSync } from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newRecord } from '../../../shared/domain.ts';
import { LeaseLost } from '../../../shared/port-errors.ts';
import {
  type PostgresCluster,
  postgresSkipReason,
  startPostgresCluster,
} from '../../testing/postgres-cluster.ts';
import { migratePostgres, PG_MIGRATIONS, schemaVersionOf } from './pg-schema.ts';
import { PostgresStore } from './pg-store.ts';
import { parseBigint, REAPER_TYPES } from './pg-types.ts';

const skip = postgresSkipReason();
const T = Date.UTC(2026, 0, 5, 9);

describe.skipIf(skip !== null)(`the PostgreSQL datastore${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let cluster: PostgresCluster;
  beforeAll(async () => {
    cluster = await startPostgresCluster();
  }, 60_000);
  afterAll(async () => {
    const dir = cluster?.dir;
    await cluster?.stop();
    if (dir) expect(existsSync(dir)).toBe(false);
  });

  it('lets instances start together on a new database: one migrates, none fails, all agree', async () => {
    const url = await cluster.createDatabase();
    const stores = await Promise.all(Array.from({ length: 4 }, () => PostgresStore.open(url)));
    try {
      for (const s of stores) expect(await s.schemaVersion()).toBe(PG_MIGRATIONS.length);
      await stores[0]!.commit({ upsert: newRecord('app_1', 'orga_acme', 'one', T), history: [] });
      expect((await stores[3]!.loadRecords()).map((r) => r.appId)).toEqual(['app_1']);
    } finally {
      await Promise.all(stores.map((s) => s.close()));
    }
  });

  it('runs each migration in its own transaction: a failing one leaves the previous version', async () => {
    const url = await cluster.createDatabase();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const failing = [...PG_MIGRATIONS, 'CREATE TABLE half_done (x INTEGER); SELECT 1 / 0'];
      await expect(migratePostgres(client, failing)).rejects.toThrow(/division by zero/);
      expect(await schemaVersionOf(client)).toBe(PG_MIGRATIONS.length);
      const half = await client.query("SELECT to_regclass('half_done') AS t");
      expect(half.rows[0].t).toBeNull();
      expect(await migratePostgres(client)).toBe(PG_MIGRATIONS.length);
    } finally {
      await client.end();
    }
  });

  it('reads BIGINT as numbers, and refuses one a number cannot hold exactly', async () => {
    const client = new pg.Client({ connectionString: cluster.url, types: REAPER_TYPES });
    await client.connect();
    try {
      const ok = await client.query('SELECT 8640000000000000::bigint AS at, count(*) AS n FROM pg_class');
      expect(ok.rows[0].at).toBe(8_640_000_000_000_000);
      expect(typeof ok.rows[0].n).toBe('number');
      await expect(client.query('SELECT 9007199254740993::bigint AS big')).rejects.toThrow(/beyond 2\^53/);
    } finally {
      await client.end();
    }
    expect(() => parseBigint('-9007199254740993')).toThrow(RangeError);
  });

  it('commits in one statement or in steps alike: records, entries in order, the guard refused', async () => {
    const url = await cluster.createDatabase();
    const store = await PostgresStore.open(url);
    try {
      const entry = (appId: string, reason: string) => ({
        appId,
        at: T,
        kind: 'transition' as const,
        from: null,
        to: null,
        actor: 'reaper' as const,
        reason,
      });
      const one = {
        ...newRecord('app_1', 'orga_acme', 'one', T),
        lastRequestAt: T + 5,
        notice: 'it\'s "quoted" 🌙',
      };
      await store.commit({ upsert: one, history: [entry('app_1', 'a'), entry('app_1', 'b')] });
      // Both a write and a removal: the transaction of several statements.
      await store.commit({ upsert: newRecord('app_2', 'orga_acme', 'two', T), remove: 'app_1', history: [] });
      expect((await store.loadRecords()).map((r) => r.appId)).toEqual(['app_2']);
      await store.commit({ upsert: one, history: [entry('app_1', 'c')] });
      expect((await store.loadRecords()).find((r) => r.appId === 'app_1')).toEqual(one);
      expect((await store.historyOf('app_1')).map((h) => h.reason)).toEqual(['c', 'b', 'a']);
      const guard = { ownerId: 'orga_acme', holder: 'nobody', token: 1 };
      for (const change of [
        { upsert: one, history: [entry('app_1', 'refused')] },
        { upsert: one, remove: 'app_2', history: [] },
      ]) {
        await expect(store.commit(change, guard)).rejects.toBeInstanceOf(LeaseLost);
      }
      expect((await store.loadRecords()).map((r) => r.appId)).toEqual(['app_1', 'app_2']);
      expect((await store.historyOf('app_1')).map((h) => h.reason)).toEqual(['c', 'b', 'a']);
    } finally {
      await store.close();
    }
  });

  it('says what is wrong when the server cannot be reached, and leaves nothing open', async () => {
    await expect(PostgresStore.open('postgres://postgres@127.0.0.1:1/none')).rejects.toThrow(/ECONNREFUSED/);
  });
});
