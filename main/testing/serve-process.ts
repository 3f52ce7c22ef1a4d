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
}

export function serveProcess(options: ServeOptions): Promise<ServeProcess> {
  return new Promise((resolve, reject) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'reaper-serve-'));
    options.dirs?.push(dataDir);
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
  probe: () => T | null | false | Promise<T | null | false>,
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
