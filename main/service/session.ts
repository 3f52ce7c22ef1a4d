/**
 * A session: one engine with its routes and settings, its datastore and its Clever Cloud port, either
 * on an account or on the embedded simulator (demo). The service runs one at a time and switches
 * when the operator connects an account or tries the demo from the first-run screen.
 *
 * Demo sessions live in memory (the simulator's apps are new at every start) and run the embedded
 * simulator over HTTP on loopback with the real client, so the demo exercises the same code as an
 * account; account sessions keep their routes, settings, states and history in the data directory.
 * Both follow the access logs of their apps and run the wake proxy while a route has host names.
 */

import type { Log } from '../../shared/log.ts';
import { TeamSync } from '../bus/team-sync.ts';
import { type CallRecord, CleverClient } from '../clever/client.ts';
import { operatorCredentials } from '../clever/credentials.ts';
import { ManualClock, ScaledClock, systemClock } from '../engine/clocks.ts';
import { Engine } from '../engine/engine.ts';
import type { CleverCloudPort, Clock, EngineStore } from '../engine/ports.ts';
import { expectedWakeMs } from '../reports/durations.ts';
import { InProcessCleverPort } from '../simulator/in-process-port.ts';
import { SCENARIOS, type ScenarioName } from '../simulator/scenarios.ts';
import { DEMO_CREDENTIALS, startSimulatorServer } from '../simulator/server.ts';
import { ConfigStore, type KeyValueBackend, MemoryBackend } from '../store/config-store.ts';
import type { ReaperStore } from '../store/contract.ts';
import { LeaseKeeper } from '../store/postgres/leases.ts';
import { PgBus } from '../store/postgres/pg-bus.ts';
import { PostgresStore } from '../store/postgres/pg-store.ts';
import { SqliteStore } from '../store/sqlite/sqlite-store.ts';
import type { AccessLogSource } from '../traffic/access-logs.ts';
import { SessionTraffic } from '../traffic/session-traffic.ts';
import { cleverUpstream } from '../traffic/upstream.ts';
import { EventFollower, type EventSource } from './event-follower.ts';

export interface Session {
  mode: 'demo' | 'account';
  /** The scenario of a demo session. */
  scenario: ScenarioName | null;
  clock: Clock;
  /** How many times faster than real time the clock runs (1 on an account). */
  timeScale: number;
  engine: Engine;
  config: ConfigStore;
  /** The datastore (contract.ts): SQLite, or PostgreSQL in team mode. */
  store: ReaperStore;
  clever: CleverCloudPort;
  traffic: SessionTraffic;
  /** The median of the app's last starts, for the waking page (null before the first). */
  expectedWakeMs(appId: string): Promise<number | null>;
  /** Team mode on PostgreSQL: the owners' leases this instance holds (null elsewhere). */
  leases: LeaseKeeper | null;
  /** A problem met while opening the session (a damaged datastore set aside...), for the dashboard. */
  problem: string | null;
  /** Stop the engine, the traffic sources (and the demo's simulator), close the datastore. */
  close(): Promise<void>;
}

export interface SessionFactory {
  demo(): Promise<Session>;
  account(clever: CleverCloudPort): Promise<Session>;
}

export interface SessionOptions {
  /** The clock of demo sessions: a ScaledClock makes the demo (and end-to-end tests) run faster. */
  demoClock: Clock;
  /** The clock of account sessions (default: the system clock; tests give their own). */
  accountClock?: Clock;
  timeScale: number;
  scenario: ScenarioName;
  /** Where an account session keeps its routes and settings. */
  accountBackend(): KeyValueBackend;
  /** The datastore of an account session, and what went wrong opening it. */
  accountDatastore(): { store: SqliteStore; problem: string | null };
  /**
   * Team mode: the account session's datastore and its routes and settings in a shared database
   * (PostgreSQL) instead of accountDatastore() and accountBackend().
   */
  sharedDatastore?: (now: () => number) => Promise<{ store: ReaperStore & EngineStore; config: ConfigStore }>;
  /**
   * Team mode on PostgreSQL: how long an owner's lease lasts without renewal (default 15 s), and this
   * instance's id (default: a random one).
   */
  leases?: { leaseMs?: number; instanceId?: string };
  /**
   * Tests on a manual clock: the demo's simulator in-process, without HTTP (whose round trips a
   * manual clock cannot wait for); its traffic then reaches the engine directly.
   */
  inProcessDemo?: boolean;
  /**
   * The port the engine is given, from the session's own (to observe what the engine reads and calls;
   * `session.clever` stays the port itself).
   */
  enginePort?: (
    clever: CleverCloudPort,
    context: { mode: 'demo' | 'account'; store: ReaperStore; clock: Clock },
  ) => CleverCloudPort;
  /**
   * Tests: where an account session's wake proxy sends requests (a simulator serving the apps by
   * Host) instead of each app's own domain.
   */
  upstreamOrigin?: string;
  /** Every Clever Cloud call of the demo's client (for metrics; an account's client has its own). */
  onCall?: (call: CallRecord) => void;
  log?: Log;
}

/** The access-log stream of a port that has one (the real client does). */
function accessLogsOf(clever: CleverCloudPort): AccessLogSource | null {
  const follow = clever.accessLogs?.bind(clever);
  return follow ? (owner, app, o) => follow(owner, app, o) : null;
}

/** The event socket of a port that has one (the real client, with OAuth credentials). */
function eventsOf(clever: CleverCloudPort): EventSource | null {
  const events = clever.events?.bind(clever);
  if (!events || !clever.hasEventSocket) return null;
  return (signal) => events({ signal }) ?? [];
}

interface Parts {
  mode: 'demo' | 'account';
  scenario: ScenarioName | null;
  clock: Clock;
  timeScale: number;
  config: ConfigStore;
  store: ReaperStore;
  /** What the engine writes to: the SQLite file itself (it answers at once), or `store`. */
  engineStore: EngineStore;
  expectedWakeMs: (appId: string) => Promise<number | null>;
  clever: CleverCloudPort;
  /** Where the wake proxy sends requests: the app's own domain, or the embedded simulator. */
  origin?: string;
  problem: string | null;
  log?: Log;
  /** What else to stop when the session closes. */
  onClose?: () => Promise<void> | void;
  /** Wait (up to 5 s) for the engine's first read of Clever Cloud (not on a manual clock). */
  waitFirstSweep?: boolean;
  /** The port the engine is given (see SessionOptions.enginePort). */
  enginePort?: CleverCloudPort;
  /** Team mode: the engine acts only on the owners whose lease it holds in this database. */
  leases?: { store: PostgresStore; leaseMs?: number; instanceId?: string };
}

/** Team mode: the lease keeper of a session, acting through its engine (and the bus, `sync`). */
function keeperFor(parts: Parts, engine: () => Engine, sync: () => TeamSync | null): LeaseKeeper | null {
  const { leases, config, log } = parts;
  if (!leases) return null;
  return new LeaseKeeper({
    store: leases.store,
    ...(leases.leaseMs ? { leaseMs: leases.leaseMs } : {}),
    ...(leases.instanceId ? { instanceId: leases.instanceId } : {}),
    // Every owner an instance may act on: of its records, its routes, and its rules (the owners the
    // rules name, or every owner listed for a rule on all of them), so that an owner named by a rule
    // only, no app adopted yet, has its lease too and is balanced like the others.
    owners: () => [
      ...engine()
        .list()
        .map((r) => r.ownerId),
      ...config.routes().map((r) => r.ownerId),
      ...engine().ruleOwnerIds(),
    ],
    onTaken: (owners) => engine().reloadOwners(owners),
    onActive: (owners) => {
      engine().actOn(owners);
      // An owner with no app yet (a rule's): its list is read now, not at the next sweep.
      const known = new Set(
        engine()
          .list()
          .map((r) => r.ownerId),
      );
      if (owners.some((o) => !known.has(o)))
        engine()
          .reconcileNow()
          .catch(() => {});
      sync()?.takeOver(owners); // the requests left for them
    },
    onLetGo: () => engine().settled(),
    onRound: (others) => {
      sync()?.round();
      return engine().reloadOwners(others);
    },
    ...(log ? { log } : {}),
  });
}

async function open(parts: Parts): Promise<Session> {
  const { clock, config, store, clever, log } = parts;
  let sync: TeamSync | null = null;
  const keeper = keeperFor(
    parts,
    () => engine,
    () => sync,
  );
  // Team mode: the instances' bus, listening before the first lease round.
  const bus =
    keeper && parts.leases
      ? await PgBus.start({
          store: parts.leases.store,
          instanceId: keeper.instanceId,
          ...(log ? { log } : {}),
        })
      : null;
  if (bus && keeper) {
    sync = new TeamSync({
      bus,
      engine: () => engine,
      reloadConfig: () => config.reload(),
      acts: (owner) => keeper.acts(owner),
      activeOwners: () => keeper.activeOwners(),
      ...(log ? { log } : {}),
    });
  }
  const engine: Engine = new Engine({
    clock,
    clever: parts.enginePort ?? clever,
    store: parts.engineStore,
    // Releases are held while routes may be missing (a damaged settings file, a route that does not validate).
    config: config.engineConfig(),
    ...(keeper
      ? { acts: (owner: string) => keeper.acts(owner), leaseGuard: (owner: string) => keeper.guard(owner) }
      : {}),
    ...(sync ? { elsewhere: (request) => sync?.forward(request) } : {}),
    ...(log ? { log } : {}),
  });
  const offConfig = config.onChange(() => {
    engine.configChanged();
    // A route of an owner no instance holds yet: its lease row, and maybe its lease, at once.
    void keeper?.runRound();
  });
  const traffic = new SessionTraffic({
    engine,
    config,
    clock,
    accessLogs: accessLogsOf(clever),
    upstream: cleverUpstream(clever, parts.origin ? { origin: parts.origin } : {}),
    expectedWakeMs: parts.expectedWakeMs,
    ...(log ? { log } : {}),
  });
  const socket = eventsOf(clever);
  const follower = socket ? new EventFollower({ engine, source: socket, ...(log ? { log } : {}) }) : null;
  await engine.start();
  sync?.start();
  await keeper?.start();
  await traffic.start();
  follower?.start();
  // The dashboard's first look shows names and states read from Clever Cloud, unless it is slow.
  if (parts.waitFirstSweep) await Promise.race([engine.firstSweep, new Promise((r) => setTimeout(r, 5000))]);
  return {
    mode: parts.mode,
    scenario: parts.scenario,
    clock,
    timeScale: parts.timeScale,
    engine,
    config,
    store,
    clever,
    traffic,
    expectedWakeMs: parts.expectedWakeMs,
    problem: parts.problem,
    leases: keeper,
    async close() {
      offConfig();
      await follower?.stop();
      await traffic.close();
      await sync?.stop();
      await keeper?.stop();
      await bus?.close();
      await engine.stop();
      await parts.onClose?.();
      await store.close();
    },
  };
}

export function createSessionFactory(options: SessionOptions): SessionFactory {
  const { log } = options;
  return {
    async demo() {
      const clock = options.demoClock;
      const scenario = SCENARIOS[options.scenario](clock);
      const config = new ConfigStore(new MemoryBackend(), () => clock.now());
      // The demo's wake proxy takes any free port, so that demos and tests never fight over one.
      config.updateSettings({ wakeProxyPort: 0, ...scenario.settings });
      for (const app of scenario.apps) config.createRoute(app.route);
      const store = new SqliteStore(':memory:');
      if (scenario.pastHistory) await store.commit({ history: scenario.pastHistory(clock.now()) });
      const observed = (clever: CleverCloudPort) =>
        options.enginePort?.(clever, { mode: 'demo', store, clock }) ?? clever;
      const common = {
        mode: 'demo' as const,
        scenario: options.scenario,
        clock,
        timeScale: options.timeScale,
        config,
        store,
        engineStore: store,
        expectedWakeMs: (appId: string) => expectedWakeMs(store, appId),
        problem: null,
        ...(log ? { log } : {}),
      };
      if (options.inProcessDemo) {
        let session: Session | null = null;
        const clever = new InProcessCleverPort(scenario.cloud);
        const stop = scenario.startTraffic(
          (appId, at) => void session?.engine.request(appId, 'access-log', at),
        );
        session = await open({ ...common, clever, enginePort: observed(clever), onClose: stop });
        return session;
      }
      const simulator = await startSimulatorServer({ cloud: scenario.cloud });
      const o = DEMO_CREDENTIALS.oauth;
      const credentials = operatorCredentials(
        { kind: 'oauth1', token: o.token, secret: o.secret },
        { consumerKey: o.consumerKey, consumerSecret: o.consumerSecret, apiHost: simulator.url },
      );
      const clever = new CleverClient({
        credentials: { ...credentials, source: 'demo', detail: 'the demo simulator' },
        ...(options.onCall ? { onCall: options.onCall } : {}),
      });
      const stopTraffic = scenario.startTraffic();
      return open({
        ...common,
        clever,
        enginePort: observed(clever),
        origin: simulator.url,
        waitFirstSweep: !(clock instanceof ManualClock),
        onClose: async () => {
          stopTraffic();
          await simulator.close();
        },
      });
    },

    async account(clever) {
      const clock = options.accountClock ?? systemClock;
      let parts: Pick<Parts, 'store' | 'engineStore' | 'expectedWakeMs' | 'config' | 'problem' | 'leases'>;
      if (options.sharedDatastore) {
        const shared = await options.sharedDatastore(() => clock.now());
        parts = {
          ...(shared.store instanceof PostgresStore
            ? { leases: { store: shared.store, ...options.leases } }
            : {}),
          store: shared.store,
          engineStore: shared.store,
          expectedWakeMs: (appId) => expectedWakeMs(shared.store, appId),
          config: shared.config,
          problem: null,
        };
      } else {
        const { store, problem } = options.accountDatastore();
        parts = {
          store,
          engineStore: store,
          expectedWakeMs: (appId) => expectedWakeMs(store, appId),
          config: new ConfigStore(options.accountBackend(), () => clock.now()),
          problem,
        };
      }
      for (const p of parts.config.problems()) log?.('error', p);
      const enginePort =
        options.enginePort?.(clever, { mode: 'account', store: parts.store, clock }) ?? clever;
      return open({
        ...parts,
        enginePort,
        mode: 'account',
        scenario: null,
        clock,
        timeScale: clock instanceof ScaledClock ? clock.factor : 1,
        clever,
        ...(options.upstreamOrigin ? { origin: options.upstreamOrigin } : {}),
        waitFirstSweep: !(clock instanceof ManualClock),
        ...(log ? { log } : {}),
      });
    },
  };
}
