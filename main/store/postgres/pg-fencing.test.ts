/**
 * Fencing, two engines on one PostgreSQL: the instance holding an owner is paused (its lease rounds
 * stop) until its lease expires and the other instance takes the owner over. Resumed, the paused
 * engine still believes it holds the owner and decides a stop: its write is refused (LeaseLost) in
 * the transaction of the state change, so its stop never reaches Clever Cloud; the new holder, which
 * read the owner's records again on takeover, stops the app once.
 *
 * And the pause that fencing the writes cannot see (issue 22, the double stop of the long fault run):
 * the holder paused after its stop's write committed and before the stop left. The new holder finds
 * the stop pending, sees no UNDEPLOY a minute later and sends it; the resumed ex-holder's stop is
 * refused before it leaves (its lease, as it last renewed it, ran out during the pause): one stop.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUR, MINUTE } from '../../../shared/durations.ts';
import type { StoreCommit } from '../../../shared/port-errors.ts';
import { ManualClock } from '../../engine/clocks.ts';
import type { EngineStore } from '../../engine/ports.ts';
import { SimulatedCloud } from '../../simulator/model.ts';
import { MONDAY_9AM } from '../../testing/engine-harness.ts';
import { FENCED_LEASE_MS, fencedEngines } from '../../testing/fenced-engines.ts';
import {
  type PostgresCluster,
  postgresSkipReason,
  startPostgresCluster,
} from '../../testing/postgres-cluster.ts';
import type { PostgresStore } from './pg-store.ts';

const skip = postgresSkipReason();

describe.skipIf(skip !== null)(`fencing between two engines${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let cluster: PostgresCluster;
  beforeAll(async () => {
    cluster = await startPostgresCluster();
  }, 60_000);
  afterAll(() => cluster?.stop());

  it('a paused holder resumed after a takeover cannot act: its write fails with LeaseLost', async () => {
    const url = await cluster.createDatabase();
    const clock = new ManualClock(MONDAY_9AM);
    const cloud = new SimulatedCloud(clock);
    const org = cloud.addOrganisation('Acme');
    const logs: [string, string][] = [];
    const { a, b, calls, ...engines } = await fencedEngines({
      url,
      cloud,
      ownerId: org.id,
      clock: () => clock,
      logOfA: (level, message) => logs.push([level, message]),
    });
    /** Advance the shared clock in steps, letting both engines' PostgreSQL writes land. */
    const advance = async (ms: number, step = MINUTE) => {
      for (let t = 0; t < ms; t += step) {
        await clock.advance(step);
        await a.h.idle();
        await b.h.idle();
      }
    };
    try {
      const app = await engines.start('review');
      expect(a.keeper.acts(org.id)).toBe(true);
      expect(b.keeper.acts(org.id)).toBe(false);
      await advance(5 * MINUTE);
      expect(a.h.state(app.id)).toBe('Up');

      // a is paused: no more rounds; its lease runs out, and b takes the owner over
      await a.store.transaction((c) => c.query('UPDATE leases SET expires_at = 0'));
      await b.keeper.runRound();
      expect(b.keeper.acts(org.id)).toBe(true);
      expect(b.keeper.guard(org.id).token).toBe(2);
      expect(b.h.state(app.id)).toBe('Up'); // read again from the datastore on takeover

      // a resumes still believing it holds the owner: the grace ends, both decide a stop
      expect(a.keeper.acts(org.id)).toBe(true);
      await advance(HOUR + 10 * MINUTE);
      expect(calls[0]).toEqual([]);
      expect(calls[1]).toEqual([`stop ${app.id}`]);
      expect(b.h.state(app.id)).toBe('Down');
      expect(a.h.state(app.id)).toBe('Up'); // its refused decision was never applied
      expect(a.h.engine.storage).toBeNull();
      expect(
        logs.some(([level, m]) => level === 'info' && /no longer held by instance-0 \(token 1\)/.test(m)),
      ).toBe(true);
      const stored = (await b.store.loadRecords()).find((r) => r.appId === app.id);
      expect(stored).toMatchObject({ state: 'Down' });

      // a's next round finds the lease gone: it stops acting on the owner
      await a.keeper.runRound();
      expect(a.keeper.acts(org.id)).toBe(false);
    } finally {
      await engines.stop();
    }
  });
  it('a holder paused between the write of its stop and the stop, resumed after a takeover: its stop is refused before it leaves', async () => {
    const url = await cluster.createDatabase();
    // b's clock is the world's (the simulator's); a's stands still while a is paused, then catches up.
    const clock = new ManualClock(MONDAY_9AM);
    const clockA = new ManualClock(MONDAY_9AM);
    const cloud = new SimulatedCloud(clock);
    const org = cloud.addOrganisation('Acme');
    const logs: string[] = [];
    const LEASE = FENCED_LEASE_MS;
    /** a's monotonic real time, the lease keeper's: a pause moves it on. */
    let realA = 0;
    /** Armed: a's next write asking for a stop, once committed, waits here (a is paused there). */
    let pauseAfterStopWrite: { paused: () => void; resumed: Promise<void> } | null = null;
    const pausing = (store: PostgresStore): EngineStore => ({
      loadRecords: () => store.loadRecords(),
      commit: async (change, guard) => {
        await store.commit(change, guard);
        const list = Array.isArray(change) ? change : [change];
        const pause = pauseAfterStopWrite;
        if (pause && list.some((c: StoreCommit) => c.upsert?.pendingCall === 'stop')) {
          pauseAfterStopWrite = null;
          pause.paused();
          await pause.resumed;
        }
      },
    });
    const { a, b, calls, ...engines } = await fencedEngines({
      url,
      cloud,
      ownerId: org.id,
      clock: (i) => (i === 0 ? clockA : clock),
      storeOfA: pausing,
      nowOfA: () => realA,
      logOfA: (_level, message) => logs.push(message),
      callRefusal: true,
    });
    /** The world's time moves; a's with it unless it is paused. */
    const advance = async (ms: number, withA: boolean) => {
      for (let t = 0; t < ms; t += MINUTE) {
        await clock.advance(MINUTE);
        if (withA) {
          await clockA.advance(MINUTE);
          await a.h.idle();
        }
        await b.h.idle();
      }
    };
    const undeploys = (appId: string) =>
      cloud.apps.get(appId)!.deployments.filter((d) => d.action === 'UNDEPLOY').length;
    try {
      const app = await engines.start('review');
      expect(a.keeper.acts(org.id)).toBe(true);
      await advance(5 * MINUTE, true);
      expect(a.h.state(app.id)).toBe('Up');

      // The grace ends: a writes its stop (the lease is held: the write passes) and is paused there.
      let resume = () => {};
      const resumed = new Promise<void>((r) => {
        resume = r;
      });
      const paused = new Promise<void>((r) => {
        pauseAfterStopWrite = { paused: r, resumed };
      });
      const toGrace = HOUR - 5 * MINUTE + MINUTE;
      await clock.advance(toGrace);
      await clockA.advance(toGrace);
      await paused;
      expect(calls[0]).toEqual([]);
      const stored = (await b.store.loadRecords()).find((r) => r.appId === app.id);
      expect(stored).toMatchObject({ state: 'WaitingForShutdown', pendingCall: 'stop' });

      // Paused past its lease: the database's clock ends it, b takes the owner over and reads the
      // stop pending; a minute later with no UNDEPLOY listed, b sends it.
      realA += LEASE + MINUTE;
      await a.store.transaction((c) => c.query('UPDATE leases SET expires_at = 0'));
      await b.keeper.runRound();
      expect(b.keeper.acts(org.id)).toBe(true);
      await advance(2 * MINUTE, false);
      expect(calls[1]).toEqual([`stop ${app.id}`]);
      expect(undeploys(app.id)).toBe(1);

      // a resumes where it was paused: its stop would leave now, whoever holds the owner. Refused.
      resume();
      await clockA.advanceTo(clock.now());
      await a.h.idle();
      expect(calls[0]).toEqual([]);
      expect(undeploys(app.id)).toBe(1);
      expect(logs.some((m) => /the stop of .* was not sent: the lease of .* was last renewed/.test(m))).toBe(
        true,
      );

      // a's next round finds the lease gone; the app ends Down, stopped once.
      await a.keeper.runRound();
      expect(a.keeper.acts(org.id)).toBe(false);
      await advance(5 * MINUTE, true);
      expect(b.h.state(app.id)).toBe('Down');
      expect(calls).toEqual([[], [`stop ${app.id}`]]);
      expect(undeploys(app.id)).toBe(1);
    } finally {
      await engines.stop();
    }
  });
});
