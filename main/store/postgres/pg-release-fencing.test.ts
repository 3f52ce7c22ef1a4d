/**
 * Team mode: a release (the app's route removed) starts a sleeping app before forgetting it. That
 * start is a Clever Cloud call like any other: it follows a write that checks the lease, so an
 * instance that lost the owner's lease (paused, taken over) sends nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUR, MINUTE } from '../../../shared/durations.ts';
import { ManualClock } from '../../engine/clocks.ts';
import type { CleverCloudPort } from '../../engine/ports.ts';
import { InProcessCleverPort } from '../../simulator/in-process-port.ts';
import { SimulatedCloud } from '../../simulator/model.ts';
import { harness, MONDAY_9AM } from '../../testing/engine-harness.ts';
import {
  type PostgresCluster,
  postgresSkipReason,
  startPostgresCluster,
} from '../../testing/postgres-cluster.ts';
import { PostgresStore } from './pg-store.ts';

const skip = postgresSkipReason();

describe.skipIf(skip !== null)(`a release in team mode${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let cluster: PostgresCluster;
  beforeAll(async () => {
    cluster = await startPostgresCluster();
  }, 60_000);
  afterAll(() => cluster?.stop());

  it('does not start the app once the lease is lost: its write is refused first', async () => {
    const pg = await PostgresStore.open(await cluster.createDatabase());
    const clock = new ManualClock(MONDAY_9AM);
    const cloud = new SimulatedCloud(clock);
    const inner = new InProcessCleverPort(cloud);
    const calls: string[] = [];
    const port: CleverCloudPort = {
      listOwners: () => inner.listOwners(),
      listApplications: (owner) => inner.listApplications(owner),
      getApplication: (owner, app) => inner.getApplication(owner, app),
      listDeployments: (owner, app, o) => inner.listDeployments(owner, app, o),
      stopApplication: (owner, app) => {
        calls.push('stop');
        return inner.stopApplication(owner, app);
      },
      startApplication: (owner, app) => {
        calls.push('start');
        return inner.startApplication(owner, app);
      },
    };
    let fenced = false;
    const h = harness({
      clock,
      cloud,
      port,
      engineStore: pg,
      // Fenced: a lease no row matches (this instance lost it); else writes are not fenced.
      leaseGuard: (ownerId) => (fenced ? { ownerId, holder: 'instance-a', token: 1 } : null),
    });
    /** Advance in steps, each once the engine is idle (PostgreSQL's answers in, evaluations done). */
    const advance = async (ms: number) => {
      for (let t = 0; t < ms; t += MINUTE) {
        await clock.advance(MINUTE);
        await h.idle();
      }
    };
    try {
      const app = h.manage('idle-review', {}, { gracePeriodMs: HOUR });
      await h.engine.start();
      await advance(2 * HOUR);
      expect(h.state(app.id)).toBe('Down');
      expect(calls).toEqual(['stop']);

      h.config.deleteRoute(h.config.routes()[0]!.id);
      await advance(MINUTE);
      expect(h.engine.get(app.id)?.releaseNoticedAt).not.toBeNull();
      fenced = true; // the lease is lost before the release delay ends
      await advance(15 * MINUTE);
      expect(calls).toEqual(['stop']); // no start sent without the lease
      expect(h.state(app.id)).toBe('Down'); // kept: the holder releases it

      fenced = false; // held again: the release goes on, the app started then forgotten
      await advance(5 * MINUTE);
      expect(calls).toEqual(['stop', 'start']);
      expect(h.engine.get(app.id)).toBeUndefined();
    } finally {
      await h.engine.stop();
      await pg.close();
    }
  });
});
