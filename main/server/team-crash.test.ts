/**
 * Team mode crash test with real processes: two `serve --database` instances on one throwaway
 * PostgreSQL and one simulator (in this process), one owner and its app. Again and again, the
 * instance holding the owner is killed with SIGKILL in the middle of a stop (the reaper's own, when
 * the grace period ends) or of a start (a wake asked of it), and a new instance is started beside the
 * survivor. The kill lands, by a seeded draw, at one of three points of the call:
 * - "carried": the call has reached Clever Cloud, which carries it out; its answer never returns;
 * - "refused": the call has reached Clever Cloud, which refuses it (nothing done); no answer returns;
 * - "answered": Clever Cloud carried it out and answered; the instance may or may not have written it.
 * Each time the survivor finishes the action: exactly one start (or stop) carried out by Clever Cloud
 * per action, the app ends Up (or Down) in Clever Cloud and in the datastore, nothing left pending.
 * At the end the app's history is complete: each transition starts where the previous one ended,
 * one WaitingForShutdown per stop and one WaitingForUp per start, the stored state the last one's.
 *
 * Processes and simulator share one clock, 120 times faster than real time; leases last 2 s (real).
 * CI: 5 kills in starts and 5 in stops; TEAM_CRASH_KILLS=20 (each) and TEAM_CRASH_SEED=7 for more.
 */
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { MINUTE, SECOND } from '../../shared/durations.ts';
import { ScaledClock } from '../engine/clocks.ts';
import { SimulatedCloud } from '../simulator/model.ts';
import { type Fault, startSimulatorServer } from '../simulator/server.ts';
import { SimError } from '../simulator/sim-types.ts';
import { postgresSkipReason } from '../testing/postgres-cluster.ts';
import { until } from '../testing/serve-process.ts';
import {
  alive,
  leaseHolder,
  seededRandom,
  teamProcesses,
  watchCloudCalls,
} from '../testing/team-processes.ts';

const skip = postgresSkipReason();
const FACTOR = 120;
/** 3 s of real time: longer than a takeover, so a start finished by the survivor is seen Up. */
const GRACE = 6 * MINUTE;
const LEASE_SECONDS = 2;
const KILLS = Number(process.env.TEAM_CRASH_KILLS ?? 5);
const SEED = Number(process.env.TEAM_CRASH_SEED ?? 20261201);
const TOKEN = 'team-crash-test-admin-token-0123456789';
type Point = 'carried' | 'refused' | 'answered';

describe.skipIf(skip !== null)(
  `SIGKILL of the holder in the middle of a start or a stop${skip ? ` (skipped: ${skip})` : ''}`,
  () => {
    const world = teamProcesses();
    const { instances } = world;

    it(`the survivor finishes each, once (${KILLS} kills in starts, ${KILLS} in stops, seed ${SEED})`, async () => {
      const draw = seededRandom(SEED);
      const origin = Date.now();
      const clock = new ScaledClock(FACTOR, { real: origin, fake: origin });
      const cloud = new SimulatedCloud(clock, { deployDurationMs: 30 * SECOND, stopDurationMs: 8 * SECOND });
      const org = cloud.addOrganisation('Acme');
      const app = cloud.addApp(org.id, 'review');
      // The starts and stops Clever Cloud carried out, and the next one it refuses (the "refused" point).
      const carried = { start: 0, stop: 0 };
      const refuse = { start: false, stop: false };
      watchCloudCalls(cloud, {
        before: (call) => {
          if (!refuse[call]) return;
          refuse[call] = false;
          throw new SimError(503, 503, 'The service is temporarily unavailable');
        },
        carried: (call) => {
          carried[call]++;
        },
      });
      const sim = await startSimulatorServer({ cloud });
      world.sim = sim;
      const database = await world.cluster.createDatabase();
      const db = new pg.Client({ connectionString: database });
      await db.connect();
      const serve = () =>
        world.serve({
          adminToken: TOKEN,
          database,
          leaseSeconds: LEASE_SECONDS,
          timeScale: FACTOR,
          timeOrigin: origin,
        });
      const holder = () =>
        leaseHolder(
          async (text, values) => (await db.query(text, values)).rows,
          instances.filter(alive),
          org.id,
        );
      const stored = async () =>
        (
          await db.query<{ state: string; pending_call: string | null }>(
            'SELECT state, pending_call FROM app_state WHERE app_id = $1',
            [app.id],
          )
        ).rows[0];
      /** The route's grace period made a day long, as every instance alive reads it. */
      const keepUpAfterward = async (url: string, routeId: string) => {
        const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
        const body = JSON.stringify({ gracePeriodMs: 24 * 60 * MINUTE });
        const patched = await fetch(`${url}/api/routes/${routeId}`, { method: 'PATCH', headers, body });
        expect(patched.status).toBe(200);
        await until('the longer grace period read by every instance', 20_000, async () => {
          for (const i of instances.filter(alive)) {
            const answer = await fetch(`${i.url}/api/routes/${routeId}`, { headers }).catch(() => null);
            const read = answer?.ok ? ((await answer.json()) as { gracePeriodMs: number }) : null;
            if (read?.gracePeriodMs !== 24 * 60 * MINUTE) return false;
          }
          return true;
        });
      };
      const points: Record<string, number> = {};
      /** Real ms from each kill to the action finished by the survivor. */
      const finished: number[] = [];
      /** Where the kill of action k lands, and the call held at Clever Cloud's door 300 ms meanwhile. */
      const prepare = (k: number) => {
        const call: 'start' | 'stop' = k % 2 === 0 ? 'stop' : 'start';
        const point: Point = (['carried', 'refused', 'answered'] as const)[Math.floor(draw() * 3)]!;
        const door: Fault = {
          kind: 'delay',
          ms: 300,
          count: 1,
          match: call === 'start' ? 'POST' : 'DELETE',
          id: app.id,
        };
        sim.faults.push(door);
        refuse[call] = point === 'refused';
        return { call, point, door, before: carried[call] };
      };

      try {
        // Stops and starts in turn: the app is Up (its grace period ends: the holder stops it) or Down
        // (a wake is asked of the holder).
        let next = prepare(0);
        const first = await serve();
        const res = await fetch(`${first.url}/api/routes`, {
          method: 'POST',
          headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
          body: JSON.stringify({ appId: app.id, ownerId: org.id, gracePeriodMs: GRACE }),
        });
        expect(res.status).toBe(201);
        const route = (await res.json()) as { id: string };
        await serve();

        for (let k = 0; k < 2 * KILLS; k++) {
          const { call, point, door, before } = next;
          points[`${call} ${point}`] = (points[`${call} ${point}`] ?? 0) + 1;
          if (call === 'start') {
            const holding = await until('an instance holding the owner', 20_000, holder);
            // The last action: once it is finished the app stays Up, with no stop of its grace period
            // begun while the history is read (on a loaded machine 6 min of engine time, 3 s, go by).
            if (k === 2 * KILLS - 1) await keepUpAfterward(holding.url, route.id);
            fetch(`${holding.url}/api/apps/${app.id}/_wake`, {
              method: 'POST',
              headers: { authorization: `Bearer ${TOKEN}` },
            }).catch(() => {});
          }
          await until(`the ${call} at Clever Cloud's door`, 30_000, async () => (door.hits ?? 0) > 0, 2);
          const victim = await until('the instance holding the owner', 5_000, holder, 2);
          if (point === 'answered')
            await until(`the ${call} carried out`, 5_000, async () => carried[call] > before, 1);
          victim.child.kill('SIGKILL');
          const killedAt = Date.now();
          const replacement = serve();
          if (k + 1 < 2 * KILLS) next = prepare(k + 1);
          const want =
            call === 'start'
              ? { sim: 'SHOULD_BE_UP', state: 'Up' }
              : { sim: 'SHOULD_BE_DOWN', state: 'Down' };
          await until(`the ${call} finished by the survivor (kill ${k + 1}, ${point})`, 30_000, async () => {
            const r = await stored();
            return app.state === want.sim && r?.state === want.state && r.pending_call === null;
          });
          finished.push(Date.now() - killedAt);
          expect(`${call} ${point}: ${carried[call] - before} carried out`).toBe(
            `${call} ${point}: 1 carried out`,
          );
          await until('the killed instance gone', 5_000, async () => victim.child.signalCode === 'SIGKILL');
          await replacement;
        }

        // The history is complete and in order.
        const { rows } = await db.query<{ id: string; from_state: string | null; to_state: string }>(
          'SELECT id, from_state, to_state FROM history WHERE app_id = $1 AND to_state IS NOT NULL ORDER BY id',
          [app.id],
        );
        let state: string | null = null;
        for (const r of rows) {
          expect(`${r.id}: from ${r.from_state}`).toBe(`${r.id}: from ${state}`);
          state = r.to_state;
        }
        expect(state).toBe((await stored())?.state);
        const count = (to: string) => rows.filter((r) => r.to_state === to).length;
        expect(count('WaitingForShutdown')).toBe(KILLS);
        expect(count('WaitingForUp')).toBe(KILLS);
        expect(carried).toEqual({ start: KILLS, stop: KILLS });
        console.log(
          `team crash: ${2 * KILLS} kills survived (${JSON.stringify(points)}), ${rows.length} transitions checked, double actions 0; kill to finished: ${Math.min(...finished)}-${Math.max(...finished)} ms, median ${[...finished].sort((a, b) => a - b)[finished.length >> 1]} ms (lease ${LEASE_SECONDS} s)`,
        );
        for (const i of instances) if (alive(i)) i.child.kill('SIGTERM');
      } finally {
        await db.end();
      }
    }, 300_000);
  },
);
