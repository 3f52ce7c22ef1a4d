/**
 * `npm run serve` on an account against `npm run simulator` run apart, both with the same
 * `--time-scale` and `--time-origin`: two processes, one timeline. The server's clock, the dates it
 * writes (routes, history) and the simulator's dates agree, and a grace period of minutes runs in a
 * second or two of real time.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { MINUTE } from '../../shared/durations.ts';
import { DEMO_CREDENTIALS } from '../simulator/server.ts';
import { watchChildFaults } from '../testing/serve-process.ts';

const SCALE = 100;
const serveCli = fileURLToPath(new URL('./cli.ts', import.meta.url));
const simulatorCli = fileURLToPath(new URL('../simulator/cli.ts', import.meta.url));
const TOKEN = 'time-origin-test-admin-token-0123';
const o = DEMO_CREDENTIALS.oauth;

const children: ChildProcess[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGTERM');
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Start a CLI and resolve with the first match of `ready` in its output. */
function launch(file: string, args: string[], ready: RegExp, env: NodeJS.ProcessEnv = {}) {
  return new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', file, ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    watchChildFaults(child, file);
    let out = '';
    const onData = (c: Buffer) => {
      out += c.toString();
      const m = ready.exec(out);
      if (m) resolve(m[1]!);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => reject(new Error(`${file} exited (${code}):\n${out}`)));
  });
}

async function json<T>(url: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(url, init);
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

describe('npm run serve against npm run simulator with the same time scale and origin', () => {
  it('agree on every date, and a grace period of minutes passes in seconds', async () => {
    // An origin an hour back: at x100 both clocks are 99 hours ahead of the wall clock.
    const origin = Date.now() - 60 * MINUTE;
    const time = ['--time-scale', String(SCALE), '--time-origin', String(origin)];
    const sim = await launch(
      simulatorCli,
      ['--port', '0', '--scenario', 'empty', ...time],
      /simulator on (http:\/\/\S+)/,
    );
    const simNow = async () => (await json<{ now: number }>(`${sim}/_sim/state`)).now;
    const app = await json<{ id: string; ownerId: string }>(`${sim}/_sim/apps`, {
      method: 'POST',
      body: JSON.stringify({ name: 'nightly' }),
    });

    const dataDir = mkdtempSync(join(tmpdir(), 'reaper-time-origin-'));
    dirs.push(dataDir);
    const api = await launch(
      serveCli,
      ['--port', '0', '--data-dir', dataDir, '--api-url', sim, ...time],
      /Dashboard: (http:\/\/[^/]+)\//,
      {
        CLEVER_TOKEN: o.token,
        CLEVER_SECRET: o.secret,
        OAUTH_CONSUMER_KEY: o.consumerKey,
        OAUTH_CONSUMER_SECRET: o.consumerSecret,
        REAPER_ADMIN_TOKEN: TOKEN,
      },
    );
    const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
    const close = (a: number, b: number) => Math.abs(a - b) < 2 * 1000 * SCALE; // 2 s of real time

    const status = await json<{ now: number; mode: string; timeScale: number }>(`${api}/api/status`, {
      headers,
    });
    expect(status).toMatchObject({ mode: 'account', timeScale: SCALE });
    expect(close(status.now, await simNow())).toBe(true);
    expect(status.now - Date.now()).toBeGreaterThan(90 * 60 * MINUTE); // not the wall clock

    const route = await json<{ createdAt: number }>(`${api}/api/routes`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ appId: app.id, ownerId: app.ownerId, gracePeriodMs: 2 * MINUTE }),
    });
    expect(close(route.createdAt, await simNow())).toBe(true);

    // Two minutes of grace and a stop: a few seconds of real time on the shared clock.
    const deadline = Date.now() + 30_000;
    let state = '';
    while (Date.now() < deadline) {
      state = (await json<{ app: { state: string } }>(`${api}/api/apps/${app.id}`, { headers })).app.state;
      if (state === 'Down') break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(state).toBe('Down');
    const sleptAt = await simNow();
    const history = await json<{ at: number; to: string | null }[]>(`${api}/api/apps/${app.id}/history`, {
      headers,
    });
    const asleep = history.find((e) => e.to === 'Down');
    expect(asleep).toBeDefined();
    expect(close(asleep!.at, sleptAt)).toBe(true);
    expect(asleep!.at - route.createdAt).toBeGreaterThanOrEqual(2 * MINUTE);
  }, 60_000);
});
