/**
 * A session: one engine with its routes and settings, its datastore and its Clever Cloud port, either
 * on an account or on the embedded simulator (demo). The service runs one at a time and switches
 * when the operator connects an account or tries the demo from the first-run screen.
 *
 * Demo sessions live in memory (the simulator's apps are new at every start); account sessions keep
 * their routes, settings, states and history in the data directory.
 */

import { ScaledClock, systemClock } from '../engine/clocks.ts';
import { Engine } from '../engine/engine.ts';
import type { CleverCloudPort, Clock } from '../engine/ports.ts';
import { InProcessCleverPort } from '../simulator/in-process-port.ts';
import { SCENARIOS, type ScenarioName } from '../simulator/scenarios.ts';
import { ConfigStore, type KeyValueBackend, MemoryBackend } from '../store/config-store.ts';
import { Datastore } from '../store/datastore.ts';

export type Log = (level: 'info' | 'warn' | 'error', message: string) => void;

export interface Session {
  mode: 'demo' | 'account';
  /** The scenario of a demo session. */
  scenario: ScenarioName | null;
  clock: Clock;
  /** How many times faster than real time the clock runs (1 on an account). */
  timeScale: number;
  engine: Engine;
  config: ConfigStore;
  store: Datastore;
  clever: CleverCloudPort;
  /** Stop the engine (and the demo's traffic), close the datastore. */
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
  /** The datastore of an account session. */
  accountDatastore(): Datastore;
  /**
   * The port the engine is given, from the session's own (to observe what the engine reads and calls;
   * `session.clever` stays the port itself).
   */
  enginePort?: (
    clever: CleverCloudPort,
    context: { mode: 'demo' | 'account'; store: Datastore; clock: Clock },
  ) => CleverCloudPort;
  log?: Log;
}

export function createSessionFactory(options: SessionOptions): SessionFactory {
  const { log } = options;
  return {
    async demo() {
      const clock = options.demoClock;
      const scenario = SCENARIOS[options.scenario](clock);
      const config = new ConfigStore(new MemoryBackend(), () => clock.now());
      config.updateSettings(scenario.settings);
      for (const app of scenario.apps) config.createRoute(app.route);
      const store = new Datastore(':memory:');
      if (scenario.pastHistory) store.commit({ history: scenario.pastHistory(clock.now()) });
      const clever = new InProcessCleverPort(scenario.cloud);
      const enginePort = options.enginePort?.(clever, { mode: 'demo', store, clock }) ?? clever;
      const engine = new Engine({ clock, clever: enginePort, store, config, ...(log ? { log } : {}) });
      const offConfig = config.onChange(() => engine.configChanged());
      engine.start();
      const stopTraffic = scenario.startTraffic((appId, at) => {
        engine.request(appId, 'access-log', at).catch((error: unknown) => {
          log?.(
            'warn',
            `a demo request for ${appId} failed: ${error instanceof Error ? error.message : error}`,
          );
        });
      });
      return {
        mode: 'demo',
        scenario: options.scenario,
        clock,
        timeScale: options.timeScale,
        engine,
        config,
        store,
        clever,
        async close() {
          stopTraffic();
          offConfig();
          await engine.stop();
          store.close();
        },
      };
    },

    async account(clever) {
      const clock = options.accountClock ?? systemClock;
      const config = new ConfigStore(options.accountBackend());
      const store = options.accountDatastore();
      const enginePort = options.enginePort?.(clever, { mode: 'account', store, clock }) ?? clever;
      const engine = new Engine({ clock, clever: enginePort, store, config, ...(log ? { log } : {}) });
      const offConfig = config.onChange(() => engine.configChanged());
      engine.start();
      return {
        mode: 'account',
        scenario: null,
        clock,
        timeScale: clock instanceof ScaledClock ? clock.factor : 1,
        engine,
        config,
        store,
        clever,
        async close() {
          offConfig();
          await engine.stop();
          store.close();
        },
      };
    },
  };
}
