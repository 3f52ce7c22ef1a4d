/**
 * The engine with the real Clever Cloud client and the simulator over HTTP on loopback, sharing one
 * accelerated clock (time runs `factor` times faster), on a real SQLite file. Used by the
 * integration tests and the benchmarks. Test-only: nothing in the app imports it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HistoryEntry } from '../../shared/domain.ts';
import type { RouteCreate } from '../../shared/routes.ts';
import type { SettingsUpdate } from '../../shared/settings.ts';
import { type CallRecord, CleverClient } from '../clever/client.ts';
import { operatorCredentials } from '../clever/credentials.ts';
import { ScaledClock } from '../engine/clocks.ts';
import { Engine } from '../engine/engine.ts';
import { type SimApp, type SimOptions, SimulatedCloud } from '../simulator/model.ts';
import { DEMO_CREDENTIALS, type SimulatorServer, startSimulatorServer } from '../simulator/server.ts';
import { ConfigStore, MemoryBackend } from '../store/config-store.ts';
import { SqliteStore } from '../store/sqlite/sqlite-store.ts';
import { announcedHistory } from './engine-harness.ts';

export interface LiveHarness {
  clock: ScaledClock;
  cloud: SimulatedCloud;
  sim: SimulatorServer;
  client: CleverClient;
  config: ConfigStore;
  store: SqliteStore;
  engine: Engine;
  calls: CallRecord[];
  manage(name: string, app?: Parameters<SimulatedCloud['addApp']>[2], route?: Partial<RouteCreate>): SimApp;
  state(appId: string): string | undefined;
  /** The app's history as the engine announced it, newest first (as the store's historyOf), at once. */
  historyOf(appId: string): HistoryEntry[];
  /** Wait (in real time) until `predicate` holds; throws with `what` after `timeoutMs`. */
  eventually(predicate: () => boolean, what: string, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function liveHarness(
  options: {
    factor?: number;
    settings?: SettingsUpdate;
    sim?: Partial<SimOptions>;
    client?: { timeoutMs?: number; backoffLimitMs?: number };
  } = {},
): Promise<LiveHarness> {
  const clock = new ScaledClock(options.factor ?? 100);
  const cloud = new SimulatedCloud(clock, options.sim);
  const org = cloud.addOrganisation('Acme');
  const sim = await startSimulatorServer({ cloud });
  const calls: CallRecord[] = [];
  const o = DEMO_CREDENTIALS.oauth;
  const client = new CleverClient({
    credentials: operatorCredentials(
      { kind: 'oauth1', token: o.token, secret: o.secret },
      { consumerKey: o.consumerKey, consumerSecret: o.consumerSecret },
    ),
    apiHost: sim.url,
    timeoutMs: options.client?.timeoutMs ?? 2000,
    backoffLimitMs: options.client?.backoffLimitMs ?? 100,
    onCall: (c) => calls.push(c),
  });
  const config = new ConfigStore(new MemoryBackend(), () => clock.now());
  if (options.settings) config.updateSettings(options.settings);
  const dir = mkdtempSync(join(tmpdir(), 'reaper-live-'));
  const store = new SqliteStore(join(dir, 'reaper.db'));
  const engine = new Engine({ clock, clever: client, store, config });
  config.onChange(() => engine.configChanged());
  const announced = announcedHistory(engine);

  return {
    clock,
    cloud,
    sim,
    client,
    config,
    store,
    engine,
    calls,
    manage(name, app = {}, route = {}) {
      const created = cloud.addApp(route.ownerId ?? org.id, name, app);
      config.createRoute({ appId: created.id, ownerId: created.ownerId, ...route });
      return created;
    },
    state: (appId) => engine.get(appId)?.state,
    historyOf: announced,
    async eventually(predicate, what, timeoutMs = 15_000) {
      const end = Date.now() + timeoutMs;
      while (!predicate()) {
        if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
        await new Promise((r) => setTimeout(r, 10));
      }
    },
    async close() {
      await engine.stop();
      await sim.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
