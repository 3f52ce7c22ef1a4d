/**
 * Team mode with real processes: `serve --database` instances on one throwaway PostgreSQL and one
 * simulator over HTTP, apps in three owners. Each owner is held by exactly one instance; no app gets
 * two starts or stops; an instance killed with SIGKILL in the middle of starts has its owners taken
 * over within the lease time plus a round and a fast pace, and each start it asked for reaches Clever
 * Cloud once; an instance paused (SIGSTOP) past its lease and resumed acts on nothing another
 * instance took over. The processes and the simulator share one clock, 30 times faster than real
 * time; leases (on the database's clock) last 2 s of real time.
 */

import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { MINUTE, SECOND } from '../../shared/durations.ts';
import { ScaledClock } from '../engine/clocks.ts';
import { SimulatedCloud } from '../simulator/model.ts';
import { startSimulatorServer } from '../simulator/server.ts';
import { postgresSkipReason } from '../testing/postgres-cluster.ts';
import { type ServeProcess, until } from '../testing/serve-process.ts';
import { teamProcesses, watchCloudCalls } from '../testing/team-processes.ts';

const skip = postgresSkipReason();
const FACTOR = 30;
const LEASE_MS = 2000;
/** A lease round (lease / 3) and the fast pace (5 s of engine time), in real time. */
const ROUND_MS = LEASE_MS / 3;
const FAST_MS = (5 * SECOND) / FACTOR;
const TOKEN = 'failover-test-admin-token-0123456789';

describe.skipIf(skip !== null)(
  `two serve processes on one PostgreSQL${skip ? ` (skipped: ${skip})` : ''}`,
  () => {
    const world = teamProcesses();

    it('one actor per owner, takeover after kill -9, a paused instance fenced', async () => {
      const origin = Date.now();
      const clock = new ScaledClock(FACTOR, { real: origin, fake: origin });
      const cloud = new SimulatedCloud(clock, { deployDurationMs: 20 * SECOND, stopDurationMs: 8 * SECOND });
      const owners = ['Acme', 'Globex', 'Initech'].map((name) => cloud.addOrganisation(name));
      const apps = owners.flatMap((org) => [
        cloud.addApp(org.id, `${org.name}-a`),
        cloud.addApp(org.id, `${org.name}-b`),
      ]);
      // Every start and stop that reaches Clever Cloud, per app, in order.
      const actions = new Map<string, string[]>();
      const note = (appId: string, kind: string) => actions.set(appId, [...(actions.get(appId) ?? []), kind]);
      // Noted as it is asked (before Clever Cloud answers), carried out or not.
      watchCloudCalls(cloud, { before: (call, appId) => note(appId, call) });
      world.sim = await startSimulatorServer({ cloud });

      const database = await world.cluster.createDatabase();
      const db = new pg.Client({ connectionString: database });
      await db.connect();
      const leases = async () =>
        new Map(
          (
            await db.query<{ owner_id: string; holder: string; token: string }>(
              `SELECT owner_id, holder, token FROM leases WHERE expires_at > (extract(epoch FROM clock_timestamp()) * 1000)::bigint`,
            )
          ).rows.map((r) => [r.owner_id, { pid: Number(r.holder.split(':')[1]), token: Number(r.token) }]),
        );

      const serve = (): Promise<ServeProcess> =>
        world.serve({
          adminToken: TOKEN,
          database,
          leaseSeconds: LEASE_MS / 1000,
          timeScale: FACTOR,
          timeOrigin: origin,
        });
      const wake = (i: ServeProcess, appId: string) =>
        fetch(`${i.url}/api/apps/${appId}/_wake`, {
          method: 'POST',
          headers: { authorization: `Bearer ${TOKEN}` },
        });
      const appsOf = (ownerId: string) => apps.filter((a) => a.ownerId === ownerId);
      const stateOf = (appId: string) => [...cloud.apps.values()].find((a) => a.id === appId)?.state;

      try {
        const a = await serve();
        for (const app of apps) {
          const res = await fetch(`${a.url}/api/routes`, {
            method: 'POST',
            headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
            body: JSON.stringify({ appId: app.id, ownerId: app.ownerId, gracePeriodMs: 2 * MINUTE }),
          });
          expect(res.status).toBe(201);
        }
        const b = await serve();
        // Balanced: three owners, each held by exactly one of the two (2 + 1).
        const held = await until('the owners balanced over both instances', 15_000, async () => {
          const l = await leases();
          const pids = new Set([...l.values()].map((h) => h.pid));
          return l.size === 3 && pids.has(a.pid) && pids.has(b.pid) ? l : null;
        });
        expect([...held.values()].every((h) => h.pid === a.pid || h.pid === b.pid)).toBe(true);

        // Every app idle: each stopped once, by the instance holding its owner.
        await until('every app stopped', 30_000, async () =>
          apps.every((app) => stateOf(app.id) === 'SHOULD_BE_DOWN'),
        );
        for (const app of apps) expect(actions.get(app.id)).toEqual(['stop']);

        // kill -9 in the middle of starts: the holder of an owner asked to wake its apps.
        const [victimOwner, victimHold] = [...held].find(([, h]) => h.pid === a.pid)!;
        const survivor = b;
        await Promise.all(appsOf(victimOwner).map((app) => wake(a, app.id)));
        a.child.kill('SIGKILL');
        const killedAt = Date.now();
        const takeover = await until('the takeover of the killed instance', 3 * LEASE_MS + 5000, async () => {
          const h = (await leases()).get(victimOwner);
          return h && h.pid === survivor.pid ? { ms: Date.now() - killedAt, token: h.token } : null;
        });
        expect(takeover.token).toBeGreaterThan(victimHold.token);
        expect(takeover.ms).toBeLessThanOrEqual(LEASE_MS + ROUND_MS + FAST_MS + 500);
        console.log(`takeover after kill -9: ${takeover.ms} ms (lease ${LEASE_MS} ms)`);
        await until('the apps of the killed instance started', 20_000, async () =>
          appsOf(victimOwner).every((app) => stateOf(app.id) === 'SHOULD_BE_UP'),
        );
        for (const app of appsOf(victimOwner)) expect(actions.get(app.id)).toEqual(['stop', 'start']);

        // A third instance takes its share; paused past its lease, it acts on nothing taken over.
        const c = await serve();
        const [pausedOwner] = await until('the new instance holding its share', 15_000, async () => {
          const l = await leases();
          return [...l].find(([, h]) => h.pid === c.pid) ?? null;
        });
        await Promise.all(appsOf(pausedOwner).map((app) => wake(c, app.id)));
        await until('the paused owner apps up', 20_000, async () =>
          appsOf(pausedOwner).every((app) => stateOf(app.id) === 'SHOULD_BE_UP'),
        );
        const before = new Map(appsOf(pausedOwner).map((app) => [app.id, actions.get(app.id)!.length]));
        c.child.kill('SIGSTOP');
        // the survivor takes the owner over and, the grace over, stops its apps, once each
        await until('the takeover of the paused instance', 3 * LEASE_MS + 5000, async () => {
          const h = (await leases()).get(pausedOwner);
          return !!h && h.pid === survivor.pid;
        });
        await until('the paused owner apps stopped by the survivor', 30_000, async () =>
          appsOf(pausedOwner).every((app) => stateOf(app.id) === 'SHOULD_BE_DOWN'),
        );
        c.child.kill('SIGCONT');
        await new Promise((r) => setTimeout(r, LEASE_MS + 1000));
        for (const app of appsOf(pausedOwner)) {
          expect(actions.get(app.id)!.slice(before.get(app.id)!)).toEqual(['stop']);
        }
        // No app ever got two starts or two stops in a row.
        for (const [appId, list] of actions) {
          for (let i = 1; i < list.length; i++)
            expect(`${appId} ${list[i]}`).not.toBe(`${appId} ${list[i - 1]}`);
        }
        expect(c.child.exitCode).toBeNull();
        c.child.kill('SIGTERM');
        survivor.child.kill('SIGTERM');
      } finally {
        await db.end();
      }
    }, 180_000);
  },
);
