/**
 * The engine on PostgreSQL: its writes answer later (a promise), and still each state change and its
 * history entries are committed before the Clever Cloud call they ask for; a refused write (here, a
 * lease lost) is announced once and stops the call; a restart finds every record and entry.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppRecord } from '../../../shared/domain.ts';
import { HOUR, MINUTE, SECOND } from '../../../shared/durations.ts';
import type { Log } from '../../../shared/log.ts';
import { LeaseLost } from '../../../shared/port-errors.ts';
import { ManualClock } from '../../engine/clocks.ts';
import { Engine } from '../../engine/engine.ts';
import type { CleverCloudPort, EngineStore } from '../../engine/ports.ts';
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

/** The store with its writes under way tracked, so that a test on a manual clock can wait for them. */
function tracked(store: PostgresStore): EngineStore & {
  quiet(): Promise<void>;
  track<T>(p: Promise<T>): Promise<T>;
} {
  const inFlight = new Set<Promise<unknown>>();
  const track = <T>(p: Promise<T>): Promise<T> => {
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p)).catch(() => {});
    return p;
  };
  return {
    track,
    loadRecords: () => track(store.loadRecords()),
    commit: (change, guard) => track(store.commit(change, guard)),
    async quiet() {
      for (let i = 0; i < 50; i++) {
        await Promise.allSettled([...inFlight]);
        await new Promise((resolve) => setImmediate(resolve));
        if (inFlight.size === 0) return;
      }
    },
  };
}

/** The port, noting for each stop and start what PostgreSQL held for the app when it was sent. */
function witnessed(port: CleverCloudPort, store: PostgresStore, track: <T>(p: Promise<T>) => Promise<T>) {
  const calls: { call: 'stop' | 'start'; appId: string; stored: AppRecord | undefined }[] = [];
  const stored = async (appId: string) => (await track(store.loadRecords())).find((r) => r.appId === appId);
  const wrapped: CleverCloudPort = {
    listOwners: (o) => port.listOwners(o),
    listApplications: (owner, o) => port.listApplications(owner, o),
    getApplication: (owner, app, o) => port.getApplication(owner, app, o),
    listDeployments: (owner, app, o) => port.listDeployments(owner, app, o),
    async stopApplication(owner, app, o) {
      calls.push({ call: 'stop', appId: app, stored: await stored(app) });
      return port.stopApplication(owner, app, o);
    },
    async startApplication(owner, app, o) {
      calls.push({ call: 'start', appId: app, stored: await stored(app) });
      return port.startApplication(owner, app, o);
    },
  };
  return { port: wrapped, calls };
}

describe.skipIf(skip !== null)(`the engine on PostgreSQL${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let cluster: PostgresCluster;
  beforeAll(async () => {
    cluster = await startPostgresCluster();
  }, 60_000);
  afterAll(() => cluster?.stop());

  function setup(pg: PostgresStore, fenced?: () => boolean, log?: Log) {
    const clock = new ManualClock(MONDAY_9AM);
    const cloud = new SimulatedCloud(clock);
    const store = tracked(pg);
    const { port, calls } = witnessed(new InProcessCleverPort(cloud), pg, store.track);
    const h = harness({
      clock,
      cloud,
      port,
      engineStore: store,
      ...(log ? { log } : {}),
      ...(fenced
        ? { leaseGuard: (ownerId) => (fenced() ? { ownerId, holder: 'instance-a', token: 1 } : null) }
        : {}),
    });
    /** Advance in steps, waiting for PostgreSQL at each; the time `predicate` first held, or null. */
    const until = async (predicate: () => boolean, limitMs: number, stepMs = 5 * SECOND) => {
      const end = clock.now() + limitMs;
      while (clock.now() < end) {
        await store.quiet();
        if (predicate()) return clock.now();
        await clock.advance(stepMs);
      }
      await store.quiet();
      return predicate() ? clock.now() : null;
    };
    return { h, calls, store, until };
  }

  it('commits each change before the call it asks for, and a restart finds it all', async () => {
    const url = await cluster.createDatabase();
    const pg = await PostgresStore.open(url);
    try {
      const { h, calls, store, until } = setup(pg);
      const app = h.manage('idle-review', {}, { gracePeriodMs: HOUR });
      await h.engine.start();
      await store.quiet();
      expect(await until(() => h.state(app.id) === 'Down', 2 * HOUR)).not.toBeNull();
      await h.engine.wake(app.id, 'dashboard');
      expect(await until(() => h.state(app.id) === 'Up', 10 * MINUTE)).not.toBeNull();
      await h.engine.stop();

      expect(calls.map((c) => c.call)).toEqual(['stop', 'start']);
      expect(calls[0]!.stored).toMatchObject({ state: 'WaitingForShutdown', pendingCall: 'stop' });
      expect(calls[1]!.stored).toMatchObject({ state: 'WaitingForUp', pendingCall: 'start' });

      const again = await PostgresStore.open(url);
      try {
        const restarted = new Engine({ clock: h.clock, clever: h.port, store: again, config: h.config });
        await restarted.start();
        expect(restarted.get(app.id)).toEqual(h.engine.get(app.id));
        await restarted.stop();
        const kinds = (await again.historyOf(app.id)).reverse().map((e) => `${e.kind}:${e.to ?? ''}`);
        expect(kinds).toEqual(
          expect.arrayContaining(['transition:Down', 'stop-asked:', 'start-asked:', 'transition:Up']),
        );
        expect(kinds.indexOf('transition:Down')).toBeLessThan(kinds.lastIndexOf('transition:Up'));
      } finally {
        await again.close();
      }
    } finally {
      await pg.close();
    }
  });

  it('a write refused for a lease lost stops the call it asked for, logged at info, not a storage problem', async () => {
    const url = await cluster.createDatabase();
    const pg = await PostgresStore.open(url);
    let fenced = false;
    const logged: [string, string][] = [];
    try {
      const { h, calls, until } = setup(
        pg,
        () => fenced,
        (level, message) => logged.push([level, message]),
      );
      const storage: (string | null)[] = [];
      h.engine.on((e) => {
        if (e.type === 'storage') storage.push(e.problem);
      });
      const app = h.manage('idle-review', {}, { gracePeriodMs: HOUR });
      await h.engine.start();
      expect(await until(() => h.state(app.id) === 'Up', 10 * MINUTE)).not.toBeNull();
      fenced = true; // no lease row: every write of this owner is refused from now on
      await until(() => false, 2 * HOUR, MINUTE);
      expect(h.state(app.id)).toBe('Up');
      expect(calls).toEqual([]);
      // A handover is normal: no storage problem shown, the refusal logged at info.
      expect(storage).toEqual([]);
      const lost = new LeaseLost({ ownerId: app.ownerId, holder: 'instance-a', token: 1 }).message;
      expect(logged.filter(([, m]) => m.includes(lost)).map(([level]) => level)).toContain('info');
      expect(logged.some(([level, m]) => level !== 'info' && m.includes(lost))).toBe(false);
      fenced = false;
      expect(await until(() => h.state(app.id) === 'Down', 10 * MINUTE)).not.toBeNull();
      expect(calls.map((c) => c.call)).toEqual(['stop']);
      expect(storage).toEqual([]);
      await h.engine.stop();
    } finally {
      await pg.close();
    }
  });
});
