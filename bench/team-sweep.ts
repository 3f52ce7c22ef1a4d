/**
 * Team mode's datastore cost: the engine on 1,000 apps (10 owners) on PostgreSQL (a throwaway
 * cluster on loopback, main/testing/postgres-cluster.ts; writes fenced by the owners' leases, as
 * `serve --database` runs) against the same engine on a SQLite file, on the in-process simulator
 * and a manual clock. Figures: the first run (every app read, initialised and written, one
 * transaction each) and a steady sweep (every app read and decided; every tenth app got a request
 * since the last sweep, each request a write), as `engine-tick.ts` measures them.
 *
 * A third series runs PostgreSQL with the NOTIFY triggers of app_state and history (team mode's
 * bus: migrations 3 and 5 of pg-schema.ts) disabled, to show what they cost.
 *
 *   node bench/team-sweep.ts [--apps N] [--runs N]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Pool, PoolClient } from 'pg';
import { Engine } from '../main/engine/engine.ts';
import type { EngineStore } from '../main/engine/ports.ts';
import { InProcessCleverPort } from '../main/simulator/in-process-port.ts';
import { PgLeases } from '../main/store/postgres/pg-leases.ts';
import { PostgresStore } from '../main/store/postgres/pg-store.ts';
import { SqliteStore } from '../main/store/sqlite/sqlite-store.ts';
import { LeaseKeeper } from '../main/team/lease-keeper.ts';
import { type PostgresCluster, startPostgresCluster } from '../main/testing/postgres-cluster.ts';
import { SECOND } from '../shared/durations.ts';
import { routedCloud } from './routed-cloud.ts';
import { type Result, round, stats } from './stats.ts';

const SWEEPS = 20;

async function waitFor(what: string, ok: () => boolean, timeoutMs = 120_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 2));
  }
}

interface Run {
  firstRunMs: number;
  sweeps: number[];
  /** The sweep that finds every app stopped from the console: a transition written for each. */
  writingSweepMs: number;
  /** Store commits (batches) and, on PostgreSQL, statements sent: in the first run, in the writing sweeps. */
  counts: { firstRun: Counts; writingSweeps: Counts };
}

interface Counts {
  commits: number;
  statements: number;
}

/** BENCH_DUMP (with BENCH_TRACE): every statement and its values, written to that file at the end. */
export const dumped: { sql: string; values: unknown }[] = [];

/** Count the store's commits, and every statement its pool's connections send (PostgreSQL). */
function counted(store: EngineStore, pool: Pool | null): () => Counts {
  const counts: Counts = { commits: 0, statements: 0 };
  const commit = store.commit.bind(store);
  store.commit = (change, guard) => {
    counts.commits++;
    return commit(change, guard);
  };
  const wrapped = new WeakSet<PoolClient>();
  pool?.on('acquire', (client) => {
    if (wrapped.has(client)) return;
    wrapped.add(client);
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      counts.statements++;
      if (!process.env.BENCH_TRACE) return query(...args);
      // BENCH_TRACE: each statement's start, time to its answer, parameters' size and text.
      const t0 = performance.now();
      const sql = typeof args[0] === 'string' ? args[0] : String((args[0] as { text?: string }).text);
      const size = JSON.stringify(args[1] ?? []).length;
      const done = () =>
        console.log(
          `trace ${t0.toFixed(1)} ${(performance.now() - t0).toFixed(1)}ms ${size}B ${sql.replace(/\s+/g, ' ').slice(0, 100)}`,
        );
      if (process.env.BENCH_DUMP) dumped.push({ sql, values: args[1] });
      const last = args.at(-1);
      if (typeof last === 'function') {
        args[args.length - 1] = (...r: unknown[]) => {
          done();
          return (last as (...r: unknown[]) => unknown)(...r);
        };
        return query(...args);
      }
      const p = query(...args) as Promise<unknown>;
      p.then(done, done);
      return p;
    };
  });
  return () => ({ ...counts });
}

const minus = (a: Counts, b: Counts): Counts => ({
  commits: a.commits - b.commits,
  statements: a.statements - b.statements,
});

/** One run of the engine on `n` apps, on SQLite (`url` null) or on the PostgreSQL database `url`. */
export async function sweepRun(n: number, url: string | null, owners = 10, notify = true): Promise<Run> {
  const { clock, cloud, ownerIds, config, routes } = routedCloud(n, owners);
  const dir = mkdtempSync(join(tmpdir(), 'reaper-bench-team-'));
  const pg = url ? await PostgresStore.open(url) : null;
  if (pg && !notify) {
    // Each trigger of app_state and history that NOTIFYs (by their function, whatever the schema's version).
    const { rows } = await pg.pool.query<{ name: string; table: string }>(
      `SELECT tgname AS name, tgrelid::regclass::text AS table FROM pg_trigger
       WHERE NOT tgisinternal AND tgfoid::regproc::text LIKE 'reaper_notify_%'
         AND tgrelid::regclass::text IN ('app_state', 'history')`,
    );
    for (const t of rows) await pg.pool.query(`ALTER TABLE ${t.table} DISABLE TRIGGER ${t.name}`);
  }
  const sqlite = url ? null : new SqliteStore(join(dir, 'reaper.db'));
  const store: EngineStore = (pg ?? sqlite)!;
  const count = counted(store, pg?.pool ?? null);
  let engine: Engine | null = null;
  /** The evaluations of the owners taken (awaited before the first run is timed as done). */
  const acting: Promise<void>[] = [];
  const keeper = pg
    ? new LeaseKeeper({
        table: new PgLeases(pg),
        leaseMs: 10 * 60_000,
        owners: () => ownerIds,
        onTaken: (o) => engine!.reloadOwners(o),
        onActive: async (o) => {
          const act = engine!.actOn(o);
          acting.push(act);
          await act;
        },
      })
    : null;
  engine = new Engine({
    clock,
    clever: new InProcessCleverPort(cloud),
    store,
    config: config.engineConfig(),
    ...(keeper ? { acts: (o: string) => keeper.acts(o), leaseGuard: (o: string) => keeper.guard(o) } : {}),
  });
  const sweeps: number[] = [];
  engine.on((e) => {
    if (e.type === 'tick' && e.pace === 'sweep') sweeps.push(e.durationMs);
  });
  const started = performance.now();
  await engine.start();
  await keeper?.start();
  // The first run: every app read, initialised and written.
  await waitFor('every app initialised', () => engine.list().length === n);
  await Promise.all(acting);
  await engine.reconcileNow();
  const firstRunMs = performance.now() - started;
  const firstRun = count();
  sweeps.length = 0;
  for (let s = 0; s < SWEEPS; s++) {
    for (let i = 0; i < n; i += 10) await engine.request(routes[i]!.appId, 'access-log');
    const before = sweeps.length;
    await clock.advance(30 * SECOND);
    await waitFor('the sweep', () => sweeps.length > before);
  }
  // Every app stopped from the console (outside the reaper): a sweep then writes each one's change.
  for (const r of routes) cloud.consoleStop(r.appId);
  const from = sweeps.length;
  const beforeWriting = count();
  for (let i = 0; i < 10 && engine.list().some((r) => r.state === 'Up'); i++) {
    const before = sweeps.length;
    await clock.advance(30 * SECOND);
    await waitFor('a sweep', () => sweeps.length > before);
  }
  const writingSweepMs = Math.max(...sweeps.slice(from));
  const writingSweeps = minus(count(), beforeWriting);
  if (process.env.BENCH_VERBOSE) {
    const states = new Map<string, number>();
    for (const r of engine.list()) states.set(r.state, (states.get(r.state) ?? 0) + 1);
    console.log(
      url ? 'postgres' : 'sqlite',
      keeper?.activeOwners().length,
      [...states],
      sweeps.map((x) => Math.round(x * 10) / 10).join(' '),
      'first run',
      firstRun,
      'writing sweeps',
      writingSweeps,
    );
  }
  await keeper?.stop();
  await engine.stop();
  await pg?.close();
  await sqlite?.close();
  rmSync(dir, { recursive: true, force: true });
  return {
    firstRunMs,
    sweeps: sweeps.slice(0, SWEEPS),
    writingSweepMs,
    counts: { firstRun, writingSweeps },
  };
}

export async function teamSweep(n = 1000, runs = 5): Promise<Result[]> {
  let cluster: PostgresCluster | null = null;
  try {
    cluster = await startPostgresCluster();
    const out: Result[] = [];
    const per = {
      sqlite: [] as Run[],
      postgres: [] as Run[],
      'postgres without NOTIFY triggers': [] as Run[],
    };
    for (let r = 0; r < runs; r++) {
      // Alternate, so that the machine's drift weighs on all alike.
      per.sqlite.push(await sweepRun(n, null));
      per.postgres.push(await sweepRun(n, await cluster.createDatabase()));
      per['postgres without NOTIFY triggers'].push(
        await sweepRun(n, await cluster.createDatabase(), 10, false),
      );
    }
    for (const kind of ['sqlite', 'postgres', 'postgres without NOTIFY triggers'] as const) {
      const list = per[kind];
      const medians = list.map((run) => stats(run.sweeps).median);
      out.push({
        name: `team: one sweep of ${n} apps on ${kind} (median of each run's ${SWEEPS} sweeps)`,
        unit: 'ms',
        ...stats(medians),
        runs: medians.map((m) => round(m, 2)),
      });
      out.push({
        name: `team: one sweep of ${n} apps on ${kind}, each app's change written (stopped from the console)`,
        unit: 'ms',
        ...stats(list.map((run) => run.writingSweepMs)),
        runs: list.map((run) => round(run.writingSweepMs, 1)),
        // Over the sweeps it took for every app to be seen stopped (one, or two when the first ran late).
        commits: list.map((run) => run.counts.writingSweeps.commits),
        statements: list.map((run) => run.counts.writingSweeps.statements),
      });
      out.push({
        name: `team: first run (every app initialised) for ${n} apps on ${kind}`,
        unit: 'ms',
        ...stats(list.map((run) => run.firstRunMs)),
        runs: list.map((run) => Math.round(run.firstRunMs)),
        commits: list.map((run) => run.counts.firstRun.commits),
        statements: list.map((run) => run.counts.firstRun.statements),
      });
    }
    return out;
  } finally {
    await cluster?.stop();
  }
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { apps: { type: 'string' }, runs: { type: 'string' } } });
  for (const r of await teamSweep(Number(values.apps ?? 1000), Number(values.runs ?? 5)))
    console.log(JSON.stringify(r));
}
