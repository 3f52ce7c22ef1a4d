/**
 * The desktop app's command line: `clever-reaper [--demo] [--scenario NAME] [--time-scale N]
 * [--data-dir DIR] [--admin-port N] [--hidden] [clever-reaper://...]`.
 *
 * Electron's argv also holds the executable, the app path (`electron .`), Chromium switches and, on
 * Windows and Linux, the link the OS launched the app for: everything this module does not know is
 * left alone rather than refused, and the link is picked out wherever it is.
 */
import { resolve } from 'node:path';
import { isScenarioName, SCENARIOS, type ScenarioName } from '../simulator/scenarios.ts';
import { LINK_SCHEME } from './protocol.ts';

export interface DesktopArgs {
  /** Run the embedded simulator instead of a Clever Cloud account. */
  demo: boolean;
  scenario: ScenarioName;
  /** Demo only: time runs this many times faster. */
  timeScale: number;
  /** Where everything lives (routes, settings, history, credentials, Chromium's profile); null: the OS default. */
  dataDir: string | null;
  /** Serve the admin API on loopback at this port (0: a free one); null: no admin API. */
  adminPort: number | null;
  /** Start in the tray without opening the window (start at login). */
  hidden: boolean;
  /** A clever-reaper:// link the app was launched for. */
  link: string | null;
}

export const DESKTOP_USAGE = `Usage: clever-reaper [options] [clever-reaper://open/APP_ID | clever-reaper://wake/APP_ID]
  (from a checkout: npm start -- [options])

  --demo              run the embedded simulator instead of a Clever Cloud account
  --scenario NAME     the demo's scenario: ${Object.keys(SCENARIOS).join(', ')} (default: demo)
  --time-scale N      demo only: time runs N times faster (default: 1)
  --data-dir DIR      keep everything in DIR instead of the app's user data folder
  --admin-port N      also serve the admin API on 127.0.0.1:N (0 picks a free port)
  --hidden            start in the tray, without opening the window`;

function optionValue(argv: readonly string[], i: number, name: string): { value: string; used: number } {
  const arg = argv[i]!;
  if (arg.startsWith(`${name}=`)) return { value: arg.slice(name.length + 1), used: 1 };
  const next = argv[i + 1];
  if (next === undefined || next.startsWith('--')) throw new Error(`${name}: a value is needed`);
  return { value: next, used: 2 };
}

/** The options of Electron's argv; throws an Error whose message says what is wrong. */
export function parseDesktopArgs(argv: readonly string[], cwd: string = process.cwd()): DesktopArgs {
  const out: DesktopArgs = {
    demo: false,
    scenario: 'demo',
    timeScale: 1,
    dataDir: null,
    adminPort: null,
    hidden: false,
    link: null,
  };
  let scenario: string | null = null;
  let timeScale: string | null = null;
  for (let i = 0; i < argv.length; ) {
    const arg = argv[i]!;
    const name = arg.split('=')[0]!;
    if (arg.toLowerCase().startsWith(`${LINK_SCHEME}:`)) {
      out.link = arg;
      i += 1;
    } else if (arg === '--demo') {
      out.demo = true;
      i += 1;
    } else if (arg === '--hidden') {
      out.hidden = true;
      i += 1;
    } else if (
      name === '--scenario' ||
      name === '--time-scale' ||
      name === '--data-dir' ||
      name === '--admin-port'
    ) {
      const { value, used } = optionValue(argv, i, name);
      if (name === '--scenario') scenario = value;
      else if (name === '--time-scale') timeScale = value;
      else if (name === '--data-dir') {
        if (!value.trim()) throw new Error('--data-dir: a folder is needed');
        out.dataDir = resolve(cwd, value);
      } else {
        const port = Number(value);
        if (!/^\d+$/.test(value) || port > 65535) {
          throw new Error(`--admin-port: '${value}' is not a port number (0 to 65535)`);
        }
        out.adminPort = port;
      }
      i += used;
    } else {
      i += 1;
    }
  }
  if (scenario !== null) {
    if (!out.demo) throw new Error('--scenario: only with --demo');
    if (!isScenarioName(scenario)) {
      throw new Error(`--scenario: '${scenario}' is not one of ${Object.keys(SCENARIOS).join(', ')}`);
    }
    out.scenario = scenario;
  }
  if (timeScale !== null) {
    const n = Number(timeScale);
    if (!Number.isFinite(n) || n <= 0 || n > 1000) {
      throw new Error(`--time-scale: '${timeScale}' is not a number from 0 to 1000`);
    }
    if (n !== 1 && !out.demo) throw new Error('--time-scale: only with --demo');
    out.timeScale = n;
  }
  return out;
}

/** The clever-reaper:// link of an argv (a second launch's), if any. */
export function findLink(argv: readonly string[]): string | null {
  return argv.find((arg) => arg.toLowerCase().startsWith(`${LINK_SCHEME}:`)) ?? null;
}
