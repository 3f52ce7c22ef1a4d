/**
 * `npm run serve -- [--demo] [--scenario NAME] [--time-scale N] [--port N] [--host ADDR] [--one-port]
 *                   [--allowed-host NAME]... [--data-dir DIR] [--api-url URL] [connection caps]`
 *
 * Runs the engine, the admin API and the dashboard, and prints the dashboard's URL. Runs on Node 24
 * straight from the TypeScript sources (`node main/server/cli.ts`).
 *
 * Where a platform runs it (Clever Cloud, a container): `PORT` set means that port, on 0.0.0.0, and
 * one port for everything (the wake proxy for every Host but the server's own names).
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { describeError, type Log } from '../../shared/log.ts';
import { isScenarioName, SCENARIOS, type ScenarioName } from '../simulator/scenarios.ts';
import { DataDirInUseError, type DataDirLock, lockDataDir } from '../store/data-dir.ts';
import { chooseDatabase, redactDatabaseUrl } from '../store/postgres/database-url.ts';
import { defaultLimits } from '../traffic/limits.ts';
import { type ConnectionCaps, type HeadlessOptions, startHeadless } from './headless.ts';
import { ensureDataDir } from './token.ts';
import { runTokens } from './tokens-cli.ts';

export const DEFAULT_PORT = 7410;

const CAPS = defaultLimits();
/** The flags of the connection caps, and the option each sets. */
const CAP_FLAGS = {
  'max-connections': 'maxConnections',
  'max-connections-per-address': 'maxConnectionsPerAddress',
  'max-status-streams': 'maxStatusStreams',
  'max-status-streams-per-address': 'maxStatusStreamsPerAddress',
  'admin-max-connections': 'adminMaxConnections',
} as const satisfies Record<string, keyof ConnectionCaps>;

const USAGE = `Usage: npm run serve -- [options]
       npm run serve -- tokens create|list|revoke ...   (personal tokens: tokens --help)

  --demo              run the embedded simulator instead of a Clever Cloud account
  --scenario NAME     the demo's scenario: ${Object.keys(SCENARIOS).join(', ')} (default: demo)
  --time-scale N      time runs N times faster (default: 1): the demo, or an account on a
                      simulator run apart (--api-url) with the same --time-scale and --time-origin
  --time-origin MS    the instant (epoch ms) both clocks count from, so that processes agree
  --port N            port to listen on (default: $PORT, else ${DEFAULT_PORT}; 0 picks a free one)
  --host ADDR         address to listen on (default: 0.0.0.0 when $PORT is set, else 127.0.0.1,
                      loopback only)
  --one-port          serve the wake proxy on this port too: a Host that is not the server's own
                      (--allowed-host, its addresses, loopback) goes to the wake proxy
                      (default: on when $PORT is set, as on Clever Cloud)
  --allowed-host NAME a host name the dashboard and admin API are reached by (repeatable; also
                      $REAPER_ALLOWED_HOSTS, comma-separated). When set, only these names, the
                      server's own addresses and loopback pass the Host check (DNS rebinding);
                      without it, --host 0.0.0.0 lets any Host pass
  --data-dir DIR      where the token, routes, settings and history live
                      (default: $REAPER_HOME, else the user's data directory)
  --api-url URL       another Clever Cloud API base URL (a simulator, a proxy)
  --database URL      team mode: the account's datastore, routes and settings in PostgreSQL
                      (postgres://...; also $DATABASE_URL, else $POSTGRESQL_ADDON_URI as a
                      Clever Cloud PostgreSQL add-on sets it). Default: SQLite in DIR
  --lease-seconds N   team mode: how long an instance holds an owner's apps without renewing
                      its lease (default: 15); another instance takes them over after that
  --pool-size N       team mode: connections of this instance's pool to PostgreSQL, 1 to 100
                      (also $REAPER_POOL_SIZE; default: 10); it opens one more for the bus
  -h, --help          this help

Connection caps (the defaults leave half or more of the open-file limit to the engine's own calls):
  --max-connections N                 wake proxy, in total (default: ${CAPS.maxConnections})
  --max-connections-per-address N     wake proxy, per client address (default: ${CAPS.maxConnectionsPerAddress})
  --max-status-streams N              waking pages' live-status streams, in total (default: ${CAPS.maxStatusStreams})
  --max-status-streams-per-address N  the same, per client address (default: ${CAPS.maxStatusStreamsPerAddress})
  --admin-max-connections N           dashboard and admin API (default: ${CAPS.adminMaxConnections})
  A live-status client that leaves ${CAPS.statusUnreadBytes / 1024} KB unread for ${CAPS.statusStallMs / 1000} s is dropped.

The admin token is $REAPER_ADMIN_TOKEN when set, else generated once into DIR/admin-token (the
dashboard's URL with the token is printed at that start only). One server at a time per DIR.`;

export function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.REAPER_HOME) return resolve(env.REAPER_HOME);
  if (process.platform === 'darwin')
    return join(homedir(), 'Library', 'Application Support', 'clever-reaper');
  if (process.platform === 'win32' && env.APPDATA) return join(env.APPDATA, 'clever-reaper');
  return join(env.XDG_DATA_HOME || join(homedir(), '.local', 'share'), 'clever-reaper');
}

export type CliOptions = Pick<
  HeadlessOptions,
  | 'demo'
  | 'scenario'
  | 'host'
  | 'port'
  | 'dataDir'
  | 'apiUrl'
  | 'database'
  | 'leaseMs'
  | 'poolSize'
  | 'timeScale'
  | 'timeOrigin'
  | 'allowedHosts'
  | 'caps'
  | 'onePort'
>;

/** The options of a command line, or a message saying what is wrong with it. */
export function parseCli(argv: string[], env: NodeJS.ProcessEnv = process.env): CliOptions | { help: true } {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      demo: { type: 'boolean', default: false },
      scenario: { type: 'string' },
      'time-scale': { type: 'string' },
      'time-origin': { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string' },
      'one-port': { type: 'boolean', default: false },
      'allowed-host': { type: 'string', multiple: true },
      ...Object.fromEntries(Object.keys(CAP_FLAGS).map((flag) => [flag, { type: 'string' as const }])),
      'data-dir': { type: 'string' },
      'api-url': { type: 'string' },
      database: { type: 'string' },
      'lease-seconds': { type: 'string' },
      'pool-size': { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) return { help: true };
  // A platform's PORT (Clever Cloud sets 8080) says where it sends the traffic: every address.
  const platformPort = env.PORT !== undefined && env.PORT.trim() !== '' ? env.PORT.trim() : undefined;
  const given = values.port ?? platformPort;
  const port = given === undefined ? DEFAULT_PORT : Number(given);
  if (!/^\d+$/.test(given ?? '0') || !Number.isInteger(port) || port < 0 || port > 65535) {
    const from = values.port === undefined ? 'PORT (environment)' : '--port';
    throw new Error(`${from}: '${given}' is not a port number (0 to 65535)`);
  }
  const host = values.host ?? (platformPort !== undefined ? '0.0.0.0' : '127.0.0.1');
  const timeScale = values['time-scale'] === undefined ? 1 : Number(values['time-scale']);
  if (!Number.isFinite(timeScale) || timeScale <= 0 || timeScale > 1000) {
    throw new Error(`--time-scale: '${values['time-scale']}' is not a number from 0 to 1000`);
  }
  const timeOrigin = values['time-origin'] === undefined ? null : Number(values['time-origin']);
  if (timeOrigin !== null && !(Number.isInteger(timeOrigin) && timeOrigin > 0)) {
    throw new Error(`--time-origin: '${values['time-origin']}' is not a time in epoch milliseconds`);
  }
  if (timeOrigin !== null && timeScale === 1) throw new Error('--time-origin: only with --time-scale');
  // The real Clever Cloud runs in real time: a faster clock against it would misread every date.
  if (timeScale !== 1 && !values.demo && values['api-url'] === undefined) {
    throw new Error(
      '--time-scale: only with --demo, or with --api-url on a simulator run with the same scale',
    );
  }
  const scenario = values.scenario ?? 'demo';
  if (!isScenarioName(scenario)) {
    throw new Error(`--scenario: '${scenario}' is not one of ${Object.keys(SCENARIOS).join(', ')}`);
  }
  if (values.scenario !== undefined && !values.demo) throw new Error('--scenario: only with --demo');
  let apiUrl: string | null = null;
  if (values['api-url'] !== undefined) {
    const url = URL.canParse(values['api-url']) ? new URL(values['api-url']) : null;
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
      throw new Error(`--api-url: '${values['api-url']}' is not an http(s) URL`);
    }
    apiUrl = url.toString();
  }
  const database = chooseDatabase(values.database, env);
  let leaseMs: number | null = null;
  if (values['lease-seconds'] !== undefined) {
    const seconds = Number(values['lease-seconds']);
    if (!Number.isFinite(seconds) || seconds < 0.5 || seconds > 3600) {
      throw new Error(
        `--lease-seconds: '${values['lease-seconds']}' is not a number of seconds from 0.5 to 3600`,
      );
    }
    if (!database) throw new Error('--lease-seconds: only with --database (team mode)');
    leaseMs = Math.round(seconds * 1000);
  }
  const poolSize = poolSizeOf(values['pool-size'], env.REAPER_POOL_SIZE, database !== null);
  const allowedHosts: string[] = [];
  for (const name of [...(values['allowed-host'] ?? []), ...(env.REAPER_ALLOWED_HOSTS ?? '').split(',')]) {
    const host = name.trim().toLowerCase().replace(/\.$/, '');
    if (!host) continue;
    if (!/^[a-z0-9.-]+$|^\[[0-9a-f:.]+\]$/.test(host)) {
      throw new Error(`--allowed-host: '${name}' is not a host name (no scheme, port or path)`);
    }
    if (!allowedHosts.includes(host)) allowedHosts.push(host);
  }
  const caps: Partial<ConnectionCaps> = {};
  for (const [flag, key] of Object.entries(CAP_FLAGS)) {
    const given = (values as Record<string, unknown>)[flag];
    if (given === undefined) continue;
    const n = Number(given);
    if (!Number.isInteger(n) || n < 1 || n > 1_000_000) {
      throw new Error(`--${flag}: '${given}' is not a whole number from 1 to 1000000`);
    }
    caps[key] = n;
  }
  return {
    demo: values.demo,
    scenario: scenario as ScenarioName,
    host,
    port,
    dataDir: values['data-dir'] ? resolve(values['data-dir']) : defaultDataDir(env),
    apiUrl,
    timeScale,
    timeOrigin,
    allowedHosts,
    caps,
    ...(database ? { database: database.url } : {}),
    onePort: values['one-port'] || platformPort !== undefined,
    ...(leaseMs !== null ? { leaseMs } : {}),
    ...(poolSize !== null ? { poolSize } : {}),
  };
}

/** --pool-size, else $REAPER_POOL_SIZE: a whole number from 1 to 100, team mode only (null: the default). */
function poolSizeOf(flag: string | undefined, env: string | undefined, team: boolean): number | null {
  const [given, name] = flag !== undefined ? [flag, '--pool-size'] : [env, 'REAPER_POOL_SIZE'];
  if (given === undefined || given === '') return null;
  const size = Number(given);
  if (!Number.isInteger(size) || size < 1 || size > 100)
    throw new Error(`${name}: '${given.slice(0, 40)}' is not a whole number of connections from 1 to 100`);
  if (!team) throw new Error(`${name}: only with --database (team mode)`);
  return size;
}

/**
 * Clever Cloud sets these on every instance ("Set by the deployment process" in its documentation,
 * content/doc/reference/reference-environment-variables.md, with PORT=8080).
 */
export function onCleverCloud(env: NodeJS.ProcessEnv): boolean {
  return Boolean(env.APP_ID && env.INSTANCE_ID);
}

/**
 * What a server should say at start about where it runs: an instance's disk on Clever Cloud is lost
 * at each deployment and restart (and each instance has its own), so without a shared datastore the
 * routes, settings, states and history go with it.
 */
export function startupWarnings(
  options: Pick<CliOptions, 'host' | 'allowedHosts' | 'onePort'>,
  env: NodeJS.ProcessEnv,
  hasDatabase: boolean,
): string[] {
  const warnings: string[] = [];
  if (onCleverCloud(env) && !hasDatabase) {
    warnings.push(
      'on Clever Cloud without --database: the data folder is lost at each deployment or restart, and ' +
        'each instance has its own (routes, settings, history); link a PostgreSQL add-on (team mode)',
    );
  }
  if (onCleverCloud(env) && !env.REAPER_ADMIN_TOKEN) {
    warnings.push('on Clever Cloud without REAPER_ADMIN_TOKEN: the admin token changes at each deployment');
  }
  if (!isLoopback(options.host)) {
    warnings.push(`listening on ${options.host}: the admin API is reachable from the network`);
    const wildcard = options.host === '0.0.0.0' || options.host === '::';
    if ((options.allowedHosts ?? []).length === 0 && wildcard) {
      warnings.push(
        options.onePort
          ? 'one port and no --allowed-host: every Host name goes to the wake proxy; the dashboard answers ' +
              "to the server's addresses only (name its domain with --allowed-host or REAPER_ALLOWED_HOSTS)"
          : 'any Host name is accepted: name the ones it is reached by with --allowed-host',
      );
    }
  }
  return warnings;
}

/**
 * The last resort, for what no code path catches. A rejected promise nobody waited for is logged and
 * the server serves on: nothing was left half-done by it. An uncaught exception is logged and the
 * server serves on too: it comes from one callback (a socket, a timer), and the engine changes its
 * state in memory only after the transaction recording it has committed, so memory and datastore
 * still agree. But more than `burst` of them within a minute is a fault in a loop, not a bad request:
 * the process then exits with status 70, to be restarted from the datastore (which a kill at any
 * moment does not damage: crash.test.ts). Each distinct message is logged once a minute at most.
 */
export function installLastResort(
  proc: Pick<NodeJS.Process, 'on'>,
  log: (level: 'error', message: string) => void,
  exit: (code: number) => void,
  burst = 10,
): void {
  const lastLogged = new Map<string, number>();
  const say = (what: string, error: unknown) => {
    const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
    const now = Date.now();
    if ((lastLogged.get(text) ?? -Infinity) > now - 60_000) return;
    if (lastLogged.size > 1000) lastLogged.clear();
    lastLogged.set(text, now);
    log('error', `${what} (serving on): ${text}`);
  };
  proc.on('unhandledRejection', (reason) => say('a promise was rejected and nobody handled it', reason));
  const thrown: number[] = [];
  proc.on('uncaughtException', (error) => {
    say('an exception was not caught', error);
    const now = Date.now();
    thrown.push(now);
    while (thrown.length > 0 && thrown[0]! < now - 60_000) thrown.shift();
    if (thrown.length > burst) {
      log('error', `more than ${burst} uncaught exceptions within a minute: stopping (exit 70)`);
      exit(70);
    }
  });
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\./.test(host);
}

async function main(): Promise<void> {
  if (process.argv[2] === 'tokens') {
    process.umask(0o077);
    const code = await runTokens(process.argv.slice(3), process.env, () => defaultDataDir(), {
      out: (line) => console.log(line),
      err: (line) => console.error(line),
    });
    process.exit(code);
  }
  let options: ReturnType<typeof parseCli>;
  try {
    options = parseCli(process.argv.slice(2));
  } catch (error) {
    console.error(`${describeError(error)}\n\n${USAGE}`);
    process.exit(2);
  }
  if ('help' in options) {
    console.log(USAGE);
    return;
  }
  const version = (
    JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
  ).version;
  const log: Log = (level, message) => {
    if (level !== 'info') console.error(`[${level}] ${message}`);
  };
  installLastResort(process, log, (code) => process.exit(code));
  // Every file this process creates is its owner's only (SQLite's files follow the umask).
  process.umask(0o077);
  for (const problem of ensureDataDir(options.dataDir)) log('warn', problem);
  let lock: DataDirLock;
  try {
    lock = lockDataDir(options.dataDir);
  } catch (error) {
    if (!(error instanceof DataDirInUseError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
  if (options.database) console.log(`Datastore: PostgreSQL, ${redactDatabaseUrl(options.database)}`);
  const server = await startHeadless({ ...options, version, log });
  const mode = server.service.mode;
  console.log(
    `Clever Reaper ${version}: ${
      mode === 'demo'
        ? `demo (scenario ${options.scenario}${options.timeScale !== 1 ? `, time x${options.timeScale}` : ''})`
        : mode === 'account'
          ? options.timeScale !== 1
            ? `on the API at ${options.apiUrl}, time x${options.timeScale} from ${options.timeOrigin ?? 'its start'}`
            : 'on your Clever Cloud account'
          : 'no Clever Cloud account connected yet: the dashboard offers the demo'
    }`,
  );
  // The token is printed once, when it is generated: a log kept by a supervisor would keep it too.
  console.log(`Dashboard: ${server.token.created ? server.dashboardUrl : `${server.url}/`}`);
  // Where browsers wake apps, beside the dashboard (on one port: said last, below).
  if (!options.onePort)
    console.log(wakeProxyLine(server.service.current?.traffic.wakeProxy?.address ?? null));
  console.log(`Admin API: ${server.url}/api  (Authorization: Bearer <token>)`);
  console.log(
    server.token.source === 'environment'
      ? 'Token: $REAPER_ADMIN_TOKEN'
      : server.token.created
        ? `Token: generated into ${server.token.file} (readable by its owner only), shown above this once`
        : `Token: in ${server.token.file} (readable by its owner only); the dashboard asks for it`,
  );
  if (options.timeScale !== 1 && !options.demo && options.timeOrigin === null) {
    console.warn(
      '[warn] --time-scale without --time-origin: dates disagree with a simulator run apart unless both get the same --time-origin',
    );
  }
  if (options.onePort) {
    const names = (options.allowedHosts ?? []).join(', ') || "the server's addresses";
    console.log(`Wake proxy: on this port too, for every Host but ${names}`);
  }
  for (const warning of startupWarnings(options, process.env, Boolean(options.database)))
    console.warn(`[warn] ${warning}`);
  let closing = false;
  const stop = (signal: string) => {
    if (closing) process.exit(1);
    closing = true;
    console.log(`${signal}: stopping`);
    server.close().then(
      () => {
        lock.release();
        process.exit(0);
      },
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

if (import.meta.main) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}

/** The wake proxy's own address, or why it has none yet (no account connected, no demo). */
function wakeProxyLine(address: { address: string; port: number } | null): string {
  if (!address) return 'Wake proxy: not listening yet (it starts with the account or the demo)';
  const host = address.address.includes(':') ? `[${address.address}]` : address.address;
  return `Wake proxy: http://${host}:${address.port}/  (the host names of routes)`;
}
