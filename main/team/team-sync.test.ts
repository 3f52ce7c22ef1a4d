/**
 * What an instance hands over to the holder of an app's owner, on a throwaway PostgreSQL: a wake at
 * once, plain traffic of one app at most once per window (the latest kept for the window's end),
 * traffic from the access logs never (the holder follows the same logs).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgBus } from '../store/postgres/pg-bus.ts';
import { PostgresStore } from '../store/postgres/pg-store.ts';
import { PgTeamStore } from '../store/postgres/pg-team-store.ts';
import { harness } from '../testing/engine-harness.ts';
import {
  type PostgresCluster,
  postgresSkipReason,
  startPostgresCluster,
  whileCrashed,
} from '../testing/postgres-cluster.ts';
import { until } from '../testing/serve-process.ts';
import { TeamSync } from './team-sync.ts';

const skip = postgresSkipReason();

describe.skipIf(skip !== null)(`requests handed over${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let cluster: PostgresCluster;
  beforeAll(async () => {
    cluster = await startPostgresCluster();
  }, 60_000);
  afterAll(() => cluster?.stop());

  it('sends a wake at once, traffic once per window, access-log traffic never', async () => {
    const store = await PostgresStore.open(await cluster.createDatabase());
    const bus = await PgBus.start({ store, instanceId: 'other' });
    const sync = new TeamSync({
      bus,
      store: new PgTeamStore(store),
      engine: () => {
        throw new Error('not needed to hand requests over');
      },
      reloadConfig: async () => {},
      acts: () => false,
      activeOwners: () => [],
      trafficEveryMs: 1500,
    });
    const rows = async () =>
      (
        await store.pool.query<{ app_id: string; source: string; at: number }>(
          'SELECT app_id, source, at FROM wake_requests ORDER BY id',
        )
      ).rows.map((r) => `${r.app_id} ${r.source} ${r.at}`);
    const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));
    // Each publish is one INSERT on the pool: wait for the rows (a loaded machine takes its time), then
    // compare them in any order (two publishes at once may commit either first).
    const sent = async (expected: string[]) => {
      await until(
        `${expected.length} requests kept`,
        10_000,
        async () => (await rows()).length >= expected.length,
      );
      expect((await rows()).sort()).toEqual([...expected].sort());
    };
    try {
      const base = { ownerId: 'orga_1', asks: false } as const;
      sync.forward({ ...base, appId: 'app_a', source: 'access-log', at: 1 });
      for (let at = 10; at < 15; at++) sync.forward({ ...base, appId: 'app_b', source: 'wake-proxy', at });
      await sent(['app_b wake-proxy 10']);
      // a wake after traffic in the same window goes at once
      sync.forward({ ...base, appId: 'app_b', source: 'wake-proxy', at: 20, asks: true });
      sync.forward({ ...base, appId: 'app_c', source: 'access-log', at: 30, asks: true });
      await sent(['app_b wake-proxy 10', 'app_b wake-proxy 20', 'app_c access-log 30']);
      // the latest traffic of the window goes at its end
      sync.forward({ ...base, appId: 'app_b', source: 'wake-proxy', at: 21 });
      sync.forward({ ...base, appId: 'app_b', source: 'dashboard', at: 22 });
      await settle(100);
      expect(await rows()).toHaveLength(3);
      await sent(['app_b wake-proxy 10', 'app_b wake-proxy 20', 'app_c access-log 30', 'app_b dashboard 22']);
    } finally {
      await sync.stop();
      await bus.close();
      await store.close();
    }
  });

  it('an action kept while the datastore is away stops showing pending once its time to live runs out', async () => {
    const store = await PostgresStore.open(await cluster.createDatabase());
    const bus = await PgBus.start({ store, instanceId: 'asker' });
    let acting = true;
    let sync: TeamSync | null = null;
    const h = harness({ acts: () => acting, handOver: (request) => sync!.handOver(request) });
    const warnings: string[] = [];
    sync = new TeamSync({
      bus,
      store: new PgTeamStore(store),
      engine: () => h.engine,
      reloadConfig: async () => {},
      acts: () => acting,
      activeOwners: () => [],
      intentTtlMs: () => 300,
      log: (level, message) => {
        if (level === 'warn') warnings.push(message);
      },
    });
    const app = h.manage('review');
    await h.engine.start();
    expect(await h.until(() => h.state(app.id) === 'Up', 60_000)).not.toBeNull();
    // Another instance acts on the owner now: a reset from here is handed over.
    acting = false;
    const shown: (string | null)[] = [];
    const off = h.engine.on((e) => {
      if (e.type === 'app' && e.record.appId === app.id) shown.push(h.engine.keptAction(app.id));
    });
    try {
      await whileCrashed(cluster, async () => {
        await h.engine.reset(app.id);
        expect(h.engine.keptAction(app.id)).toBe('reset');
        await until('the kept reset lapsed', 30_000, async () => h.engine.keptAction(app.id) === null);
        // The dashboard hears it: the app's last view says nothing is pending any more.
        expect(shown.at(-1)).toBeNull();
        expect(shown).toContain('reset');
        expect(sync!.outboxFacts).toEqual({ waiting: 0, dropped: 0, expired: 1 });
        expect(
          warnings.some((w) => w.includes(`a request for ${app.id} expired before the datastore took it`)),
        ).toBe(true);
      });
    } finally {
      off();
      await sync.stop();
      await h.engine.stop();
      await bus.close();
      await store.close();
    }
  }, 60_000);
});
