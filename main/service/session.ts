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

import { describeError, type Log } from '../../shared/log.ts';
import { type CallRecord, CleverClient } from '../clever/client.ts';
import { operatorCredentials } from '../clever/credentials.ts';
import { ScaledClock, systemClock } from '../engine/clocks.ts';
import type { CleverCloudPort, Clock } from '../engine/ports.ts';
import { expectedWakeMs } from '../reports/durations.ts';
import { InProcessCleverPort } from '../simulator/in-process-port.ts';
import { SCENARIOS, type ScenarioName } from '../simulator/scenarios.ts';
import { DEMO_CREDENTIALS, startSimulatorServer } from '../simulator/server.ts';
import { ConfigStore, type KeyValueBackend, MemoryBackend } from '../store/config-store.ts';
import type { ReaperStore } from '../store/contract.ts';
import type { PostgresStore } from '../store/postgres/pg-store.ts';
import { SqliteStore } from '../store/sqlite/sqlite-store.ts';
import { compose, type Parts, type Session } from './compose.ts';

export type { Session };

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
  sharedDatastore?: (now: () => number) => Promise<{ store: PostgresStore; config: ConfigStore }>;
  /**
   * Team mode on PostgreSQL: how long an owner's lease lasts without renewal (default 15 s), and this
   * instance's id (default: a random one).
   */
  leases?: { leaseMs?: number; instanceId?: string };
  /**
   * Whether a session waits (up to 5 s) for the engine's first read of Clever Cloud before it
   * answers, so that the dashboard's first look shows names and states (default: no; the runtime
   * asks it on the clocks it made itself, a test on a clock of its own does not).
   */
  waitFirstSweep?: { demo: boolean; account: boolean };
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
  /** One port: an account session's wake proxy is served on the server's port only. */
  proxyOnServerPort?: boolean;
  /** Every Clever Cloud call of the demo's client (for metrics; an account's client has its own). */
  onCall?: (call: CallRecord) => void;
  log?: Log;
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
        waitFirstSweep: options.waitFirstSweep?.demo ?? false,
        ...(log ? { log } : {}),
      };
      if (options.inProcessDemo) {
        let session: Session | null = null;
        const clever = new InProcessCleverPort(scenario.cloud);
        const stop = scenario.startTraffic((appId, at) => {
          session?.engine.request(appId, 'access-log', at).catch((error: unknown) => {
            log?.('warn', `the demo's traffic for ${appId} was not counted: ${describeError(error)}`);
          });
        });
        session = await compose({
          ...common,
          clever,
          enginePort: observed(clever),
          onClose: async () => stop(),
        });
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
      return compose({
        ...common,
        clever,
        enginePort: observed(clever),
        origin: simulator.url,
        onClose: async () => {
          stopTraffic();
          await simulator.close();
        },
      });
    },

    async account(clever) {
      const clock = options.accountClock ?? systemClock;
      let parts: Pick<Parts, 'store' | 'engineStore' | 'expectedWakeMs' | 'config' | 'problem' | 'team'>;
      if (options.sharedDatastore) {
        const shared = await options.sharedDatastore(() => clock.now());
        parts = {
          // Team mode: a shared database, leases per owner and the bus between instances.
          team: { store: shared.store, ...options.leases },
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
      return compose({
        ...parts,
        enginePort,
        mode: 'account',
        scenario: null,
        clock,
        timeScale: clock instanceof ScaledClock ? clock.factor : 1,
        clever,
        ...(options.upstreamOrigin ? { origin: options.upstreamOrigin } : {}),
        ...(options.proxyOnServerPort ? { proxyOnServerPort: true } : {}),
        waitFirstSweep: options.waitFirstSweep?.account ?? false,
        ...(log ? { log } : {}),
      });
    },
  };
}
