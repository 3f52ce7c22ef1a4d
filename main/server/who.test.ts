/**
 * Who, everywhere (issue 25, item 4), on a real server with two people's own tokens: alice
 * (operator) resets an app from the dashboard, bob (admin) edits a route and turns the kill switch on
 * through the API. The history names alice and how she came, in the API and both exports; the audit
 * names bob for the route (before and after) and the kill switch; the settings keep who turned it on
 * and when. What the reaper did on its own has no `by`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HistoryPage } from '../../shared/history.ts';
import { type AuditEntry, VIA_HEADER } from '../../shared/people.ts';
import type { Route } from '../../shared/routes.ts';
import type { Settings } from '../../shared/settings.ts';
import { TEST_SERVER } from '../testing/test-server.ts';
import { type Headless, startHeadless } from './headless.ts';

let server: Headless;
let dataDir: string;
let alice: string;
let bob: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'reaper-who-'));
  server = await startHeadless({ ...TEST_SERVER, demo: true, dataDir, log: () => {} });
  alice = (await server.people.createToken({ name: 'alice', role: 'operator' }, 'test')).token;
  bob = (await server.people.createToken({ name: 'bob', role: 'admin' }, 'test')).token;
}, 60_000);

afterAll(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function call<T>(token: string, method: string, path: string, body?: unknown, via?: string) {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(via ? { [VIA_HEADER]: via } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return (path.includes('format=csv') ? text : text ? JSON.parse(text) : null) as T;
}

describe('who, in the history, the exports, the audit and the kill switch', () => {
  it('names the person and the way they came for a Reset, a route edit and the kill switch', async () => {
    const apps = await call<{ appId: string }[]>(alice, 'GET', '/api/apps');
    const appId = apps[0]!.appId;
    await call(alice, 'POST', `/api/apps/${appId}/_reset`, undefined, 'dashboard');

    const page = await call<HistoryPage>(alice, 'GET', `/api/history?appId=${appId}&kind=reset`);
    expect(page.entries[0]).toMatchObject({
      kind: 'reset',
      actor: 'operator',
      by: { name: 'alice', via: 'dashboard' },
    });
    // The reaper's own entries (the demo's first reads) name nobody.
    const all = await call<HistoryPage>(alice, 'GET', `/api/history?appId=${appId}&actor=reaper&limit=500`);
    expect(all.entries.length).toBeGreaterThan(0);
    for (const e of all.entries) expect(e.by).toBeUndefined();

    const csv = await call<string>(alice, 'GET', `/api/history?appId=${appId}&kind=reset&format=csv`);
    const [header, line] = csv.split('\r\n');
    expect(header!.split(',').slice(-2)).toEqual(['by', 'via']);
    expect(line!.split(',').slice(-2)).toEqual(['alice', 'dashboard']);
    const json = await call<unknown>(alice, 'GET', `/api/history?appId=${appId}&format=json`);
    const records = (Array.isArray(json) ? json : (json as { entries: unknown[] }).entries) as {
      kind: string;
      actor: string;
      by: unknown;
    }[];
    expect(records.find((r) => r.kind === 'reset')?.by).toEqual({ name: 'alice', via: 'dashboard' });
    const automatic = records.filter((r) => r.actor !== 'operator');
    expect(automatic.length).toBeGreaterThan(0);
    for (const r of automatic) expect(r.by).toBeNull();

    // bob edits a route through the API (no header: "api"), and turns the kill switch on.
    const routes = await call<Route[]>(bob, 'GET', '/api/routes');
    const route = routes[0]!;
    await call(bob, 'PATCH', `/api/routes/${route.id}`, { label: 'renamed by bob' });
    const before = Date.now();
    const settings = await call<Settings>(bob, 'PATCH', '/api/settings', { killSwitch: true });
    expect(settings.killSwitchOn).toMatchObject({ by: { name: 'bob', via: 'api' } });
    expect(settings.killSwitchOn!.at).toBeGreaterThanOrEqual(before);
    // Kept: read again, it is the same; turned off, it is gone.
    expect((await call<Settings>(alice, 'GET', '/api/settings')).killSwitchOn).toEqual(settings.killSwitchOn);

    const audit = await call<AuditEntry[]>(alice, 'GET', '/api/audit');
    const edit = audit.find((e) => e.what === 'route' && e.target === route.id);
    expect(edit).toMatchObject({ by: 'bob', via: 'api' });
    expect((edit!.before as Route).label).toBe(route.label);
    expect((edit!.after as Route).label).toBe('renamed by bob');
    expect(audit.find((e) => e.what === 'killSwitch')).toMatchObject({
      by: 'bob',
      via: 'api',
      before: false,
      after: true,
    });
    // The note of who turned it on is not a settings change of its own.
    expect(audit.some((e) => e.what === 'settings')).toBe(false);

    const off = await call<Settings>(bob, 'PATCH', '/api/settings', { killSwitch: false });
    expect(off.killSwitchOn).toBeNull();
  });

  it('a setting update cannot say who turned the kill switch on', async () => {
    const res = await fetch(`${server.url}/api/settings`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${bob}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        killSwitch: true,
        killSwitchOn: { at: 0, by: { name: 'mallory', via: 'api' } },
      }),
    });
    expect(res.status).toBe(400);
  });
});

describe('the audit API: filters in the datastore, checked first', () => {
  const get = (query: string) =>
    fetch(`${server.url}/api/audit${query}`, { headers: { authorization: `Bearer ${alice}` } });

  it('filters by who, what, which one, through what and when, and pages with the cursor', async () => {
    const routes = await call<Route[]>(bob, 'GET', '/api/routes');
    const start = Date.now();
    for (const label of ['one', 'two', 'three']) {
      await call(bob, 'PATCH', `/api/routes/${routes[1]!.id}`, { label: `audit ${label}` }, 'dashboard');
    }
    const mine = await call<AuditEntry[]>(
      alice,
      'GET',
      `/api/audit?by=bob&what=route&target=${routes[1]!.id}&via=dashboard&from=${start}`,
    );
    expect(mine.map((e) => (e.after as Route).label)).toEqual(['audit three', 'audit two', 'audit one']);
    const first = await call<AuditEntry[]>(
      alice,
      'GET',
      `/api/audit?by=bob&what=route&from=${start}&limit=2`,
    );
    expect(first).toHaveLength(2);
    const next = await call<AuditEntry[]>(
      alice,
      'GET',
      `/api/audit?by=bob&what=route&from=${start}&limit=2&before=${first[1]!.id}`,
    );
    expect(next.map((e) => (e.after as Route).label)).toEqual(['audit one']);
    expect(await call<AuditEntry[]>(alice, 'GET', `/api/audit?by=alice&what=route&from=${start}`)).toEqual(
      [],
    );
    // An empty value is no filter.
    expect((await call<AuditEntry[]>(alice, 'GET', `/api/audit?by=&what=route&from=${start}`)).length).toBe(
      3,
    );
  });

  it('refuses a wrong filter with a 400 that says what is wrong', async () => {
    const cases: [string, string][] = [
      [
        '?what=nonsense',
        'What changed: “nonsense” is not one of these: “route, rule, settings, killSwitch, dryRun, token, release, credentials”.',
      ],
      [
        '?by=Not%20A%20Name',
        'Who: “not a name” is not a person’s name (lowercase letters, digits, dots, dashes or underscores).',
      ],
      ['?via=fax', 'Through: “fax” is not one of these: “dashboard, api, desktop, tray, cli”.'],
      [
        '?from=yesterday',
        'From: “yesterday” is not a date and time with its offset (2026-01-05T18:00:00Z) nor epoch milliseconds.',
      ],
      ['?from=20&to=10', 'From: the range is empty, From is after To.'],
      ['?limit=0', 'Number of entries: 0 is too small; the least is 1.'],
      ['?limit=501', 'Number of entries: 501 is too large; the most is 500.'],
      ['?before=-3', 'Older than: -3 is too small; the least is 1.'],
      ['?colour=red', 'The request: “colour” is not a field here.'],
    ];
    for (const [query, message] of cases) {
      const res = await get(query);
      expect(res.status, query).toBe(400);
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect(body.error, query).toMatchObject({ code: 'invalid-input', message });
    }
  });
});
