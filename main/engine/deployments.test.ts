/**
 * Deployments as Clever Cloud really shows them (issue 13, items 1 to 5), end to end: the engine, the
 * real client and the simulator over HTTP. Each case is a behaviour of the platform the simulator
 * models from Clever Cloud's own code (see the header of main/simulator/model.ts):
 *
 * - a start is listed only a moment after it was made, while the app is WANTS_TO_BE_UP already;
 * - after a failed or cancelled start the app stays WANTS_TO_BE_UP;
 * - deployments queue (v4 QUEUED; v2 shows a queued one as WIP, or not at all);
 * - the activity holds autoscaling entries (UPSCALE, DOWNSCALE...) besides DEPLOY and UNDEPLOY;
 * - task apps (instance lifetime TASK) run and stop by themselves.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { HistoryEntry } from '../../shared/domain.ts';
import { HOUR, MINUTE } from '../../shared/durations.ts';
import { RivalDetector } from '../service/rival-detector.ts';
import { type LiveHarness, liveHarness } from '../testing/live-harness.ts';

let h: LiveHarness;
afterEach(async () => {
  await h?.close();
});

const START = 'POST /v2/organisations/:XXX/applications/:XXX/instances';

/** Transitions of an app, oldest first, as "from>to/actor". */
async function transitions(appId: string, since = 0): Promise<string[]> {
  return (await h.store.historyOf(appId))
    .filter((e) => e.kind === 'transition' && e.at >= since)
    .reverse()
    .map((e) => `${e.from}>${e.to}/${e.actor}`);
}

/** The "two engines are fighting" banner's view of an app's history. */
async function rivalSuspects(appId: string): Promise<{ appId: string; count: number }[]> {
  const detector = new RivalDetector();
  const entries: HistoryEntry[] = (await h.store.historyOf(appId)).reverse();
  for (const e of entries) detector.note(e);
  return detector.suspects(h.clock.now());
}

async function asleep(
  name: string,
  app: Parameters<LiveHarness['manage']>[1] = {},
  options: Parameters<typeof liveHarness>[0] = {},
) {
  h = await liveHarness(options);
  const created = h.manage(name, { state: 'SHOULD_BE_DOWN', ...app }, { gracePeriodMs: HOUR });
  await h.engine.start();
  await h.eventually(() => h.state(created.id) === 'Down', 'Down');
  return created;
}

describe('a start made outside the reaper, before its deployment is listed', () => {
  it('follows the new deployment, not the failed one listed before it (item 1)', async () => {
    // A platform slow to list: the console's start is WANTS_TO_BE_UP a minute before it is listed.
    const app = await asleep('was-broken', { lastDeployment: 'FAIL' }, { sim: { listingDelayMs: MINUTE } });
    const since = h.clock.now();
    h.cloud.consoleStart(app.id);
    await h.engine.reconcileNow(); // the sweep sees WANTS_TO_BE_UP; the deployment is not listed yet
    expect(h.state(app.id)).toBe('WaitingForUp');
    await h.eventually(() => h.state(app.id) === 'Up', 'Up');
    expect(await transitions(app.id, since)).toEqual([
      'Down>WaitingForUp/outside',
      'WaitingForUp>Up/outside',
    ]);
    expect(h.engine.get(app.id)!.cause).toBeNull();
  });
});

describe('an app left WANTS_TO_BE_UP by a cancelled or failed start', () => {
  it('is asleep, does not flap, and a console start is one outside start (item 2)', async () => {
    const app = await asleep('cancelled');
    h.cloud.injectOutcomes(app.id, 'cancel');
    await h.engine.wake(app.id, 'dashboard');
    await h.eventually(() => h.state(app.id) === 'Down', 'Down after the cancelled start');
    expect(h.cloud.app(app.ownerId, app.id)!.state).toBe('WANTS_TO_BE_UP');
    const since = h.clock.now();
    for (let i = 0; i < 3; i++) await h.engine.reconcileNow();
    expect(await transitions(app.id, since)).toEqual([]);

    h.cloud.consoleStart(app.id);
    await h.engine.reconcileNow(); // within the listing delay: the newest listed is the stale CANCELLED
    await h.eventually(() => h.state(app.id) === 'Up', 'Up');
    expect(await transitions(app.id, since)).toEqual([
      'Down>WaitingForUp/outside',
      'WaitingForUp>Up/outside',
    ]);
    expect(await rivalSuspects(app.id)).toEqual([]);
  });

  it('an app adopted while WANTS_TO_BE_UP after a failed start is asleep, not starting', async () => {
    h = await liveHarness();
    const app = h.manage('failed-before', { state: 'WANTS_TO_BE_UP', lastDeployment: 'FAIL' });
    await h.engine.start();
    await h.eventually(() => h.state(app.id) === 'Down', 'Down');
    expect(await transitions(app.id)).toEqual(['null>WaitingForInit/operator', 'WaitingForInit>Down/reaper']);
  });
});

describe('queued deployments (item 3)', () => {
  it.each(['hidden', 'WIP'] as const)(
    'a start whose answer was lost, queued on a slow platform (v2 lists it %s), is not sent twice',
    async (v2Queued) => {
      const app = await asleep('slow', {}, { sim: { v2Queued, queueDelayMs: 3 * MINUTE } });
      h.sim.faults.push({ kind: 'drop-after', count: 1, match: 'POST' });
      await h.engine.wake(app.id, 'dashboard');
      await h.eventually(() => h.state(app.id) === 'Up', 'Up', 20_000);
      expect(h.sim.calls.get(START)).toBe(1);
    },
  );

  it('a vanished start is still sent again after a minute when nothing is queued or running', async () => {
    const app = await asleep('ghost');
    h.cloud.injectOutcomes(app.id, 'vanish');
    await h.engine.wake(app.id, 'dashboard');
    await h.eventually(() => h.state(app.id) === 'Up', 'Up');
    expect(h.sim.calls.get(START)).toBe(2);
  });
});

describe('autoscaling entries in the activity (item 4)', () => {
  it.each(['UPSCALE', 'DOWNSCALE', 'REPLACE', 'CANCEL', 'NONE'] as const)(
    'a failed %s entry neither blocks the sleep nor puts the app in Error',
    async (action) => {
      h = await liveHarness();
      const app = h.manage('scaled', {}, { gracePeriodMs: 2 * MINUTE });
      h.cloud.addActivity(app.id, action, 'FAIL');
      await h.engine.start();
      await h.eventually(() => h.state(app.id) === 'Down', 'Down');
      expect((await h.store.historyOf(app.id)).some((e) => e.to === 'Error')).toBe(false);
    },
  );

  it('an entry without an action counts as a deployment: a failed one still keeps the app awake', async () => {
    h = await liveHarness();
    const app = h.manage('old-entry', {}, { gracePeriodMs: 2 * MINUTE });
    h.cloud.addActivity(app.id, null, 'FAIL');
    await h.engine.start();
    await h.eventually(() => h.state(app.id) === 'Error', 'Error');
    expect(h.engine.get(app.id)!.cause).toBe(
      "the last deployment of the app is 'FAIL', it cannot be put to sleep safely",
    );
  });

  it('a failed autoscaling entry listed during a wake does not fail the wake', async () => {
    const app = await asleep('waking', { deployDurationMs: 2 * MINUTE });
    await h.engine.wake(app.id, 'dashboard');
    await h.eventually(() => h.engine.get(app.id)?.deploymentId !== null, 'the start answered');
    h.cloud.addActivity(app.id, 'DOWNSCALE', 'FAIL');
    await h.eventually(() => h.state(app.id) === 'Up', 'Up');
    expect((await h.store.historyOf(app.id)).some((e) => e.to === 'Error')).toBe(false);
  });
});

describe('task apps (item 5)', () => {
  it('are left alone even when a route names them, with the reason on the record', async () => {
    h = await liveHarness();
    const task = h.manage(
      'nightly-task',
      { lifetime: 'TASK', state: 'SHOULD_BE_DOWN' },
      { gracePeriodMs: MINUTE },
    );
    const running = h.manage('running-task', { lifetime: 'TASK' }, { gracePeriodMs: MINUTE });
    await h.engine.start();
    await h.eventually(
      () => [task.id, running.id].every((id) => h.engine.get(id)?.notice?.includes('task') === true),
      'the notes',
    );
    await h.engine.wake(task.id, 'dashboard');
    await new Promise((r) => setTimeout(r, (10 * MINUTE) / 100)); // ten minutes at 100 times

    expect(h.sim.calls.get(START) ?? 0).toBe(0);
    expect(h.sim.calls.get('DELETE /v2/organisations/:XXX/applications/:XXX/instances') ?? 0).toBe(0);
    expect(h.engine.get(running.id)!.notice).toBe(
      'a task app (instance lifetime TASK) runs and stops by itself: the reaper leaves it alone',
    );
    expect(h.state(running.id)).toBe('WaitingForInit');
  });
});
