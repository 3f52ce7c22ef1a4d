/**
 * A `serve` process (main/server/cli.ts) for tests with real processes: an account on a simulator run
 * in the test process, optionally on a shared PostgreSQL (team mode). Resolves once it prints its
 * dashboard URL. Test-only.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEMO_CREDENTIALS } from '../simulator/server.ts';

const cli = fileURLToPath(new URL('../server/cli.ts', import.meta.url));

export interface ServeProcess {
  child: ChildProcess;
  /** The admin API and dashboard, `http://127.0.0.1:PORT`. */
  url: string;
  pid: number;
  dataDir: string;
  out: () => string;
}

export interface ServeOptions {
  apiUrl: string;
  adminToken: string;
  database?: string;
  leaseSeconds?: number;
  timeScale?: number;
  timeOrigin?: number;
  /** Data folders made here are added to it (the test removes them). */
  dirs?: string[];
  /** A data folder of the test's own (a restart on the same data); else one is made here. */
  dataDir?: string;
}

/** What a server's last resort (installLastResort in cli.ts) logs for a fault no code path handled. */
export const UNHANDLED_FAULT =
  /(a promise was rejected and nobody handled it|an exception was not caught) \(serving on\)/;

const faults: string[] = [];

/**
 * Watch a child process's output for the last resort's lines: each is kept for
 * takeChildFaults(), which the test setup (vitest-setup.ts) calls after every test to fail it.
 * A test that plants such a fault on purpose spawns its child without this.
 */
export function watchChildFaults(child: ChildProcess, name: string): void {
  for (const stream of [child.stdout, child.stderr]) {
    let partial = '';
    stream?.on('data', (chunk: Buffer) => {
      const lines = (partial + chunk.toString()).split('\n');
      partial = lines.pop()!;
      for (const line of lines) if (UNHANDLED_FAULT.test(line)) faults.push(`${name}: ${line}`);
    });
  }
}

/** The last-resort lines the watched children logged since the last call. */
export function takeChildFaults(): string[] {
  return faults.splice(0);
}

export function serveProcess(options: ServeOptions): Promise<ServeProcess> {
  return new Promise((resolve, reject) => {
    const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'reaper-serve-'));
    if (!options.dataDir) options.dirs?.push(dataDir);
    const args = ['--disable-warning=ExperimentalWarning', cli, '--port', '0', '--data-dir', dataDir];
    args.push('--api-url', options.apiUrl);
    if (options.database) args.push('--database', options.database);
    if (options.leaseSeconds) args.push('--lease-seconds', String(options.leaseSeconds));
    if (options.timeScale) args.push('--time-scale', String(options.timeScale));
    if (options.timeOrigin !== undefined) args.push('--time-origin', String(options.timeOrigin));
    const o = DEMO_CREDENTIALS.oauth;
    const child = spawn(process.execPath, args, {
      env: {
        ...process.env,
        CLEVER_TOKEN: o.token,
        CLEVER_SECRET: o.secret,
        OAUTH_CONSUMER_KEY: o.consumerKey,
        OAUTH_CONSUMER_SECRET: o.consumerSecret,
        REAPER_ADMIN_TOKEN: options.adminToken,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    watchChildFaults(child, `serve process ${child.pid}`);
    let out = '';
    let started = false;
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /Dashboard: (http:\/\/[^/]+)\//.exec(out);
      if (m && !started) {
        started = true;
        resolve({ child, url: m[1]!, pid: child.pid!, dataDir, out: () => out });
      }
    });
    child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
    child.on('exit', (code, signal) => {
      if (!started) reject(new Error(`the instance exited (${code ?? signal}):\n${out}`));
    });
  });
}

/** Poll `probe` every few ms until it gives a value; throws after `timeoutMs`. */
export async function until<T>(
  what: string,
  timeoutMs: number,
  probe: () => Promise<T | null | false>,
  everyMs = 20,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null && value !== false) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
