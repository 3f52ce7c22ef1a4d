/**
 * The simulator's deployments, as the header of model.ts describes them from Clever Cloud's own code:
 * the listing delay after any start, WANTS_TO_BE_UP after a failed or cancelled start, the queue (and
 * both readings of a queued deployment on v2), activity entries, instance states and task apps. The
 * list and the instances are read over HTTP, as a client sees them.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { MINUTE, SECOND } from '../../shared/durations.ts';
import { ManualClock } from '../engine/clocks.ts';
import { MONDAY_9AM } from '../testing/engine-harness.ts';
import { type SimOptions, SimulatedCloud } from './model.ts';
import { startSimulatorServer } from './server.ts';

const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

function cloudOn(options: Partial<SimOptions> = {}) {
  const clock = new ManualClock(MONDAY_9AM);
  const cloud = new SimulatedCloud(clock, options);
  const org = cloud.addOrganisation('Acme');
  return { clock, cloud, org };
}

/** GET an API path of the simulator with the demo OAuth credentials, as JSON. */
async function get(cloud: SimulatedCloud, path: string): Promise<unknown> {
  const sim = await startSimulatorServer({ cloud });
  servers.push(sim);
  const auth =
    'OAuth oauth_consumer_key="sim-consumer-key", oauth_token="sim-user-token", oauth_signature_method="PLAINTEXT", oauth_signature="sim-consumer-secret%26sim-user-secret"';
  const res = await fetch(`${sim.url}${path}`, { headers: { authorization: auth } });
  expect(res.status).toBe(200);
  return res.json();
}

const states = (cloud: SimulatedCloud, ownerId: string, appId: string) =>
  cloud.deployments(cloud.app(ownerId, appId)!).map((d) => `${d.action}:${d.state}`);

describe('the simulated deployments', () => {
  it('a start: WANTS_TO_BE_UP at once, its deployment listed only after the listing delay', async () => {
    const { clock, cloud, org } = cloudOn({ listingDelayMs: 10 * SECOND, deployDurationMs: MINUTE });
    const app = cloud.addApp(org.id, 'site', { state: 'SHOULD_BE_DOWN' });
    cloud.consoleStart(app.id);
    expect(cloud.app(org.id, app.id)!.state).toBe('WANTS_TO_BE_UP');
    expect(states(cloud, org.id, app.id)).toEqual(['DEPLOY:OK']);
    await clock.advance(10 * SECOND);
    expect(states(cloud, org.id, app.id)).toEqual(['DEPLOY:WIP', 'DEPLOY:OK']);
    await clock.advance(MINUTE);
    expect(cloud.app(org.id, app.id)!.state).toBe('SHOULD_BE_UP');
  });

  it.each([
    ['fail', 'FAIL'],
    ['cancel', 'CANCELLED'],
  ] as const)('a start that ends %s leaves the app WANTS_TO_BE_UP', async (outcome, state) => {
    const { clock, cloud, org } = cloudOn();
    const app = cloud.addApp(org.id, 'site', { state: 'SHOULD_BE_DOWN' });
    cloud.injectOutcomes(app.id, outcome);
    cloud.consoleStart(app.id);
    await clock.advance(5 * MINUTE);
    expect(cloud.app(org.id, app.id)!.state).toBe('WANTS_TO_BE_UP');
    expect(states(cloud, org.id, app.id)[0]).toBe(`DEPLOY:${state}`);
  });

  it('a start during a deployment is queued behind it, not cancelling it', async () => {
    const { clock, cloud, org } = cloudOn({ deployDurationMs: MINUTE });
    const app = cloud.addApp(org.id, 'site');
    cloud.gitPush(app.id);
    await clock.advance(10 * SECOND);
    cloud.gitPush(app.id);
    await clock.advance(5 * SECOND);
    // v2 shows the queued one as WIP (the default reading).
    expect(states(cloud, org.id, app.id)).toEqual(['DEPLOY:WIP', 'DEPLOY:WIP', 'DEPLOY:OK']);
    expect(cloud.apps.get(app.id)!.deployments.map((d) => d.state)).toEqual(['QUEUED', 'WIP', 'OK']);
    await clock.advance(MINUTE);
    expect(states(cloud, org.id, app.id)).toEqual(['DEPLOY:WIP', 'DEPLOY:OK', 'DEPLOY:OK']);
    await clock.advance(MINUTE);
    expect(states(cloud, org.id, app.id)).toEqual(['DEPLOY:OK', 'DEPLOY:OK', 'DEPLOY:OK']);
  });

  it('v2Queued hidden: a queued deployment is not listed until it begins', async () => {
    const { clock, cloud, org } = cloudOn({ v2Queued: 'hidden', queueDelayMs: 2 * MINUTE });
    const app = cloud.addApp(org.id, 'site', { state: 'SHOULD_BE_DOWN' });
    cloud.consoleStart(app.id);
    await clock.advance(MINUTE);
    expect(states(cloud, org.id, app.id)).toEqual(['DEPLOY:OK']);
    expect(cloud.app(org.id, app.id)!.state).toBe('WANTS_TO_BE_UP');
    await clock.advance(MINUTE);
    expect(states(cloud, org.id, app.id)).toEqual(['DEPLOY:WIP', 'DEPLOY:OK']);
  });

  it('activity entries: listed at once, without `action` when it is absent', async () => {
    const { cloud, org } = cloudOn();
    const app = cloud.addApp(org.id, 'site');
    cloud.addActivity(app.id, 'UPSCALE', 'FAIL');
    cloud.addActivity(app.id, null, 'OK');
    const list = (await get(cloud, `/v2/organisations/${org.id}/applications/${app.id}/deployments`)) as {
      state: string;
      action?: string;
    }[];
    expect(list.map((d) => [d.action, d.state])).toEqual([
      [undefined, 'OK'],
      ['UPSCALE', 'FAIL'],
      ['DEPLOY', 'OK'],
    ]);
    expect('action' in list[0]!).toBe(false);
    expect(cloud.app(org.id, app.id)!.lastDeploy).toBe(1); // activity entries are no deployments
  });

  it('instances: UP when running, DEPLOYING while starting, STOPPING while stopping, none when stopped', async () => {
    const { clock, cloud, org } = cloudOn({ deployDurationMs: MINUTE, stopDurationMs: 10 * SECOND });
    const app = cloud.addApp(org.id, 'site', { instances: 2 });
    const path = `/v2/organisations/${org.id}/applications/${app.id}/instances`;
    const instanceStates = async () => ((await get(cloud, path)) as { state: string }[]).map((i) => i.state);
    expect(await instanceStates()).toEqual(['UP', 'UP']);
    cloud.consoleStop(app.id);
    expect(await instanceStates()).toEqual(['STOPPING', 'STOPPING']);
    await clock.advance(10 * SECOND);
    expect(await instanceStates()).toEqual([]);
    cloud.consoleStart(app.id);
    await clock.advance(5 * SECOND);
    expect(await instanceStates()).toEqual(['DEPLOYING', 'DEPLOYING']);
    await clock.advance(MINUTE);
    expect(await instanceStates()).toEqual(['UP', 'UP']);
  });

  it('a task app runs its task (TASK_RUNNING) and stops by itself', async () => {
    const { clock, cloud, org } = cloudOn({ deployDurationMs: 30 * SECOND, taskDurationMs: MINUTE });
    const app = cloud.addApp(org.id, 'export', { lifetime: 'TASK', state: 'SHOULD_BE_DOWN' });
    const view = (await get(cloud, `/v2/organisations/${org.id}/applications/${app.id}`)) as {
      instance: { lifetime: string };
    };
    expect(view.instance.lifetime).toBe('TASK');
    cloud.consoleStart(app.id);
    await clock.advance(40 * SECOND);
    expect(states(cloud, org.id, app.id)[0]).toBe('DEPLOY:TASK_RUNNING');
    expect(cloud.instances(cloud.app(org.id, app.id)!).map((i) => i.state)).toEqual(['TASK_IN_PROGRESS']);
    await clock.advance(MINUTE);
    expect(cloud.app(org.id, app.id)!.state).toBe('SHOULD_BE_DOWN');
    expect(states(cloud, org.id, app.id)[0]).toBe('DEPLOY:OK');
  });

  it.each([
    [0, 'OK', 'SHOULD_BE_DOWN'],
    [5 * SECOND, 'FAIL', 'WANTS_TO_BE_UP'],
    [90 * SECOND, 'CANCELLED', 'WANTS_TO_BE_UP'],
    [10 * MINUTE, 'WIP', 'SHOULD_BE_DOWN'],
  ] as const)(
    'a previous deployment placed %i ms before now, ended %s: listed at once, as it ended',
    async (ageMs, state, after) => {
      const { clock, cloud, org } = cloudOn({ deployDurationMs: MINUTE });
      const app = cloud.addApp(org.id, 'site', { state: 'SHOULD_BE_DOWN' });
      const placed = cloud.placeDeployment(app.id, ageMs, state);
      expect(placed.date).toBe(clock.now() - ageMs);
      expect(states(cloud, org.id, app.id)).toEqual([`DEPLOY:${state}`, 'DEPLOY:OK']);
      expect(cloud.app(org.id, app.id)!.state).toBe(after);
      // It stays as placed, and a start is not queued behind it (a WIP one is stale, not under way).
      cloud.cleverToolsRestart(app.id);
      await clock.advance(2 * MINUTE);
      expect(states(cloud, org.id, app.id)).toEqual(['DEPLOY:OK', `DEPLOY:${state}`, 'DEPLOY:OK']);
      expect(cloud.app(org.id, app.id)!.state).toBe('SHOULD_BE_UP');
      expect(cloud.instances(cloud.app(org.id, app.id)!).map((i) => i.state)).toEqual(['UP']);
    },
  );

  it('the control API places a previous deployment and restarts as clever-tools does, and refuses bad input', async () => {
    const { cloud, org } = cloudOn();
    const app = cloud.addApp(org.id, 'site', { state: 'SHOULD_BE_DOWN' });
    const sim = await startSimulatorServer({ cloud });
    servers.push(sim);
    const post = (action: string, body: unknown) =>
      fetch(`${sim.url}/_sim/apps/${app.id}/${action}`, { method: 'POST', body: JSON.stringify(body) });
    const placed = await post('previous-deployment', { ageMs: 5000, state: 'CANCELLED' });
    expect(placed.status).toBe(200);
    const summary = (await placed.json()) as {
      state: string;
      deployments: { state: string; date: number }[];
    };
    expect(summary.state).toBe('WANTS_TO_BE_UP');
    expect(summary.deployments.map((d) => d.state)).toEqual(['CANCELLED', 'OK']);
    expect((await post('previous-deployment', { ageMs: -1 })).status).toBe(400);
    const wrong = await post('previous-deployment', { state: 'DONE' });
    expect(await wrong.json()).toEqual({
      error: 'state must be one of OK, FAIL, CANCELLED, WIP, TASK_RUNNING, not DONE',
    });
    expect((await post('clever-tools-restart', {})).status).toBe(200);
    expect(cloud.apps.get(app.id)!.deployments[0]!.cause).toBe('restart from clever-tools');
  });

  it('a start may answer without its deployment id, and its deployment may be dated before older entries', async () => {
    const { clock, cloud, org } = cloudOn({
      startAnswersDeploymentId: false,
      deploymentDateOffsetMs: -MINUTE,
    });
    const app = cloud.addApp(org.id, 'site', { state: 'SHOULD_BE_DOWN' });
    const previous = cloud.placeDeployment(app.id, 0, 'CANCELLED');
    expect(cloud.consoleStart(app.id)).toEqual({ deploymentId: null });
    await clock.advance(5 * SECOND);
    const [started, before] = cloud.deployments(cloud.app(org.id, app.id)!);
    expect(before!.uuid).toBe(previous.uuid);
    // Listed newest first, dated a minute before the entry listed under it.
    expect(started!.date).toBe(previous.date - MINUTE);
  });

  it('a start may be listed before the app changes state (startStateDelayMs past the listing delay)', async () => {
    const { clock, cloud, org } = cloudOn({ listingDelayMs: SECOND, startStateDelayMs: 4 * SECOND });
    const app = cloud.addApp(org.id, 'site', { state: 'SHOULD_BE_DOWN' });
    cloud.consoleStart(app.id);
    await clock.advance(2 * SECOND);
    expect(states(cloud, org.id, app.id)).toEqual(['DEPLOY:WIP', 'DEPLOY:OK']);
    expect(cloud.app(org.id, app.id)!.state).toBe('SHOULD_BE_DOWN');
    await clock.advance(2 * SECOND);
    expect(cloud.app(org.id, app.id)!.state).toBe('WANTS_TO_BE_UP');
  });
});
