/**
 * The fault suite: Clever Cloud faults at every point of a sleep and of a wake, through the real
 * client and the simulator over HTTP. Each case checks the same invariants:
 * - no false Error: a fault shorter than the fail timeout never puts the app in Error;
 * - no double start or stop: exactly one DEPLOY (wake) or UNDEPLOY (sleep) reaches Clever Cloud;
 * - the app in transit ends where it should (Down after a sleep, Up after a wake).
 * The 20-minute outage (longer than the fail timeout) checks that the reaper decides nothing while it
 * cannot see Clever Cloud, and ends each app in its real state once it can.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReaperState } from '../../shared/domain.ts';
import { MINUTE } from '../../shared/durations.ts';
import type { Fault } from '../simulator/server.ts';
import { type LiveHarness, liveHarness } from '../testing/live-harness.ts';

type FaultKind =
  | '5xx burst'
  | '429 with Retry-After'
  | 'slow answers'
  | 'dropped connections'
  | 'lost answers';
type Point =
  | 'deployment check before the stop'
  | 'stop call'
  | 'stop followed'
  | 'start call'
  | 'start followed';

const FAULTS: Record<FaultKind, Fault> = {
  '5xx burst': { kind: 'status', status: 503, count: 6 },
  '429 with Retry-After': { kind: 'status', status: 429, retryAfterSec: 1, count: 2 },
  'slow answers': { kind: 'delay', ms: 600, count: 3 }, // the client gives up after 400 ms
  'dropped connections': { kind: 'drop', count: 3 },
  'lost answers': { kind: 'drop-after', count: 2 },
};

const POINTS: Record<Point, { path: 'sleep' | 'wake'; match: string; when: ReaperState }> = {
  'deployment check before the stop': {
    path: 'sleep',
    match: 'GET /v2/organisations/:XXX/applications/:XXX/deployments',
    when: 'Up',
  },
  'stop call': { path: 'sleep', match: 'DELETE', when: 'Up' },
  'stop followed': { path: 'sleep', match: 'GET', when: 'WaitingForShutdown' },
  'start call': { path: 'wake', match: 'POST', when: 'Down' },
  'start followed': { path: 'wake', match: 'GET', when: 'WaitingForUp' },
};

const cases = (Object.keys(POINTS) as Point[]).flatMap((point) =>
  (Object.keys(FAULTS) as FaultKind[]).map((fault) => ({ point, fault })),
);

describe('faults at every point of a sleep and of a wake', () => {
  let h: LiveHarness;
  const apps = new Map<string, { id: string; path: 'sleep' | 'wake'; fault: Fault }>();
  /** The dashboard wakes that failed, by app (none should: the engine tells a fault in the app's state). */
  const wakeFailures = new Map<string, unknown>();

  beforeAll(async () => {
    h = await liveHarness({
      factor: 20,
      client: { timeoutMs: 400, backoffLimitMs: 100 },
      sim: { deployDurationMs: 45_000, stopDurationMs: 8000 },
    });
    for (const { point, fault } of cases) {
      const p = POINTS[point];
      // One owner per app: a fault on the owner hits the reads of its list and of its app only.
      const owner = h.cloud.addOrganisation(`${point} / ${fault}`);
      const app = h.manage(`${point} / ${fault}`, p.path === 'wake' ? { state: 'SHOULD_BE_DOWN' } : {}, {
        ownerId: owner.id,
        gracePeriodMs: p.path === 'sleep' ? 2 * MINUTE : 24 * 60 * MINUTE,
      });
      const injected: Fault = { ...FAULTS[fault], match: p.match, id: owner.id };
      apps.set(`${point}|${fault}`, { id: app.id, path: p.path, fault: injected });
      let armed = false;
      let woken = false;
      h.engine.on((e) => {
        if (e.type !== 'app' || e.record.appId !== app.id) return;
        if (!armed && e.record.state === p.when) {
          armed = true;
          h.sim.faults.push(injected);
        }
        if (p.path === 'wake' && !woken && e.record.state === 'Down') {
          woken = true;
          setTimeout(() => {
            h.engine.wake(app.id, 'dashboard').catch((error: unknown) => wakeFailures.set(app.id, error));
          }, 20);
        }
      });
    }
    await h.engine.start();
    const settled = () =>
      [...apps.values()].every(
        ({ id, path }) => h.state(id) === (path === 'sleep' ? 'Down' : 'Up') || h.state(id) === 'Error',
      );
    await h.eventually(settled, 'every app to settle', 120_000).catch((error) => {
      for (const [key, { id }] of apps) console.log(key, h.engine.get(id)?.state, h.engine.get(id)?.notice);
      throw error;
    });
  }, 150_000);
  afterAll(() => h.close());

  it.each(cases)('$fault at the $point', async ({ point, fault }) => {
    const { id, path, fault: injected } = apps.get(`${point}|${fault}`)!;
    const history = await h.store.historyOf(id, 200);
    expect(wakeFailures.get(id)).toBeUndefined();
    expect(history.filter((e) => e.to === 'Error').map((e) => e.reason)).toEqual([]);
    expect(h.state(id)).toBe(path === 'sleep' ? 'Down' : 'Up');
    const sim = h.cloud.apps.get(id)!;
    const actions = sim.deployments.map((d) => d.action);
    if (path === 'sleep') expect(actions.filter((a) => a === 'UNDEPLOY')).toHaveLength(1);
    else expect(actions.filter((a) => a === 'DEPLOY')).toHaveLength(2); // the first deployment, and the wake
    expect(injected.hits).toBeGreaterThan(0); // the fault did happen, at that point
  });
});

describe('a 20-minute outage of Clever Cloud (longer than the fail timeout)', () => {
  it('decides nothing while it lasts, then ends each app in transit in its real state', async () => {
    const h = await liveHarness({ factor: 100, client: { timeoutMs: 400, backoffLimitMs: 100 } });
    try {
      // One owner per app: each app's reads are cut (its owner's 503s) the moment it enters its
      // transit state, so a stop or a start that Clever Cloud finishes fast (8 s of engine time, 80 ms)
      // is not seen done before the outage, however late a loaded machine runs the test; the outage
      // of all of Clever Cloud begins once the three are in transit.
      const transit = {
        'going to sleep': 'WaitingForShutdown',
        waking: 'WaitingForUp',
        'stuck start': 'WaitingForUp',
      };
      const ids = new Map<string, string>();
      const app = (
        name: keyof typeof transit,
        options: Parameters<LiveHarness['manage']>[1],
        grace?: number,
      ) => {
        const created = h.manage(name, options, {
          ownerId: h.cloud.addOrganisation(name).id,
          ...(grace ? { gracePeriodMs: grace } : {}),
        });
        ids.set(created.id, transit[name]);
        return created;
      };
      const sleeping = app('going to sleep', {}, 2 * MINUTE);
      const waking = app('waking', { state: 'SHOULD_BE_DOWN' });
      const stuck = app('stuck start', { state: 'SHOULD_BE_DOWN' });
      h.cloud.injectOutcomes(stuck.id, ...Array(40).fill('vanish'));
      const outage: Fault = { kind: 'status', status: 503, count: Number.POSITIVE_INFINITY };
      let began: number | null = null;
      const armed = new Set<string>();
      h.engine.on((e) => {
        if (e.type !== 'app' || armed.has(e.record.appId) || ids.get(e.record.appId) !== e.record.state)
          return;
        armed.add(e.record.appId);
        h.sim.faults.push({ ...outage, match: 'GET', id: e.record.ownerId });
        if (armed.size === ids.size) {
          h.sim.faults.push(outage);
          began = h.clock.now();
        }
      });
      await h.engine.start();
      await h.eventually(() => h.state(sleeping.id) === 'WaitingForShutdown', 'a stop asked');
      await h.engine.wake(waking.id, 'dashboard');
      await h.engine.wake(stuck.id, 'dashboard');
      await h.eventually(() => began !== null, 'the three apps in transit');
      await h.eventually(() => h.clock.now() - began! >= 20 * MINUTE, 'twenty minutes', 30_000);
      // Nothing was decided without seeing Clever Cloud: no Error, and the transit states held.
      expect([h.state(sleeping.id), h.state(waking.id), h.state(stuck.id)]).toEqual([
        'WaitingForShutdown',
        'WaitingForUp',
        'WaitingForUp',
      ]);
      h.sim.faults.splice(0);
      await h.eventually(
        () => h.state(sleeping.id) === 'Down' && h.state(waking.id) === 'Up',
        'the real states',
      );
      await h.eventually(() => h.state(stuck.id) === 'Error', 'the stuck start in Error');
      expect(h.engine.get(stuck.id)!.cause).toBe('the app did not start within the fail timeout');
      expect(h.engine.get(waking.id)!.notice).toBeNull();
    } finally {
      await h.close();
    }
  }, 60_000);
});
