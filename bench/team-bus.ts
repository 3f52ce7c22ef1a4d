/**
 * Team mode across instances: two headless servers in this process on one throwaway PostgreSQL
 * (main/testing/postgres-cluster.ts) and one simulator over HTTP, the first holding the only owner.
 *
 * (a) A change on the holder seen on the other instance's event stream: `changes` keep-awake changes
 *     made one after the other through the holder's admin API; for each, the time from the holder's
 *     own stream announcing its history entry to the other stream announcing the same entry.
 * (b) The wake proxy through the other instance against through the holder: the latency added to a
 *     request for an Up app (one connection at a time, `seconds` each, baseline: the simulator's app
 *     front directly), and the time to start an asleep app (a held request, answered once the app is
 *     Up), `wakes` apps through each. The clock runs 30 times faster than real time, so a start takes
 *     about 0.7 s of the simulator's deployment; the difference between the two is the hand-over.
 *
 *   npx node bench/team-bus.ts [--quick]
 */
import { request } from 'node:http';
import autocannon from 'autocannon';
import { ScaledClock } from '../main/engine/clocks.ts';
import { SimulatedCloud } from '../main/simulator/model.ts';
import { startSimulatorServer } from '../main/simulator/server.ts';
import { findPostgresBin, startPostgresCluster } from '../main/testing/postgres-cluster.ts';
import { readEvents, startTeamInstance, type TeamInstance } from '../main/testing/team-instances.ts';
import { HOUR, SECOND } from '../shared/durations.ts';
import { round, stats } from './stats.ts';

const FACTOR = 30;

async function waitFor<T>(what: string, probe: () => T | null | false | undefined, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value !== null && value !== false && value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** A held request (not a browser) for `host`: the real time until the answer, and its status. */
function held(proxyUrl: string, host: string): Promise<{ ms: number; status: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(new URL('/', proxyUrl), { headers: { host, accept: 'application/json' } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ ms: performance.now() - started, status: res.statusCode ?? 0 }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function latency(url: string, host: string, seconds: number): Promise<number[]> {
  const latencies: number[] = [];
  await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      { url: `${url}/items/42`, headers: { host }, connections: 1, duration: seconds },
      (error, done) => (error ? reject(error) : resolve(done)),
    );
    instance.on('response', (_client, _status, _bytes, ms) => latencies.push(ms));
  });
  return latencies;
}

export async function teamBusBench(
  options: { changes?: number; seconds?: number; wakes?: number; burst?: number; bursts?: number } = {},
) {
  const changes = options.changes ?? 200;
  const seconds = options.seconds ?? 8;
  const wakes = options.wakes ?? 20;
  const burst = options.burst ?? 100;
  const bursts = options.bursts ?? 3;
  if (!findPostgresBin()) return [{ name: 'team mode across instances', skipped: 'no PostgreSQL here' }];
  const cluster = await startPostgresCluster();
  const origin = Date.now();
  const clock = new ScaledClock(FACTOR, { real: origin, fake: origin });
  const cloud = new SimulatedCloud(clock, { deployDurationMs: 20 * SECOND, stopDurationMs: 8 * SECOND });
  const org = cloud.addOrganisation('Acme');
  const up = cloud.addApp(org.id, 'up', { vhosts: ['up.bench.test'] });
  const burstApps = Array.from({ length: burst }, (_, i) =>
    cloud.addApp(org.id, `burst-${i}`, { vhosts: [`burst-${i}.bench.test`] }),
  );
  const asleep = Array.from({ length: 2 * wakes }, (_, i) =>
    cloud.addApp(org.id, `asleep-${i}`, { state: 'SHOULD_BE_DOWN', vhosts: [`asleep-${i}.bench.test`] }),
  );
  // When each start reached the simulator (real time), per app.
  const started = new Map<string, number>();
  const start = cloud.start.bind(cloud);
  cloud.start = (ownerId, appId, cause) => {
    started.set(appId, performance.now());
    return start(ownerId, appId, cause);
  };
  const sim = await startSimulatorServer({ cloud });
  const instances: TeamInstance[] = [];
  try {
    const database = await cluster.createDatabase();
    const a = await startTeamInstance({ database, sim, clock, leaseMs: 15_000 });
    instances.push(a);
    await a.call('PATCH', '/api/settings', { wakeProxyPort: 0 });
    for (const app of [up, ...asleep, ...burstApps]) {
      await a.call('POST', '/api/routes', {
        appId: app.id,
        ownerId: org.id,
        hosts: app.vhosts,
        gracePeriodMs: 24 * HOUR,
      });
    }
    const engineA = () => a.server.service.current!.engine;
    await waitFor('the holder acting', () => engineA().get(up.id)?.state === 'Up');
    const b = await startTeamInstance({ database, sim, clock, leaseMs: 15_000 });
    instances.push(b);
    const engineB = () => b.server.service.current!.engine;
    await waitFor('the other instance seeing every app', () =>
      asleep.every((app) => engineB().get(app.id)?.state === 'Down') ? true : null,
    );
    const proxyA = await waitFor('the holder proxy', () => a.proxyUrl());
    const proxyB = await waitFor('the other proxy', () => b.proxyUrl());

    // (a) changes on the holder, seen on the other instance's stream
    const streamA = await readEvents(a.server);
    const streamB = await readEvents(b.server);
    const delays: number[] = [];
    const fromCall: number[] = [];
    for (let i = 0; i < changes; i++) {
      const until = clock.now() + HOUR + i * SECOND;
      const called = performance.now();
      await a.call('POST', `/api/apps/${up.id}/_keep-awake`, { until });
      const reason = `kept awake until ${new Date(until).toISOString()}`;
      const match = (e: { type: string; entry?: { reason: string } }) =>
        e.type === 'history' && e.entry?.reason === reason;
      const [seenA, seenB] = await Promise.all([streamA.next(match), streamB.next(match)]);
      delays.push(seenB.at - seenA.at);
      fromCall.push(seenB.at - called);
      await new Promise((r) => setTimeout(r, 20));
    }
    // the same, in bursts: one bulk keep-awake of `burst` apps on the holder at a time
    await waitFor('the other instance seeing the burst apps', () =>
      burstApps.every((app) => engineB().get(app.id)?.state === 'Up') ? true : null,
    );
    const burstDelays: number[] = [];
    for (let i = 0; i < bursts; i++) {
      const until = clock.now() + 2 * HOUR + i * SECOND;
      const reason = `kept awake until ${new Date(until).toISOString()}`;
      const key = (e: { event: { type: string; entry?: { appId: string; reason: string } } }) =>
        e.event.type === 'history' && e.event.entry?.reason === reason ? e.event.entry.appId : null;
      await a.call('POST', '/api/apps/_bulk', {
        action: 'keepAwake',
        appIds: burstApps.map((app) => app.id),
        until,
      });
      const seenOnB = await waitFor('the burst on the other stream', () => {
        const got = new Map<string, number>();
        for (const e of streamB.events) {
          const id = key(e);
          if (id) got.set(id, e.at);
        }
        return got.size === burst ? got : null;
      });
      for (const e of streamA.events) {
        const id = key(e);
        const onB = id ? seenOnB.get(id) : undefined;
        if (onB !== undefined) burstDelays.push(onB - e.at);
      }
    }
    streamA.close();
    streamB.close();
    const seen = stats(delays);

    // (b) the wake proxy through the other instance, against through the holder
    await latency(sim.url, 'up.bench.test', 1); // warm up
    await latency(proxyA, 'up.bench.test', 1);
    await latency(proxyB, 'up.bench.test', 1);
    const direct = stats(await latency(sim.url, 'up.bench.test', seconds));
    const viaHolder = stats(await latency(proxyA, 'up.bench.test', seconds));
    const viaOther = stats(await latency(proxyB, 'up.bench.test', seconds));
    const startHolder: number[] = [];
    const startOther: number[] = [];
    const callHolder: number[] = [];
    const callOther: number[] = [];
    for (let i = 0; i < wakes; i++) {
      for (const [proxy, into, calls, app] of [
        [proxyA, startHolder, callHolder, asleep[2 * i]!],
        [proxyB, startOther, callOther, asleep[2 * i + 1]!],
      ] as const) {
        const sent = performance.now();
        const answer = await held(proxy, app.vhosts[0]!);
        if (answer.status === 200) into.push(answer.ms);
        const reached = started.get(app.id);
        if (reached !== undefined) calls.push(reached - sent);
      }
    }
    const holderCall = stats(callHolder);
    const otherCall = stats(callOther);
    const holderStart = stats(startHolder);
    const otherStart = stats(startOther);
    return [
      {
        name: 'a change on one instance on the other instance stream',
        unit: 'ms',
        ...seen,
        mean: round(delays.reduce((s, d) => s + d, 0) / delays.length),
      },
      { name: 'the same, from the call to the holder', unit: 'ms', ...stats(fromCall) },
      {
        name: `the same, in bursts of ${burst} changes (a bulk keep-awake)`,
        unit: 'ms',
        ...stats(burstDelays),
      },
      {
        name: 'wake proxy for an Up app, one connection',
        directP50ms: direct.median,
        directP99ms: direct.p99,
        holderP50ms: viaHolder.median,
        holderP99ms: viaHolder.p99,
        otherP50ms: viaOther.median,
        otherP99ms: viaOther.p99,
        addedByHolderP50ms: round(viaHolder.median - direct.median),
        addedByOtherP50ms: round(viaOther.median - direct.median),
        addedByHolderP99ms: round(viaHolder.p99 - direct.p99),
        addedByOtherP99ms: round(viaOther.p99 - direct.p99),
        samples: [direct.samples, viaHolder.samples, viaOther.samples],
      },
      {
        name: 'a request for an asleep app at the wake proxy -> the start call reaching the simulator',
        unit: 'ms',
        holderMedian: holderCall.median,
        holderWorst: holderCall.worst,
        otherMedian: otherCall.median,
        otherWorst: otherCall.worst,
        samples: [holderCall.samples, otherCall.samples],
      },
      {
        name: 'time to start an asleep app through the wake proxy (held request)',
        unit: 'ms',
        holderMedian: holderStart.median,
        holderWorst: holderStart.worst,
        otherMedian: otherStart.median,
        otherWorst: otherStart.worst,
        samples: [holderStart.samples, otherStart.samples],
        startsSent: sim.calls.get('POST /v2/organisations/:XXX/applications/:XXX/instances') ?? 0,
      },
    ];
  } finally {
    for (const i of instances) await i.close().catch(() => {});
    await sim.close();
    await cluster.stop();
  }
}

if (import.meta.main) {
  const quick = process.argv.includes('--quick');
  for (const r of await teamBusBench(
    quick ? { changes: 20, seconds: 2, wakes: 2, burst: 20, bursts: 1 } : {},
  ))
    console.log(JSON.stringify(r));
}
