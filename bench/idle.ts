/**
 * Idle cost of the headless server: CPU (% of one core) and resident memory of the server process,
 * with 1,000 managed apps and with none (the baseline), over a minute once it has settled.
 *
 * "Idle" here: no request reaches any app, nobody acts, no dashboard is open; the apps keep their
 * states (grace periods of a day). What runs is what the reaper does to watch them: a sweep every
 * 30 s (one application list per owner, a decision per app), a fast tick every 5 s, one access-log
 * stream per app (Clever Cloud sends a heartbeat on each every 2 s: 500 a second for 1,000 apps) and
 * the event socket. The server runs on an account (`--api-url`) against the simulator in a process
 * of its own (bench/fixtures/fleet-cloud.ts), so the simulator's share (serving the streams) is not
 * counted as the reaper's; it is reported beside it. A second baseline, the floor: a bare Node.js
 * client holding as many heartbeat streams and doing nothing with them (bench/fixtures/sse-floor.ts),
 * what any reaper on Node that follows every app's access log pays at the least.
 *
 * With --demo, also `serve --demo --scenario fleet` as a user starts it: one process with the
 * embedded simulator and the fleet's light traffic (5 requests every 2 s, a wake every 20 s; apps
 * keep falling asleep for the first 14 minutes, so it is not idle in the sense above).
 *
 *   npx node bench/idle.ts [--apps 1000] [--settle 20] [--seconds 60] [--demo] [--demo-settle 60]
 *
 * Linux only (reads /proc/<pid>/stat and /proc/<pid>/status).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { NODE, serverEnv, startProcess, stopProcess, withFleet } from './fleet.ts';
import { round } from './stats.ts';

export interface IdleResult {
  name: string;
  apps: number;
  seconds: number;
  /** CPU time of the server process (every thread, user + system) over wall time, % of one core. */
  cpuPercent: number;
  userPercent: number;
  systemPercent: number;
  /** Resident memory at the end of the window, and the most seen during it (MiB). */
  rssMiB: number;
  rssPeakMiB: number;
  /** The simulator's own process, when it runs apart (Clever Cloud's side of the streams). */
  simulatorCpuPercent?: number;
  /** Against the run with no app, when there is one. */
  cpuRatio?: number;
  /** Against the floor: a bare Node.js client holding as many heartbeat streams. */
  cpuOverFloor?: number;
  rssRatio?: number;
  /** The machine's load average (1 min) before and after: other processes running. */
  loadBefore: number;
  loadAfter: number;
}

const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;

/** utime and stime of a process (all its threads), in seconds. */
function cpuTimes(pid: number): { user: number; system: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces), from field 3 on.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { user: Number(fields[11]) / TICKS_PER_SECOND, system: Number(fields[12]) / TICKS_PER_SECOND };
}

function rssMiB(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : Number.NaN;
}

/** CPU and memory of `pid` (and of `other`, when given) over `seconds`, sampled every second. */
async function measure(pid: number, seconds: number, other?: number) {
  const loadBefore = loadavg()[0]!;
  const start = cpuTimes(pid);
  const otherStart = other ? cpuTimes(other) : null;
  const started = performance.now();
  let peak = rssMiB(pid);
  for (let s = 0; s < seconds; s++) {
    await new Promise((r) => setTimeout(r, 1000));
    peak = Math.max(peak, rssMiB(pid));
  }
  const elapsed = (performance.now() - started) / 1000;
  const end = cpuTimes(pid);
  const pct = (x: number) => round((100 * x) / elapsed, 2);
  const user = end.user - start.user;
  const system = end.system - start.system;
  return {
    seconds: round(elapsed, 1),
    cpuPercent: pct(user + system),
    userPercent: pct(user),
    systemPercent: pct(system),
    rssMiB: round(rssMiB(pid), 1),
    rssPeakMiB: round(peak, 1),
    ...(other && otherStart
      ? (() => {
          const o = cpuTimes(other);
          return { simulatorCpuPercent: pct(o.user + o.system - otherStart.user - otherStart.system) };
        })()
      : {}),
    loadBefore: round(loadBefore, 2),
    loadAfter: round(loadavg()[0]!, 2),
  };
}

/** The server on an account, against the simulator in a process of its own. */
export function idleOnAccount(apps: number, settle = 20, seconds = 60): Promise<IdleResult> {
  return withFleet(
    apps,
    async (fleet) => ({
      name: `idle server, ${apps} managed apps (account, simulator apart)`,
      apps,
      ...(await measure(fleet.serverPid, seconds, fleet.simulatorPid)),
    }),
    settle,
  );
}

/** `serve --demo --scenario fleet` as a user starts it: the simulator and its traffic inside. */
export async function idleDemoFleet(settle = 60, seconds = 60): Promise<IdleResult> {
  const dataDir = mkdtempSync(join(tmpdir(), 'reaper-idle-'));
  const started = await startProcess(
    [...NODE, 'main/server/cli.ts', '--demo', '--scenario', 'fleet', '--port', '0', '--data-dir', dataDir],
    /Dashboard: (\S+)/,
    serverEnv(),
  );
  try {
    await new Promise((r) => setTimeout(r, settle * 1000));
    const m = await measure(started.child.pid!, seconds);
    return {
      name: `demo server, scenario fleet (1000 apps, simulator and traffic inside)`,
      apps: 1000,
      ...m,
    };
  } finally {
    await stopProcess(started.child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The floor: a bare Node.js client holding as many heartbeat streams (bench/fixtures/sse-floor.ts). */
export async function idleFloor(streams: number, settle = 20, seconds = 60): Promise<IdleResult> {
  const script = 'bench/fixtures/sse-floor.ts';
  const server = await startProcess([...NODE, script, 'server'], /ready (\d+)/);
  try {
    const client = await startProcess(
      [...NODE, script, 'client', String(streams), server.match[1]!],
      /ready/,
    );
    try {
      await new Promise((r) => setTimeout(r, settle * 1000));
      const m = await measure(client.child.pid!, seconds);
      return { name: `floor: bare Node.js client holding ${streams} heartbeat streams`, apps: streams, ...m };
    } finally {
      await stopProcess(client.child);
    }
  } finally {
    await stopProcess(server.child);
  }
}

export async function idleBench(
  options: { apps?: number; settle?: number; seconds?: number } = {},
): Promise<IdleResult[]> {
  const { apps = 1000, settle = 20, seconds = 60 } = options;
  const none = await idleOnAccount(0, settle, seconds);
  const floor = await idleFloor(apps, settle, seconds);
  const many = await idleOnAccount(apps, settle, seconds);
  return [
    none,
    floor,
    {
      ...many,
      cpuRatio: round(many.cpuPercent / none.cpuPercent, 1),
      rssRatio: round(many.rssMiB / none.rssMiB, 2),
      cpuOverFloor: round(many.cpuPercent / floor.cpuPercent, 2),
    },
  ];
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: {
      apps: { type: 'string', default: '1000' },
      settle: { type: 'string', default: '20' },
      seconds: { type: 'string', default: '60' },
      demo: { type: 'boolean', default: false },
      'demo-settle': { type: 'string', default: '60' },
    },
  });
  const seconds = Number(values.seconds);
  for (const r of await idleBench({ apps: Number(values.apps), settle: Number(values.settle), seconds }))
    console.log(JSON.stringify(r));
  if (values.demo) console.log(JSON.stringify(await idleDemoFleet(Number(values['demo-settle']), seconds)));
}
