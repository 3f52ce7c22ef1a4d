/**
 * Two engines on one PostgreSQL database, each with its lease keeper (rounds by hand only: the
 * lease lasts 10 minutes) and its recorded calls, on one simulated Clever Cloud with one owner: the
 * set-up of the fencing tests (a holder paused, the owner taken over, the holder resumed).
 * Test-only.
 */
import { HOUR } from '../../shared/durations.ts';
import type { Log } from '../../shared/log.ts';
import type { ManualClock } from '../engine/clocks.ts';
import type { CleverCloudPort, EngineStore } from '../engine/ports.ts';
import { InProcessCleverPort } from '../simulator/in-process-port.ts';
import type { SimulatedCloud } from '../simulator/model.ts';
import { PgLeases } from '../store/postgres/pg-leases.ts';
import { PostgresStore } from '../store/postgres/pg-store.ts';
import { LeaseKeeper } from '../team/lease-keeper.ts';
import { harness } from './engine-harness.ts';

/** The lease of the fencing tests: no round runs by itself during a test. */
export const FENCED_LEASE_MS = 10 * 60_000;

/** The port, recording each stop and start sent through it. */
function recording(port: CleverCloudPort, calls: string[]): CleverCloudPort {
  return {
    listOwners: (o) => port.listOwners(o),
    listApplications: (owner, o) => port.listApplications(owner, o),
    getApplication: (owner, app, o) => port.getApplication(owner, app, o),
    listDeployments: (owner, app, o) => port.listDeployments(owner, app, o),
    stopApplication: (owner, app, o) => {
      calls.push(`stop ${app}`);
      return port.stopApplication(owner, app, o);
    },
    startApplication: (owner, app, o) => {
      calls.push(`start ${app}`);
      return port.startApplication(owner, app, o);
    },
  };
}

export interface FencedEngine {
  h: ReturnType<typeof harness>;
  keeper: LeaseKeeper;
  store: PostgresStore;
}

export interface FencedEngines {
  a: FencedEngine;
  b: FencedEngine;
  /** The stops and starts each engine sent, a's then b's. */
  calls: [string[], string[]];
  /** Put `name` under the reaper (a one-hour grace period) and start a, then b: a holds the owner. */
  start(name: string): Promise<ReturnType<FencedEngine['h']['manage']>>;
  /** Stop both keepers, both engines, and close both stores. */
  stop(): Promise<void>;
}

export async function fencedEngines(options: {
  url: string;
  cloud: SimulatedCloud;
  ownerId: string;
  /** Each engine's clock (0: a, 1: b). */
  clock: (i: 0 | 1) => ManualClock;
  /** What engine a writes to (its store, by default). */
  storeOfA?: (store: PostgresStore) => EngineStore;
  /** a's lease keeper's monotonic time, when not the real one. */
  nowOfA?: () => number;
  /** a's diagnostics. */
  logOfA?: Log;
  /** Whether a start or stop is refused before it leaves when the lease is stale. */
  callRefusal?: boolean;
}): Promise<FencedEngines> {
  const { cloud, ownerId } = options;
  const stores = [await PostgresStore.open(options.url), await PostgresStore.open(options.url)] as const;
  const calls: [string[], string[]] = [[], []];
  const [a, b] = ([0, 1] as const).map((i): FencedEngine => {
    const store = stores[i];
    const keeper: LeaseKeeper = new LeaseKeeper({
      table: new PgLeases(store),
      instanceId: `instance-${i}`,
      leaseMs: FENCED_LEASE_MS,
      owners: () => [ownerId],
      onTaken: (owners) => h.engine.reloadOwners(owners),
      onActive: (owners) => h.engine.actOn(owners),
      ...(i === 0 && options.nowOfA ? { now: options.nowOfA } : {}),
    });
    const h = harness({
      clock: options.clock(i),
      cloud,
      port: recording(new InProcessCleverPort(cloud), calls[i]),
      engineStore: i === 0 && options.storeOfA ? options.storeOfA(store) : store,
      acts: (owner) => keeper.acts(owner),
      ...(options.callRefusal ? { callRefusal: (owner: string) => keeper.callRefusal(owner) } : {}),
      leaseGuard: (owner) => keeper.guard(owner),
      ...(i === 0 && options.logOfA ? { log: options.logOfA } : {}),
    });
    return { h, keeper, store };
  }) as [FencedEngine, FencedEngine];
  return {
    a,
    b,
    calls,
    async start(name) {
      const app = a.h.manage(name, {}, { gracePeriodMs: HOUR });
      b.h.config.createRoute({ appId: app.id, ownerId, gracePeriodMs: HOUR });
      await a.h.engine.start();
      await a.keeper.start();
      await b.h.engine.start();
      await b.keeper.start();
      return app;
    },
    async stop() {
      for (const i of [a, b]) await i.keeper.stop();
      for (const i of [a, b]) await i.h.engine.stop();
      for (const s of stores) await s.close();
    },
  };
}
