/**
 * The lifecycle spec, table by table and row by row, against the pure decision function: no timers,
 * no I/O. Each test is named after the line of the spec it checks.
 */
import { describe, expect, it } from 'vitest';
import { type AppRecord, CAUSES, newRecord, type ReaperState } from '../../shared/domain.ts';
import { HOUR, MINUTE, SECOND } from '../../shared/durations.ts';
import type { AppRouting } from '../../shared/routes.ts';
import { type MustBeUpRange, Schedule } from '../../shared/schedule.ts';
import { DEFAULT_SETTINGS, type Settings } from '../../shared/settings.ts';
import { managedRouting, TEST_OWNER } from '../testing/fixtures.ts';
import { type Decision, type DecisionContext, decide, nextDueAt, type Observation } from './decide.ts';
import { sleepBlocker, TRAFFIC_UNREAD } from './decide-sleep.ts';
import type { CleverApp, CleverDeployment } from './ports.ts';

const T0 = Date.UTC(2026, 0, 5, 9, 0, 0); // a Monday
const APP = 'app_00000000-0000-4000-8000-000000000001';

function record(state: ReaperState, overrides: Partial<AppRecord> = {}): AppRecord {
  return {
    ...newRecord(APP, TEST_OWNER, 'staging', T0 - 2 * HOUR),
    state,
    lastDeployNumber: 3,
    ...overrides,
  };
}

function app(state: string, overrides: Partial<CleverApp> = {}): CleverApp {
  return { id: APP, ownerId: TEST_OWNER, name: 'staging', state, lastDeployNumber: 3, ...overrides };
}

function deployment(state: string, overrides: Partial<CleverDeployment> = {}): CleverDeployment {
  return { uuid: `dep-${state}`, state, action: 'DEPLOY', date: T0 - HOUR, cause: null, ...overrides };
}

function ctx(
  options: {
    now?: number;
    settings?: Partial<Settings>;
    routing?: AppRouting | null;
    ranges?: MustBeUpRange[];
  } = {},
): DecisionContext {
  const r =
    options.routing === null
      ? undefined
      : (options.routing ?? managedRouting({ ranges: options.ranges ?? [] }));
  return {
    now: options.now ?? T0,
    settings: { ...DEFAULT_SETTINGS, ...options.settings },
    routing: r,
    schedule: new Schedule(r?.ranges ?? []),
  };
}

/** Decide, reading deployments when the decision asks for them, like the job does. */
function run(rec: AppRecord, obs: Observation, c: DecisionContext = ctx()): Decision {
  const first = decide(rec, { app: obs.app }, c);
  if (first.type !== 'need-deployments') return first;
  if (!obs.deployments) throw new Error('the decision needs deployments the test did not give');
  return decide(rec, obs, c);
}

function to(d: Decision): ReaperState | 'stay' | 'release' {
  if (d.type === 'release') return 'release';
  if (d.type !== 'act') throw new Error(`unexpected ${d.type}`);
  return d.transition?.to ?? 'stay';
}

function callOf(d: Decision): string | undefined {
  return d.type === 'act' ? d.call : undefined;
}

function patchOf(d: Decision): Partial<AppRecord> {
  if (d.type !== 'act') throw new Error(`unexpected ${d.type}`);
  return d.patch;
}

/** An Up app idle for longer than its grace period (came up 2 h ago, one-hour grace). */
const idleUp = () => record('Up', { cameUpAt: T0 - 2 * HOUR, lastRequestAt: T0 - 90 * MINUTE });

describe('the states: WaitingForInit is read from Clever Cloud at the next run', () => {
  it('an app Clever Cloud says SHOULD_BE_UP becomes Up, its grace period counted from now', () => {
    const d = run(record('WaitingForInit'), { app: app('SHOULD_BE_UP'), deployments: [deployment('OK')] });
    expect(to(d)).toBe('Up');
    expect(patchOf(d).cameUpAt).toBe(T0);
  });

  it('an app Clever Cloud says SHOULD_BE_UP with a deployment under way becomes WaitingForUp', () => {
    const d = run(record('WaitingForInit'), { app: app('SHOULD_BE_UP'), deployments: [deployment('WIP')] });
    expect(to(d)).toBe('WaitingForUp');
    expect(patchOf(d).deploymentId).toBe('dep-WIP');
  });

  it('an app Clever Cloud says SHOULD_BE_DOWN becomes Down', () => {
    // Its deployments are read too: the newest is known, so the next start is told from it (issue 24).
    const d = run(record('WaitingForInit'), { app: app('SHOULD_BE_DOWN'), deployments: [deployment('OK')] });
    expect(to(d)).toBe('Down');
    expect(patchOf(d).knownDeploymentId).toBe('dep-OK');
    const empty = run(record('WaitingForInit'), { app: app('SHOULD_BE_DOWN'), deployments: [] });
    expect(patchOf(empty).knownDeploymentId).toBe('');
  });

  it('an app Clever Cloud says WANTS_TO_BE_UP becomes WaitingForUp', () => {
    // Its deployment not listed yet (the newest listed is an older one), or listed and under way.
    const init = record('WaitingForInit');
    expect(to(run(init, { app: app('WANTS_TO_BE_UP'), deployments: [deployment('OK')] }))).toBe(
      'WaitingForUp',
    );
    const wip = run(init, { app: app('WANTS_TO_BE_UP'), deployments: [deployment('WIP')] });
    expect(to(wip)).toBe('WaitingForUp');
    expect(patchOf(wip).deploymentId).toBe('dep-WIP');
  });

  it.each(['FAIL', 'CANCELLED'])(
    'an app left WANTS_TO_BE_UP by a start that ended %s is asleep, not starting',
    (last) => {
      const d = run(record('WaitingForInit'), {
        app: app('WANTS_TO_BE_UP'),
        deployments: [deployment(last)],
      });
      expect(to(d)).toBe('Down');
    },
  );

  it('an app Clever Cloud does not know stays Initializing with a notice, not an Error', () => {
    const d = run(record('WaitingForInit'), { app: null });
    expect(to(d)).toBe('stay');
    expect(patchOf(d).notice).toMatch(/does not know this app/);
  });
});

describe('Going to sleep: an Up app is put to sleep when all of these hold', () => {
  const obs = { app: app('SHOULD_BE_UP'), deployments: [deployment('OK')] };

  it('all four conditions hold: the reaper reads the last deployment, then stops the app', () => {
    const first = decide(idleUp(), { app: obs.app }, ctx());
    expect(first.type).toBe('need-deployments');
    const d = run(idleUp(), obs);
    expect(to(d)).toBe('WaitingForShutdown');
    expect(callOf(d)).toBe('stop');
    expect(patchOf(d)).toMatchObject({ stopAskedAt: T0, pendingCall: 'stop' });
  });

  it('Clever Cloud does not say SHOULD_BE_UP (WANTS_TO_BE_UP): no sleep', () => {
    expect(to(run(idleUp(), { app: app('WANTS_TO_BE_UP'), deployments: [deployment('WIP')] }))).not.toBe(
      'WaitingForShutdown',
    );
  });

  it('inside a must-be-up range: no sleep', () => {
    const ranges = [{ days: 'Mon-Fri', start: '08:00', end: '19:00', timeZone: 'UTC' }];
    expect(to(run(idleUp(), obs, ctx({ ranges })))).toBe('stay');
  });

  it('traffic within the grace period (counted from the last request): no sleep', () => {
    const rec = record('Up', { cameUpAt: T0 - 3 * HOUR, lastRequestAt: T0 - 59 * MINUTE });
    expect(to(run(rec, obs))).toBe('stay');
  });

  it('idle past its grace period, but the traffic logged while the reaper was away is still being read: no sleep yet', () => {
    const rec = record('Up', { cameUpAt: T0 - 3 * HOUR, lastRequestAt: T0 - 2 * HOUR });
    expect(sleepBlocker(rec, { ...ctx(), trafficUnread: true })).toBe(TRAFFIC_UNREAD);
    expect(to(run(rec, obs, { ...ctx(), trafficUnread: true }))).toBe('stay');
    // Read: asleep as before.
    expect(sleepBlocker(rec, { ...ctx(), trafficUnread: false })).toBeNull();
    expect(to(run(rec, obs, { ...ctx(), trafficUnread: false }))).toBe('WaitingForShutdown');
  });

  it('the grace period ends exactly: asleep at grace, not a millisecond before', () => {
    const rec = record('Up', { cameUpAt: T0 - 3 * HOUR, lastRequestAt: T0 - HOUR });
    expect(to(run(rec, obs))).toBe('WaitingForShutdown');
    expect(to(run(rec, obs, ctx({ now: T0 - 1 })))).toBe('stay');
  });

  it('came up within the grace period (counted from when it came up, the later of the two): no sleep', () => {
    const rec = record('Up', { cameUpAt: T0 - 30 * MINUTE, lastRequestAt: T0 - 3 * HOUR });
    expect(to(run(rec, obs))).toBe('stay');
  });

  it('the kill switch is on: no sleep', () => {
    expect(to(run(idleUp(), obs, ctx({ settings: { killSwitch: true } })))).toBe('stay');
  });

  it('dry-run: nothing is stopped, the sleep it would have done is recorded once with its reason', () => {
    const d = run(idleUp(), obs, ctx({ settings: { dryRun: true } }));
    expect(to(d)).toBe('stay');
    expect(callOf(d)).toBeUndefined();
    expect(d.type === 'act' && d.notes?.[0]).toMatchObject({ kind: 'would-sleep', actor: 'reaper' });
    expect(d.type === 'act' && d.notes?.[0]?.reason).toMatch(/would stop the app; no traffic for 1 h 30 min/);
    const noted = { ...idleUp(), ...patchOf(d) };
    const again = run(noted, obs, ctx({ now: T0 + MINUTE, settings: { dryRun: true } }));
    expect(again.type === 'act' && again.notes).toBeUndefined();
  });

  it('kept awake until a later time: no sleep before it', () => {
    const rec = { ...idleUp(), keepAwakeUntil: T0 + HOUR };
    expect(to(run(rec, obs))).toBe('stay');
    expect(to(run(rec, obs, ctx({ now: T0 + HOUR })))).toBe('WaitingForShutdown');
  });

  describe('the last deployment table', () => {
    it.each([
      ['OK', [deployment('OK')]],
      ['none', []],
    ])('last deployment %s: the instances are stopped (WaitingForShutdown)', (_, deployments) => {
      const d = run(idleUp(), { app: app('SHOULD_BE_UP'), deployments });
      expect(to(d)).toBe('WaitingForShutdown');
      expect(callOf(d)).toBe('stop');
    });

    it.each(['WIP', 'TASK_RUNNING'])(
      'last deployment %s: someone is deploying, the reaper waits and checks again at the next run',
      (state) => {
        const d = run(idleUp(), { app: app('SHOULD_BE_UP'), deployments: [deployment(state)] });
        expect(to(d)).toBe('stay');
        expect(callOf(d)).toBeUndefined();
        expect(patchOf(d).notice).toMatch(/someone is deploying/);
      },
    );

    it.each(['FAIL', 'CANCELLED'])(
      'last deployment %s: Error, the last deployment did not succeed, a stopped app might not start again',
      (state) => {
        const d = run(idleUp(), { app: app('SHOULD_BE_UP'), deployments: [deployment(state)] });
        expect(to(d)).toBe('Error');
        expect(patchOf(d).cause).toBe(
          `the last deployment of the app is '${state}', it cannot be put to sleep safely`,
        );
      },
    );

    it('a stop (UNDEPLOY entry) is not a deployment: the deployment before it is the last one', () => {
      const deployments = [deployment('OK', { action: 'UNDEPLOY', uuid: 'stop' }), deployment('FAIL')];
      expect(to(run(idleUp(), { app: app('SHOULD_BE_UP'), deployments }))).toBe('Error');
    });
  });
});

describe('WaitingForShutdown becomes Down when Clever Cloud says SHOULD_BE_DOWN, or Error after the fail timeout', () => {
  const stopping = (askedAgo: number) =>
    record('WaitingForShutdown', { stopAskedAt: T0 - askedAgo, stateSince: T0 - askedAgo });

  it('Clever Cloud says SHOULD_BE_DOWN: Down', () => {
    expect(to(run(stopping(10 * SECOND), { app: app('SHOULD_BE_DOWN') }))).toBe('Down');
  });

  it('still SHOULD_BE_UP within the fail timeout: wait', () => {
    expect(to(run(stopping(14 * MINUTE), { app: app('SHOULD_BE_UP') }))).toBe('stay');
  });

  it('still up after the fail timeout: Error, the app did not stop within the fail timeout', () => {
    const d = run(stopping(15 * MINUTE), { app: app('SHOULD_BE_UP') });
    expect(to(d)).toBe('Error');
    expect(patchOf(d).cause).toBe('the app did not stop within the fail timeout');
  });

  it('a stop whose answer was lost is checked against the deployments, and sent again after a minute without one', () => {
    const rec = { ...stopping(10 * SECOND), pendingCall: 'stop' as const };
    const carriedOut = run(rec, {
      app: app('SHOULD_BE_UP'),
      deployments: [deployment('WIP', { action: 'UNDEPLOY', date: T0 - 9 * SECOND })],
    });
    expect(callOf(carriedOut)).toBeUndefined();
    expect(patchOf(carriedOut).pendingCall).toBeNull();
    const notYetListed = run(rec, { app: app('SHOULD_BE_UP'), deployments: [deployment('OK')] });
    expect(callOf(notYetListed)).toBeUndefined();
    const lost = { ...rec, stopAskedAt: T0 - MINUTE };
    expect(callOf(run(lost, { app: app('SHOULD_BE_UP'), deployments: [deployment('OK')] }))).toBe('stop');
    const paused = ctx({ settings: { killSwitch: true } });
    expect(
      callOf(run(lost, { app: app('SHOULD_BE_UP'), deployments: [deployment('OK')] }, paused)),
    ).toBeUndefined();
  });
});

describe('Waking up: a Down app is started when a request asks for it, or when a must-be-up range begins', () => {
  it('a request asks for a Down app: it is started (WaitingForUp), the clock of its first start set', () => {
    const rec = record('Down', { wakeRequestedAt: T0, lastRequestSource: 'wake-proxy' });
    const d = run(rec, { app: app('SHOULD_BE_DOWN') });
    expect(to(d)).toBe('WaitingForUp');
    expect(callOf(d)).toBe('start');
    expect(d.type === 'act' && d.transition?.actor).toBe('request');
    expect(patchOf(d)).toMatchObject({ firstStartAskedAt: T0, lastStartAskedAt: T0, pendingCall: 'start' });
  });

  it('a must-be-up range begins while the app sleeps: it is started by the schedule', () => {
    const ranges = [{ days: 'Mon-Fri', start: '09:00', end: '18:00', timeZone: 'UTC' }];
    const rec = record('Down', { stateSince: T0 - 10 * HOUR });
    const d = run(rec, { app: app('SHOULD_BE_DOWN') }, ctx({ ranges, now: T0 + 10 * SECOND }));
    expect(to(d)).toBe('WaitingForUp');
    expect(d.type === 'act' && d.transition?.actor).toBe('schedule');
  });

  it('an app stopped inside a range (after it began) is not started again until the next range begins', () => {
    const ranges = [{ days: 'Mon-Fri', start: '08:00', end: '18:00', timeZone: 'UTC' }];
    const rec = record('Down', { stateSince: T0 - 10 * MINUTE });
    expect(to(run(rec, { app: app('SHOULD_BE_DOWN') }, ctx({ ranges })))).toBe('stay');
  });

  describe('the table followed after a start', () => {
    const waking = (overrides: Partial<AppRecord> = {}) =>
      record('WaitingForUp', {
        firstStartAskedAt: T0 - 2 * MINUTE,
        lastStartAskedAt: T0 - 2 * MINUTE,
        stateSince: T0 - 2 * MINUTE,
        deploymentId: 'ours',
        ...overrides,
      });
    const ours = (state: string) => deployment(state, { uuid: 'ours', date: T0 - 2 * MINUTE });

    it.each(['WIP', 'TASK_RUNNING'])('SHOULD_BE_UP, deployment %s: wait', (state) => {
      expect(to(run(waking(), { app: app('SHOULD_BE_UP'), deployments: [ours(state)] }))).toBe('stay');
    });

    it('SHOULD_BE_UP, deployment OK: Up', () => {
      const d = run(waking(), { app: app('SHOULD_BE_UP'), deployments: [ours('OK')] });
      expect(to(d)).toBe('Up');
      expect(patchOf(d)).toMatchObject({ cameUpAt: T0, firstStartAskedAt: null, deploymentId: null });
    });

    it('SHOULD_BE_UP, no deployment, when someone else started it: Up', () => {
      const rec = waking({ firstStartAskedAt: null, lastStartAskedAt: null, deploymentId: null });
      expect(to(run(rec, { app: app('SHOULD_BE_UP'), deployments: [] }))).toBe('Up');
    });

    it.each(['SHOULD_BE_UP', 'WANTS_TO_BE_UP', 'SHOULD_BE_DOWN'])(
      '%s, deployment FAIL: Error, the app failed to start on clever cloud',
      (cc) => {
        const d = run(waking(), { app: app(cc), deployments: [ours('FAIL')] });
        expect(to(d)).toBe('Error');
        expect(patchOf(d).cause).toBe('the app failed to start on clever cloud');
      },
    );

    it.each(['WANTS_TO_BE_UP', 'SHOULD_BE_DOWN'])(
      '%s, deployment CANCELLED: Down, the next request asks again',
      (cc) => {
        expect(to(run(waking(), { app: app(cc), deployments: [ours('CANCELLED')] }))).toBe('Down');
      },
    );

    it('SHOULD_BE_DOWN, no deployment after one minute: started again, with the clock of the first start', () => {
      const rec = waking({ firstStartAskedAt: T0 - 5 * MINUTE, lastStartAskedAt: T0 - MINUTE });
      const d = run(rec, {
        app: app('SHOULD_BE_DOWN'),
        deployments: [deployment('OK', { date: T0 - 2 * HOUR })],
      });
      expect(callOf(d)).toBe('restart');
      expect(to(d)).toBe('stay');
      expect(patchOf(d).lastStartAskedAt).toBe(T0);
      expect(patchOf(d).firstStartAskedAt).toBeUndefined();
    });

    it('SHOULD_BE_DOWN, no deployment within the first minute: wait', () => {
      const rec = waking({ lastStartAskedAt: T0 - 59 * SECOND });
      expect(callOf(run(rec, { app: app('SHOULD_BE_DOWN'), deployments: [] }))).toBeUndefined();
    });

    it('not up within the fail timeout of its first start: Error, the app did not start within the fail timeout', () => {
      const rec = waking({ firstStartAskedAt: T0 - 15 * MINUTE, lastStartAskedAt: T0 - 30 * SECOND });
      const d = run(rec, { app: app('SHOULD_BE_UP'), deployments: [ours('WIP')] });
      expect(to(d)).toBe('Error');
      expect(patchOf(d).cause).toBe('the app did not start within the fail timeout');
    });

    it('starts that keep vanishing still end in Error: the restart keeps the clock of the first start', () => {
      const rec = waking({
        firstStartAskedAt: T0 - 15 * MINUTE,
        lastStartAskedAt: T0 - MINUTE,
        deploymentId: 'gone',
      });
      const d = run(rec, { app: app('SHOULD_BE_DOWN'), deployments: [] });
      expect(to(d)).toBe('Error');
      expect(patchOf(d).cause).toBe('the app did not start within the fail timeout');
    });

    it('a start whose answer was lost is adopted from the deployments, or sent again after a minute without one', () => {
      const rec = waking({ pendingCall: 'start', deploymentId: null, lastStartAskedAt: T0 - 10 * SECOND });
      const found = run(rec, {
        app: app('WANTS_TO_BE_UP'),
        deployments: [deployment('WIP', { uuid: 'theirs', date: T0 - 9 * SECOND })],
      });
      expect(callOf(found)).toBeUndefined();
      expect(patchOf(found)).toMatchObject({ pendingCall: null, deploymentId: 'theirs' });
      const old = [deployment('OK', { date: T0 - 3 * HOUR })];
      expect(callOf(run(rec, { app: app('SHOULD_BE_DOWN'), deployments: old }))).toBeUndefined();
      const lost = { ...rec, lastStartAskedAt: T0 - MINUTE };
      expect(callOf(run(lost, { app: app('SHOULD_BE_DOWN'), deployments: old }))).toBe('restart');
    });
  });
});

describe('Changes made outside the reaper', () => {
  it('an Up app stopped from the console becomes Down', () => {
    const d = run(record('Up', { cameUpAt: T0 - MINUTE }), { app: app('SHOULD_BE_DOWN') });
    expect(to(d)).toBe('Down');
    expect(d.type === 'act' && d.transition?.actor).toBe('outside');
  });

  it('a Down app started outside the reaper becomes WaitingForUp while it boots', () => {
    // Its deployment not listed yet: the newest listed is an older one.
    const older = [deployment('FAIL')];
    expect(to(run(record('Down'), { app: app('WANTS_TO_BE_UP'), deployments: older }))).toBe('WaitingForUp');
    const booting = run(record('Down'), { app: app('SHOULD_BE_UP'), deployments: [deployment('WIP')] });
    expect(to(booting)).toBe('WaitingForUp');
  });

  it('a Down app started outside the reaper becomes Up', () => {
    const d = run(record('Down'), { app: app('SHOULD_BE_UP'), deployments: [deployment('OK')] });
    expect(to(d)).toBe('Up');
    expect(d.type === 'act' && d.transition?.actor).toBe('outside');
  });

  it('an Up app redeployed (a git push) goes through WaitingForUp and back to Up', () => {
    const up = record('Up', { cameUpAt: T0 - MINUTE, lastDeployNumber: 3 });
    const d = run(up, {
      app: app('SHOULD_BE_UP', { lastDeployNumber: 4 }),
      deployments: [deployment('WIP', { uuid: 'push' })],
    });
    expect(to(d)).toBe('WaitingForUp');
    const waking = { ...up, ...patchOf(d), state: 'WaitingForUp' as const, stateSince: T0 };
    const done = run(waking, {
      app: app('SHOULD_BE_UP', { lastDeployNumber: 4 }),
      deployments: [deployment('OK', { uuid: 'push' })],
    });
    expect(to(done)).toBe('Up');
  });
});

describe('a redeploy seen by its deployment number before its deployment is listed', () => {
  const up = () =>
    record('Up', { cameUpAt: T0 - 2 * HOUR, lastRequestAt: T0 - 3 * HOUR, lastDeployNumber: 3 });
  const old = [deployment('OK', { date: T0 - 3 * HOUR })];

  it('the reaper waits for the deployment to show: no sleep meanwhile', () => {
    const d = run(up(), { app: app('SHOULD_BE_UP', { lastDeployNumber: 4 }), deployments: old });
    expect(to(d)).toBe('stay');
    expect(callOf(d)).toBeUndefined();
    expect(patchOf(d)).toMatchObject({ redeploySeenAt: T0 });
    expect(patchOf(d).lastDeployNumber).toBeUndefined();
  });

  it('once it shows finished, a fresh grace period starts', () => {
    const listed = [deployment('OK', { uuid: 'new', date: T0 - MINUTE }), ...old];
    const d = run(up(), { app: app('SHOULD_BE_UP', { lastDeployNumber: 4 }), deployments: listed });
    expect(patchOf(d)).toMatchObject({ lastDeployNumber: 4, cameUpAt: T0, redeploySeenAt: null });
  });

  it('a number that never comes with a listed deployment is accepted after a minute', () => {
    const seen = { ...up(), redeploySeenAt: T0 - MINUTE };
    const d = run(seen, { app: app('SHOULD_BE_UP', { lastDeployNumber: 4 }), deployments: old });
    expect(patchOf(d)).toMatchObject({ lastDeployNumber: 4, redeploySeenAt: null });
  });
});

describe('Errors: an app in Error is left alone until someone resets it', () => {
  const inError = () => record('Error', { cause: CAUSES.startFailed });

  it.each(['SHOULD_BE_UP', 'SHOULD_BE_DOWN', 'WANTS_TO_BE_UP', 'MODERATED'])(
    'whatever Clever Cloud says (%s), no call and no transition',
    (cc) => {
      const d = run({ ...inError(), wakeRequestedAt: T0, lastRequestAt: T0 - 5 * HOUR }, { app: app(cc) });
      expect(to(d)).toBe('stay');
      expect(callOf(d)).toBeUndefined();
    },
  );

  describe('the six causes, word for word', () => {
    it('the stop never completed', () => {
      expect(CAUSES.stopTimeout).toBe('the app did not stop within the fail timeout');
    });
    it('the start never completed', () => {
      expect(CAUSES.startTimeout).toBe('the app did not start within the fail timeout');
    });
    it('its deployment failed', () => {
      expect(CAUSES.startFailed).toBe('the app failed to start on clever cloud');
    });
    it("a failed or cancelled last deployment, with its state in place of '...'", () => {
      expect(CAUSES.unsafeLastDeployment('CANCELLED')).toBe(
        "the last deployment of the app is 'CANCELLED', it cannot be put to sleep safely",
      );
    });
    it('Clever Cloud error 4014', () => {
      expect(CAUSES.neverDeployed).toBe('the app was never deployed, it cannot be started');
    });
    it.each(['MODERATED', 'DEFAULT_OF_PAYMENT', 'SOMETHING_NEW'])(
      "the app is %s: unexpected clever cloud state '%s'",
      (cc) => {
        for (const state of ['WaitingForInit', 'Up', 'Down', 'WaitingForUp', 'WaitingForShutdown'] as const) {
          const d = run(record(state), { app: app(cc), deployments: [] });
          expect(to(d)).toBe('Error');
          expect(patchOf(d).cause).toBe(`unexpected clever cloud state '${cc}'`);
        }
      },
    );
  });
});

describe('Releasing an app no route manages any more', () => {
  it('the job notices the change and waits five minutes before releasing', () => {
    const rec = record('Up', { cameUpAt: T0 });
    const noticed = run(rec, { app: app('SHOULD_BE_UP') }, ctx({ routing: null }));
    expect(patchOf(noticed).releaseNoticedAt).toBe(T0);
    const early = { ...rec, releaseNoticedAt: T0 };
    expect(
      to(run(early, { app: app('SHOULD_BE_UP') }, ctx({ routing: null, now: T0 + 5 * MINUTE - 1 }))),
    ).toBe('stay');
    const d = run(early, { app: app('SHOULD_BE_UP') }, ctx({ routing: null, now: T0 + 5 * MINUTE }));
    expect(d).toEqual({ type: 'release', start: false, reason: 'released: forgotten' });
  });

  it('a sleeping app is started before its state is forgotten', () => {
    const rec = record('Down', { releaseNoticedAt: T0 - 5 * MINUTE });
    const d = run(rec, { app: app('SHOULD_BE_DOWN') }, ctx({ routing: null }));
    expect(d).toMatchObject({ type: 'release', start: true });
  });

  it('a route enabled again within the delay cancels the release', () => {
    const rec = record('Up', { cameUpAt: T0, releaseNoticedAt: T0 - MINUTE });
    expect(patchOf(run(rec, { app: app('SHOULD_BE_UP') })).releaseNoticedAt).toBeNull();
  });

  it('an app in Error is released too (it is forgotten, never started)', () => {
    const rec = record('Error', { cause: CAUSES.startFailed, releaseNoticedAt: T0 - 5 * MINUTE });
    expect(run(rec, { app: app('SHOULD_BE_DOWN') }, ctx({ routing: null }))).toMatchObject({
      type: 'release',
      start: false,
    });
  });
});

describe('when the job looks again (the per-app timer)', () => {
  it('an Up app is due at the end of its grace period, counted from the later of last request and came up', () => {
    const rec = record('Up', { cameUpAt: T0 - 2 * HOUR, lastRequestAt: T0 - 10 * MINUTE });
    expect(nextDueAt(rec, ctx())).toBe(T0 + 50 * MINUTE);
  });

  it('inside a must-be-up range, the grace period ends no earlier than the range', () => {
    const ranges = [{ days: 'Mon', start: '08:00', end: '19:00', timeZone: 'UTC' }];
    const rec = record('Up', { cameUpAt: T0 - 2 * HOUR, lastRequestAt: T0 - 10 * MINUTE });
    expect(nextDueAt(rec, ctx({ ranges }))).toBe(Date.UTC(2026, 0, 5, 19, 0));
  });

  it('a Down app is due at the start of its next must-be-up range', () => {
    const ranges = [{ days: 'Tue', start: '07:30', end: '09:00', timeZone: 'UTC' }];
    expect(nextDueAt(record('Down'), ctx({ ranges }))).toBe(Date.UTC(2026, 0, 6, 7, 30));
  });

  it('a waking app is due when its vanished start must be sent again, then at its fail timeout', () => {
    const rec = record('WaitingForUp', { firstStartAskedAt: T0, lastStartAskedAt: T0 });
    expect(nextDueAt(rec, ctx())).toBe(T0 + MINUTE);
    expect(nextDueAt({ ...rec, lastStartAskedAt: null }, ctx())).toBe(T0 + 15 * MINUTE);
  });

  it('the kill switch leaves no sleep to time', () => {
    expect(nextDueAt(idleUp(), ctx({ settings: { killSwitch: true } }))).toBeNull();
  });
});

describe('deployments as Clever Cloud shows them (issue 13)', () => {
  const outsideWake = (overrides: Partial<AppRecord> = {}) =>
    record('WaitingForUp', { stateSince: T0 - 10 * SECOND, cleverState: 'WANTS_TO_BE_UP', ...overrides });
  const oldFail = deployment('FAIL', { uuid: 'old', date: T0 - HOUR });

  it('a start made outside follows a deployment newer than the moment it was seen, not an older FAIL', () => {
    const d = run(outsideWake(), { app: app('WANTS_TO_BE_UP'), deployments: [oldFail] });
    expect(to(d)).toBe('stay');
    const listed = deployment('WIP', { uuid: 'new', date: T0 - 20 * SECOND });
    const next = run(outsideWake(), { app: app('WANTS_TO_BE_UP'), deployments: [listed, oldFail] });
    expect(to(next)).toBe('stay');
    expect(patchOf(next).deploymentId).toBe('new');
  });

  it.each(['FAIL', 'CANCELLED'])(
    'Down, and still WANTS_TO_BE_UP after a start that ended %s: no outside start, no transition',
    (last) => {
      const asleep = record('Down', { cleverState: 'WANTS_TO_BE_UP' });
      const d = run(asleep, { app: app('WANTS_TO_BE_UP'), deployments: [deployment(last)] });
      expect(to(d)).toBe('stay');
    },
  );

  it('Down and WANTS_TO_BE_UP with a new deployment under way: started outside, that one followed', () => {
    const asleep = record('Down', { cleverState: 'WANTS_TO_BE_UP' });
    const wip = deployment('WIP', { uuid: 'console', date: T0 });
    const d = run(asleep, { app: app('WANTS_TO_BE_UP'), deployments: [wip, deployment('CANCELLED')] });
    expect(to(d)).toBe('WaitingForUp');
    expect(patchOf(d).deploymentId).toBe('console');
  });

  it('an unanswered start is not sent again while Clever Cloud says WANTS_TO_BE_UP (queued, unlisted)', () => {
    const waking = record('WaitingForUp', {
      firstStartAskedAt: T0 - 2 * MINUTE,
      lastStartAskedAt: T0 - 2 * MINUTE,
      stateSince: T0 - 2 * MINUTE,
      pendingCall: 'start',
    });
    const queued = run(waking, { app: app('WANTS_TO_BE_UP'), deployments: [deployment('OK')] });
    expect(callOf(queued)).toBeUndefined();
    const vanished = run(waking, { app: app('SHOULD_BE_DOWN'), deployments: [deployment('OK')] });
    expect(callOf(vanished)).toBe('restart');
  });

  it('a start is not sent again while another deployment is under way ahead of it', () => {
    const waking = record('WaitingForUp', {
      firstStartAskedAt: T0 - 2 * MINUTE,
      lastStartAskedAt: T0 - 2 * MINUTE,
      stateSince: T0 - 2 * MINUTE,
    });
    const ahead = deployment('WIP', { uuid: 'ahead', date: T0 - 10 * MINUTE });
    expect(callOf(run(waking, { app: app('SHOULD_BE_DOWN'), deployments: [ahead] }))).toBeUndefined();
  });

  it.each(['UPSCALE', 'DOWNSCALE', 'REPLACE', 'CANCEL', 'NONE'])(
    'a failed %s entry is no deployment: the sleep reads the newest DEPLOY',
    (action) => {
      const idle = record('Up', { cameUpAt: T0 - 2 * HOUR, stateSince: T0 - 2 * HOUR });
      const entries = [deployment('FAIL', { uuid: 'scale', action, date: T0 - MINUTE }), deployment('OK')];
      const d = run(idle, { app: app('SHOULD_BE_UP'), deployments: entries });
      expect(to(d)).toBe('WaitingForShutdown');
    },
  );

  it('an entry without an action counts as a deployment', () => {
    const idle = record('Up', { cameUpAt: T0 - 2 * HOUR, stateSince: T0 - 2 * HOUR });
    const d = run(idle, { app: app('SHOULD_BE_UP'), deployments: [deployment('FAIL', { action: null })] });
    expect(to(d)).toBe('Error');
  });

  it.each(['WaitingForInit', 'Up', 'Down'] as const)(
    'a task app is left alone (%s), with the reason',
    (state) => {
      const idle = record(state, { cameUpAt: T0 - 2 * HOUR, stateSince: T0 - 2 * HOUR, wakeRequestedAt: T0 });
      const d = run(idle, { app: app('SHOULD_BE_DOWN', { lifetime: 'TASK' }), deployments: [] });
      expect(to(d)).toBe('stay');
      expect(callOf(d)).toBeUndefined();
      expect(patchOf(d).notice).toBe(
        'a task app (instance lifetime TASK) runs and stops by itself: the reaper leaves it alone',
      );
    },
  );
});

describe('a start is followed by its own deployment, by identity (issue 24)', () => {
  // The newest entry known when the wake began: the start's own deployment is listed above it.
  const cancelled = deployment('CANCELLED', { uuid: 'old', date: T0 - 5 * SECOND });
  const waking = (overrides: Partial<AppRecord> = {}) =>
    record('WaitingForUp', { stateSince: T0 - 5 * SECOND, knownDeploymentId: 'old', ...overrides });
  const reaperWake = (overrides: Partial<AppRecord> = {}) =>
    waking({ firstStartAskedAt: T0 - 5 * SECOND, lastStartAskedAt: T0 - 5 * SECOND, ...overrides });

  it.each([
    ['an outside start', waking()],
    ['a start of the reaper answered without its id', reaperWake()],
    ['a restart of the reaper, its answer lost', reaperWake({ pendingCall: 'start' })],
  ])('%s does not follow a CANCELLED entry of seconds ago, listed before its own', (_, rec) => {
    const d = run(rec, { app: app('WANTS_TO_BE_UP'), deployments: [cancelled] });
    expect(to(d)).toBe('stay');
    expect(callOf(d)).toBeUndefined();
    expect(patchOf(d).deploymentId).toBeUndefined();
  });

  it.each([
    ['dates equal', T0 - 5 * SECOND],
    ['its own dated before the old one (dates out of order)', T0 - 10 * MINUTE],
  ])('its own deployment is the one listed above the known entry, %s', (_, date) => {
    const ours = deployment('OK', { uuid: 'new', date });
    const d = run(waking(), { app: app('SHOULD_BE_UP'), deployments: [ours, cancelled] });
    expect(to(d)).toBe('Up');
    // Leaving the wait, the newest entry is known for the next start.
    expect(patchOf(d).knownDeploymentId).toBe('new');
    const failed = run(waking(), {
      app: app('WANTS_TO_BE_UP'),
      deployments: [{ ...ours, state: 'FAIL' }, cancelled],
    });
    expect(patchOf(failed).cause).toBe(CAUSES.startFailed);
  });

  it('an entry listed above the known one that is no deployment (a stop, an autoscaling) is not its own', () => {
    const undeploy = deployment('OK', { uuid: 'stop', action: 'UNDEPLOY', date: T0 });
    const d = run(waking(), { app: app('WANTS_TO_BE_UP'), deployments: [undeploy, cancelled] });
    expect(to(d)).toBe('stay');
    // None listed is its own: the newest is known from now on, its own will be listed above it.
    expect(patchOf(d).knownDeploymentId).toBe('stop');
  });

  it("an empty list known (''): any deployment listed since is its own", () => {
    const d = run(waking({ knownDeploymentId: '' }), {
      app: app('SHOULD_BE_UP'),
      deployments: [deployment('OK', { uuid: 'first', date: T0 - HOUR })],
    });
    expect(to(d)).toBe('Up');
  });

  it('nothing known (a record from before): a deployment dated since the start, within the clock tolerance', () => {
    const legacy = waking({ knownDeploymentId: null });
    const old = deployment('FAIL', { uuid: 'old', date: T0 - HOUR });
    const stay = run(legacy, { app: app('WANTS_TO_BE_UP'), deployments: [old] });
    expect(to(stay)).toBe('stay');
    // Read once without its own: from then on the newest is known, and dates are no longer read.
    expect(patchOf(stay).knownDeploymentId).toBe('old');
    const recent = deployment('WIP', { uuid: 'new', date: T0 - 20 * SECOND });
    expect(
      patchOf(run(legacy, { app: app('WANTS_TO_BE_UP'), deployments: [recent, old] })).deploymentId,
    ).toBe('new');
    // The known entry past the page read: dates again.
    const gone = waking({ knownDeploymentId: 'paged-out' });
    expect(to(run(gone, { app: app('WANTS_TO_BE_UP'), deployments: [old] }))).toBe('stay');
  });

  describe('Down, and Clever Cloud says WANTS_TO_BE_UP', () => {
    const asleep = (overrides: Partial<AppRecord> = {}) =>
      record('Down', { cleverState: 'WANTS_TO_BE_UP', knownDeploymentId: 'old', ...overrides });

    it.each(['FAIL', 'CANCELLED'])(
      'a stale WANTS_TO_BE_UP next to the known %s is no outside start',
      (state) => {
        const d = run(asleep(), { app: app('WANTS_TO_BE_UP'), deployments: [{ ...cancelled, state }] });
        expect(to(d)).toBe('stay');
      },
    );

    it.each(['WIP', 'OK', 'FAIL', 'CANCELLED'])(
      'a deployment listed above the known one is an outside start (%s), followed by its id',
      (state) => {
        const fresh = deployment(state, { uuid: 'console', date: T0 - 10 * MINUTE });
        const d = run(asleep(), { app: app('WANTS_TO_BE_UP'), deployments: [fresh, cancelled] });
        expect(to(d)).toBe('WaitingForUp');
        expect(d.type === 'act' && d.transition?.actor).toBe('outside');
        expect(patchOf(d).deploymentId).toBe('console');
      },
    );

    it('just became WANTS_TO_BE_UP, its deployment not listed yet: an outside start, the known entry kept', () => {
      const d = run(asleep({ cleverState: 'SHOULD_BE_DOWN' }), {
        app: app('WANTS_TO_BE_UP'),
        deployments: [cancelled],
      });
      expect(to(d)).toBe('WaitingForUp');
      expect(patchOf(d).deploymentId).toBeNull();
      expect(patchOf(d).knownDeploymentId).toBeUndefined();
    });
  });

  it('a start of the reaper keeps the newest entry known while it slept, to follow the one above it', () => {
    const rec = record('Down', { wakeRequestedAt: T0, knownDeploymentId: 'old' });
    const d = run(rec, { app: app('SHOULD_BE_DOWN') });
    expect(callOf(d)).toBe('start');
    expect(patchOf(d).knownDeploymentId).toBeUndefined(); // kept as it is on the record
    const idle = idleUp();
    const sleep = run(idle, { app: app('SHOULD_BE_UP'), deployments: [deployment('OK', { uuid: 'last' })] });
    expect(to(sleep)).toBe('WaitingForShutdown');
    expect(patchOf(sleep).knownDeploymentId).toBe('last');
  });
});
