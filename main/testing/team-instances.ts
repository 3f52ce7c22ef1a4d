/**
 * Tests and benchmarks of team mode across instances: headless servers in this process on one
 * PostgreSQL database and one simulator over HTTP (the real Clever Cloud client, its calls counted by
 * the simulator), their wake proxies sending requests to the simulator, which serves the apps by Host;
 * and a reader of a server's event stream that notes when each event arrived.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { ReaperEvent } from '../../shared/api.ts';
import { SECOND } from '../../shared/durations.ts';
import type { Log } from '../../shared/log.ts';
import { CleverClient } from '../clever/client.ts';
import { operatorCredentials } from '../clever/credentials.ts';
import { ScaledClock } from '../engine/clocks.ts';
import type { Clock } from '../engine/ports.ts';
import { type Headless, startHeadless } from '../server/headless.ts';
import { SimulatedCloud } from '../simulator/model.ts';
import { DEMO_CREDENTIALS, type SimulatorServer, startSimulatorServer } from '../simulator/server.ts';
import { type ClusterOptions, type PostgresCluster, startPostgresCluster } from './postgres-cluster.ts';
import { adminCall, TEST_SERVER } from './test-server.ts';

export interface TeamInstance {
  server: Headless;
  /** An admin API call: status and parsed body. */
  call<T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }>;
  /** Where this instance's wake proxy listens now (null while it does not). */
  proxyUrl(): string | null;
  close(): Promise<void>;
}

/** The real client on the simulator, as an account session gets it. */
export function simulatorClient(sim: SimulatorServer): CleverClient {
  const o = DEMO_CREDENTIALS.oauth;
  const credentials = operatorCredentials(
    { kind: 'oauth1', token: o.token, secret: o.secret },
    { consumerKey: o.consumerKey, consumerSecret: o.consumerSecret, apiHost: sim.url },
  );
  return new CleverClient({ credentials: { ...credentials, source: 'operator', detail: 'the simulator' } });
}

export interface TeamInstanceOptions {
  database: string;
  sim: SimulatorServer;
  clock: Clock;
  leaseMs?: number;
  /** --pool-size. */
  poolSize?: number;
  /** --one-port: the wake proxy on the server's port. */
  onePort?: boolean;
  log?: Log;
}

export async function startTeamInstance(options: TeamInstanceOptions): Promise<TeamInstance> {
  const dataDir = mkdtempSync(join(tmpdir(), 'reaper-team-'));
  let server: Headless;
  try {
    server = await startHeadless({
      ...TEST_SERVER,
      dataDir,
      database: options.database,
      ...(options.leaseMs ? { leaseMs: options.leaseMs } : {}),
      ...(options.poolSize ? { poolSize: options.poolSize } : {}),
      ...(options.onePort ? { onePort: true } : {}),
      clever: simulatorClient(options.sim),
      accountClock: options.clock,
      upstreamOrigin: options.sim.url,
      ...(options.log ? { log: options.log } : {}),
    });
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  const call = <T>(method: string, path: string, body?: unknown) => adminCall<T>(server, method, path, body);
  return {
    server,
    call,
    proxyUrl: () => server.service.current?.traffic.proxyStatus().url ?? null,
    async close() {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface TeamSuite {
  /** The file's cluster (started in beforeAll). */
  readonly cluster: PostgresCluster;
  /** A simulated Clever Cloud `factor` times faster than real time (a deploy takes 20 s of it, a stop 8 s). */
  world(factor: number): { clock: ScaledClock; cloud: SimulatedCloud };
  /** The simulator over HTTP for `cloud`, a new database and a connection to it: the test's own. */
  open(cloud: SimulatedCloud): Promise<{ sim: SimulatorServer; database: string; db: pg.Client }>;
  /** An instance on the test's simulator. */
  start(options: Omit<TeamInstanceOptions, 'sim'>): Promise<TeamInstance>;
  /** A connection the test opened itself, ended with the test's. */
  keep(client: pg.Client): void;
}

/**
 * Team tests with instances in this process: one throwaway cluster per file (a new database per
 * test), and after each test its instances, connections and simulator closed.
 */
export function teamSuite(clusterOptions: ClusterOptions = {}): TeamSuite {
  let cluster: PostgresCluster | undefined;
  let sim: SimulatorServer | null = null;
  const instances: TeamInstance[] = [];
  const clients: pg.Client[] = [];
  beforeAll(async () => {
    cluster = await startPostgresCluster(clusterOptions);
  }, 60_000);
  afterEach(async () => {
    for (const c of clients.splice(0)) await c.end();
    for (const i of instances.splice(0)) await i.close();
    await sim?.close();
    sim = null;
  });
  afterAll(async () => {
    await cluster?.stop();
  });
  const suite: TeamSuite = {
    get cluster() {
      if (!cluster) throw new Error('the cluster is started in beforeAll');
      return cluster;
    },
    world(factor) {
      const origin = Date.now();
      const clock = new ScaledClock(factor, { real: origin, fake: origin });
      return {
        clock,
        cloud: new SimulatedCloud(clock, { deployDurationMs: 20 * SECOND, stopDurationMs: 8 * SECOND }),
      };
    },
    async open(cloud) {
      if (sim) throw new Error('one simulator per test');
      sim = await startSimulatorServer({ cloud });
      const database = await suite.cluster.createDatabase();
      const db = new pg.Client({ connectionString: database });
      await db.connect();
      clients.push(db);
      return { sim, database, db };
    },
    async start(options) {
      if (!sim) throw new Error('open() the simulator before an instance');
      const instance = await startTeamInstance({ ...options, sim });
      instances.push(instance);
      return instance;
    },
    keep(client) {
      clients.push(client);
    },
  };
  return suite;
}

export interface EventReader {
  /** Every event received so far, with the real time it arrived (performance.now()). */
  readonly events: { at: number; event: ReaperEvent }[];
  /** Resolves with the first event (received from now on, or already) that `match` accepts. */
  next(
    match: (event: ReaperEvent) => boolean,
    timeoutMs?: number,
  ): Promise<{ at: number; event: ReaperEvent }>;
  close(): void;
}

/** Read a server's event stream (GET /api/events) in the background. */
export async function readEvents(server: Headless): Promise<EventReader> {
  const controller = new AbortController();
  const res = await fetch(`${server.url}/api/events`, {
    headers: { authorization: `Bearer ${server.token.token}` },
    signal: controller.signal,
  });
  if (!res.ok || !res.body) throw new Error(`the event stream answered ${res.status}`);
  const events: { at: number; event: ReaperEvent }[] = [];
  const waiters = new Set<() => void>();
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  (async () => {
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value;
      let end = buffer.indexOf('\n\n');
      while (end >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = block
          .split('\n')
          .filter((l) => l.startsWith('data: '))
          .map((l) => l.slice(6))
          .join('\n');
        if (data) events.push({ at: performance.now(), event: JSON.parse(data) as ReaperEvent });
        end = buffer.indexOf('\n\n');
      }
      for (const w of waiters) w();
    }
  })().catch((error: unknown) => {
    // Aborted when the test closes the stream: only a failure before that is one.
    if (!controller.signal.aborted) console.error(`the event stream of ${server.url} failed:`, error);
  });
  return {
    events,
    next(match, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        let from = 0;
        const check = () => {
          for (; from < events.length; from++) {
            const e = events[from]!;
            if (match(e.event)) {
              done();
              resolve(e);
              return;
            }
          }
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error('no such event on the stream in time'));
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
    close() {
      controller.abort();
    },
  };
}
