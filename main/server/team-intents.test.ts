/**
 * Issue 22's regressions: a wake (or an operator's action) is a durable intent. Two headless servers
 * in this process on one throwaway PostgreSQL and one simulator over HTTP; leases of 10 minutes, so
 * that no lease round runs by itself during a test: a lease is made to run out by the test (its row
 * expired, as PostgreSQL's clock would after a stall longer than the lease), and rounds run by hand.
 *
 * 1. An instance that lost its lease without knowing it (the other one took the owner over while it
 *    "stalled"): a wake (`?wait=true`) and a keep-awake asked of it are handed over, not answered 500;
 *    the wake answers once the app is Up, started once.
 * 2. PostgreSQL crashed (`pg_ctl stop -m immediate`) and started again: a wake asked of the instance
 *    that does not hold the owner, and one of the holder, are kept and written once the database is
 *    back, then acted on (`?wait=true` answers Up); the traffic the holder's wake proxy saw meanwhile
 *    is written too (the app's idle clock moved).
 * 3. Operator actions (a reset at the instance not holding the owner, a keep-awake at the holder)
 *    asked while PostgreSQL is down: answered 202 at once ("handed over: will run when the datastore
 *    is back", the apps' views say so), written once it is back and acted on once each.
 * 4. A starved pool: queries waiting for a connection past the bound answer 503 at once, never 500.
 * 5. /readyz says `bus` while the instances' bus does not listen.
 * 6. Who asked (issue 25): an operator's action handed to the holder keeps the person and through
 *    what, and the holder's history entry names them (the API and the CSV export, on both
 *    instances); also for the actions kept in the outbox while PostgreSQL is down (3).
 */
import { request } from 'node:http';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { AppView } from '../../shared/api.ts';
import { HOUR, MINUTE } from '../../shared/durations.ts';
import type { HistoryPage } from '../../shared/history.ts';
import { type By, VIA_HEADER } from '../../shared/people.ts';
import type { ScaledClock } from '../engine/clocks.ts';
import type { SimulatedCloud as Cloud } from '../simulator/model.ts';
import type { SimulatorServer } from '../simulator/server.ts';
import { postgresSkipReason, queryOnce, whileCrashed } from '../testing/postgres-cluster.ts';
import { until } from '../testing/serve-process.ts';
import { type TeamInstance, teamSuite } from '../testing/team-instances.ts';

const skip = postgresSkipReason();
const FACTOR = 30;
const LEASE_MS = 10 * MINUTE;
const START = 'POST /v2/organisations/:XXX/applications/:XXX/instances';
/** How long a test waits for what it waits on (a loaded machine; never a figure asserted). */
const WAIT = 60_000;

/** A request to a wake proxy for `host` (fetch cannot set Host). */
function visit(proxyUrl: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(new URL('/', proxyUrl), { headers: { host } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * Who the app's history entries of this kind (a transition: to this state) asked for by a person
 * (actor `operator`) name, oldest first (a new connection each time).
 */
async function byOf(database: string, appId: string, kind: string, to?: string): Promise<(By | null)[]> {
  const client = new pg.Client({ connectionString: database });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string | null; via: By['via'] | null }>(
      `SELECT by_name AS name, by_via AS via FROM history
       WHERE app_id = $1 AND kind = $2 AND actor = 'operator' AND ($3::text IS NULL OR to_state = $3)
       ORDER BY id`,
      [appId, kind, to ?? null],
    );
    return rows.map((r) => (r.name && r.via ? { name: r.name, via: r.via } : null));
  } finally {
    await client.end();
  }
}

interface World {
  sim: SimulatorServer;
  cloud: Cloud;
  clock: ScaledClock;
  db: pg.Client;
  database: string;
  org: string;
  apps: Record<'review' | 'sandbox' | 'docs', string>;
  a: TeamInstance;
  b: TeamInstance;
  logB: string[];
}

describe.skipIf(skip !== null)(`a wake is never lost${skip ? ` (skipped: ${skip})` : ''}`, () => {
  // Crashed on purpose: what was committed must survive it, as on a real server.
  const suite = teamSuite({ synchronousCommit: true });

  /** Two instances, the first holding the only owner: two apps asleep, one up, each routed. */
  async function world(): Promise<World> {
    const { clock, cloud } = suite.world(FACTOR);
    const org = cloud.addOrganisation('Acme').id;
    const apps = {
      review: cloud.addApp(org, 'review', { state: 'SHOULD_BE_DOWN' }).id,
      sandbox: cloud.addApp(org, 'sandbox', { state: 'SHOULD_BE_DOWN' }).id,
      docs: cloud.addApp(org, 'docs').id,
    };
    const { sim, database, db } = await suite.open(cloud);
    db.on('error', () => {}); // a crash of the cluster ends it: the test knows
    const a = await suite.start({ database, clock, leaseMs: LEASE_MS });
    expect((await a.call('PATCH', '/api/settings', { wakeProxyPort: 0 })).status).toBe(200);
    for (const [name, id] of Object.entries(apps)) {
      const route = { appId: id, ownerId: org, hosts: [`${name}.example.test`], gracePeriodMs: HOUR };
      expect((await a.call('POST', '/api/routes', route)).status).toBe(201);
    }
    await until('the first instance holding the owner', WAIT, async () => {
      const { rows } = await db.query<{ holder: string }>('SELECT holder FROM leases');
      return rows.length === 1 && a.server.service.current?.leases?.acts(org) === true;
    });
    const logB: string[] = [];
    const b = await suite.start({
      database,
      clock,
      leaseMs: LEASE_MS,
      log: (level, message) => logB.push(`[${level}] ${message}`),
    });
    await until(
      'the second instance seeing the apps',
      WAIT,
      async () => b.server.service.current?.engine.get(apps.review)?.state === 'Down',
    );
    return { sim, cloud, clock, db, database, org, apps, a, b, logB };
  }

  /** The lease runs out under `from` (a stall longer than the lease) and `to` takes it at its round. */
  async function takeOver(w: World, from: TeamInstance, to: TeamInstance): Promise<void> {
    await w.db.query('UPDATE leases SET expires_at = 0');
    await to.server.service.current!.leases!.runRound();
    await until('the owner taken over', WAIT, async () => to.server.service.current!.leases!.acts(w.org));
    // What a stalled holder believes: it holds the owner still (its own round has not run).
    expect(from.server.service.current!.leases!.acts(w.org)).toBe(true);
  }

  it('an instance that lost its lease unawares hands a wake and a keep-awake over', async () => {
    const w = await world();
    await takeOver(w, w.a, w.b);
    const wake = await w.a.call<AppView>(
      'POST',
      `/api/apps/${w.apps.review}/_wake?wait=true&timeoutMs=${20 * MINUTE}`,
    );
    expect(wake.status).toBe(200);
    expect(wake.body.state).toBe('Up');
    expect(w.sim.calls.get(START)).toBe(1);
    expect(w.a.server.service.current!.leases!.acts(w.org)).toBe(false);

    // The other way round: the second instance stalls, the first takes the owner back.
    await takeOver(w, w.b, w.a);
    const keepUntil = w.clock.now() + 2 * HOUR;
    const kept = await w.b.call<AppView>('POST', `/api/apps/${w.apps.docs}/_keep-awake`, {
      until: keepUntil,
    });
    expect(kept.status).toBe(200);
    expect(w.a.server.service.current!.engine.get(w.apps.docs)?.keepAwakeUntil).toBe(keepUntil);
    const entries = await w.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM history WHERE app_id = $1 AND kind = 'keep-awake'",
      [w.apps.docs],
    );
    expect(entries.rows).toEqual([{ n: 1 }]);
  }, 120_000);

  it("an operator's action handed to the holder is written as the person's, through what they came", async () => {
    const w = await world();
    const { token } = await w.a.server.people.createToken({ name: 'alice', role: 'operator' }, 'test');
    const asAlice = async (path: string, via?: string, body?: unknown) => {
      const res = await fetch(`${w.b.server.url}${path}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          ...(via ? { [VIA_HEADER]: via } : {}),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return res.status;
    };
    // At the instance not holding the owner: both handed to the holder, answered once acted on.
    expect(await asAlice(`/api/apps/${w.apps.review}/_reset`, 'dashboard')).toBe(200);
    const keepUntil = w.clock.now() + 2 * HOUR;
    expect(await asAlice(`/api/apps/${w.apps.docs}/_keep-awake`, undefined, { until: keepUntil })).toBe(200);
    // The answer comes from the holder's history entry, heard on the bus; the holder applies the
    // change to its memory once its own write is answered, which may reach it a moment later.
    await until(
      'the holder keeping docs awake',
      WAIT,
      async () => w.a.server.service.current!.engine.get(w.apps.docs)?.keepAwakeUntil === keepUntil,
    );
    // A wake is a request, handed over the same way: its start is alice's too.
    expect(
      await asAlice(`/api/apps/${w.apps.sandbox}/_wake?wait=true&timeoutMs=${20 * MINUTE}`, 'tray'),
    ).toBe(200);
    expect(await byOf(w.database, w.apps.sandbox, 'transition', 'WaitingForUp')).toEqual([
      { name: 'alice', via: 'tray' },
    ]);
    expect(await byOf(w.database, w.apps.review, 'reset')).toEqual([{ name: 'alice', via: 'dashboard' }]);
    expect(await byOf(w.database, w.apps.docs, 'keep-awake')).toEqual([{ name: 'alice', via: 'api' }]);
    // The history and its export say so on both instances (the holder wrote it; the other heard it).
    for (const i of [w.a, w.b]) {
      const page = await i.call<HistoryPage>('GET', `/api/history?appId=${w.apps.review}&kind=reset`);
      expect(page.body.entries.map((e) => [e.actor, e.by])).toEqual([
        ['operator', { name: 'alice', via: 'dashboard' }],
      ]);
      const res = await fetch(`${i.server.url}/api/history?appId=${w.apps.docs}&kind=keep-awake&format=csv`, {
        headers: { authorization: `Bearer ${i.server.token.token}` },
      });
      const [header, line, end] = (await res.text()).split('\r\n');
      expect(header!.split(',').slice(-2)).toEqual(['by', 'via']);
      expect(line!.split(',').slice(-2)).toEqual(['alice', 'api']);
      expect(end ?? '').toBe('');
    }
    // What the holder did on its own since names nobody.
    const automatic = await w.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM history WHERE actor <> 'operator' AND by_name IS NOT NULL",
    );
    expect(automatic.rows).toEqual([{ n: 0 }]);
  }, 120_000);

  it('wakes asked while PostgreSQL is down are kept, written when it is back, and acted on', async () => {
    const w = await world();
    const proxyA = await until('the holder wake proxy', WAIT, async () => w.a.proxyUrl());
    // A new connection each time: the crash ended the test's own.
    const lastRequestAt = async (appId: string) => {
      const rows = await queryOnce<{ at: string | null }>(
        w.database,
        'SELECT last_request_at AS at FROM app_state WHERE app_id = $1',
        [appId],
      );
      return rows[0]?.at == null ? null : Number(rows[0].at);
    };
    const { cluster } = suite;
    await whileCrashed(cluster, async () => {
      // At the instance not holding the owner: handed over, the database away.
      const atB = w.b.call<AppView>(
        'POST',
        `/api/apps/${w.apps.review}/_wake?wait=true&timeoutMs=${30 * MINUTE}`,
      );
      // At the holder: its own write refused, handed over too.
      const atA = w.a.call<AppView>(
        'POST',
        `/api/apps/${w.apps.sandbox}/_wake?wait=true&timeoutMs=${30 * MINUTE}`,
      );
      await until('the hand-over kept at the second instance', WAIT, async () =>
        w.logB.some((l) => l.includes('could not be handed to the instance acting on it')),
      );
      // Traffic of the awake app at the holder while the database is away.
      const visitedAt = w.clock.now();
      expect(await visit(proxyA, 'docs.example.test')).toBe(200);
      cluster.startAgain();
      const [b, a] = await Promise.all([atB, atA]);
      expect([b.status, b.body.state]).toEqual([200, 'Up']);
      expect([a.status, a.body.state]).toEqual([200, 'Up']);
      expect(w.sim.calls.get(START)).toBe(2);
      await until('the traffic seen meanwhile written', WAIT, async () => {
        const at = await lastRequestAt(w.apps.docs);
        return at !== null && at >= visitedAt;
      });
    });
  }, 180_000);

  it('operator actions asked while PostgreSQL is down answer 202 at once, show as handed over, and run when it is back', async () => {
    const w = await world();
    const entries = async (appId: string, kind: string) =>
      (
        await queryOnce<{ n: number }>(
          w.database,
          'SELECT count(*)::int AS n FROM history WHERE app_id = $1 AND kind = $2',
          [appId, kind],
        )
      )[0]!.n;
    const resetsBefore = await entries(w.apps.review, 'reset');
    const { cluster } = suite;
    await whileCrashed(cluster, async () => {
      // At the instance not holding the owner, and at the holder (its own write refused): answered
      // while the database is still away, 202 and what happens next, never a 504 after 15 s.
      const reset = await w.b.call<AppView>('POST', `/api/apps/${w.apps.review}/_reset`);
      expect([reset.status, reset.body.handedOver]).toEqual([
        202,
        'reset handed over: will run when the datastore is back',
      ]);
      const keepUntil = w.clock.now() + 2 * HOUR;
      const kept = await w.a.call<AppView>('POST', `/api/apps/${w.apps.docs}/_keep-awake`, {
        until: keepUntil,
      });
      expect([kept.status, kept.body.handedOver]).toEqual([
        202,
        'keep awake handed over: will run when the datastore is back',
      ]);
      // What the dashboard lists meanwhile: the actions pending on their apps.
      const listed = await w.b.call<AppView[]>('GET', '/api/apps');
      expect(listed.body.find((v) => v.appId === w.apps.review)?.handedOver).toMatch(/^reset handed over/);
      cluster.startAgain();
      await until('the reset and the keep-awake written and acted on', WAIT, async () => {
        const a = w.a.server.service.current!.engine;
        return (
          a.get(w.apps.docs)?.keepAwakeUntil === keepUntil &&
          (await entries(w.apps.review, 'reset')) === resetsBefore + 1
        );
      });
      expect(await entries(w.apps.docs, 'keep-awake')).toBe(1);
      // Kept in the outbox and written late, they still name who asked (the bootstrap token: a
      // personal token is checked against the datastore, away then), through the API.
      const api: By = { name: 'bootstrap', via: 'api' };
      expect(await byOf(w.database, w.apps.review, 'reset')).toEqual([api]);
      expect(await byOf(w.database, w.apps.docs, 'keep-awake')).toEqual([api]);
      await until('the dashboards no longer show them pending', WAIT, async () => {
        const views = [
          ...(await w.a.call<AppView[]>('GET', '/api/apps')).body,
          ...(await w.b.call<AppView[]>('GET', '/api/apps')).body,
        ];
        return views.every((v) => v.handedOver === null);
      });
    });
  }, 180_000);

  it('a starved pool answers 503 past its queue, never 500', async () => {
    const w = await world();
    const small = await suite.start({
      database: w.database,
      clock: w.clock,
      leaseMs: LEASE_MS,
      poolSize: 1,
    });
    await until(
      'the small instance seeing the apps',
      WAIT,
      async () => small.server.service.current?.engine.get(w.apps.docs) !== undefined,
    );
    const locker = new pg.Client({ connectionString: w.database });
    await locker.connect();
    suite.keep(locker);
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE history IN ACCESS EXCLUSIVE MODE');
    const answers: { status: number; body: unknown }[] = [];
    const reads = Array.from({ length: 40 }, () =>
      small.call('GET', `/api/apps/${w.apps.docs}/history`).then((r) => answers.push(r)),
    );
    await until('the reads past the queue answered', WAIT, async () => answers.length > 0);
    await locker.query('COMMIT');
    await Promise.all(reads);
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s !== 200 && s !== 503)).toEqual([]);
    expect(statuses).toContain(503);
    expect(statuses).toContain(200);
    const refused = answers.find((r) => r.status === 503)!.body as { error: { message: string } };
    expect(refused.error.message).toMatch(/wait for a connection of this instance's pool/);
  }, 120_000);

  it('/readyz says bus while the bus does not listen', async () => {
    const w = await world();
    const ready = async (i: TeamInstance) => {
      const res = await fetch(`${i.server.url}/readyz`);
      return `${res.status} ${(await res.text()).trim()}`;
    };
    await until('the second instance ready', WAIT, async () => (await ready(w.b)) === '200 ready');
    await w.b.server.service.current!.bus!.close();
    expect(await ready(w.b)).toBe('503 bus');
    expect(await ready(w.a)).toBe('200 ready');
  }, 120_000);
});
