/**
 * Tests of team mode with real `serve --database` processes (crash and fault runs): one throwaway
 * PostgreSQL per file, one simulator in the test process, the instances and their data folders, all
 * ended after the file; the calls Clever Cloud carries out, counted; who holds an owner's lease.
 * Test-only.
 */
import { rmSync } from 'node:fs';
import type pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import type { SimulatedCloud } from '../simulator/model.ts';
import type { SimulatorServer } from '../simulator/server.ts';
import { type ClusterOptions, type PostgresCluster, startPostgresCluster } from './postgres-cluster.ts';
import { type ServeProcess, serveProcess } from './serve-process.ts';

/** A tiny deterministic generator, so that a failing seed can be replayed. */
export function seededRandom(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

export interface TeamProcesses {
  /** The file's cluster (set in beforeAll). */
  readonly cluster: PostgresCluster;
  /** The simulator the instances call; the test starts it and sets it here (closed after the file). */
  sim: SimulatorServer | null;
  /** Every instance started by `serve`, in order. */
  readonly instances: ServeProcess[];
  /** A new instance on `database`, added to `instances`. */
  serve(options: {
    database: string;
    adminToken: string;
    leaseSeconds: number;
    timeScale: number;
    timeOrigin: number;
  }): Promise<ServeProcess>;
}

/** Whether a process has neither exited nor been killed. */
export function alive(instance: ServeProcess): boolean {
  return instance.child.exitCode === null && instance.child.signalCode === null;
}

/**
 * Declares the file's cluster (started before all its tests) and, after them, kills every instance
 * still running (resumed first, if a test froze it), closes the simulator, stops the cluster and
 * removes the data folders.
 */
export function teamProcesses(clusterOptions: ClusterOptions = {}): TeamProcesses {
  let cluster: PostgresCluster | undefined;
  const instances: ServeProcess[] = [];
  const dirs: string[] = [];
  const world: TeamProcesses = {
    get cluster() {
      if (!cluster) throw new Error('the cluster is started in beforeAll');
      return cluster;
    },
    sim: null,
    instances,
    async serve(options) {
      if (!world.sim) throw new Error('start the simulator (world.sim) before an instance');
      const instance = await serveProcess({ apiUrl: world.sim.url, ...options, dirs });
      instances.push(instance);
      return instance;
    },
  };
  beforeAll(async () => {
    cluster = await startPostgresCluster(clusterOptions);
  }, 60_000);
  afterAll(async () => {
    for (const i of instances) {
      if (!alive(i)) continue;
      i.child.kill('SIGCONT');
      i.child.kill('SIGKILL');
    }
    await world.sim?.close();
    await cluster?.stop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });
  return world;
}

/**
 * Watch the starts and stops the simulated Clever Cloud carries out: `before` runs before each call
 * (it may throw, to refuse it), `carried` after each one carried out.
 */
export function watchCloudCalls(
  cloud: SimulatedCloud,
  hooks: {
    before?: (call: 'start' | 'stop', appId: string) => void;
    carried?: (call: 'start' | 'stop', appId: string) => void;
  },
): void {
  const start = cloud.start.bind(cloud);
  const stop = cloud.stop.bind(cloud);
  cloud.start = (ownerId, appId, cause) => {
    hooks.before?.('start', appId);
    const answer = start(ownerId, appId, cause);
    hooks.carried?.('start', appId);
    return answer;
  };
  cloud.stop = (ownerId, appId, cause) => {
    hooks.before?.('stop', appId);
    stop(ownerId, appId, cause);
    hooks.carried?.('stop', appId);
  };
}

/** The instance whose live lease holds `ownerId` now, from the leases table (null: nobody's). */
export async function leaseHolder(
  query: <R extends pg.QueryResultRow>(text: string, values: unknown[]) => Promise<R[]>,
  instances: readonly ServeProcess[],
  ownerId: string,
): Promise<ServeProcess | null> {
  const rows = await query<{ holder: string }>(
    'SELECT holder FROM leases WHERE owner_id = $1 AND expires_at > (extract(epoch FROM clock_timestamp()) * 1000)::bigint',
    [ownerId],
  );
  const pid = rows[0] ? Number(rows[0].holder.split(':')[1]) : null;
  return instances.find((i) => i.pid === pid) ?? null;
}
