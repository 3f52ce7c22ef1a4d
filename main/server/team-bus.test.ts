/**
 * Team mode across instances: two headless servers in this process on one throwaway PostgreSQL and
 * one simulator over HTTP, the first holding the only owner. What reaches the second is handed over
 * through the database (a row and a NOTIFY): a visitor of an asleep app at the second instance's wake
 * proxy gets the waking page, the holder starts the app once, and the page on the second instance
 * follows it and then lets the visitor through; an explicit wake at the second instance's admin API
 * too. A route added on the first is used by the second, and each change on the first reaches the
 * second one's event stream within a second. The clock runs 30 times faster than real time (the
 * simulator's too); leases (on the database's clock) last 2 s of real time.
 */
import { request } from 'node:http';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { AppView, ReaperEvent } from '../../shared/api.ts';
import type { HistoryEntry } from '../../shared/domain.ts';
import { HOUR, MINUTE } from '../../shared/durations.ts';
import { postgresSkipReason } from '../testing/postgres-cluster.ts';
import { until } from '../testing/serve-process.ts';
import { readEvents, teamSuite } from '../testing/team-instances.ts';

const skip = postgresSkipReason();
const FACTOR = 30;
const LEASE_MS = 2000;
/** How long a test waits for what it waits on (a loaded machine; never a figure asserted). */
const WAIT = 15_000;
const START = 'POST /v2/organisations/:XXX/applications/:XXX/instances';

/** The requests handed over and not yet acted on. */
async function waitingIn(db: pg.Client): Promise<number> {
  return (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM wake_requests')).rows[0]!.n;
}

/** A request to a wake proxy for `host` (fetch cannot set Host). */
function visit(
  proxyUrl: string,
  host: string,
  path = '/',
  accept = 'text/html',
): Promise<{ status: number; body: string }> {
  const url = new URL(path, proxyUrl);
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { host, accept } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The waking page's live-status stream, until the app is Up: the states it said, in order. */
function followStatus(proxyUrl: string, host: string, timeoutMs: number): Promise<string[]> {
  const url = new URL('/__clever-reaper/status', proxyUrl);
  return new Promise((resolve, reject) => {
    const states: string[] = [];
    const req = request(url, { headers: { host, accept: 'text/event-stream' } }, (res) => {
      res.setEncoding('utf8');
      let buffer = '';
      res.on('data', (chunk: string) => {
        buffer += chunk;
        for (const line of buffer.split('\n').slice(0, -1)) {
          if (!line.startsWith('data: ')) continue;
          const state = (JSON.parse(line.slice(6)) as { state: string }).state;
          if (states.at(-1) !== state) states.push(state);
          if (state === 'Up') {
            clearTimeout(timer);
            req.destroy();
            resolve(states);
            return;
          }
        }
        buffer = buffer.slice(buffer.lastIndexOf('\n') + 1);
      });
    });
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error(`the status stream never said Up (it said ${states.join(', ')})`));
    }, timeoutMs);
    req.on('error', (error) => {
      if (!req.destroyed || states.at(-1) !== 'Up') reject(error);
    });
    req.end();
  });
}

describe.skipIf(skip !== null)(`instances on one PostgreSQL${skip ? ` (skipped: ${skip})` : ''}`, () => {
  const suite = teamSuite();

  it('wakes at the instance not holding the app, routes and changes reach it at once', async () => {
    const { clock, cloud } = suite.world(FACTOR);
    const org = cloud.addOrganisation('Acme');
    const asleep = cloud.addApp(org.id, 'review', { state: 'SHOULD_BE_DOWN' });
    const other = cloud.addApp(org.id, 'docs');
    const third = cloud.addApp(org.id, 'sandbox', { state: 'SHOULD_BE_DOWN' });
    const api = cloud.addApp(org.id, 'api', { state: 'SHOULD_BE_DOWN' });
    const { sim, database, db } = await suite.open(cloud);
    // The requests handed over, as the bus announces them.
    const handed: string[] = [];
    db.on('notification', (n) => {
      if (n.payload?.includes('"k" : "r"')) handed.push(n.payload);
    });
    const a = await suite.start({ database, clock, leaseMs: LEASE_MS });
    // A held request waits up to 10 min of the clock (20 s of real time).
    const settings = { wakeProxyPort: 0, holdDeadlineMs: 10 * MINUTE };
    expect((await a.call('PATCH', '/api/settings', settings)).status).toBe(200);
    for (const [app, host] of [
      [asleep, 'review.example.test'],
      [third, 'sandbox.example.test'],
      [api, 'api.example.test'],
    ] as const) {
      const created = await a.call('POST', '/api/routes', {
        appId: app.id,
        ownerId: org.id,
        hosts: [host],
        gracePeriodMs: HOUR,
      });
      expect(created.status).toBe(201);
    }
    await until('the first instance holding the owner', WAIT, async () => {
      const { rows } = await db.query<{ holder: string }>('SELECT holder FROM leases');
      return rows.length === 1 && rows[0]!.holder !== '';
    });
    const holder = (await db.query<{ holder: string }>('SELECT holder FROM leases')).rows[0]!.holder;

    const b = await suite.start({ database, clock, leaseMs: LEASE_MS });
    const eventsA = await readEvents(a.server);
    const eventsB = await readEvents(b.server);
    const engineB = () => b.server.service.current!.engine;
    await until(
      'the second instance seeing the app asleep',
      WAIT,
      async () => engineB().get(asleep.id)?.state === 'Down',
    );
    expect((await db.query('SELECT holder FROM leases')).rows).toEqual([{ holder }]);

    // a route added on the first instance is used by the second one's wake proxy
    const added = await a.call('POST', '/api/routes', {
      appId: other.id,
      ownerId: org.id,
      hosts: ['docs.example.test'],
    });
    expect(added.status).toBe(201);
    const routes = await eventsB.next(
      (e) => e.type === 'routes' && e.routes.some((r) => r.appId === other.id),
    );
    const proxyB = await until('the wake proxy of the second instance', WAIT, async () => b.proxyUrl());
    await until(
      'the second instance knowing the new app',
      WAIT,
      async () => engineB().get(other.id)?.state === 'Up',
    );
    await db.query('LISTEN clever_reaper');
    expect(handed).toEqual([]);
    const visitedAt = clock.now();
    const passed = await visit(proxyB, 'docs.example.test');
    expect(passed.status).toBe(200);
    expect(passed.body).toContain('docs');
    // that visit is handed to the holder as traffic, which counts it: no sleep while it is used
    await until('the visit handed over', WAIT, async () => handed.length > 0);
    const engineA = () => a.server.service.current!.engine;
    await until('the holder counting the visit', WAIT, async () => {
      const r = engineA().get(other.id);
      return r !== undefined && r.lastRequestAt !== null && r.lastRequestAt >= visitedAt;
    });
    expect(routes.at).toBeGreaterThan(0);

    // a visitor of the asleep app at the second instance: the waking page there, one start by the holder
    const page = await visit(proxyB, 'review.example.test');
    expect(page.status).toBe(503);
    expect(page.body).toContain('review');
    const states = await followStatus(proxyB, 'review.example.test', 20_000);
    expect(states.at(-1)).toBe('Up');
    expect(states).toContain('WaitingForUp');
    const through = await visit(proxyB, 'review.example.test');
    expect(through.status).toBe(200);
    expect(through.body).toContain('review');
    expect(cloud.apps.get(asleep.id)!.state).toBe('SHOULD_BE_UP');
    // Every request handed over is taken off the table once acted on: the wake, and the visit just
    // made through (plain traffic is handed over too), which the holder may not have read yet.
    await until(
      'the handed-over requests acted on and removed',
      WAIT,
      async () => (await waitingIn(db)) === 0,
    );
    expect(sim.calls.get(START)).toBe(1);

    // each change on the holder reached the second instance's event stream, within a second (the
    // holder's own stream may be read after the other's page saw Up: wait for its Up entry first)
    await eventsA.next(
      (e) => e.type === 'history' && e.entry.appId === asleep.id && e.entry.to === 'Up',
      5000,
    );
    const changesA = eventsA.events.filter(
      (e): e is { at: number; event: { type: 'history'; entry: HistoryEntry } } =>
        e.event.type === 'history' && e.event.entry.appId === asleep.id,
    );
    expect(changesA.map((e) => e.event.entry.to)).toEqual(expect.arrayContaining(['WaitingForUp', 'Up']));
    for (const change of changesA) {
      const { entry } = change.event;
      const seen = await eventsB.next(
        (e) =>
          e.type === 'history' &&
          e.entry.appId === entry.appId &&
          e.entry.at === entry.at &&
          e.entry.reason === entry.reason,
        5000,
      );
      expect(seen.at - change.at).toBeLessThan(5000);
    }
    const upOnB = await eventsB.next(
      (e) => e.type === 'app' && e.app.appId === asleep.id && e.app.state === 'Up',
    );
    expect((upOnB.event as { app: AppView }).app.name).toBe('review');

    // an explicit wake at the second instance's admin API waits for the app, started once
    const woken = await b.call<AppView>('POST', `/api/apps/${third.id}/_wake?wait=true`);
    expect(woken.status).toBe(200);
    expect(woken.body.state).toBe('Up');
    expect(sim.calls.get(START)).toBe(2);

    // a client that is not a browser, at the second instance: held until the app is Up, then passed
    await until(
      'the second instance seeing the api asleep',
      WAIT,
      async () => engineB().get(api.id)?.state === 'Down',
    );
    const heldAnswer = await visit(proxyB, 'api.example.test', '/', 'application/json');
    expect(heldAnswer.status).toBe(200);
    expect(heldAnswer.body).toContain('api');
    expect(sim.calls.get(START)).toBe(3);

    // an operator's actions at the second instance are handed to the holder, and answered once seen
    const keepUntil = clock.now() + 3 * HOUR;
    const kept = await b.call<AppView>('POST', `/api/apps/${third.id}/_keep-awake`, { until: keepUntil });
    expect(kept.status).toBe(200);
    expect(kept.body.keepAwakeUntil).toBe(keepUntil);
    // committed when the second instance hears of it; the holder applies it once its commit returns
    await until(
      'the holder applying it',
      WAIT,
      async () => engineA().get(third.id)?.keepAwakeUntil === keepUntil,
    );
    const reset = await b.call<AppView>('POST', `/api/apps/${third.id}/_reset`);
    expect(reset.status).toBe(200);
    const holderHistory = await a.call<HistoryEntry[]>('GET', `/api/apps/${third.id}/history`);
    expect(holderHistory.body.filter((h) => h.kind === 'reset' && h.actor === 'operator')).toHaveLength(1);
    expect(holderHistory.body.filter((h) => h.kind === 'keep-awake')).toHaveLength(1);
    const released = await b.call<{ appId: string }>('POST', `/api/apps/${third.id}/_release`);
    expect(released.status).toBe(200);
    expect(engineB().get(third.id)).toBeUndefined();
    await until('the holder releasing it', WAIT, async () => engineA().get(third.id) === undefined);
    expect((await db.query('SELECT holder FROM leases')).rows).toEqual([{ holder }]);

    // the second instance's bus is cut and cannot connect for a while; what was said meanwhile is
    // read once it listens again
    const name = (await db.query<{ d: string }>('SELECT current_database() AS d')).rows[0]!.d;
    const admin = new pg.Client({ connectionString: suite.cluster.url });
    await admin.connect();
    await admin.query(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS false`);
    const cut = await db.query<{ ok: boolean }>(
      `SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity
       WHERE application_name LIKE 'clever-reaper bus %' AND application_name <> $1`,
      [`clever-reaper bus ${holder}`.slice(0, 63)],
    );
    expect(cut.rows).toEqual([{ ok: true }]);
    const until1 = clock.now() + 2 * HOUR;
    expect((await a.call('POST', `/api/apps/${other.id}/_keep-awake`, { until: until1 })).status).toBe(200);
    const reason = `kept awake until ${new Date(until1).toISOString()}`;
    await eventsA.next((e) => e.type === 'history' && e.entry.reason === reason, 5000);
    await new Promise((r) => setTimeout(r, 500));
    const missed = (e: { event: ReaperEvent }) =>
      e.event.type === 'history' && e.event.entry.reason === reason;
    expect(eventsB.events.filter(missed)).toEqual([]);
    await admin.query(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS true`);
    await admin.end();
    await eventsB.next((e) => e.type === 'history' && e.entry.reason === reason, 5000);
    const listening = await until('the second bus listening again', WAIT, async () => {
      const { rows } = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name LIKE 'clever-reaper bus %'`,
      );
      return rows[0]!.n === 2;
    });
    expect(listening).toBe(true);
    expect(
      eventsB.events.filter((e) => e.event.type === 'history' && e.event.entry.reason === reason),
    ).toHaveLength(1);
    eventsA.close();
    eventsB.close();
  }, 60_000);

  it('a request left when its holder died is acted on once by the instance taking the owner over', async () => {
    const { clock, cloud } = suite.world(FACTOR);
    const org = cloud.addOrganisation('Initech');
    const asleep = cloud.addApp(org.id, 'preview', { state: 'SHOULD_BE_DOWN' });
    const { sim: simulator, database, db } = await suite.open(cloud);
    const a = await suite.start({ database, clock, leaseMs: LEASE_MS });
    const created = await a.call('POST', '/api/routes', {
      appId: asleep.id,
      ownerId: org.id,
      gracePeriodMs: HOUR,
    });
    expect(created.status).toBe(201);
    const engine = () => a.server.service.current!.engine;
    await until('the app asleep', WAIT, async () => engine().get(asleep.id)?.state === 'Down');

    // the holder dies (its lease now names an instance that never renews it), with a request waiting
    const now = '(extract(epoch FROM clock_timestamp()) * 1000)::bigint';
    await db.query(`UPDATE leases SET holder = 'dead', token = token + 1, expires_at = ${now} + 1500`);
    await db.query(
      `INSERT INTO wake_requests (app_id, owner_id, source, at, from_instance, created_at)
       VALUES ($1, $2, 'wake-proxy', $3, 'elsewhere', ${now})`,
      [asleep.id, org.id, clock.now()],
    );
    await new Promise((r) => setTimeout(r, 700));
    expect(simulator.calls.get(START) ?? 0).toBe(0);
    expect((await db.query('SELECT count(*)::int AS n FROM wake_requests')).rows).toEqual([{ n: 1 }]);

    // the lease expires; the instance taking it over finds the request and acts on it once
    await until('the app up', 20_000, async () => engine().get(asleep.id)?.state === 'Up');
    await until('the request acted on and removed', WAIT, async () => (await waitingIn(db)) === 0);
    expect(simulator.calls.get(START)).toBe(1);
    const history = await a.call<HistoryEntry[]>('GET', `/api/apps/${asleep.id}/history`);
    expect(history.body.filter((h) => h.to === 'WaitingForUp')).toHaveLength(1);
  }, 60_000);
});
