/**
 * The admin API against hostile or broken requests, through real HTTP: bodies that try to set a
 * prototype, bad requests by the thousand (the log stays short), a settings change on a full disk.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SECOND } from '../../shared/durations.ts';
import { CLEVER_TOOLS_CONSUMER } from '../clever/credentials.ts';
import { ManualClock, systemClock } from '../engine/clocks.ts';
import { SimulatedCloud } from '../simulator/model.ts';
import { startSimulatorServer } from '../simulator/server.ts';
import { MONDAY_9AM } from '../testing/engine-harness.ts';
import { TEST_SERVER } from '../testing/test-server.ts';
import { type Headless, startHeadless } from './headless.ts';
import { startHttpServer } from './http-server.ts';

const running: { server: Headless; dataDir: string }[] = [];
const closing: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const { server, dataDir } of running.splice(0)) {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  for (const close of closing.splice(0)) await close();
});

async function serve(account?: { demo: false; apiUrl: string; env: NodeJS.ProcessEnv }) {
  const dataDir = mkdtempSync(join(tmpdir(), 'reaper-hardening-'));
  const clock = new ManualClock(MONDAY_9AM);
  const logs: string[] = [];
  const server = await startHeadless({
    ...TEST_SERVER,
    demo: true,
    scenario: 'e2e',
    dataDir,
    demoClock: clock,
    ...account,
    log: (level, message) => logs.push(`[${level}] ${message}`),
  });
  running.push({ server, dataDir });
  await clock.advance(5 * SECOND);
  const token = server.token.token;
  /** `body` is sent as it is: a string, so keys like __proto__ stay in the JSON text. */
  const call = async (method: string, path: string, body?: string) => {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body }),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  };
  return { server, dataDir, call, logs };
}

/** A server on an account (its routes and settings in config.json), against the simulator. */
async function serveAccount() {
  const cloud = new SimulatedCloud(systemClock, {
    listingDelayMs: 0,
    deployDurationMs: 300,
    stopDurationMs: 100,
  });
  const sim = await startSimulatorServer({
    cloud,
    credentials: {
      oauth: {
        consumerKey: CLEVER_TOOLS_CONSUMER.key,
        consumerSecret: CLEVER_TOOLS_CONSUMER.secret,
        token: 'hardening-token',
        secret: 'hardening-secret',
      },
    },
  });
  closing.push(() => sim.close());
  cloud.addApp(cloud.addOrganisation('Acme').id, 'staging', { state: 'SHOULD_BE_UP' });
  return serve({
    demo: false,
    apiUrl: sim.url,
    env: { CLEVER_TOKEN: 'hardening-token', CLEVER_SECRET: 'hardening-secret' },
  });
}

describe('a body that names __proto__, constructor or prototype', () => {
  it('is refused with 400 and applies nothing, at the top level and deeper', async () => {
    const { call } = await serve();
    const before = (await call('GET', '/api/settings')).body;
    expect(before.killSwitch).toBe(false);
    for (const body of [
      '{"__proto__": {"killSwitch": true, "dryRun": true}}',
      '{"dryRun": false, "__proto__": {"killSwitch": true}}',
      '{"constructor": {"prototype": {"killSwitch": true}}}',
      '{"prototype": {"killSwitch": true}}',
    ]) {
      const answer = await call('PATCH', '/api/settings', body);
      expect(answer.status, body).toBe(400);
      expect(answer.body.error.code).toBe('invalid-input');
      expect(answer.body.error.message).toMatch(/__proto__|constructor|prototype/);
    }
    expect((await call('GET', '/api/settings')).body).toEqual(before);

    const routes = (await call('GET', '/api/routes')).body as { id: string; gracePeriodMs: number }[];
    const route = routes[0]!;
    const nested = await call(
      'PATCH',
      `/api/routes/${route.id}`,
      '{"__proto__": {"gracePeriodMs": 3600000, "enabled": false}}',
    );
    expect(nested.status).toBe(400);
    const deep = await call(
      'POST',
      '/api/routes/_preview',
      '{"ranges": [{"days": "Mon", "start": "08:00", "end": "09:00", "timeZone": "UTC", "__proto__": {"x": 1}}]}',
    );
    expect(deep.status).toBe(400);
    expect((await call('GET', `/api/routes/${route.id}`)).body).toEqual(route);
  });
});

describe('the range preview', () => {
  it('of a range that never ends lists no transition (no false down at the horizon)', async () => {
    const { call } = await serve();
    const always = await call(
      'POST',
      '/api/routes/_preview',
      JSON.stringify({
        ranges: [{ days: 'Mon-Sun', start: '00:00', end: '24:00', timeZone: 'Europe/Paris' }],
      }),
    );
    expect(always).toEqual({ status: 200, body: [] });
  });
});

describe('bad requests in the log', () => {
  it('take one short line each at most, without a stack, with unknown keys cut and escaped', async () => {
    const { call, logs } = await serve();
    const start = logs.length;
    const hostile = `evil\u001b[31m\n${'k'.repeat(5000)}`;
    const n = 200;
    for (let i = 0; i < n; i++) {
      const answer = await call('PATCH', '/api/settings', JSON.stringify({ [`${hostile}${i}`]: i }));
      expect(answer.status).toBe(400);
      // The caller is still told which key was refused.
      expect(answer.body.error.message).toContain('evil');
    }
    expect((await call('GET', '/api/apps/app_nope')).status).toBe(404);
    expect((await call('PATCH', '/api/settings', '{not json')).status).toBe(400);
    const lines = logs.slice(start);
    expect(lines.length).toBeLessThanOrEqual(n + 2);
    for (const line of lines) {
      expect(line).not.toContain('\n');
      expect(line).not.toContain('\u001b');
      expect(line).not.toMatch(/\bat .*\.ts:\d+/);
      expect(line.length).toBeLessThanOrEqual(400);
      expect(line).not.toContain('k'.repeat(200));
    }
    expect(lines.join('\n').length).toBeLessThan(n * 400);
  });
});

describe('a failure of the server', () => {
  it('is logged as an error with its stack, and answered 500 without it', async () => {
    const logs: string[] = [];
    const server = await startHttpServer({
      backend: {
        call: async () => {
          throw new Error('the datastore fell over');
        },
        subscribe: () => () => {},
        clock: () => ({ now: 0, timeScale: 1 }),
      },
      token: 'a-token',
      host: '127.0.0.1',
      port: 0,
      staticDir: null,
      log: (level, message) => logs.push(`[${level}] ${message}`),
    });
    try {
      const answer = await fetch(`${server.url}/api/status?x=1`, {
        headers: { authorization: 'Bearer a-token' },
      });
      expect(answer.status).toBe(500);
      const text = await answer.text();
      expect(text).not.toContain('fell over');
      expect(logs).toHaveLength(1);
      expect(logs[0]).toMatch(/^\[error\] GET \/api\/status: Error: the datastore fell over\n\s+at /);
    } finally {
      await server.close();
    }
  });
});

describe('a settings change when the disk is full', () => {
  it.skipIf(process.platform !== 'linux')(
    'answers 507 with a message for people, leaves no temporary file, and works again after',
    async () => {
      const { call, dataDir, logs } = await serveAccount();
      const config = join(dataDir, 'config.json');
      expect((await call('PATCH', '/api/settings', JSON.stringify({ dryRun: false }))).status).toBe(200);
      const saved = readFileSync(config, 'utf8');
      // The temporary file the next write makes is the kernel's always-full device: the write fails
      // with ENOSPC, as on a full disk, after the file was created.
      const tmp = `${config}.${process.pid}.tmp`;
      symlinkSync('/dev/full', tmp);
      const answer = await call('PATCH', '/api/settings', JSON.stringify({ killSwitch: true }));
      expect(answer.status).toBe(507);
      expect(answer.body.error.code).toBe('insufficient-storage');
      expect(answer.body.error.message).toMatch(
        /not saved: the disk .* is full \(ENOSPC\)\. Nothing was changed; free some space/,
      );
      expect(readdirSync(dataDir).filter((f) => f.includes('.tmp'))).toEqual([]);
      expect(readFileSync(config, 'utf8')).toBe(saved);
      expect((await call('GET', '/api/settings')).body.killSwitch).toBe(false);
      expect(logs.filter((l) => l.includes('ENOSPC'))).toHaveLength(1);
      // Space is back: the same change goes through.
      const again = await call('PATCH', '/api/settings', JSON.stringify({ killSwitch: true }));
      expect(again.status).toBe(200);
      expect(JSON.parse(readFileSync(config, 'utf8')).settings.killSwitch).toBe(true);
    },
  );
});
