/**
 * `npm run serve -- [--demo] [--scenario NAME] [--time-scale N] [--port N] [--host ADDR]
 *                   [--data-dir DIR] [--api-url URL]`
 *
 * Runs the engine, the admin API and the dashboard, and prints the dashboard's URL. Runs on Node 24
 * straight from the TypeScript sources (`node main/server/cli.ts`).
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { isScenarioName, SCENARIOS, type ScenarioName } from '../simulator/scenarios.ts';
import { type HeadlessOptions, startHeadless } from './headless.ts';

export const DEFAULT_PORT = 7410;

const USAGE = `Usage: npm run serve -- [options]

  --demo              run the embedded simulator instead of a Clever Cloud account
  --scenario NAME     the demo's scenario: ${Object.keys(SCENARIOS).join(', ')} (default: demo)
  --time-scale N      time runs N times faster (default: 1): the demo, or an account on a
                      simulator run apart (--api-url) with the same --time-scale and --time-origin
  --time-origin MS    the instant (epoch ms) both clocks count from, so that processes agree
  --port N            port to listen on (default: ${DEFAULT_PORT}; 0 picks a free one)
  --host ADDR         address to listen on (default: 127.0.0.1, loopback only)
  --data-dir DIR      where the token, routes, settings and history live
                      (default: $REAPER_HOME, else the user's data directory)
  --api-url URL       another Clever Cloud API base URL (a simulator, a proxy)
  -h, --help          this help

The admin token is $REAPER_ADMIN_TOKEN when set, else generated once into DIR/admin-token.`;

export function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.REAPER_HOME) return resolve(env.REAPER_HOME);
  if (process.platform === 'darwin')
    return join(homedir(), 'Library', 'Application Support', 'clever-reaper');
  if (process.platform === 'win32' && env.APPDATA) return join(env.APPDATA, 'clever-reaper');
  return join(env.XDG_DATA_HOME || join(homedir(), '.local', 'share'), 'clever-reaper');
}

export type CliOptions = Pick<
  HeadlessOptions,
  'demo' | 'scenario' | 'host' | 'port' | 'dataDir' | 'apiUrl' | 'timeScale' | 'timeOrigin'
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
      host: { type: 'string', default: '127.0.0.1' },
      'data-dir': { type: 'string' },
      'api-url': { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) return { help: true };
  const port = values.port === undefined ? DEFAULT_PORT : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`--port: '${values.port}' is not a port number (0 to 65535)`);
  }
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
  return {
    demo: values.demo,
    scenario: scenario as ScenarioName,
    host: values.host,
    port,
    dataDir: values['data-dir'] ? resolve(values['data-dir']) : defaultDataDir(env),
    apiUrl,
    timeScale,
    timeOrigin,
  };
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\./.test(host);
}

async function main(): Promise<void> {
  let options: ReturnType<typeof parseCli>;
  try {
    options = parseCli(process.argv.slice(2));
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : error}\n\n${USAGE}`);
    process.exit(2);
  }
  if ('help' in options) {
    console.log(USAGE);
    return;
  }
  const version = (
    JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
  ).version;
  const log = (level: 'info' | 'warn' | 'error', message: string) => {
    if (level !== 'info') console.error(`[${level}] ${message}`);
  };
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
  console.log(`Dashboard: ${server.dashboardUrl}`);
  console.log(`Admin API: ${server.url}/api  (Authorization: Bearer <token>)`);
  console.log(
    server.token.source === 'environment'
      ? 'Token: $REAPER_ADMIN_TOKEN'
      : `Token: in ${server.token.file} (readable by its owner only)`,
  );
  if (options.timeScale !== 1 && !options.demo && options.timeOrigin === null) {
    console.warn(
      '[warn] --time-scale without --time-origin: dates disagree with a simulator run apart unless both get the same --time-origin',
    );
  }
  if (!isLoopback(options.host)) {
    console.warn(`[warn] listening on ${options.host}: the admin API is reachable from the network`);
  }
  let closing = false;
  const stop = (signal: string) => {
    if (closing) process.exit(1);
    closing = true;
    console.log(`${signal}: stopping`);
    server.close().then(
      () => process.exit(0),
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
