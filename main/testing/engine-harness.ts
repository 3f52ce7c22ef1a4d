/**
 * A complete engine on a manual clock and an in-process simulated Clever Cloud, for tests that are
 * about behaviour over time. Test-only: nothing in the app imports it.
 */
import type { HistoryEntry } from '../../shared/domain.ts';
import { HOUR, SECOND } from '../../shared/durations.ts';
import type { Log } from '../../shared/log.ts';
import type { LeaseGuard } from '../../shared/port-errors.ts';
import type { RouteCreate } from '../../shared/routes.ts';
import type { SettingsUpdate } from '../../shared/settings.ts';
import { ManualClock } from '../engine/clocks.ts';
import { Engine, type EngineDeps } from '../engine/engine.ts';
import type { CleverCloudPort, EngineStore } from '../engine/ports.ts';
import { InProcessCleverPort } from '../simulator/in-process-port.ts';
import { type SimApp, type SimOptions, SimulatedCloud } from '../simulator/model.ts';
import { ConfigStore, MemoryBackend } from '../store/config-store.ts';
import { SqliteStore } from '../store/sqlite/sqlite-store.ts';

/** Monday 5 January 2026, 09:00 UTC. */
export const MONDAY_9AM = Date.UTC(2026, 0, 5, 9, 0, 0);

export interface HarnessOptions {
  start?: number;
  settings?: SettingsUpdate;
  sim?: Partial<SimOptions>;
  store?: SqliteStore;
  /** The store the engine writes to, when not `store` (a PostgreSQL datastore...). */
  engineStore?: EngineStore;
  /** Team mode: the lease each write is fenced by. */
  leaseGuard?: (ownerId: string) => LeaseGuard | null;
  /** Team mode: whether the engine acts on an owner's apps. */
  acts?: (ownerId: string) => boolean;
  /** Team mode: why a start or stop may not leave now (null: it may). */
  callRefusal?: (ownerId: string) => string | null;
  /** Diagnostics of the engine. */
  log?: Log;
  clock?: ManualClock;
  cloud?: SimulatedCloud;
  config?: ConfigStore;
  port?: CleverCloudPort;
  /** Team mode: an operator's action on an app another instance acts on. */
  handOver?: EngineDeps['handOver'];
}

export function harness(options: HarnessOptions = {}) {
  const clock = options.clock ?? new ManualClock(options.start ?? MONDAY_9AM);
  const cloud = options.cloud ?? new SimulatedCloud(clock, options.sim);
  const org = cloud.organisations[0] ?? cloud.addOrganisation('Acme');
  const inProcess = new InProcessCleverPort(cloud);
  const port = options.port ?? inProcess;
  const config = options.config ?? new ConfigStore(new MemoryBackend(), () => clock.now());
  if (options.settings) config.updateSettings(options.settings);
  const store = options.store ?? new SqliteStore(':memory:');
  const engine = new Engine({
    clock,
    clever: port,
    store: options.engineStore ?? store,
    config,
    ...(options.leaseGuard ? { leaseGuard: options.leaseGuard } : {}),
    ...(options.acts ? { acts: options.acts } : {}),
    ...(options.callRefusal ? { callRefusal: options.callRefusal } : {}),
    ...(options.handOver ? { handOver: options.handOver } : {}),
    ...(options.log ? { log: options.log } : {}),
  });
  config.onChange(() => engine.configChanged());
  const announced = announcedHistory(engine);

  return {
    clock,
    cloud,
    org,
    port: inProcess,
    config,
    store,
    engine,
    /** An app on the simulated Clever Cloud with a route on it. */
    manage(
      name: string,
      app: Parameters<SimulatedCloud['addApp']>[2] = {},
      route: Partial<RouteCreate> = {},
    ): SimApp {
      const sim = cloud.addApp(route.ownerId ?? org.id, name, app);
      config.createRoute({ appId: sim.id, ownerId: sim.ownerId, ...route });
      return sim;
    },
    state(appId: string) {
      return engine.get(appId)?.state;
    },
    /** The app's history as the engine announced it, newest first (as the store's historyOf), at once. */
    historyOf: announced,
    /** Every write queued and every evaluation under way settled (the engine's writes are asynchronous). */
    idle: () => engine.idle(),
    /**
     * Advance time in steps, recording the first time `predicate` holds, looked at once the engine
     * is idle after each step.
     */
    async until(predicate: () => boolean, limitMs: number, stepMs = 1000): Promise<number | null> {
      const end = clock.now() + limitMs;
      while (clock.now() < end) {
        await engine.idle();
        if (predicate()) return clock.now();
        await clock.advance(stepMs);
      }
      await engine.idle();
      return predicate() ? clock.now() : null;
    },
  };
}

/**
 * A short story of alerts and metrics: billing-preview fails its start and ends in Error, then
 * idle-review (a one-hour grace period) goes to sleep and is woken from the dashboard. Watchers are
 * attached to `h.engine` before; the engine is started here and left running.
 */
export async function errorThenSleepAndWake(h: ReturnType<typeof harness>) {
  const idle = h.manage('idle-review', {}, { gracePeriodMs: HOUR });
  const broken = h.manage('billing-preview', { state: 'SHOULD_BE_DOWN' });
  h.cloud.injectOutcomes(broken.id, 'fail');
  await h.engine.start();
  await h.clock.advance(5 * SECOND);
  await h.engine.wake(broken.id, 'dashboard');
  await h.until(() => h.state(broken.id) === 'Error', 10 * 60 * SECOND);
  await h.until(() => h.state(idle.id) === 'Down', 2 * HOUR);
  await h.engine.wake(idle.id, 'dashboard');
  await h.until(() => h.state(idle.id) === 'Up', 10 * 60 * SECOND);
  return { idle, broken };
}

/**
 * The history entries an engine announces, kept per app: a synchronous view for predicates that look
 * at the history while the store answers with promises. Newest first, as the store's historyOf.
 */
export function announcedHistory(engine: Engine): (appId: string) => HistoryEntry[] {
  const byApp = new Map<string, HistoryEntry[]>();
  engine.on((e) => {
    if (e.type !== 'history') return;
    const list = byApp.get(e.entry.appId) ?? [];
    list.unshift(e.entry);
    byApp.set(e.entry.appId, list);
  });
  return (appId) => [...(byApp.get(appId) ?? [])];
}
