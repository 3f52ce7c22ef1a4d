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
});
