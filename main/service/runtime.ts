/**
 * The reaper without its shell: the data directory's stores, the credentials, the sessions (demo or
 * account) and the service. The headless server adds its HTTP transport around it, the desktop its
 * window, IPC, tray and notifications: the two shells differ only there.
 */
import { join } from 'node:path';
import { ScaledClock, systemClock } from '../engine/clocks.ts';
import type { CleverCloudPort, Clock } from '../engine/ports.ts';
import type { ScenarioName } from '../simulator/scenarios.ts';
import type { KeyValueBackend } from '../store/config-store.ts';
import { JsonFileBackend } from '../store/json-file-backend.ts';
import { openDatastore } from '../store/open-datastore.ts';
import { type CredentialsManager, DemoOnlyCredentials, FixedCredentials } from './credentials.ts';
import { Operations, type OperationsOptions } from './operations.ts';
import { OwnerOnlyFileSecrets, RealCredentials, type SecretStore } from './real-credentials.ts';
import { ReaperService } from './reaper-service.ts';
import { createSessionFactory, type Log } from './session.ts';

export interface RuntimeOptions {
  /** Run the embedded simulator's scenario instead of a Clever Cloud account. */
  demo: boolean;
  scenario: ScenarioName;
  /** Demo only: the clock runs this many times faster than real time. */
  timeScale: number;
  dataDir: string;
  /** --api-url: another Clever Cloud API base URL (a simulator, a proxy). */
  apiUrl: string | null;
  env?: NodeJS.ProcessEnv;
  version?: string;
  log?: Log;
  /** Where an account's routes and settings live (default: config.json of the data directory). */
  accountBackend?: () => KeyValueBackend;
  /** Where a pasted token is kept (default: an owner-only file of the data directory). */
  secrets?: SecretStore;
  /** Tests: the clock of demo sessions (default: a ScaledClock, or the system clock at scale 1). */
  demoClock?: Clock;
  /** Tests: the clock of account sessions (default: the system clock). */
  accountClock?: Clock;
  /** Tests: a Clever Cloud port to run an account session on. */
  clever?: CleverCloudPort;
  /** Tests: the credentials manager. */
  credentials?: CredentialsManager;
  /** Tests: timings of the webhooks and of the history retention. */
  operations?: Pick<OperationsOptions, 'webhooks' | 'retention'>;
}

export async function startRuntime(options: RuntimeOptions): Promise<ReaperService> {
  const env = options.env ?? process.env;
  const log = options.log;
  const demoClock =
    options.demoClock ?? (options.timeScale === 1 ? systemClock : new ScaledClock(options.timeScale));
  // Metrics, team alerts, history retention and instance facts, beside each session (operations.ts).
  const operations = new Operations({
    version: options.version ?? '0.0.0',
    ...(log ? { log } : {}),
    ...options.operations,
  });
  const sessions = createSessionFactory({
    demoClock,
    ...(options.accountClock ? { accountClock: options.accountClock } : {}),
    timeScale: options.timeScale,
    scenario: options.scenario,
    accountBackend:
      options.accountBackend ?? (() => new JsonFileBackend(join(options.dataDir, 'config.json'))),
    accountDatastore: () => {
      const { store, problem } = openDatastore(join(options.dataDir, 'reaper.sqlite'));
      if (problem) log?.('error', problem);
      return store;
    },
    enginePort: operations.enginePort,
    ...(log ? { log } : {}),
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
          ...(log ? { log } : {}),
        }));
  const service = new ReaperService({
    sessions: operations.sessions(sessions),
    credentials,
    initial: options.demo ? 'demo' : 'account',
    version: options.version ?? '0.0.0',
    operations,
    ...(log ? { log } : {}),
  });
  await service.start();
  return service;
}
