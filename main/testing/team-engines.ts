/**
 * Team mode in one process, for model-based tests: engine instances on one PostgreSQL, each with its
 * own pool, lease keeper, HTTP client and simulator endpoint, on one manual clock. Test-only.
 *
 * Every input and output of an instance passes a gate (its Clever Cloud calls, its datastore reads
 * and writes, its timers), so that an instance can be:
 * - paused: what it sends waits, answers that arrive wait, timers that come due wait, all until it
 *   is resumed (a SIGSTOP and SIGCONT; a request or a query already on the wire is carried out);
 * - killed: nothing more goes in or out and its timers never fire, its leases are not given back
 *   (a SIGKILL between two round trips).
 *
 * Lease time is judged on the database's clock (real time). The tests keep real-time expiry out of
 * reach (a lease of an hour, rounds run by hand) and let a lease run out on the manual clock instead:
 * an instance that ran no round for the lease time has its rows expired by the test, which is what
 * PostgreSQL's clock would do after that long.
 */
import type pg from 'pg';
import { type LeaseGuard, LeaseLost, type StoreCommit } from '../../shared/port-errors.ts';
import { CleverClient } from '../clever/client.ts';
import { operatorCredentials } from '../clever/credentials.ts';
import type { ManualClock } from '../engine/clocks.ts';
import { Engine } from '../engine/engine.ts';
import type { CleverCloudPort, EngineStore } from '../engine/ports.ts';
import type { SimulatedCloud } from '../simulator/model.ts';
import { DEMO_CREDENTIALS, type SimulatorServer, startSimulatorServer } from '../simulator/server.ts';
import type { ConfigStore } from '../store/config-store.ts';
import { PgLeases } from '../store/postgres/pg-leases.ts';
import { DB_NOW, PostgresStore } from '../store/postgres/pg-store.ts';
import { LeaseKeeper } from '../team/lease-keeper.ts';
import { Gate, GatedClock } from './gate.ts';

/** A start or stop an instance is about to send (its write is committed; the call is not sent yet). */
export interface Send {
  instance: TeamInstance;
  call: 'start' | 'stop';
  ownerId: string;
  appId: string;
  /** The instance was paused between the write that asked for the call and now. */
  pausedSinceWrite: boolean;
}

/** A write an instance committed (the database said COMMIT), in the order they were committed. */
export interface Committed {
  instance: string;
  change: StoreCommit;
  guard: LeaseGuard | undefined;
}

export interface TeamWorld {
  clock: ManualClock;
  cloud: SimulatedCloud;
  url: string;
  /** The same routes and settings for every instance (team mode shares them through PostgreSQL). */
  config: () => ConfigStore;
  /** Called (awaited, on the wire) before a start or a stop leaves the instance. */
  beforeSend: (send: Send) => Promise<void>;
  /**
   * A start or a stop reaches the simulator through this instance's endpoint: called before the
   * simulator carries it out, and after (with the deployment a start made).
   */
  arrived: (
    instance: TeamInstance,
    call: 'start' | 'stop',
    appId: string,
    phase: 'before' | 'after',
    deploymentId: string | null,
  ) => void;
  committed: Committed[];
  /** Writes the datastore refused for a lease no longer held (fencing at work). */
  refused: number;
  /**
   * The lease time on the manual clock (the test expires a lease after it). Given, each instance's
   * lease keeper judges its leases on the manual clock too, so that a start or a stop is refused
   * once the lease it last renewed may have run out (LeaseKeeper.callRefusal), as on real time.
   */
  leaseMs?: number;
}

/** The leases' time on the database's clock: never runs out during a run (the test expires them). */
const KEEPER_LEASE_MS = 60 * 60_000;

export interface TeamInstance {
  readonly id: string;
  readonly gate: Gate;
  readonly engine: Engine;
  readonly keeper: LeaseKeeper;
  readonly store: PostgresStore;
  readonly sim: SimulatorServer;
  readonly config: ConfigStore;
  /** The manual-clock time of its last lease round. */
  lastRound: number;
  /** Its leases were expired by the test (it ran no round for the lease time). */
  expired: boolean;
}

/** The simulated Clever Cloud as this instance's endpoint sees it: its starts and stops noted. */
function endpointCloud(
  cloud: SimulatedCloud,
  onCall: (call: 'start' | 'stop', appId: string, phase: 'before' | 'after', id: string | null) => void,
) {
  return new Proxy(cloud, {
    get(target, prop, receiver) {
      if (prop === 'start') {
        return (ownerId: string, appId: string, cause?: string) => {
          onCall('start', appId, 'before', null);
          const answer = target.start(ownerId, appId, cause);
          onCall('start', appId, 'after', answer.deploymentId);
          return answer;
        };
      }
      if (prop === 'stop') {
        return (ownerId: string, appId: string, cause?: string) => {
          onCall('stop', appId, 'before', null);
          target.stop(ownerId, appId, cause);
          onCall('stop', appId, 'after', null);
        };
      }
      const value = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** Start an instance: its endpoint, pool, engine and lease keeper (its first round is run). */
export async function startInstance(world: TeamWorld, id: string): Promise<TeamInstance> {
  const gate = new Gate();
  const self = {} as TeamInstance & { lastRound: number; expired: boolean };
  const sim = await startSimulatorServer({
    cloud: endpointCloud(world.cloud, (call, appId, phase, deploymentId) =>
      world.arrived(self, call, appId, phase, deploymentId),
    ),
  });
  const o = DEMO_CREDENTIALS.oauth;
  const client = new CleverClient({
    credentials: operatorCredentials(
      { kind: 'oauth1', token: o.token, secret: o.secret },
      { consumerKey: o.consumerKey, consumerSecret: o.consumerSecret },
    ),
    apiHost: sim.url,
    timeoutMs: 5000,
    retryLimit: 1,
    backoffLimitMs: 20,
  });
  /** The write of each app that last asked for a call: the pauses seen when it began. */
  const askedAt = new Map<string, number>();
  const send = async (call: 'start' | 'stop', ownerId: string, appId: string) => {
    const pausedSinceWrite = (askedAt.get(appId) ?? gate.pauses) !== gate.pauses;
    await world.beforeSend({ instance: self, call, ownerId, appId, pausedSinceWrite });
  };
  const port: CleverCloudPort = {
    listOwners: (o) => gate.run(() => client.listOwners(o)),
    listApplications: (owner, o) => gate.run(() => client.listApplications(owner, o)),
    getApplication: (owner, app, o) => gate.run(() => client.getApplication(owner, app, o)),
    listDeployments: (owner, app, o) => gate.run(() => client.listDeployments(owner, app, o)),
    startApplication: (owner, app, o) =>
      gate.run(async () => {
        await send('start', owner, app);
        return client.startApplication(owner, app, o);
      }),
    stopApplication: (owner, app, o) =>
      gate.run(async () => {
        await send('stop', owner, app);
        return client.stopApplication(owner, app, o);
      }),
  };
  const store = await PostgresStore.open(world.url, { max: 4 });
  const engineStore: EngineStore = {
    loadRecords: () => gate.run(() => store.loadRecords()),
    commit: (change, guard) =>
      gate.run(async () => {
        const pauses = gate.pauses;
        try {
          await store.commit(change, guard);
        } catch (error) {
          if (error instanceof LeaseLost) world.refused++;
          throw error;
        }
        for (const one of Array.isArray(change) ? change : [change as StoreCommit]) {
          world.committed.push({ instance: id, change: one, guard });
          const r = one.upsert;
          if (r?.pendingCall) {
            askedAt.set(r.appId, pauses);
            gate.asked();
          }
        }
      }),
  };
  const config = world.config();
  let engine: Engine | null = null;
  const keeper = new LeaseKeeper({
    table: new PgLeases(store),
    instanceId: id,
    // Never runs out on the database's clock during a run: the test expires leases on the manual clock.
    leaseMs: KEEPER_LEASE_MS,
    // Its own clock: the manual one, scaled so that its lease time is the test's.
    ...(world.leaseMs ? { now: () => world.clock.now() * (KEEPER_LEASE_MS / world.leaseMs!) } : {}),
    owners: () => [...engine!.list().map((r) => r.ownerId), ...config.routes().map((r) => r.ownerId)],
    onTaken: (owners) => engine!.reloadOwners(owners),
    onActive: (owners) => engine!.actOn(owners),
    onLetGo: () => (gate.life === 'dead' ? Promise.resolve() : engine!.settled()),
    onRound: (others) => engine!.reloadOwners(others),
  });
  engine = new Engine({
    clock: new GatedClock(world.clock, gate),
    clever: port,
    store: engineStore,
    config,
    leaseGuard: (owner) => keeper.guard(owner),
    acts: (owner) => keeper.acts(owner),
    callRefusal: (owner) => keeper.callRefusal(owner),
  });
  config.onChange(() => engine!.configChanged());
  Object.assign(self, {
    id,
    gate,
    engine,
    keeper,
    store,
    sim,
    config,
    lastRound: world.clock.now(),
    expired: false,
  });
  await engine.start();
  await keeper.start();
  return self;
}

/**
 * A lease round of a live instance (its timer, a third of the lease time). A round the instance is
 * paused or killed in the middle of waits with it (a paused one goes on when resumed).
 */
export async function leaseRound(instance: TeamInstance, now: number): Promise<void> {
  const { gate } = instance;
  if (gate.life !== 'live') return;
  // Its leases are renewed (or taken) from now: they run out a lease time after, whatever follows.
  instance.lastRound = now;
  instance.expired = false;
  await Promise.race([instance.keeper.runRound(), gate.halted()]);
}

/** What the database's clock does to an instance that renewed nothing for the lease time. */
export async function expireLeases(db: pg.Pool, instance: TeamInstance): Promise<void> {
  await db.query('UPDATE leases SET expires_at = 0 WHERE holder = $1', [instance.id]);
  await db.query('UPDATE instances SET seen_at = 0 WHERE id = $1', [instance.id]);
  instance.expired = true;
}

/** Whether `instance` holds the owner's lease now, with the token it writes with. */
export async function holdsLease(db: pg.Pool, instance: TeamInstance, ownerId: string): Promise<boolean> {
  const { rows } = await db.query<{ holder: string; token: string; valid: boolean }>(
    `SELECT holder, token, expires_at > ${DB_NOW} AS valid FROM leases WHERE owner_id = $1`,
    [ownerId],
  );
  const row = rows[0];
  return (
    !!row &&
    row.valid &&
    row.holder === instance.id &&
    Number(row.token) === instance.keeper.guard(ownerId).token
  );
}

/** Let every operation on the wire of live instances end (answers arrive, writes land). */
export async function quiet(instances: readonly TeamInstance[]): Promise<void> {
  let calm = 0;
  for (let i = 0; i < 5000 && calm < 3; i++) {
    await new Promise((resolve) => setImmediate(resolve));
    if (instances.every((x) => x.gate.active === 0)) calm++;
    else {
      calm = 0;
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
  }
}

/** Stop an instance at the end of a run: a live one stops as usual; a killed one loses its pool. */
export async function closeInstance(instance: TeamInstance): Promise<void> {
  if (instance.gate.life === 'dead') {
    // Its pool closed: nothing is given back. stop() clears its timer at once; a round it was killed
    // in the middle of never ends, so it is not awaited.
    const closed = instance.store.close().catch(() => {});
    instance.keeper
      .stop()
      .catch((error: unknown) =>
        console.error(`stopping the leases of killed instance ${instance.id}:`, error),
      );
    await closed;
  } else {
    instance.gate.resume();
    await instance.keeper.stop();
    await instance.engine.stop();
    await instance.store.close();
  }
  await instance.sim.close();
}
