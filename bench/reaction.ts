/**
 * Reaction times, with the real client and the simulator over HTTP on loopback:
 * 1. a wake request to the start call reaching Clever Cloud (baseline: a reaper that starts apps at
 *    its next 30-second sweep, on average 15 s later);
 * 2. a deployment's end to the app seen Up, with the event socket and with the 5-second pace alone;
 * 3. the end of the grace period to the stop call (baseline: the seed's window, 0 to 30 s late,
 *    15 s on average).
 * Real time throughout (the clocks run at 1x).
 */

import { EventFollower } from '../main/service/event-follower.ts';
import { liveHarness } from '../main/testing/live-harness.ts';
import { MINUTE } from '../shared/durations.ts';
import { round, stats } from './stats.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** 1. From engine.wake() to the POST .../instances the simulator receives (real ms). */
async function wakeToStart(samples: number) {
  const h = await liveHarness({ factor: 1, sim: { deployDurationMs: 60 * MINUTE } });
  try {
    const apps = Array.from({ length: samples }, (_, i) =>
      h.manage(`asleep-${i}`, { state: 'SHOULD_BE_DOWN' }),
    );
    await h.engine.start();
    await h.eventually(() => apps.every((a) => h.state(a.id) === 'Down'), 'all asleep', 20_000);
    const reached = new Map<string, number>();
    const start = h.cloud.start.bind(h.cloud);
    h.cloud.start = (ownerId, appId, cause) => {
      reached.set(appId, performance.now());
      return start(ownerId, appId, cause);
    };
    const delays: number[] = [];
    for (const app of apps) {
      const t0 = performance.now();
      await h.engine.wake(app.id, 'dashboard');
      await h.eventually(() => reached.has(app.id), 'the start call');
      delays.push(reached.get(app.id)! - t0);
      await sleep(20);
    }
    return delays;
  } finally {
    await h.close();
  }
}

/** 2. From a deployment's end on Clever Cloud to the engine's Up (real ms), with or without the socket. */
async function deploymentEndToUp(samples: number, socket: boolean) {
  const h = await liveHarness({ factor: 1, sim: { deployDurationMs: 1500, listingDelayMs: 200 } });
  const follower = socket
    ? new EventFollower({ engine: h.engine, source: (signal) => h.client.events({ signal }) ?? [] })
    : null;
  try {
    const apps = Array.from({ length: samples }, (_, i) =>
      h.manage(`waking-${i}`, { state: 'SHOULD_BE_DOWN' }),
    );
    const ended = new Map<string, number>();
    // A listener on the platform's events also makes the simulator end deployments on time.
    h.cloud.onEvent((e) => {
      if (e.event === 'DEPLOYMENT_ACTION_END' && e.data.action === 'DEPLOY')
        ended.set(e.data.appId, performance.now());
    });
    const up = new Map<string, number>();
    h.engine.on(
      (e) =>
        e.type === 'app' &&
        e.record.state === 'Up' &&
        !up.has(e.record.appId) &&
        up.set(e.record.appId, performance.now()),
    );
    await h.engine.start();
    follower?.start();
    await h.eventually(() => apps.every((a) => h.state(a.id) === 'Down'), 'all asleep', 20_000);
    await sleep(300);
    const delays: number[] = [];
    for (const app of apps) {
      await h.engine.wake(app.id, 'dashboard');
      await h.eventually(() => up.has(app.id), 'Up', 30_000);
      delays.push(up.get(app.id)! - ended.get(app.id)!);
    }
    return delays;
  } finally {
    await follower?.stop();
    await h.close();
  }
}

/** 3. From the end of the grace period (the shortest, one minute) to the stop call (real ms). */
async function graceEndToStop(samples: number) {
  const h = await liveHarness({ factor: 1 });
  try {
    const apps = Array.from({ length: samples }, (_, i) =>
      h.manage(`idle-${i}`, {}, { gracePeriodMs: MINUTE }),
    );
    const asked = new Map<string, number>();
    const stop = h.cloud.stop.bind(h.cloud);
    h.cloud.stop = (ownerId, appId, cause) => {
      if (!asked.has(appId)) asked.set(appId, h.clock.now());
      stop(ownerId, appId, cause);
    };
    await h.engine.start();
    await h.eventually(() => apps.every((a) => h.state(a.id) === 'Up'), 'all up', 20_000);
    // Each app gets its last request at a different moment, not aligned with the paces.
    const last = new Map<string, number>();
    for (const app of apps) {
      const at = h.clock.now();
      await h.engine.request(app.id, 'access-log', at);
      last.set(app.id, at);
      await sleep(20 + Math.random() * 200);
    }
    await h.eventually(() => apps.every((a) => asked.has(a.id)), 'every stop', 2 * MINUTE);
    return apps.map((a) => asked.get(a.id)! - (last.get(a.id)! + MINUTE));
  } finally {
    await h.close();
  }
}

export async function reactionTimes(samples = 20) {
  const wake = stats(await wakeToStart(samples));
  const withSocket = stats(await deploymentEndToUp(samples, true));
  const paceOnly = stats(await deploymentEndToUp(samples, false));
  const stop = stats(await graceEndToStop(samples));
  return [
    {
      name: 'reaction: wake request to start call',
      unit: 'ms',
      ...wake,
      baselineMs: 15_000,
      ratio: round(15_000 / wake.median, 0),
    },
    { name: 'reaction: deployment end to Up seen, event socket', unit: 'ms', ...withSocket },
    { name: 'reaction: deployment end to Up seen, 5 s pace alone', unit: 'ms', ...paceOnly },
    {
      name: 'reaction: grace period end to stop call',
      unit: 'ms',
      ...stop,
      baselineMs: 15_000,
      ratio: round(15_000 / Math.max(stop.median, 1), 0),
    },
  ];
}

if (import.meta.main)
  for (const r of await reactionTimes(Number(process.argv[2] ?? 20))) console.log(JSON.stringify(r));
