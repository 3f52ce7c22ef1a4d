/**
 * Leases per owner on a real PostgreSQL: balanced across the live instances, given back at once on
 * stop, taken over after expiry with a new fencing token, and a write with the old token refused;
 * a start or a stop refused once the lease, as this instance last renewed it, may have run out.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newRecord } from '../../shared/domain.ts';
import { LeaseLost } from '../../shared/port-errors.ts';
import { PgLeases } from '../store/postgres/pg-leases.ts';
import { PostgresStore } from '../store/postgres/pg-store.ts';
import {
  type PostgresCluster,
  postgresSkipReason,
  startPostgresCluster,
} from '../testing/postgres-cluster.ts';
import { LeaseKeeper } from './lease-keeper.ts';

const skip = postgresSkipReason();
const OWNERS = ['orga_a', 'orga_b', 'orga_c', 'user_d'];

describe.skipIf(skip !== null)(`leases per owner${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let cluster: PostgresCluster;
  beforeAll(async () => {
    cluster = await startPostgresCluster();
  }, 60_000);
  afterAll(() => cluster?.stop());

  it('balances owners across instances, gives them back on stop, fences a stale holder', async () => {
    const url = await cluster.createDatabase();
    const stores = [await PostgresStore.open(url), await PostgresStore.open(url)];
    const taken: string[][] = [[], []];
    const keepers = stores.map(
      (store, i) =>
        new LeaseKeeper({
          table: new PgLeases(store),
          instanceId: `instance-${i}`,
          leaseMs: 60_000, // rounds run by hand here
          owners: () => OWNERS,
          onTaken: async (owners) => void taken[i]!.push(...owners),
        }),
    );
    const [a, b] = keepers as [LeaseKeeper, LeaseKeeper];
    try {
      await a.start();
      expect(a.activeOwners()).toEqual(OWNERS);
      await b.start(); // sees two live instances: its share is 2, none free yet
      expect(b.activeOwners()).toEqual([]);
      await a.runRound(); // gives back the extra two
      await b.runRound(); // takes them
      expect(a.activeOwners()).toHaveLength(2);
      expect(b.activeOwners()).toHaveLength(2);
      expect([...a.activeOwners(), ...b.activeOwners()].sort()).toEqual(OWNERS);
      const moved = b.activeOwners()[0]!;
      expect(b.guard(moved).token).toBe(2); // first a's (1), then b's (2)

      // a stale guard (a's token of an owner b holds now) is refused in the commit's transaction
      const record = newRecord('app_1', moved, 'one', Date.now());
      const stale = { ownerId: moved, holder: a.instanceId, token: 1 };
      await expect(stores[0]!.commit({ upsert: record, history: [] }, stale)).rejects.toBeInstanceOf(
        LeaseLost,
      );
      expect(await stores[0]!.loadRecords()).toEqual([]);
      await stores[1]!.commit({ upsert: record, history: [] }, b.guard(moved));
      expect(await stores[0]!.loadRecords()).toHaveLength(1);
      // a guard of an owner not held never passes
      await expect(stores[0]!.commit({ history: [] }, a.guard(moved))).rejects.toBeInstanceOf(LeaseLost);

      await b.stop(); // gives its leases back at once
      await a.runRound();
      expect(a.activeOwners()).toEqual(OWNERS);
      expect(a.guard(moved).token).toBe(3);
    } finally {
      for (const k of keepers) await k.stop();
      for (const s of stores) await s.close();
    }
  });

  it('an expired lease is taken over; its former holder drops it at its next round', async () => {
    const url = await cluster.createDatabase();
    const stores = [await PostgresStore.open(url), await PostgresStore.open(url)];
    const lost: string[] = [];
    const a = new LeaseKeeper({
      table: new PgLeases(stores[0]!),
      instanceId: 'a',
      leaseMs: 600,
      owners: () => OWNERS.slice(0, 2),
      onLetGo: async (o) => void lost.push(...o),
    });
    const b = new LeaseKeeper({
      table: new PgLeases(stores[1]!),
      instanceId: 'b',
      leaseMs: 600,
      owners: () => [],
    });
    try {
      // rounds by hand, no timer: a is "paused" after this one
      (a as unknown as { running: boolean }).running = true;
      await a.runRound();
      expect(a.activeOwners()).toEqual(OWNERS.slice(0, 2));
      await new Promise((r) => setTimeout(r, 700));
      await b.start();
      expect(b.activeOwners()).toEqual(OWNERS.slice(0, 2));
      expect(a.acts(OWNERS[0]!)).toBe(true); // it does not know yet
      await expect(stores[0]!.commit({ history: [] }, a.guard(OWNERS[0]!))).rejects.toBeInstanceOf(LeaseLost);
      await a.runRound();
      expect(a.activeOwners()).toEqual([]);
      expect(lost.sort()).toEqual(OWNERS.slice(0, 2));
    } finally {
      await b.stop();
      await a.stop();
      for (const s of stores) await s.close();
    }
  });
  it('a call may leave only while the lease, as last renewed, has more than a sixth of its time left', async () => {
    const url = await cluster.createDatabase();
    const store = await PostgresStore.open(url);
    const LEASE = 60_000; // rounds by hand; the keeper's monotonic clock is the test's
    let now = 1_000;
    const keeper = new LeaseKeeper({
      table: new PgLeases(store),
      instanceId: 'a',
      leaseMs: LEASE,
      owners: () => OWNERS.slice(0, 1),
      now: () => now,
    });
    const owner = OWNERS[0]!;
    try {
      expect(keeper.callRefusal(owner)).toMatch(/does not act on orga_a/);
      await keeper.start(); // takes the owner: its lease ends at 1,000 + 60,000 on this clock
      expect(keeper.callRefusal(owner)).toBeNull();
      now += LEASE - LEASE / 6 - 1; // just more than a sixth left
      expect(keeper.callRefusal(owner)).toBeNull();
      now += 1; // a sixth left: a call under way might reach Clever Cloud after the lease
      expect(keeper.callRefusal(owner)).toMatch(
        /last renewed 50000 ms ago \(lease 60000 ms\): it may have run out/,
      );
      now += LEASE; // paused past the lease, and not told yet: still acting, its calls refused
      expect(keeper.acts(owner)).toBe(true);
      expect(keeper.callRefusal(owner)).not.toBeNull();
      await keeper.runRound(); // the database still says it holds it: renewed from this round's start
      expect(keeper.callRefusal(owner)).toBeNull();
      expect(keeper.callRefusal(OWNERS[1]!)).toMatch(/does not act on orga_b/);
    } finally {
      await keeper.stop();
      await store.close();
    }
    expect(keeper.callRefusal(owner)).toMatch(/does not act/);
  });
});
