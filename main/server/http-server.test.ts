import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppView, ReaperEvent } from '../../shared/api.ts';
import { SECOND } from '../../shared/durations.ts';
import { ManualClock } from '../engine/clocks.ts';
import { MONDAY_9AM } from '../testing/engine-harness.ts';
import { type Headless, startHeadless } from './headless.ts';

const running: Headless[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

async function serve(env: NodeJS.ProcessEnv = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'reaper-http-'));
  const staticDir = mkdtempSync(join(tmpdir(), 'reaper-static-'));
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>Clever Reaper</title>');
  const clock = new ManualClock(MONDAY_9AM);
  const server = await startHeadless({
    demo: true,
    scenario: 'e2e',
    host: '127.0.0.1',
    port: 0,
    dataDir,
    apiUrl: null,
    timeScale: 1,
    staticDir,
    env,
    demoClock: clock,
  });
  running.push(server);
  await clock.advance(5 * SECOND);
  const token = server.token.token;
  const call = async (method: string, path: string, body?: unknown, auth = `Bearer ${token}`) => {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: {
        authorization: auth,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
  };
  const app = async (name: string): Promise<AppView> =>
    (await call('GET', '/api/apps')).body.find((a: AppView) => a.name === name);
  return { server, clock, dataDir, call, app, token };
}

describe('the admin API', () => {
  it('answers 401 without the bearer token, or with a wrong one', async () => {
    const { call } = await serve();
    const none = await call('GET', '/api/apps', undefined, '');
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toContain('Bearer');
    expect((await call('GET', '/api/apps', undefined, 'Bearer nope')).status).toBe(401);
    expect((await call('GET', '/api/events', undefined, 'Bearer nope')).status).toBe(401);
  });

  it('keeps a generated token in the data directory, readable by its owner only', async () => {
    const { dataDir, token } = await serve();
    const file = join(dataDir, 'admin-token');
    expect(readFileSync(file, 'utf8').trim()).toBe(token);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('uses REAPER_ADMIN_TOKEN when set', async () => {
    const { call } = await serve({ REAPER_ADMIN_TOKEN: 'a-token-from-the-environment' });
    expect((await call('GET', '/api/status', undefined, 'Bearer a-token-from-the-environment')).status).toBe(
      200,
    );
  });

  it('lists the apps, filtered by the query string', async () => {
    const { call } = await serve();
    const all = await call('GET', '/api/apps');
    expect(all.status).toBe(200);
    expect(all.body.length).toBeGreaterThan(5);
    const asleep = await call('GET', '/api/apps?state=Down');
    expect(asleep.body.map((a: AppView) => a.label)).toEqual(asleep.body.map(() => 'Asleep'));
    const errors = await call('GET', '/api/apps?errorsOnly=true');
    expect(errors.body.map((a: AppView) => a.name)).toEqual(['partner-portal']);
  });

  it('answers 400 naming the field, and applies nothing', async () => {
    const { call, app } = await serve();
    const routeId = (await app('idle-review')).routeIds[0];
    const before = await call('GET', `/api/routes/${routeId}`);
    const bad = await call('PATCH', `/api/routes/${routeId}`, { gracePeriodMs: 10, label: 'renamed' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('invalid-input');
    expect(bad.body.error.problems).toEqual([
      {
        field: 'gracePeriodMs',
        code: 'tooShort',
        params: { value: 10, min: 60_000 },
        message: 'Grace period: 0.000167 minutes is too short; the least is 1 minute.',
      },
    ]);
    expect((await call('GET', `/api/routes/${routeId}`)).body).toEqual(before.body);
    const settings = await call('PATCH', '/api/settings', { killSwitch: 'yes' });
    expect(settings.status).toBe(400);
    expect(settings.body.error.message).toMatch(
      /^Kill switch: expects on or off \(true or false\), not yes\.$/,
    );
  });

  it('answers 400 for a body that is not JSON', async () => {
    const { server, token } = await serve();
    const res = await fetch(`${server.url}/api/settings`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{killSwitch: true',
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toContain('not valid JSON');
  });

  it('answers 404 for an unknown app or endpoint, 405 for a wrong method', async () => {
    const { call } = await serve();
    expect((await call('GET', '/api/apps/app_unknown')).status).toBe(404);
    expect((await call('POST', '/api/apps/app_unknown/_reset')).status).toBe(404);
    expect((await call('GET', '/api/nothing-here')).status).toBe(404);
    const wrong = await call('DELETE', '/api/settings');
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET, PATCH');
  });

  it('wakes an app and, with ?wait=true, answers once it is Up', async () => {
    const { call, app, clock } = await serve();
    const { appId } = await app('api-sandbox');
    let done = false;
    const woken = call('POST', `/api/apps/${appId}/_wake?wait=true`).finally(() => {
      done = true;
    });
    for (let i = 0; i < 300 && !done; i++) await clock.advance(SECOND);
    const res = await woken;
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ appId, label: 'Up', lastRequestSource: 'admin-api' });
  });

  it('resets an app: 200 with its view; the history says who acted', async () => {
    const { call, app } = await serve();
    const { appId } = await app('partner-portal');
    const res = await call('POST', `/api/apps/${appId}/_reset`);
    expect(res.status).toBe(200);
    const history = await call('GET', `/api/apps/${appId}/history?limit=5`);
    expect(
      history.body.some((h: { actor: string; reason: string }) => h.reason === 'reset from the console'),
    ).toBe(true);
  });

  it('creates, reads, updates and deletes routes', async () => {
    const { call, app } = await serve();
    const { appId, ownerId } = await app('idle-review');
    const created = await call('POST', '/api/routes', { appId, ownerId, gracePeriodMs: 600_000 });
    expect(created.status).toBe(201);
    const id = created.body.id;
    expect((await call('GET', `/api/routes/${id}`)).body.gracePeriodMs).toBe(600_000);
    expect((await call('PATCH', `/api/routes/${id}`, { enabled: false })).body.enabled).toBe(false);
    expect((await call('DELETE', `/api/routes/${id}`)).body).toEqual({ deleted: id });
    expect((await call('GET', `/api/routes/${id}`)).status).toBe(404);
  });

  it('streams changes as server-sent events', async () => {
    const { server, token, call, app } = await serve();
    const abort = new AbortController();
    const res = await fetch(`${server.url}/api/events`, {
      headers: { authorization: `Bearer ${token}` },
      signal: abort.signal,
    });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    const events: ReaperEvent[] = [];
    let buffer = '';
    const next = async (predicate: (e: ReaperEvent) => boolean) => {
      for (;;) {
        const found = events.find(predicate);
        if (found) return found;
        const { value, done } = await reader.read();
        if (done) throw new Error('the stream ended');
        buffer += value;
        const parts = buffer.split('\n\n');
        buffer = parts.pop() ?? '';
        for (const part of parts) {
          const data = part.split('\n').find((l) => l.startsWith('data: '));
          if (data) events.push(JSON.parse(data.slice(6)));
        }
      }
    };
    expect(await next((e) => e.type === 'clock')).toMatchObject({ timeScale: 1 });
    await call('PATCH', '/api/settings', { dryRun: true });
    expect(await next((e) => e.type === 'settings')).toMatchObject({ settings: { dryRun: true } });
    const { appId } = await app('partner-portal');
    await call('POST', `/api/apps/${appId}/_reset`);
    expect(await next((e) => e.type === 'app' && e.app.appId === appId)).toMatchObject({ type: 'app' });
    abort.abort();
  });
});

describe('the dashboard files', () => {
  it('are served without a token, with a strict Content Security Policy', async () => {
    const { server } = await serve();
    const res = await fetch(`${server.url}/`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('Clever Reaper');
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('never leave the dashboard folder', async () => {
    const { server } = await serve();
    expect((await fetch(`${server.url}/../package.json`)).status).toBe(404);
    expect((await fetch(`${server.url}/%2e%2e/%2e%2e/package.json`)).status).toBe(404);
    expect((await fetch(`${server.url}/index.html`, { method: 'POST' })).status).toBe(405);
  });
});

describe('the next transitions of a route', () => {
  it('of a saved route, and of ranges not saved yet, in the ranges own time zone', async () => {
    const { call } = await serve();
    const ranges = [{ days: 'Mon-Fri', start: '09:00', end: '18:00', timeZone: 'Europe/Paris' }];
    const preview = await call('POST', '/api/routes/_preview', { ranges, count: 2 });
    expect(preview.status).toBe(200);
    // Monday 5 January 2026, 09:00 UTC is inside the range (10:00 in Paris): next, the end at 17:00 UTC.
    expect(preview.body).toEqual([
      { at: Date.UTC(2026, 0, 5, 17), up: false },
      { at: Date.UTC(2026, 0, 6, 8), up: true },
    ]);
    const docs = (await call('GET', '/api/routes')).body.find(
      (r: { ranges: unknown[] }) => r.ranges.length > 0,
    );
    const saved = await call('GET', `/api/routes/${docs.id}/transitions?count=1`);
    expect(saved.body).toEqual([{ at: Date.UTC(2026, 0, 5, 17), up: false }]);
  });

  it('refuses bad ranges naming the field', async () => {
    const { call } = await serve();
    const bad = await call('POST', '/api/routes/_preview', {
      ranges: [{ days: 'Mon-Fri', start: '9h', end: '18:00', timeZone: 'Europe/Paris' }],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.problems).toEqual([
      {
        field: 'ranges.0.start',
        code: 'startTime',
        params: { value: '9h' },
        message: 'Range 1 start: “9h” is not a time from 00:00 to 23:59.',
      },
    ]);
  });
});
