/**
 * The reaper without its shell: the data directory's stores, the credentials, the sessions (demo or
 * account) and the service. The headless server adds its HTTP transport around it, the desktop its
 * window, IPC, tray and notifications: the two shells differ only there.
 */
import { join } from 'node:path';
import type { Log } from '../../shared/log.ts';
import { ScaledClock, systemClock } from '../engine/clocks.ts';
import type { CleverCloudPort, Clock } from '../engine/ports.ts';
import type { ScenarioName } from '../simulator/scenarios.ts';
import { ConfigStore, type KeyValueBackend } from '../store/config-store.ts';
import { JsonFileBackend } from '../store/json-file-backend.ts';
import { PostgresStore } from '../store/postgres/pg-store.ts';
import { openDatastore } from '../store/sqlite/open-sqlite.ts';
import { type CredentialsManager, DemoOnlyCredentials, FixedCredentials } from './credentials.ts';
import { Operations, type OperationsOptions } from './operations.ts';
import { OwnerOnlyFileSecrets, RealCredentials, type SecretStore } from './real-credentials.ts';
import { ReaperService } from './reaper-service.ts';
import { createSessionFactory } from './session.ts';

export interface RuntimeOptions {
  /** Run the embedded simulator's scenario instead of a Clever Cloud account. */
  demo: boolean;
  scenario: ScenarioName;
  /** The clock runs this many times faster than real time (demos; tests against a simulator). */
  timeScale: number;
  /** The instant a scaled clock counts from: processes given the same one agree on the time. */
  timeOrigin?: number | null;
  dataDir: string;
  /**
   * Team mode: a PostgreSQL URL (postgres://...). The account's datastore and its routes and
   * settings live there instead of the data directory; the demo stays in memory.
   */
  database?: string | null;
  /** Team mode: how long an owner's lease lasts without renewal, in ms (default 15 s). */
  leaseMs?: number;
  /** --api-url: another Clever Cloud API base URL (a simulator, a proxy). */
  apiUrl: string | null;
  env?: NodeJS.ProcessEnv;
  version?: string;
  log?: Log;
  /** Where an account's routes and settings live (default: config.json of the data directory). */
  accountBackend?: () => KeyValueBackend;
  /** Where a pasted token is kept (default: an owner-only file of the data directory). */
  secrets?: SecretStore;
  /** Warnings of the shell for the dashboard (a settings file set aside, ...). */
  notices?: () => string[];
  /** Tests: the clock of demo sessions (default: a ScaledClock, or the system clock at scale 1). */
  demoClock?: Clock;
  /** Tests: the clock of account sessions (default: the system clock). */
  accountClock?: Clock;
  /** Tests: a Clever Cloud port to run an account session on. */
  clever?: CleverCloudPort;
  /** Tests: where an account session's wake proxy sends requests (a simulator serving apps by Host). */
  upstreamOrigin?: string;
  /** Team mode: the connections of the pool to PostgreSQL (default 10, pg-errors.ts). */
  poolSize?: number;
  /** Serve the wake proxy on the server's port, for every Host that is not the server's own (--one-port). */
  onePort?: boolean;
  /** Tests: the credentials manager. */
  credentials?: CredentialsManager;
  /** Tests: timings of the webhooks and of the history retention. */
  operations?: Pick<OperationsOptions, 'webhooks' | 'retention'>;
}

export async function startRuntime(options: RuntimeOptions): Promise<ReaperService> {
  const env = options.env ?? process.env;
  const log = options.log;
  const origin = options.timeOrigin ? { real: options.timeOrigin, fake: options.timeOrigin } : undefined;
  const scaled = options.timeScale === 1 ? systemClock : new ScaledClock(options.timeScale, origin);
  const demoClock = options.demoClock ?? scaled;
  const accountClock = options.accountClock ?? (options.timeScale === 1 ? undefined : scaled);
  // Metrics, team alerts, history retention and instance facts, beside each session (operations.ts).
  const operations = new Operations({
    version: options.version ?? '0.0.0',
    log,
    ...options.operations,
  });
  const sessions = createSessionFactory({
    demoClock,
    accountClock,
    timeScale: options.timeScale,
    scenario: options.scenario,
    // The first look waits for the first read on the clocks made here, not on a test's own clock.
    waitFirstSweep: { demo: !options.demoClock, account: !options.accountClock },
    accountBackend:
      options.accountBackend ?? (() => new JsonFileBackend(join(options.dataDir, 'config.json'))),
    ...(options.database
      ? {
          sharedDatastore: async (now: () => number) => {
            const store = await PostgresStore.open(options.database!, {
              ...(options.poolSize ? { max: options.poolSize } : {}),
              onError: (error) => log?.('warn', `a PostgreSQL connection failed: ${error.message}`),
            });
            try {
              return { store, config: await ConfigStore.open(store.configBackend(), now) };
            } catch (error) {
              await store.close();
              throw error;
            }
          },
        }
      : {}),
    ...(options.leaseMs ? { leases: { leaseMs: options.leaseMs } } : {}),
    upstreamOrigin: options.upstreamOrigin,
    ...(options.onePort ? { proxyOnServerPort: true } : {}),
    accountDatastore: () => {
      const opened = openDatastore(join(options.dataDir, 'reaper.sqlite'));
      if (opened.problem) log?.('error', opened.problem);
      return opened;
    },
    enginePort: operations.enginePort,
    onCall: operations.metrics.onCall,
    log,
  });
  const credentials =
    options.credentials ??
    (options.clever ? new FixedCredentials(options.clever) : undefined) ??
    (options.demo
      ? new DemoOnlyCredentials()
      : new RealCredentials({
          secrets: options.secrets ?? new OwnerOnlyFileSecrets(join(options.dataDir, 'credentials.json')),
          apiUrl: options.apiUrl,
          env,
          onCall: operations.metrics.onCall,
          log,
        }));
  const service = new ReaperService({
    sessions: operations.sessions(sessions),
    credentials,
    initial: options.demo ? 'demo' : 'account',
    version: options.version ?? '0.0.0',
    operations,
    log,
    notices: options.notices,
  });
  await service.start();
  return service;
}
