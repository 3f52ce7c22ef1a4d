/**
 * GET /readyz in team mode asks the leases (readiness.ts, `leasesCheck`; leases.ts, `readiness`):
 * two headless servers on one real PostgreSQL, one owner. The holder is ready; the other, waiting
 * for its share while the owner is held by a live instance, is ready too. A heartbeat older than the
 * lease time answers "heartbeat"; connections terminated by the server are replaced and the answer
 * is ready again; with the database stopped, both answer 503 "datastore" while /healthz says ok.
 * A keeper that cannot take the free owners (it cannot read their records) answers "leases".
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../engine/clocks.ts';
import { InProcessCleverPort } from '../simulator/in-process-port.ts';
import { SimulatedCloud } from '../simulator/model.ts';
import { PgLeases } from '../store/postgres/pg-leases.ts';
import { PostgresStore } from '../store/postgres/pg-store.ts';
import { LeaseKeeper } from '../team/lease-keeper.ts';
import { MONDAY_9AM } from '../testing/engine-harness.ts';
import {
  type PostgresCluster,
  postgresSkipReason,
  startPostgresCluster,
} from '../testing/postgres-cluster.ts';
import { until } from '../testing/serve-process.ts';
import { TEST_SERVER } from '../testing/test-server.ts';
import { type Headless, startHeadless } from './headless.ts';

const skip = postgresSkipReason();

const probe = async (server: Headless, path: '/readyz' | '/healthz') => {
  const res = await fetch(`${server.url}${path}`);
  return { status: res.status, body: await res.text() };
};

describe.skipIf(skip !== null)(`/readyz asks the leases${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let cluster: PostgresCluster;
  const dirs: string[] = [];
  beforeAll(async () => {
    cluster = await startPostgresCluster();
  }, 60_000);
  afterAll(async () => {
    await cluster?.stop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('a keeper that cannot take the free owners is not ready after a lease time', async () => {
    const url = await cluster.createDatabase();
    const store = await PostgresStore.open(url);
    const keeper = new LeaseKeeper({
      table: new PgLeases(store),
      instanceId: 'cannot-read',
      leaseMs: 600,
      owners: () => ['orga_a', 'orga_b'],
      onTaken: async () => {
        throw new Error('the records cannot be read');
      },
    });
    try {
      await keeper.start();
      // Just started: it waits for its share, which it tries again at each round.
      expect(await keeper.readiness()).toMatchObject({ ready: true, word: null });
      const late = await until('the keeper not ready', 5000, async () => {
        const r = await keeper.readiness();
        return r.ready ? null : r;
      });
      expect(late.word).toBe('leases');
      expect(late.reason).toContain('2 of 2 owners are free');
    } finally {
      await keeper.stop();
      await store.close();
    }
    // Stopped: not ready either.
    expect(await keeper.readiness()).toMatchObject({ ready: false, word: 'leases' });
  });

  it('holder and waiting instance ready; a stale heartbeat, lost connections, a stopped database', async () => {
    const database = await cluster.createDatabase();
    const clock = new ManualClock(MONDAY_9AM);
    const cloud = new SimulatedCloud(clock);
    const org = cloud.addOrganisation('Acme');
    const app = cloud.addApp(org.id, 'staging');
    const serve = async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'reaper-ready-'));
      dirs.push(dataDir);
      return startHeadless({
        ...TEST_SERVER,
        dataDir,
        database,
        // Rounds every 20 s: this test runs them by hand, so that nothing races its changes.
        leaseMs: 60_000,
        clever: new InProcessCleverPort(cloud),
        accountClock: clock,
      });
    };
    const a = await serve();
    let b: Headless | null = null;
    const db = new pg.Client({ connectionString: database });
    await db.connect();
    try {
      const res = await fetch(`${a.url}/api/routes`, {
        method: 'POST',
        headers: { authorization: `Bearer ${a.token.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ appId: app.id, ownerId: org.id }),
      });
      expect(res.status).toBe(201);
      const keeperA = a.service.current!.leases!;
      await until('the owner held by the first instance', 5000, async () =>
        keeperA.activeOwners().includes(org.id),
      );
      expect(await probe(a, '/readyz')).toEqual({ status: 200, body: 'ready' });
      expect(await keeperA.readiness()).toMatchObject({ reason: expect.stringContaining('holds 1 of 1') });

      b = await serve();
      const keeperB = b.service.current!.leases!;
      expect(keeperB.activeOwners()).toEqual([]);
      expect(await probe(b, '/readyz')).toEqual({ status: 200, body: 'ready' });
      expect((await keeperB.readiness()).reason).toContain('held by other live instances');

      // A heartbeat older than the lease time: its rounds fail, not ready; the next round mends it.
      await db.query('UPDATE instances SET seen_at = seen_at - 120000 WHERE id = $1', [keeperB.instanceId]);
      expect(await probe(b, '/readyz')).toEqual({ status: 503, body: 'heartbeat' });
      expect(await probe(b, '/healthz')).toEqual({ status: 200, body: 'ok' });
      await keeperB.runRound();
      expect(await probe(b, '/readyz')).toEqual({ status: 200, body: 'ready' });

      // Every connection of the reapers terminated by the server: the pools replace them.
      const killed = await db.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'clever-reaper'",
      );
      expect(killed.rowCount).toBeGreaterThan(0);
      for (const server of [a, b]) {
        await until('ready again after the connections were terminated', 10_000, async () => {
          const r = await probe(server, '/readyz');
          return r.status === 200 && r.body === 'ready';
        });
      }

      // The database stopped: not ready, and alive.
      await db.end().catch(() => {});
      await cluster.stop();
      for (const server of [a, b]) {
        expect(await probe(server, '/readyz')).toEqual({ status: 503, body: 'datastore' });
        expect(await probe(server, '/healthz')).toEqual({ status: 200, body: 'ok' });
      }
    } finally {
      await db.end().catch(() => {});
      await b?.close();
      await a.close();
    }
  }, 60_000);
});
