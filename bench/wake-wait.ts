/**
 * A visitor's wait after a wake: from a request for an asleep app, through the real wake proxy, to
 * the app's own answer. The simulator over HTTP on loopback, real time (the clocks run at 1x); its
 * front answers "not routed yet" (its 404 with X-CleverCloudUpgrade and a 503 in turn) for
 * `warmupMs` after the app came up, like Clever Cloud's. The simulator's start time is from the
 * request to the moment its app answers (the start call, the deployment, the front's warm-up); the
 * reaper's share is the rest. With the event socket (OAuth) and with the 5-second pace alone.
 *
 *   npx node bench/wake-wait.ts [samples]
 */
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { EventFollower } from '../main/service/event-follower.ts';
import { liveHarness } from '../main/testing/live-harness.ts';
import { ownHostOf } from '../main/traffic/loop-guard.ts';
import { TrafficStats } from '../main/traffic/stats.ts';
import { cleverUpstream } from '../main/traffic/upstream.ts';
import { WakeProxy } from '../main/traffic/wake-proxy.ts';
import { MINUTE } from '../shared/durations.ts';
import { round, stats } from './stats.ts';

const DEPLOY_MS = 3000;
const WARMUP_MS = 2000;

function get(port: number, host: string, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

async function visitorWaits(samples: number, socket: boolean) {
  const h = await liveHarness({
    factor: 1,
    sim: {
      deployDurationMs: DEPLOY_MS,
      listingDelayMs: 200,
      frontWarmupMs: WARMUP_MS,
      frontWarmupAnswer: 'alternate',
    },
  });
  const follower = socket
    ? new EventFollower({ engine: h.engine, source: (signal) => h.client.events({ signal }) ?? [] })
    : null;
  const proxy = new WakeProxy({
    engine: h.engine,
    routes: () => h.config.routes(),
    holdDeadlineMs: () => 2 * MINUTE,
    clock: h.clock,
    stats: new TrafficStats(),
    upstream: cleverUpstream(h.client, { origin: h.sim.url, isOwnHost: ownHostOf(h.engine) }),
  });
  try {
    const apps = Array.from({ length: samples }, (_, i) =>
      h.manage(`asleep-${i}`, { state: 'SHOULD_BE_DOWN' }, { hosts: [`asleep-${i}.test`] }),
    );
    const { port } = await proxy.listen(0);
    await h.engine.start();
    follower?.start();
    await h.eventually(() => apps.every((a) => h.state(a.id) === 'Down'), 'all asleep', 30_000);
    const waits: number[] = [];
    const overheads: number[] = [];
    const notYet: number[] = [];
    for (const [i, app] of apps.entries()) {
      const t0 = h.clock.now();
      const status = await get(port, `asleep-${i}.test`, '/orders');
      const answeredAt = h.clock.now();
      if (status !== 200) throw new Error(`the visitor got ${status}`);
      const sim = h.cloud.apps.get(app.id)!;
      const appAnswersAt = sim.upSince! + WARMUP_MS;
      waits.push(answeredAt - t0);
      overheads.push(answeredAt - appAnswersAt);
      notYet.push(sim.accessLog.filter((e) => e.statusCode !== 200).length);
    }
    return {
      name: `a visitor's wait after a wake, ${socket ? 'with the event socket' : 'the 5 s pace alone'}`,
      deployMs: DEPLOY_MS,
      frontWarmupMs: WARMUP_MS,
      waitMs: stats(waits),
      afterTheAppAnswersMs: stats(overheads),
      frontNotYetAnswersPerWake: round(notYet.reduce((a, b) => a + b, 0) / notYet.length, 1),
    };
  } finally {
    await proxy.close();
    await follower?.stop();
    await h.close();
  }
}

export async function wakeWaitBench(samples = 8): Promise<Record<string, unknown>[]> {
  return [await visitorWaits(samples, true), await visitorWaits(Math.max(2, samples / 2), false)];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const samples = Number(process.argv[2] ?? 8);
  for (const r of await wakeWaitBench(samples)) console.log(JSON.stringify(r));
}
