/**
 * Fault injection over real processes (issue 22): two or three `serve --database` instances on one throwaway
 * PostgreSQL and one simulator (in this process, its start and stop calls counted per app), two
 * owners of two apps each, every app asleep after a grace period of 4 minutes of the clock. Fault
 * after fault, drawn from a seeded generator:
 * - "holder frozen": the instance holding an owner gets SIGSTOP for 1.5 lease times, then SIGCONT
 *   (another instance takes the owner over meanwhile; the resumed one finds its lease lost);
 * - "database frozen": the postmaster and every backend get SIGSTOP for 1.5 lease times;
 * - "database restarted": `pg_ctl stop -m immediate`, then started again (every connection lost);
 * and during each, wakes asked at random instances at random moments (`_wake?wait=true`).
 *
 * It checks: 0 wakes lost (each answers Up, or a 409 that names the Error's cause, within the fail
 * timeout of the clock); 0 double actions (the simulator never carries out two starts, or two
 * stops, of an app in a row); the history exact (each transition starts where the one before ended,
 * one WaitingForUp per start carried out and one WaitingForShutdown per stop, the stored state the
 * last one's). Correctness waits on answers and states, never on a sleep: the sleeps only shape the
 * faults.
 *
 * The clock runs 60 times faster than real time; leases last 2 s (real). The normal suite runs 3
 * faults over 2 instances; `TEAM_FAULTS=20 TEAM_FAULTS_INSTANCES=3` (and TEAM_FAULTS_SEED=7) for a
 * long run. The counts are printed, and kept in RELIABILITY.md.
 */
import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { MINUTE, SECOND } from '../../shared/durations.ts';
import { ScaledClock } from '../engine/clocks.ts';
import { SimulatedCloud } from '../simulator/model.ts';
import { startSimulatorServer } from '../simulator/server.ts';
import { postgresSkipReason, queryOnce } from '../testing/postgres-cluster.ts';
import { type ServeProcess, until } from '../testing/serve-process.ts';
import { leaseHolder, seededRandom, teamProcesses, watchCloudCalls } from '../testing/team-processes.ts';

const skip = postgresSkipReason();
const FACTOR = 60;
const LEASE_SECONDS = 2;
const GRACE = 4 * MINUTE;
/** The default fail timeout: a wake ends Up or in Error within it. */
const FAIL_TIMEOUT = 15 * MINUTE;
const FAULTS = Number(process.env.TEAM_FAULTS ?? 3);
const SEED = Number(process.env.TEAM_FAULTS_SEED ?? 20261202);
const WAKES_PER_FAULT = 3;
/** Instances: 2 in the normal suite (each process start is slow on a loaded machine), 3 at length. */
const INSTANCES = Number(process.env.TEAM_FAULTS_INSTANCES ?? 2);
const TOKEN = 'team-faults-test-admin-token-0123456789';
type FaultKind = 'holder frozen' | 'database frozen' | 'database restarted';

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(skip !== null)(
  `faults under ${INSTANCES} instances: no wake lost${skip ? ` (skipped: ${skip})` : ''}`,
  () => {
    // Crashed on purpose: what was committed must survive it, as on a real server.
    const world = teamProcesses({ synchronousCommit: true });
    const { instances } = world;

    it(`${INSTANCES} instances, ${FAULTS} faults, ${WAKES_PER_FAULT} wakes each: 0 lost, 0 double actions, the history exact (seed ${SEED})`, async () => {
      const draw = seededRandom(SEED);
      const pick = <T>(list: readonly T[]) => list[Math.floor(draw() * list.length)]!;
      const origin = Date.now();
      const clock = new ScaledClock(FACTOR, { real: origin, fake: origin });
      const cloud = new SimulatedCloud(clock, { deployDurationMs: 20 * SECOND, stopDurationMs: 8 * SECOND });
      const owners = [cloud.addOrganisation('Acme'), cloud.addOrganisation('Globex')];
      const apps = owners.flatMap((o) =>
        [1, 2].map((n) => cloud.addApp(o.id, `${o.name.toLowerCase()}-${n}`, { state: 'SHOULD_BE_DOWN' })),
      );
      // The starts and stops Clever Cloud carried out, per app, in order.
      const calls = new Map<string, ('start' | 'stop')[]>(apps.map((a) => [a.id, []]));
      watchCloudCalls(cloud, { carried: (call, appId) => calls.get(appId)?.push(call) });
      world.sim = await startSimulatorServer({ cloud });
      const { cluster } = world;
      const database = await cluster.createDatabase();
      const serve = () =>
        world.serve({
          adminToken: TOKEN,
          database,
          leaseSeconds: LEASE_SECONDS,
          timeScale: FACTOR,
          timeOrigin: origin,
        });
      const admin = (i: ServeProcess, method: string, path: string, body?: unknown) =>
        fetch(`${i.url}${path}`, {
          method,
          headers: {
            authorization: `Bearer ${TOKEN}`,
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          signal: AbortSignal.timeout(120_000),
        });
      /** A query on a new connection (a restart of the database ends connections). */
      const query = <R extends pg.QueryResultRow>(text: string, values: unknown[] = []) =>
        queryOnce<R>(database, text, values);

      const first = await serve();
      for (const app of apps) {
        const res = await admin(first, 'POST', '/api/routes', {
          appId: app.id,
          ownerId: app.ownerId,
          gracePeriodMs: GRACE,
        });
        expect(res.status).toBe(201);
      }
      await Promise.all(Array.from({ length: INSTANCES - 1 }, () => serve()));
      const phases: string[] = [`started ${Math.round((Date.now() - origin) / 1000)} s`];

      const counts: Record<FaultKind, number> = {
        'holder frozen': 0,
        'database frozen': 0,
        'database restarted': 0,
      };
      const outcomes: string[] = [];
      const lost: string[] = [];
      /** A wake asked at an instance: answered Up, or in Error with its cause; anything else is lost. */
      const wake = async (i: ServeProcess, appId: string, label: string) => {
        try {
          const res = await admin(i, 'POST', `/api/apps/${appId}/_wake?wait=true&timeoutMs=${FAIL_TIMEOUT}`);
          const body = (await res.json()) as { state?: string; error?: { message: string } };
          if (res.status === 200 && body.state === 'Up') outcomes.push('Up');
          else if (res.status === 409 && /Error/.test(body.error?.message ?? '')) outcomes.push('Error');
          else lost.push(`${label}: ${res.status} ${JSON.stringify(body)}`);
        } catch (error) {
          lost.push(`${label}: ${String(error)}`);
        }
      };
      const holderOf = (ownerId: string) => leaseHolder(query, instances, ownerId);
      await until('every owner held', 30_000, async () => {
        for (const o of owners) if (!(await holderOf(o.id))) return false;
        return true;
      });

      const freezeMs = LEASE_SECONDS * 1500;
      for (let f = 0; f < FAULTS; f++) {
        const kind = pick(['holder frozen', 'database frozen', 'database restarted'] as const);
        counts[kind]++;
        const victim = kind === 'holder frozen' ? await holderOf(pick(owners).id) : null;
        // Wakes at random instances, at random moments of the fault (of apps asleep when possible).
        const wakes = Array.from({ length: WAKES_PER_FAULT }, async (_, k) => {
          const at = draw() * freezeMs;
          const where = pick(instances);
          const asleep = apps.filter((a) => a.state === 'SHOULD_BE_DOWN');
          const app = asleep.length ? pick(asleep) : pick(apps);
          await pause(at);
          await wake(where, app.id, `fault ${f + 1} (${kind}), wake ${k + 1} of ${app.name} at ${where.pid}`);
        });
        if (kind === 'holder frozen') {
          victim?.child.kill('SIGSTOP');
          await pause(freezeMs);
          victim?.child.kill('SIGCONT');
        } else if (kind === 'database frozen') {
          cluster.freeze();
          await pause(freezeMs);
          cluster.thaw();
        } else {
          await pause(draw() * freezeMs);
          cluster.restart();
        }
        await Promise.all(wakes);
      }

      phases.push(`faults ${Math.round((Date.now() - origin) / 1000)} s`);
      // Quiet: every app asleep again (its grace period ended), nothing pending.
      await until(
        'every app asleep, nothing pending',
        120_000,
        async () => {
          const rows = await query<{ state: string; pending_call: string | null }>(
            'SELECT state, pending_call FROM app_state',
          );
          return (
            rows.length === apps.length &&
            rows.every((r) => r.state === 'Down' && r.pending_call === null) &&
            apps.every((a) => a.state === 'SHOULD_BE_DOWN')
          );
        },
        100,
      );

      phases.push(`quiet ${Math.round((Date.now() - origin) / 1000)} s`);
      if (lost.length) {
        // What the instances said of the apps of the lost wakes, for the diagnosis.
        const named = apps.filter((a) => lost.some((l) => l.includes(` of ${a.name} `)));
        for (const i of instances) {
          const lines = i
            .out()
            .split('\n')
            .filter((l) => named.some((a) => l.includes(a.id) || l.includes(a.name)));
          console.log(`instance ${i.pid}:\n${lines.slice(-40).join('\n')}`);
        }
      }
      expect(lost).toEqual([]);
      expect(outcomes).toHaveLength(FAULTS * WAKES_PER_FAULT);
      let transitions = 0;
      for (const app of apps) {
        const sequence = calls.get(app.id)!;
        // Never two starts, or two stops, of one app in a row.
        sequence.forEach((call, n) => {
          if (n > 0)
            expect(`${app.name} call ${n + 1}: ${call}`).not.toBe(
              `${app.name} call ${n + 1}: ${sequence[n - 1]}`,
            );
        });
        const rows = await query<{ id: string; from_state: string | null; to_state: string }>(
          'SELECT id, from_state, to_state FROM history WHERE app_id = $1 AND to_state IS NOT NULL ORDER BY id',
          [app.id],
        );
        let state: string | null = null;
        for (const r of rows) {
          expect(`${app.name} ${r.id}: from ${r.from_state}`).toBe(`${app.name} ${r.id}: from ${state}`);
          state = r.to_state;
        }
        expect(state).toBe('Down');
        transitions += rows.length;
        const count = (to: string) => rows.filter((r) => r.to_state === to).length;
        expect([app.name, count('WaitingForUp'), count('WaitingForShutdown')]).toEqual([
          app.name,
          sequence.filter((c) => c === 'start').length,
          sequence.filter((c) => c === 'stop').length,
        ]);
      }
      for (const i of instances) expect(i.child.exitCode).toBeNull();
      console.log(
        `team faults: ${FAULTS} faults (${JSON.stringify(counts)}), ${outcomes.length} wakes (${outcomes.filter((o) => o === 'Up').length} Up, ${outcomes.filter((o) => o === 'Error').length} Error), ${lost.length} lost, ${[...calls.values()].flat().length} calls carried out, 0 double, ${transitions} transitions checked (seed ${SEED}; real time: ${phases.join(', ')})`,
      );
      for (const i of instances) i.child.kill('SIGTERM');
    }, 600_000);
  },
);
