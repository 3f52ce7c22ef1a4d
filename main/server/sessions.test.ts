/**
 * Browsers' sign-in sessions (issue 25): a token exchanged once for a cookie (HttpOnly,
 * SameSite=Strict, Secure behind TLS), which every later request (another tab) carries; a change made
 * with the cookie needs the same origin and the session's CSRF token; Sign out ends it; the audit
 * names the person. And wrong tokens: slowed per client address, then 429 with Retry-After, counted in
 * /metrics, while the right token from another address answers at once.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry, SessionInfo } from '../../shared/people.ts';
import { TEST_SERVER } from '../testing/test-server.ts';
import { type Headless, startHeadless } from './headless.ts';

let server: Headless;
let dataDir: string;
let alice = '';
let victor = '';

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'reaper-sessions-'));
  server = await startHeadless({ ...TEST_SERVER, demo: true, dataDir });
  alice = (await server.people.createToken({ name: 'alice', role: 'admin' }, 'test')).token;
  victor = (await server.people.createToken({ name: 'victor', role: 'viewer' }, 'test')).token;
}, 60_000);
afterAll(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function signIn(token: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${server.url}/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ token }),
  });
  const cookie = res.headers.get('set-cookie') ?? '';
  return {
    status: res.status,
    cookie,
    value: cookie.split(';')[0]!,
    info: (await res.json()) as SessionInfo,
  };
}

async function call(
  path: string,
  cookie: string,
  init: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
) {
  const res = await fetch(`${server.url}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      cookie,
      ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...init.headers,
    },
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('sign-in sessions', () => {
  it('sets a strict cookie that other tabs carry; changes need the origin and the CSRF token', async () => {
    const session = await signIn(alice);
    expect(session.status).toBe(200);
    expect(session.cookie).toMatch(
      /^reaper_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=\d+$/,
    );
    expect(session.info).toMatchObject({ name: 'alice', role: 'admin', by: 'session' });
    expect(session.info.csrf).toMatch(/^[A-Za-z0-9_-]{32}$/);
    // Behind the platform's TLS proxy, the cookie is Secure.
    expect((await signIn(alice, { 'x-forwarded-proto': 'https' })).cookie).toMatch(/; Secure$/);

    // A new tab: the same cookie, nothing else.
    expect((await call('/api/status', session.value)).status).toBe(200);
    expect((await call('/api/session', session.value)).body).toMatchObject({
      name: 'alice',
      csrf: session.info.csrf,
    });

    const origin = server.url;
    const change = { method: 'PATCH', body: { killSwitch: true } };
    const noCsrf = await call('/api/settings', session.value, { ...change, headers: { origin } });
    expect(noCsrf.status).toBe(403);
    expect(JSON.stringify(noCsrf.body)).toContain('needs its CSRF token');
    const noOrigin = await call('/api/settings', session.value, {
      ...change,
      headers: { 'x-csrf-token': session.info.csrf ?? '' },
    });
    expect(noOrigin.status).toBe(403);
    const done = await call('/api/settings', session.value, {
      ...change,
      headers: { origin, 'x-csrf-token': session.info.csrf ?? '' },
    });
    expect(done.status).toBe(200);
    expect(done.body.killSwitch).toBe(true);

    // Who turned the kill switch on, and when: the audit names alice, through the dashboard.
    const audit = await call('/api/audit?what=killSwitch', session.value);
    const entries = audit.body as unknown as AuditEntry[];
    expect(entries[0]).toMatchObject({
      by: 'alice',
      via: 'dashboard',
      what: 'killSwitch',
      before: false,
      after: true,
    });

    // Sign out: the cookie no longer works, here or in any tab.
    const out = await call('/api/session', session.value, {
      method: 'DELETE',
      headers: { origin, 'x-csrf-token': session.info.csrf ?? '' },
    });
    expect(out.status).toBe(200);
    expect((await call('/api/status', session.value)).status).toBe(401);
  });

  it("a revoked token's session fails on its next call; a wrong token opens none", async () => {
    const session = await signIn(victor);
    expect((await call('/api/snapshot', session.value)).status).toBe(200);
    await server.people.revokeToken('victor');
    expect((await call('/api/snapshot', session.value)).status).toBe(401);
    expect((await signIn(victor)).status).toBe(401);
    expect((await signIn('not-a-token-at-all')).status).toBe(401);
  });
});

/** A request from a chosen local address (every 127.x address is this machine's loopback). */
function from(address: string, token: string): Promise<{ status: number; retryAfter: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${server.url}/api/status`,
      { localAddress: address, headers: { authorization: `Bearer ${token}` } },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'] }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** The counters of wrong tokens in /metrics, read from a chosen address. */
function metricsFrom(address: string): Promise<{ wrong: number; throttled: number }> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${server.url}/metrics`,
      { localAddress: address, headers: { authorization: `Bearer ${alice}` } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          text += c;
        });
        res.on('end', () => {
          const read = (name: string) =>
            Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(text)?.[1] ?? Number.NaN);
          resolve({ wrong: read('reaper_auth_wrong_total'), throttled: read('reaper_auth_throttled_total') });
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('wrong tokens', () => {
  it('1,000 from one address are slowed then answered 429; the right token from another answers at once', async () => {
    const answers: { status: number; retryAfter: string | undefined }[] = [];
    const before = await metricsFrom('127.0.0.3');
    for (let i = 0; i < 1000; i++)
      answers.push(await from('127.0.0.4', `crp_${'0'.repeat(16)}_${'x'.repeat(43)}`));
    const refused = answers.filter((a) => a.status === 429);
    const wrong = answers.filter((a) => a.status === 401);
    expect(wrong.length + refused.length).toBe(1000);
    expect(wrong.length).toBeGreaterThanOrEqual(5);
    expect(refused.length).toBeGreaterThan(900);
    for (const a of refused) expect(Number(a.retryAfter)).toBeGreaterThanOrEqual(1);
    // The first five are answered 401 before any slowing down.
    expect(answers.slice(0, 5).map((a) => a.status)).toEqual([401, 401, 401, 401, 401]);

    // Another address is not slowed: the right token answers at once.
    expect((await from('127.0.0.2', alice)).status).toBe(200);
    // The slowed address stays slowed, even with the right token, until its wait is over.
    expect((await from('127.0.0.4', alice)).status).toBe(429);

    const after = await metricsFrom('127.0.0.3');
    expect(after.wrong - before.wrong).toBe(wrong.length);
    expect(after.throttled - before.throttled).toBe(refused.length + 1);
  }, 120_000);
});
