/**
 * Team mode: the history retention prunes on one instance only (retention-lock.ts), on a real
 * PostgreSQL. Two instances' runs at once: one deletes, the other skips; the first instance stopped,
 * the other prunes; while the advisory lock is held elsewhere, nobody prunes.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HistoryEntry } from '../../../shared/domain.ts';
import { DAY } from '../../../shared/durations.ts';
import { LeaseKeeper } from '../../team/lease-keeper.ts';
import {
  type PostgresCluster,
  postgresSkipReason,
  startPostgresCluster,
} from '../../testing/postgres-cluster.ts';
import { HistoryRetention } from '../retention.ts';
import { PgLeases } from './pg-leases.ts';
import { PostgresStore } from './pg-store.ts';
import { RETENTION_LOCK, retentionExclusive } from './retention-lock.ts';

const skip = postgresSkipReason();
const NOW = Date.UTC(2026, 6, 1, 12);
const LEASE_MS = 60_000; // rounds by hand

function entries(count: number, ageDays: number): HistoryEntry[] {
  return Array.from({ length: count }, (_, n) => ({
    appId: 'app_old',
    at: NOW - ageDays * DAY + n,
    kind: 'transition' as const,
    from: 'Up' as const,
    to: 'WaitingForShutdown' as const,
    actor: 'reaper' as const,
    reason: 'idle',
  }));
}

describe.skipIf(skip !== null)(`the retention on one instance${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let cluster: PostgresCluster;
  beforeAll(async () => {
    cluster = await startPostgresCluster();
  }, 60_000);
  afterAll(() => cluster?.stop());

  it('one instance prunes, the others skip; another takes over when it stops', async () => {
    const url = await cluster.createDatabase();
    const stores = [await PostgresStore.open(url), await PostgresStore.open(url)] as const;
    const keepers = stores.map(
      (store, i) =>
        new LeaseKeeper({
          table: new PgLeases(store),
          instanceId: `instance-${i}`,
          leaseMs: LEASE_MS,
          owners: () => [],
        }),
    );
    const retentions = stores.map(
      (store, i) =>
        new HistoryRetention({
          store,
          now: () => NOW,
          retentionDays: () => 180,
          batchSize: 10,
          pauseMs: 20,
          exclusive: retentionExclusive(store.pool, keepers[i]!.instanceId, LEASE_MS),
        }),
    );
    const [a, b] = retentions as [HistoryRetention, HistoryRetention];
    const outside = new pg.Client({ connectionString: url });
    await outside.connect();
    const count = async () => Number((await outside.query('SELECT count(*) AS n FROM history')).rows[0].n);
    try {
      for (const k of keepers) await k.start();
      await stores[0].commit({ history: [...entries(35, 200), ...entries(5, 1)] });

      // Both at once: the first live instance (by id) prunes every old entry, the other skips.
      expect(await Promise.all([a.runOnce(), b.runOnce()])).toEqual([35, 0]);
      expect([a.skipped, b.skipped]).toEqual([0, 1]);
      expect(await count()).toBe(5);

      // While the lock is held elsewhere (a run under way on an instance that just lost its place),
      // nobody prunes.
      await stores[0].commit({ history: entries(12, 300) });
      await outside.query('SELECT pg_advisory_lock($1)', [RETENTION_LOCK]);
      expect(await a.runOnce()).toBe(0);
      expect(a.skipped).toBe(1);
      await outside.query('SELECT pg_advisory_unlock($1)', [RETENTION_LOCK]);

      // The first instance stopped (its heartbeat row goes): the other one prunes now.
      await keepers[0]!.stop();
      expect(await b.runOnce()).toBe(12);
      expect(await a.runOnce()).toBe(0);
      expect([a.skipped, b.skipped]).toEqual([2, 1]);
      expect(await count()).toBe(5);
    } finally {
      await outside.end();
      for (const r of retentions) await r.stop();
      for (const k of keepers) await k.stop();
      for (const s of stores) await s.close();
    }
  });
});
