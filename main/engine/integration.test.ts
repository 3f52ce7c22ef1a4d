/**
 * End to end: the engine, the real client and the simulator over HTTP on loopback, on one clock
 * running 100 times faster (a 15-minute fail timeout lasts 9 s). Each transition table of the
 * lifecycle spec, through the wire.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { HOUR, MINUTE, SECOND } from '../../shared/durations.ts';
import { type LiveHarness, liveHarness } from '../testing/live-harness.ts';

let h: LiveHarness;
afterEach(async () => {
  await h?.close();
});

async function started(options: Parameters<typeof liveHarness>[0] = {}) {
  h = await liveHarness(options);
  return h;
}

describe('going to sleep, through the wire', () => {
  it('an idle app whose last deployment is OK is stopped, then seen Down', async () => {
    await started();
    const app = h.manage('idle', {}, { gracePeriodMs: 2 * MINUTE });
    await h.engine.start();
    await h.eventually(() => h.state(app.id) === 'Down', 'Down');
    const kinds = (await h.store.historyOf(app.id)).map((e) => `${e.kind}:${e.to ?? ''}`);
    expect(kinds.reverse()).toEqual([
      'transition:WaitingForInit',
      'transition:Up',
      'transition:WaitingForShutdown',
      'stop-asked:',
      'transition:Down',
    ]);
  });

  it('an app with no deployment at all is stopped too', async () => {
    await started();
    const app = h.manage('bare', { neverDeployed: true, state: 'SHOULD_BE_UP' }, { gracePeriodMs: MINUTE });
    await h.engine.start();
    await h.eventually(() => h.state(app.id) === 'Down', 'Down');
  });

  it('someone deploying (WIP): the reaper waits, then stops the app once the deployment is done', async () => {
    await started();
    const app = h.manage('busy', { deployDurationMs: 4 * MINUTE }, { gracePeriodMs: MINUTE });
    await h.engine.start();
    await h.eventually(() => h.state(app.id) === 'Up', 'Up');
    h.cloud.gitPush(app.id);
    await h.eventually(() => h.state(app.id) === 'WaitingForUp', 'the redeploy seen');
    await h.eventually(() => h.state(app.id) === 'Down', 'Down after the deployment', 20_000);
  });

  it.each(['FAIL', 'CANCELLED'])(
    'a last deployment %s puts the app in Error instead of stopping it',
    async (last) => {
      await started();
      const app = h.manage('risky', { lastDeployment: last }, { gracePeriodMs: MINUTE });
      await h.engine.start();
      await h.eventually(() => h.state(app.id) === 'Error', 'Error');
      expect(h.engine.get(app.id)!.cause).toBe(
        `the last deployment of the app is '${last}', it cannot be put to sleep safely`,
      );
      expect(h.sim.calls.get('DELETE /v2/organisations/:XXX/applications/:XXX/instances') ?? 0).toBe(0);
    },
  );

  it('a stop that never completes ends in Error after the fail timeout', async () => {
    await started();
    const app = h.manage('stuck', {}, { gracePeriodMs: MINUTE });
    h.cloud.setStopNeverCompletes(app.id);
    await h.engine.start();
    await h.eventually(() => h.state(app.id) === 'WaitingForShutdown', 'WaitingForShutdown');
    const asked = h.engine.get(app.id)!.stopAskedAt!;
    await h.eventually(() => h.state(app.id) === 'Error', 'Error', 20_000);
    expect(h.engine.get(app.id)!.cause).toBe('the app did not stop within the fail timeout');
    expect(h.engine.get(app.id)!.stateSince - asked).toBeGreaterThanOrEqual(15 * MINUTE);
  });
});

describe('waking up, through the wire', () => {
  async function asleep(name: string, deployDurationMs = 45 * SECOND) {
    await started();
    const app = h.manage(name, { state: 'SHOULD_BE_DOWN', deployDurationMs });
    await h.engine.start();
    await h.eventually(() => h.state(app.id) === 'Down', 'Down');
    return app;
  }

  it('a request starts the app and the deployment is followed until Up', async () => {
    const app = await asleep('sandbox');
    await h.engine.request(app.id, 'wake-proxy');
    expect(h.state(app.id)).toBe('WaitingForUp');
    await h.eventually(() => h.state(app.id) === 'Up', 'Up');
    const record = h.engine.get(app.id)!;
    expect(record.firstStartAskedAt).toBeNull();
    expect((await h.store.historyOf(app.id))[0]).toMatchObject({
      from: 'WaitingForUp',
      to: 'Up',
      actor: 'reaper',
    });
  });

  it('a failed deployment: Error, the app failed to start on clever cloud', async () => {
    const app = await asleep('billing');
    h.cloud.injectOutcomes(app.id, 'fail');
    await h.engine.wake(app.id, 'dashboard');
    await h.eventually(() => h.state(app.id) === 'Error', 'Error');
    expect(h.engine.get(app.id)!.cause).toBe('the app failed to start on clever cloud');
  });

  it('a cancelled deployment: Down, and the next request asks again', async () => {
    const app = await asleep('cancelled');
    h.cloud.injectOutcomes(app.id, 'cancel');
    await h.engine.wake(app.id, 'dashboard');
    await h.eventually(() => h.state(app.id) === 'Down', 'Down');
    await h.engine.wake(app.id, 'dashboard');
    await h.eventually(() => h.state(app.id) === 'Up', 'Up');
  });

  it('a vanished start is started again after one minute, then comes up', async () => {
    const app = await asleep('ghost');
    h.cloud.injectOutcomes(app.id, 'vanish');
    await h.engine.wake(app.id, 'dashboard');
    const first = h.engine.get(app.id)!.firstStartAskedAt!;
    await h.eventually(() => h.state(app.id) === 'Up', 'Up');
    const restarts = (await h.store.historyOf(app.id)).filter((e) => e.kind === 'restart-asked');
    expect(restarts).toHaveLength(1);
    expect(restarts[0]!.at - first).toBeGreaterThanOrEqual(MINUTE);
  });

  it('a never-deployed app: the start fails with 4014 and the app goes to Error at once', async () => {
    await started();
    const app = h.manage('legacy', { neverDeployed: true });
    await h.engine.start();
    await h.eventually(() => h.state(app.id) === 'Down', 'Down');
    await h.engine.wake(app.id, 'dashboard');
    expect(h.engine.get(app.id)).toMatchObject({
      state: 'Error',
      cause: 'the app was never deployed, it cannot be started',
    });
  });

  it('a 5xx burst while waking causes no false Error: the app still ends Up', async () => {
    const app = await asleep('flaky', 2 * MINUTE);
    await h.engine.wake(app.id, 'dashboard');
    h.sim.faults.push({ kind: 'status', status: 503, count: 40, match: 'GET' });
    await h.eventually(() => h.sim.faults.length === 0, 'the burst to pass');
    await h.eventually(() => h.state(app.id) === 'Up', 'Up');
    expect((await h.store.historyOf(app.id)).some((e) => e.to === 'Error')).toBe(false);
  });

  it('a start whose answer was lost is found in the deployments and not sent twice', async () => {
    const app = await asleep('lost-answer');
    h.sim.faults.push({ kind: 'drop-after', count: 1, match: 'POST' });
    await h.engine.wake(app.id, 'dashboard');
    await h.eventually(() => h.state(app.id) === 'Up', 'Up');
    expect(h.sim.calls.get('POST /v2/organisations/:XXX/applications/:XXX/instances')).toBe(1);
    const failed = (await h.store.historyOf(app.id)).filter((e) => e.kind === 'call-failed');
    expect(failed.map((e) => e.reason)).toEqual([
      expect.stringMatching(/^start failed: Clever Cloud could not be reached/),
    ]);
  });
});

describe('changes made outside the reaper, and states it does not expect', () => {
  it('stopped from the console: Down; started from the console: WaitingForUp, then Up', async () => {
    await started();
    const app = h.manage('console', {}, { gracePeriodMs: HOUR });
    await h.engine.start();
    await h.eventually(() => h.state(app.id) === 'Up', 'Up');
    h.cloud.consoleStop(app.id);
    await h.eventually(() => h.state(app.id) === 'Down', 'Down');
    h.cloud.consoleStart(app.id);
    await h.eventually(() => h.state(app.id) === 'WaitingForUp', 'WaitingForUp');
    await h.eventually(() => h.state(app.id) === 'Up', 'Up');
    const actors = (await h.store.historyOf(app.id))
      .filter((e) => e.kind === 'transition')
      .map((e) => `${e.to}/${e.actor}`);
    expect(actors.slice(0, 3).reverse()).toEqual(['Down/outside', 'WaitingForUp/outside', 'Up/outside']);
  });

  it('redeployed by a git push: through WaitingForUp and back to Up, with a fresh grace period', async () => {
    await started();
    // A deployment long enough for a sweep to see it under way, however busy the machine.
    const app = h.manage('pushed', { deployDurationMs: 10 * MINUTE }, { gracePeriodMs: HOUR });
    await h.engine.start();
    await h.eventually(() => h.state(app.id) === 'Up', 'Up');
    const firstUp = h.engine.get(app.id)!.cameUpAt!;
    h.cloud.gitPush(app.id);
    await h.eventually(() => h.state(app.id) === 'WaitingForUp', 'WaitingForUp');
    await h.eventually(() => h.state(app.id) === 'Up', 'Up again');
    expect(h.engine.get(app.id)!.cameUpAt!).toBeGreaterThan(firstUp);
  });

  it('a MODERATED app goes to Error with the unexpected state as its cause, and is left alone', async () => {
    await started();
    const app = h.manage('moderated', { state: 'MODERATED' });
    await h.engine.start();
    await h.eventually(() => h.state(app.id) === 'Error', 'Error');
    expect(h.engine.get(app.id)!.cause).toBe("unexpected clever cloud state 'MODERATED'");
    await h.engine.wake(app.id, 'dashboard');
    expect(h.sim.calls.get('POST /v2/organisations/:XXX/applications/:XXX/instances') ?? 0).toBe(0);
  });

  it('Reset brings an app in Error back to Initializing, then to its real state', async () => {
    await started();
    const app = h.manage('moderated', { state: 'MODERATED' });
    await h.engine.start();
    await h.eventually(() => h.state(app.id) === 'Error', 'Error');
    h.cloud.setState(app.id, 'SHOULD_BE_DOWN');
    await h.engine.reset(app.id);
    expect(h.state(app.id)).toBe('Down');
    expect((await h.store.historyOf(app.id)).slice(0, 2).map((e) => e.to)).toEqual([
      'Down',
      'WaitingForInit',
    ]);
  });
});

describe('API economy', () => {
  it.each([
    [10, 1],
    [100, 3],
    [1000, 10],
  ])(
    'one full sweep of %i apps across %i owners costs one call per owner once settled',
    async (n, owners) => {
      await started({ factor: 200 });
      const ownerIds = [h.cloud.organisations[0]!.id];
      while (ownerIds.length < owners) ownerIds.push(h.cloud.addOrganisation(`Org ${ownerIds.length}`).id);
      for (let i = 0; i < n; i++)
        h.manage(`app-${i}`, {}, { ownerId: ownerIds[i % owners]!, gracePeriodMs: 24 * HOUR });
      await h.engine.start();
      await h.eventually(() => h.engine.list().every((r) => r.state === 'Up'), 'all apps Up', 60_000);
      const sweeps: number[] = [];
      h.engine.on((e) => e.type === 'tick' && e.pace === 'sweep' && sweeps.push(h.calls.length));
      await h.eventually(() => sweeps.length >= 3, 'three sweeps', 60_000);
      const perSweep = sweeps[2]! - sweeps[1]!;
      console.log(
        `API calls for one sweep of ${n} apps across ${owners} owners: ${perSweep} (naive: ${2 * n})`,
      );
      expect(perSweep).toBe(owners);
    },
  );
});
