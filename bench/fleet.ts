/**
 * What the benchmarks that run the real headless server share: processes started and stopped, the
 * admin API, and a fleet (the simulator in a process of its own with N apps, the server on it).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CREDENTIALS_ENV } from './fixtures/fleet-cloud.ts';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const NODE = [process.execPath, '--disable-warning=ExperimentalWarning'];

/** The environment of a server: its token generated into its data directory, `extra` added. */
export function serverEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = { ...process.env, ...extra };
  delete env.REAPER_ADMIN_TOKEN;
  return env;
}

/** Start a process and resolve with the first match of `pattern` in what it prints. */
export function startProcess(
  args: string[],
  pattern: RegExp,
  env: NodeJS.ProcessEnv = process.env,
  cwd = ROOT,
): Promise<{ child: ChildProcess; match: RegExpExecArray }> {
  const child = spawn(args[0]!, args.slice(1), { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`did not start:\n${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = pattern.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ child, match });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited (${code}):\n${output}`));
    });
  });
}

export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

export async function api<T>(url: string, token: string, path: string): Promise<T> {
  const res = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${token}` } });
  if (!res.ok) throw new Error(`${path}: HTTP ${res.status}`);
  return (await res.json()) as T;
}

/** Until every app is under the reaper and none is in transit, then `settle` seconds more. */
export async function settled(url: string, token: string, apps: number, settle: number): Promise<void> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const list = await api<{ state: string }[]>(url, token, '/api/apps');
    if (list.length === apps && !list.some((a) => a.state.startsWith('Waiting'))) break;
    if (Date.now() > deadline) throw new Error('the apps did not settle within 2 minutes');
    await new Promise((r) => setTimeout(r, 1000));
  }
  await new Promise((r) => setTimeout(r, settle * 1000));
}

export interface Fleet {
  apps: number;
  origin: string;
  dashboardUrl: string;
  token: string;
  /** A line to the fixture's stdin (`churn N`, `toggle NAME`). */
  tell(line: string): void;
  /** The fixture's `toggled NAME <ms>` lines, in order. */
  toggled: number[];
  serverPid: number;
  simulatorPid: number;
}

/**
 * The simulator apart (bench/fixtures/fleet-cloud.ts), the headless server on it, every app under the
 * reaper and settled, then `settle` seconds more. `serverRoot`: the tree whose server (and built
 * dashboard) to run, this one unless told (bench/dashboard.ts --before: another tree, side by side).
 */
export async function withFleet<T>(
  apps: number,
  use: (fleet: Fleet) => Promise<T>,
  settle = 2,
  serverRoot = ROOT,
): Promise<T> {
  const dataDir = mkdtempSync(join(tmpdir(), 'reaper-fleet-'));
  const sim = await startProcess(
    [...NODE, 'bench/fixtures/fleet-cloud.ts', '--apps', String(apps), '--data-dir', dataDir],
    /ready (\S+)/,
  );
  const toggled: number[] = [];
  let pending = '';
  sim.child.stdout!.on('data', (chunk: Buffer) => {
    pending += chunk.toString();
    const lines = pending.split('\n');
    pending = lines.pop()!;
    for (const line of lines) {
      const m = /^toggled \S+ ([\d.]+)$/.exec(line);
      if (m) toggled.push(Number(m[1]));
    }
  });
  let server: ChildProcess | null = null;
  try {
    const started = await startProcess(
      [...NODE, 'main/server/cli.ts', '--port', '0', '--data-dir', dataDir, '--api-url', sim.match[1]!],
      /Dashboard: (\S+)/,
      serverEnv(CREDENTIALS_ENV),
      serverRoot,
    );
    server = started.child;
    const dashboardUrl = started.match[1]!;
    const url = new URL(dashboardUrl);
    const token = decodeURIComponent(url.hash.replace(/^#token=/, ''));
    await settled(url.origin, token, apps, settle);
    return await use({
      apps,
      origin: url.origin,
      dashboardUrl,
      token,
      tell: (line) => sim.child.stdin!.write(`${line}\n`),
      toggled,
      serverPid: server.pid!,
      simulatorPid: sim.child.pid!,
    });
  } finally {
    if (server) await stopProcess(server);
    await stopProcess(sim.child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}
