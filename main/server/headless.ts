/**
 * The headless server, built from its parts: data directory and admin token, the service (demo or
 * account sessions), the HTTP transport. A function of its dependencies, so tests start it
 * in-process on port 0 with a clock of their own.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ScaledClock, systemClock } from '../engine/clocks.ts';
import type { CleverCloudPort, Clock } from '../engine/ports.ts';
import { type CredentialsManager, DemoOnlyCredentials, FixedCredentials } from '../service/credentials.ts';
import { OwnerOnlyFileSecrets, RealCredentials } from '../service/real-credentials.ts';
import { ReaperService } from '../service/reaper-service.ts';
import { createSessionFactory, type Log } from '../service/session.ts';
import type { ScenarioName } from '../simulator/scenarios.ts';
import { Datastore } from '../store/datastore.ts';
import { JsonFileBackend } from '../store/json-file-backend.ts';
import { startHttpServer } from './http-server.ts';
import { type AdminToken, ensureDataDir, loadOrCreateToken } from './token.ts';

export interface HeadlessOptions {
  /** Run the embedded simulator's scenario instead of a Clever Cloud account. */
  demo: boolean;
  scenario: ScenarioName;
  host: string;
  port: number;
  dataDir: string;
  apiUrl: string | null;
  /** Demo only: the clock runs this many times faster than real time. */
  timeScale: number;
  /** The built dashboard; default: out/renderer of this checkout, when built. */
  staticDir?: string | null;
  env?: NodeJS.ProcessEnv;
  version?: string;
  log?: Log;
  /** Tests: the clock of demo sessions (default: a ScaledClock, or the system clock at scale 1). */
  demoClock?: Clock;
  /** Tests: the clock of account sessions (default: the system clock). */
  accountClock?: Clock;
  /** Tests: a Clever Cloud port to run an account session on (the real client on a simulator...). */
  clever?: CleverCloudPort;
  /** Tests: the credentials manager (default: demo-only with --demo, else the real one). */
  credentials?: CredentialsManager;
  heartbeatMs?: number;
}

export interface Headless {
  /** The server's base URL. */
  url: string;
  /** The dashboard, with the token in the fragment (never sent over the network by the browser). */
  dashboardUrl: string;
  token: AdminToken;
  service: ReaperService;
  close(): Promise<void>;
}

/** out/renderer of this checkout, when the dashboard has been built. */
export function defaultStaticDir(): string | null {
  const dir = fileURLToPath(new URL('../../out/renderer/', import.meta.url));
  return existsSync(join(dir, 'index.html')) ? dir : null;
}

export async function startHeadless(options: HeadlessOptions): Promise<Headless> {
  const env = options.env ?? process.env;
  ensureDataDir(options.dataDir);
  const token = loadOrCreateToken(options.dataDir, env);
  const demoClock =
    options.demoClock ?? (options.timeScale === 1 ? systemClock : new ScaledClock(options.timeScale));
  const sessions = createSessionFactory({
    demoClock,
    ...(options.accountClock ? { accountClock: options.accountClock } : {}),
    timeScale: options.timeScale,
    scenario: options.scenario,
    accountBackend: () => new JsonFileBackend(join(options.dataDir, 'config.json')),
    accountDatastore: () => new Datastore(join(options.dataDir, 'reaper.sqlite')),
    ...(options.log ? { log: options.log } : {}),
  });
  const credentials =
    options.credentials ??
    (options.clever ? new FixedCredentials(options.clever) : undefined) ??
    (options.demo
      ? new DemoOnlyCredentials()
      : new RealCredentials({
          secrets: new OwnerOnlyFileSecrets(join(options.dataDir, 'credentials.json')),
          apiUrl: options.apiUrl,
          env,
          ...(options.log ? { log: options.log } : {}),
        }));
  const service = new ReaperService({
    sessions,
    credentials,
    initial: options.demo ? 'demo' : 'account',
    version: options.version ?? '0.0.0',
    ...(options.log ? { log: options.log } : {}),
  });
  await service.start();
  let http: Awaited<ReturnType<typeof startHttpServer>>;
  try {
    http = await startHttpServer({
      backend: service,
      token: token.token,
      host: options.host,
      port: options.port,
      staticDir: options.staticDir === undefined ? defaultStaticDir() : options.staticDir,
      ...(options.heartbeatMs ? { heartbeatMs: options.heartbeatMs } : {}),
      ...(options.log ? { log: options.log } : {}),
    });
  } catch (error) {
    await service.close();
    throw error;
  }
  return {
    url: http.url,
    dashboardUrl: `${http.url}/#token=${encodeURIComponent(token.token)}`,
    token,
    service,
    async close() {
      await http.close();
      await service.close();
    },
  };
}
