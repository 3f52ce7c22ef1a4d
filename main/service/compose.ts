/**
 * The composition of a session: the one place that chooses solo or team mode, and starts the parts
 * in order on one lifecycle (lifecycle.ts), so that closing the session stops them in the reverse
 * order. Solo (SQLite, one instance): the datastore, the engine, the traffic sources. Team mode
 * (PostgreSQL, the `team` part given): the bus listening before the engine starts, the sync between
 * instances and the lease keeper too (team/); the engine then acts only on the owners it holds, and
 * hands the others' requests over.
 */
import { describeError, type Log } from '../../shared/log.ts';
import { Engine } from '../engine/engine.ts';
import type { CleverCloudPort, Clock, EngineStore } from '../engine/ports.ts';
import type { ScenarioName } from '../simulator/scenarios.ts';
import type { ConfigStore } from '../store/config-store.ts';
import type { ReaperStore } from '../store/contract.ts';
import { PgBus } from '../store/postgres/pg-bus.ts';
import { PgLeases } from '../store/postgres/pg-leases.ts';
import { PgSettings } from '../store/postgres/pg-settings.ts';
import type { PostgresStore } from '../store/postgres/pg-store.ts';
import { PgTeamStore } from '../store/postgres/pg-team-store.ts';
import { agreeOnLeaseTime } from '../team/agreed-settings.ts';
import type { TeamBus } from '../team/bus.ts';
import { LeaseKeeper, newInstanceId } from '../team/lease-keeper.ts';
import { TeamSync } from '../team/team-sync.ts';
import type { AccessLogSource } from '../traffic/access-logs.ts';
import { ownHostOf } from '../traffic/loop-guard.ts';
import { SessionTraffic } from '../traffic/session-traffic.ts';
import { cleverUpstream } from '../traffic/upstream.ts';
import { EventFollower, type EventSource } from './event-follower.ts';
import { Lifecycle } from './lifecycle.ts';

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
  /** Team mode on PostgreSQL: the instances' bus (null elsewhere); /readyz asks whether it listens. */
  bus: TeamBus | null;
  /** A problem met while opening the session (a damaged datastore set aside...), for the dashboard. */
  problem: string | null;
  /** Stop every part, the mirror of their start (the demo's simulator too), and close the datastore. */
  close(): Promise<void>;
}

/** What a session is composed of (session.ts gathers them for a demo or an account). */
export interface Parts {
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
  /** What else runs with the session (the demo's simulator and traffic): stopped after the engine. */
  onClose?: () => Promise<void>;
  /** Wait (up to 5 s) for the engine's first read of Clever Cloud before answering. */
  waitFirstSweep: boolean;
  /** The port the engine is given (see SessionOptions.enginePort). */
  enginePort?: CleverCloudPort;
  /** Team mode: the engine acts only on the owners whose lease it holds in this database. */
  team?: { store: PostgresStore; leaseMs?: number; instanceId?: string };
  /** One port: the wake proxy is served on the server's port only (session-traffic.ts). */
  proxyOnServerPort?: boolean;
}

/** A handed-over request is kept for the fail timeout and this much (real ms) before it expires. */
const INTENT_MARGIN_MS = 5 * 60_000;

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

/** Team mode: the lease keeper of a session, acting through its engine (and the bus, `sync`). */
function keeperFor(
  team: NonNullable<Parts['team']>,
  parts: Parts,
  engine: () => Engine,
  sync: () => TeamSync,
): LeaseKeeper {
  const { config, log } = parts;
  const owners = () =>
    new Set(
      engine()
        .list()
        .map((r) => r.ownerId),
    );
  return new LeaseKeeper({
    table: new PgLeases(team.store),
    ...(team.leaseMs ? { leaseMs: team.leaseMs } : {}),
    ...(team.instanceId ? { instanceId: team.instanceId } : {}),
    // Every owner an instance may act on: of its records, its routes, and its rules (the owners the
    // rules name, or every owner listed for a rule on all of them), so that an owner named by a rule
    // only, no app adopted yet, has its lease too and is balanced like the others.
    owners: () => [...owners(), ...config.routes().map((r) => r.ownerId), ...engine().ruleOwnerIds()],
    onTaken: (taken) => engine().reloadOwners(taken),
    onActive: async (active) => {
      const acting = engine().actOn(active);
      // An owner with no app yet (a rule's): its list is read now, not at the next sweep.
      const known = owners();
      if (active.some((o) => !known.has(o))) {
        engine()
          .reconcileNow()
          .catch((error: unknown) =>
            log?.('warn', `the owners just taken could not be read: ${describeError(error)}`),
          );
      }
      sync().takeOver(active); // the requests left for them
      await acting;
    },
    onLetGo: () => engine().settled(),
    onRound: (others) => {
      sync().round();
      return engine().reloadOwners(others);
    },
    ...(log ? { log } : {}),
  });
}

/** Compose and start a session; when a part fails to start, those started are stopped again. */
export async function compose(parts: Parts): Promise<Session> {
  const { clock, config, store, clever, log, team } = parts;
  const life = new Lifecycle(log);
  life.started('the datastore', () => store.close());
  if (parts.onClose) life.started("the demo's simulator and traffic", parts.onClose);

  // Team mode: the settings every instance shares agreed on first (agreed-settings.ts), then the
  // instances' bus listening before the engine's first read and the first lease round.
  let sync: TeamSync | null = null;
  const instanceId = team?.instanceId ?? newInstanceId();
  const leaseMs = team
    ? await life.start(
        'the settings shared by the instances',
        () => agreeOnLeaseTime(new PgSettings(team.store), instanceId, team.leaseMs, log),
        async () => undefined,
      )
    : undefined;
  const keeper = team
    ? keeperFor(
        { ...team, instanceId, ...(leaseMs ? { leaseMs } : {}) },
        parts,
        () => engine,
        () => sync!,
      )
    : null;
  const bus =
    team && keeper
      ? await life.start(
          "the instances' bus",
          () => PgBus.start({ store: team.store, instanceId: keeper.instanceId, ...(log ? { log } : {}) }),
          (b) => b.close(),
        )
      : null;
  if (team && keeper && bus) {
    sync = new TeamSync({
      bus,
      store: new PgTeamStore(team.store),
      engine: () => engine,
      reloadConfig: () => config.reload(),
      acts: (owner) => keeper.acts(owner),
      activeOwners: () => keeper.activeOwners(),
      // A wake kept that long can still end Up or in Error within the fail timeout.
      intentTtlMs: () => config.settings().failTimeoutMs + INTENT_MARGIN_MS,
      ...(log ? { log } : {}),
    });
  }
  const engine: Engine = new Engine({
    clock,
    clever: parts.enginePort ?? clever,
    store: parts.engineStore,
    // Releases are held while routes may be missing (a damaged settings file, a route that does not validate).
    config: config.engineConfig(),
    // No sleep on a last request older than the access logs hold (the traffic is made just below).
    trafficUnread: (appId) => traffic.unread(appId),
    ...(keeper
      ? {
          acts: (owner: string) => keeper.acts(owner),
          callRefusal: (owner: string) => keeper.callRefusal(owner),
          leaseGuard: (owner: string) => keeper.guard(owner),
          leaseLost: (owner: string) => keeper.lost(owner),
        }
      : {}),
    ...(sync
      ? {
          elsewhere: (request) => sync?.forward(request),
          handOver: (request) =>
            sync?.handOver(request) ?? Promise.reject(new Error('team mode is not running')),
        }
      : {}),
    ...(log ? { log } : {}),
  });
  const traffic = new SessionTraffic({
    engine,
    config,
    clock,
    accessLogs: accessLogsOf(clever),
    upstream: cleverUpstream(clever, {
      ...(parts.origin ? { origin: parts.origin } : {}),
      isOwnHost: ownHostOf(engine),
    }),
    expectedWakeMs: parts.expectedWakeMs,
    ...(parts.proxyOnServerPort ? { onServerPort: true } : {}),
    ...(log ? { log } : {}),
  });
  const socket = eventsOf(clever);

  await life.start(
    'the engine',
    () => engine.start(),
    () => engine.stop(),
  );
  const offConfig = config.onChange(() => {
    engine.configChanged();
    // A route of an owner no instance holds yet: its lease row, and maybe its lease, at once.
    keeper
      ?.runRound()
      .catch((error: unknown) => log?.('warn', `a lease round failed: ${describeError(error)}`));
  });
  life.started('the routes and settings listener', async () => offConfig());
  if (sync) {
    const s = sync;
    await life.start(
      'the sync between instances',
      async () => s.start(),
      () => s.stop(),
    );
  }
  if (keeper)
    await life.start(
      'the lease keeper',
      () => keeper.start(),
      () => keeper.stop(),
    );
  await life.start(
    'the traffic sources',
    () => traffic.start(),
    () => traffic.close(),
  );
  if (socket) {
    const follower = new EventFollower({ engine, source: socket, ...(log ? { log } : {}) });
    await life.start(
      'the event socket',
      async () => follower.start(),
      () => follower.stop(),
    );
  }
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
    bus,
    async close() {
      await life.stop(); // each failure logged; the others still stop
    },
  };
}
