/**
 * The job over time: a manual clock, the in-process simulated Clever Cloud, a real SQLite datastore.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ReaperState } from '../../shared/domain.ts';
import { HOUR, MINUTE, SECOND } from '../../shared/durations.ts';
import { CleverCallError } from '../../shared/port-errors.ts';
import { InProcessCleverPort } from '../simulator/in-process-port.ts';
import { SqliteStore } from '../store/sqlite/sqlite-store.ts';
import { harness, MONDAY_9AM } from '../testing/engine-harness.ts';
import type { CleverCloudPort, EngineStore } from './ports.ts';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'reaper-engine-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** The first time an app enters `state`, from the engine's events. */
function firstTimeIn(h: ReturnType<typeof harness>, appId: string, state: ReaperState): () => number | null {
  let at: number | null = null;
  h.engine.on((e) => {
    if (at === null && e.type === 'app' && e.record.appId === appId && e.record.state === state)
      at = h.clock.now();
  });
  return () => at;
}

describe('the grace period, on a fake clock', () => {
  it('an app with a one-hour grace period whose last request was at T is asleep between T+60:00 and T+60:30', async () => {
    const h = harness();
    const app = h.manage('review-7');
    await h.engine.start();
    await h.clock.advance(7 * MINUTE + 13 * SECOND); // any moment, not aligned with the paces
    const T = h.clock.now();
    await h.engine.request(app.id, 'access-log', T);
    const stopAsked = firstTimeIn(h, app.id, 'WaitingForShutdown');

    await h.clock.advanceTo(T + HOUR - 1);
    expect(h.state(app.id)).toBe('Up');
    expect(stopAsked()).toBeNull();

    await h.clock.advanceTo(T + HOUR + 30 * SECOND);
    expect(stopAsked()).not.toBeNull();
    expect(stopAsked()!).toBeGreaterThanOrEqual(T + HOUR);
    expect(stopAsked()!).toBeLessThanOrEqual(T + HOUR + 30 * SECOND);
    expect(h.cloud.apps.get(app.id)!.deployments[0]!.action).toBe('UNDEPLOY');

    await h.clock.advance(30 * SECOND);
    expect(h.state(app.id)).toBe('Down');
    await h.engine.stop();
  });

  it('traffic before the end of the grace period moves the sleep to one grace period after it', async () => {
    const h = harness();
    const app = h.manage('review-8', {}, { gracePeriodMs: 10 * MINUTE });
    await h.engine.start();
    await h.clock.advance(SECOND);
    const stopAsked = firstTimeIn(h, app.id, 'WaitingForShutdown');
    await h.clock.advance(9 * MINUTE);
    const last = h.clock.now();
    await h.engine.request(app.id, 'wake-proxy');
    await h.clock.advance(15 * MINUTE);
    expect(stopAsked()).toBe(last + 10 * MINUTE);
    await h.engine.stop();
  });
});

describe('waking', () => {
  it('a wake does not wait for the job: the start is sent at once, then followed until Up', async () => {
    const h = harness();
    const app = h.manage('api-sandbox', { state: 'SHOULD_BE_DOWN' });
    await h.engine.start();
    await h.clock.advance(2 * SECOND);
    expect(h.state(app.id)).toBe('Down');
    const before = h.port.calls.get('startApplication') ?? 0;
    await h.engine.wake(app.id, 'dashboard');
    expect(h.port.calls.get('startApplication')).toBe(before + 1);
    expect(h.state(app.id)).toBe('WaitingForUp');
    const up = await h.until(() => h.state(app.id) === 'Up', 2 * MINUTE);
    // The simulated deployment takes 45 s; the fast pace sees it within 5 s.
    expect(up).not.toBeNull();
    expect(h.engine.get(app.id)!.cameUpAt).toBe(up);
    await h.engine.stop();
  });

  it('fifty requests at once start the app once', async () => {
    const h = harness();
    const app = h.manage('api-sandbox', { state: 'SHOULD_BE_DOWN' });
    await h.engine.start();
    await h.clock.advance(2 * SECOND);
    await Promise.all(Array.from({ length: 50 }, () => h.engine.request(app.id, 'wake-proxy')));
    await h.clock.advance(2 * MINUTE);
    expect(h.port.calls.get('startApplication')).toBe(1);
    expect(h.state(app.id)).toBe('Up');
    await h.engine.stop();
  });

  it('a request made while the app is evaluated resolves once a decision has read it', async () => {
    // The request's write is held in the datastore while an evaluation of the app (a Clever Cloud
    // event) reads the record without it and queues its own write behind it: the request must not
    // resolve on that evaluation's end, but on the one after, which reads the request.
    const store = new SqliteStore(':memory:');
    let held: { release: () => void; arrive: () => void } | null = null;
    const holding: EngineStore = {
      loadRecords: () => store.loadRecords(),
      async commit(change, guard) {
        const asked = [change].flat().some((c) => c.upsert?.wakeRequestedAt != null);
        if (asked && held) {
          const gate = held;
          held = null;
          gate.arrive();
          await new Promise<void>((resolve) => {
            gate.release = resolve;
          });
        }
        return store.commit(change, guard);
      },
    };
    const h = harness({ store, engineStore: holding });
    const app = h.manage('api-sandbox', { state: 'SHOULD_BE_DOWN' });
    await h.engine.start();
    await h.clock.advance(2 * SECOND);
    expect(h.state(app.id)).toBe('Down');
    const gate = { release: () => {}, arrive: () => {} };
    const reached = new Promise<void>((resolve) => {
      gate.arrive = resolve;
    });
    held = gate;
    const requested = h.engine.request(app.id, 'wake-proxy');
    await reached;
    const reads = h.port.calls.get('getApplication') ?? 0;
    h.engine.nudge(app.id);
    expect(h.port.calls.get('getApplication')).toBe(reads + 1);
    // Its read answered, it has decided on the record without the request and queued its write.
    await new Promise((resolve) => setImmediate(resolve));
    gate.release();
    const record = await requested;
    expect(record?.state).toBe('WaitingForUp');
    expect(h.state(app.id)).toBe('WaitingForUp');
    expect(h.port.calls.get('startApplication')).toBe(1);
    await h.engine.stop();
  });

  it('a request during a stop is not lost: the app is started again once it is down', async () => {
    const h = harness();
    const app = h.manage('review-9', {}, { gracePeriodMs: 5 * MINUTE });
    await h.engine.start();
    await h.until(() => h.state(app.id) === 'WaitingForShutdown', HOUR);
    await h.engine.request(app.id, 'wake-proxy');
    expect(h.state(app.id)).toBe('WaitingForShutdown');
    const up = await h.until(() => h.state(app.id) === 'Up', 5 * MINUTE);
    expect(up).not.toBeNull();
    expect(h.port.calls.get('startApplication')).toBe(1);
    await h.engine.stop();
  });

  it('a start answered with error 4014 puts the app in Error at once', async () => {
    const h = harness();
    const app = h.manage('legacy', { neverDeployed: true });
    await h.engine.start();
    await h.clock.advance(2 * SECOND);
    await h.engine.wake(app.id, 'dashboard');
    expect(h.engine.get(app.id)).toMatchObject({
      state: 'Error',
      cause: 'the app was never deployed, it cannot be started',
    });
    await h.engine.stop();
  });

  it('a vanished start is sent again after one minute and the fail timeout still counts from the first start', async () => {
    const h = harness();
    const app = h.manage('ghost', { state: 'SHOULD_BE_DOWN' });
    h.cloud.injectOutcomes(app.id, ...Array(30).fill('vanish'));
    await h.engine.start();
    await h.clock.advance(2 * SECOND);
    await h.engine.wake(app.id, 'dashboard');
    const firstStart = h.engine.get(app.id)!.firstStartAskedAt!;
    const inError = await h.until(() => h.state(app.id) === 'Error', 20 * MINUTE);
    expect(inError).toBe(firstStart + 15 * MINUTE);
    expect(h.engine.get(app.id)!.cause).toBe('the app did not start within the fail timeout');
    // One start, then one every minute: 14 restarts before the fail timeout.
    expect(h.port.calls.get('startApplication')).toBe(15);
    await h.engine.stop();
  });

  it('the start of a must-be-up range wakes a sleeping app at that minute', async () => {
    const h = harness();
    const app = h.manage(
      'docs',
      { state: 'SHOULD_BE_DOWN' },
      { ranges: [{ days: 'Mon-Fri', start: '10:07', end: '12:00', timeZone: 'UTC' }] },
    );
    await h.engine.start();
    const started = firstTimeIn(h, app.id, 'WaitingForUp');
    await h.clock.advanceTo(Date.UTC(2026, 0, 5, 11, 0));
    expect(started()).toBe(Date.UTC(2026, 0, 5, 10, 7));
    expect(h.engine.get(app.id)!.state).toBe('Up');
    await h.engine.stop();
  });
});

describe('the job', () => {
  it('reads each owner once per sweep and the deployments only of the apps that need them', async () => {
    const h = harness();
    const other = h.cloud.addOrganisation('Other');
    for (let i = 0; i < 10; i++) h.manage(`a${i}`);
    for (let i = 0; i < 10; i++) h.manage(`b${i}`, {}, { ownerId: other.id });
    for (let i = 0; i < 10; i++) h.manage(`c${i}`, {}, { ownerId: h.cloud.user.id });
    await h.engine.start();
    await h.clock.advance(10 * SECOND); // initialisation: one list per owner, deployments per app once
    const before = new Map(h.port.calls);
    await h.clock.advance(30 * SECOND); // one full sweep of 30 idle Up apps, none due
    const delta = (k: string) => (h.port.calls.get(k) ?? 0) - (before.get(k) ?? 0);
    expect(delta('listApplications')).toBe(3);
    expect(delta('listDeployments')).toBe(0);
    expect(delta('getApplication')).toBe(0);
    await h.engine.stop();
  });

  it('a slow Clever Cloud never stacks ticks or evaluates an app twice at once', async () => {
    const h = harness();
    const app = h.manage('slow');
    const inFlight = new Map<string, number>();
    const maxInFlight = new Map<string, number>();
    const slow: CleverCloudPort = new Proxy(h.port, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver);
        if (typeof value !== 'function') return value;
        return async (...args: unknown[]) => {
          const name = String(prop);
          inFlight.set(name, (inFlight.get(name) ?? 0) + 1);
          maxInFlight.set(name, Math.max(maxInFlight.get(name) ?? 0, inFlight.get(name)!));
          const signal = (args.at(-1) as { signal?: AbortSignal } | undefined)?.signal;
          await new Promise<void>((resolve, reject) => {
            const timer = h.clock.setTimeout(resolve, 70 * SECOND);
            signal?.addEventListener('abort', () => {
              h.clock.clearTimeout(timer);
              reject(new CleverCallError('aborted', 'aborted'));
            });
          });
          try {
            return await value.apply(target, args);
          } finally {
            inFlight.set(name, inFlight.get(name)! - 1);
          }
        };
      },
    });
    const slowHarness = harness({ clock: h.clock, cloud: h.cloud, config: h.config, port: slow });
    await slowHarness.engine.start();
    await h.clock.advance(10 * MINUTE);
    // Each call takes 70 s: sweeps (every 30 s) run one after the other, never two at once.
    expect(h.port.calls.get('listApplications')).toBeLessThanOrEqual(
      Math.ceil((10 * MINUTE) / (70 * SECOND)),
    );
    for (const [name, max] of maxInFlight) expect(`${name}: ${max}`).toBe(`${name}: 1`);
    expect(slowHarness.state(app.id)).toBe('Up');
    await slowHarness.engine.stop();
  });

  it('the kill switch stops all sleeps; turning it off lets them happen', async () => {
    const h = harness({ settings: { killSwitch: true } });
    const app = h.manage('paused', {}, { gracePeriodMs: 2 * MINUTE });
    await h.engine.start();
    await h.clock.advance(30 * MINUTE);
    expect(h.state(app.id)).toBe('Up');
    h.config.updateSettings({ killSwitch: false });
    await h.clock.advance(MINUTE);
    expect(h.state(app.id)).not.toBe('Up');
    await h.engine.stop();
  });

  it('dry-run records the sleep it would have done, once, and stops nothing', async () => {
    const h = harness({ settings: { dryRun: true } });
    const app = h.manage('observed', {}, { gracePeriodMs: 2 * MINUTE });
    await h.engine.start();
    await h.clock.advance(30 * MINUTE);
    expect(h.state(app.id)).toBe('Up');
    expect(h.port.calls.get('stopApplication') ?? 0).toBe(0);
    const wouldSleep = (await h.store.historyOf(app.id)).filter((e) => e.kind === 'would-sleep');
    expect(wouldSleep).toHaveLength(1);
    expect(wouldSleep[0]!.reason).toMatch(/^dry-run: would stop the app; no traffic for 2 min/);
    await h.engine.stop();
  });
});

describe('reset and release', () => {
  it('Reset takes an app in Error back to Initializing, then to its real state', async () => {
    const h = harness();
    const app = h.manage('billing', { state: 'SHOULD_BE_DOWN' });
    h.cloud.injectOutcomes(app.id, 'fail');
    await h.engine.start();
    await h.clock.advance(2 * SECOND);
    await h.engine.wake(app.id, 'dashboard');
    await h.until(() => h.state(app.id) === 'Error', 5 * MINUTE);
    expect(h.engine.get(app.id)!.cause).toBe('the app failed to start on clever cloud');
    const states: ReaperState[] = [];
    h.engine.on((e) => e.type === 'app' && e.record.appId === app.id && states.push(e.record.state));
    await h.engine.reset(app.id);
    expect(states).toEqual(['WaitingForInit', 'Down']);
    const history = await h.store.historyOf(app.id);
    expect(history[1]).toMatchObject({
      kind: 'reset',
      from: 'Error',
      to: 'WaitingForInit',
      actor: 'operator',
    });
    await h.engine.stop();
  });

  it('a route disabled elsewhere releases its sleeping app after five minutes: started, forgotten, history kept', async () => {
    const h = harness();
    const app = h.manage('old-review', { state: 'SHOULD_BE_DOWN' });
    await h.engine.start();
    await h.clock.advance(2 * SECOND);
    const route = h.config.routes()[0]!;
    h.config.updateRoute(route.id, { enabled: false });
    await h.clock.advance(5 * MINUTE - 5 * SECOND);
    expect(h.engine.get(app.id)).toBeDefined();
    await h.clock.advance(35 * SECOND);
    expect(h.engine.get(app.id)).toBeUndefined();
    expect(h.cloud.apps.get(app.id)!.deployments[0]!.action).toBe('DEPLOY');
    expect(await h.store.loadRecords()).toHaveLength(0);
    expect((await h.store.historyOf(app.id))[0]).toMatchObject({ kind: 'release', actor: 'reaper' });
    await h.engine.stop();
  });

  it('Disable the reaper releases at once', async () => {
    const h = harness();
    const app = h.manage('to-disable', { state: 'SHOULD_BE_DOWN' });
    await h.engine.start();
    await h.clock.advance(2 * SECOND);
    h.config.disableRoutesOf(app.id);
    await h.engine.releaseNow(app.id);
    expect(h.engine.get(app.id)).toBeUndefined();
    expect(h.port.calls.get('startApplication')).toBe(1);
    expect((await h.store.historyOf(app.id))[0]).toMatchObject({ kind: 'release', actor: 'operator' });
    await h.engine.stop();
  });
});

describe('a restart of the engine (same data directory) resumes every app where it was, with its clocks', () => {
  type Scenario = 'vanishing start' | 'normal start' | 'stop never completes';

  /** Run a scenario, optionally restarting the engine at +5 min; return when and where the app ended. */
  async function run(scenario: Scenario, restart: boolean) {
    const file = join(tempDir(), 'reaper.db');
    const h = harness({ store: new SqliteStore(file) });
    const app = h.manage(
      'subject',
      {
        state: scenario === 'stop never completes' ? 'SHOULD_BE_UP' : 'SHOULD_BE_DOWN',
        deployDurationMs: 8 * MINUTE,
      },
      { gracePeriodMs: MINUTE },
    );
    if (scenario === 'vanishing start') h.cloud.injectOutcomes(app.id, ...Array(30).fill('vanish'));
    if (scenario === 'stop never completes') h.cloud.setStopNeverCompletes(app.id);
    await h.engine.start();
    await h.clock.advance(2 * SECOND);
    if (scenario !== 'stop never completes') await h.engine.wake(app.id, 'dashboard');
    else await h.until(() => h.state(app.id) === 'WaitingForShutdown', 5 * MINUTE);
    const transit = h.state(app.id);

    let engine = h.engine;
    if (restart) {
      await h.clock.advance(5 * MINUTE);
      expect(h.state(app.id)).toBe(transit);
      await engine.stop(); // the old process is gone; its datastore is all that is left
      await h.store.close();
      const again = harness({
        clock: h.clock,
        cloud: h.cloud,
        config: h.config,
        store: new SqliteStore(file),
        port: new InProcessCleverPort(h.cloud),
      });
      engine = again.engine;
      await engine.start();
      expect(engine.get(app.id)!.state).toBe(transit);
    }
    let endedAt: number | null = null;
    for (let t = 0; t < 30 * MINUTE && endedAt === null; t += SECOND) {
      await h.clock.advance(SECOND);
      const state = engine.get(app.id)!.state;
      if (state === 'Up' || state === 'Error' || state === 'Down') endedAt = h.clock.now() - MONDAY_9AM;
    }
    const final = engine.get(app.id)!;
    await engine.stop();
    return { transit, state: final.state, cause: final.cause, endedAt };
  }

  it.each<[Scenario, ReaperState]>([
    ['vanishing start', 'WaitingForUp'],
    ['normal start', 'WaitingForUp'],
    ['stop never completes', 'WaitingForShutdown'],
  ])(
    'during %s (%s): same final state at the same time as without the restart',
    async (scenario, transit) => {
      const plain = await run(scenario, false);
      const restarted = await run(scenario, true);
      expect(plain.transit).toBe(transit);
      expect(restarted).toEqual(plain);
      expect(plain.endedAt).not.toBeNull();
    },
  );
});
