/**
 * Task apps (ApplicationView instance.lifetime TASK) run and stop by themselves: a route to one is
 * refused with the reason, through the service, the real client and the simulator over HTTP.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { InputError } from '../../shared/errors.ts';
import { CleverClient } from '../clever/client.ts';
import { operatorCredentials } from '../clever/credentials.ts';
import { ManualClock } from '../engine/clocks.ts';
import { SimulatedCloud } from '../simulator/model.ts';
import { DEMO_CREDENTIALS, type SimulatorServer, startSimulatorServer } from '../simulator/server.ts';
import { MemoryBackend } from '../store/config-store.ts';
import { SqliteStore } from '../store/sqlite/sqlite-store.ts';
import { MONDAY_9AM } from '../testing/engine-harness.ts';
import { FixedCredentials } from './credentials.ts';
import { ReaperService } from './reaper-service.ts';
import { createSessionFactory } from './session.ts';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function accountOn(cloud: SimulatedCloud, clock: ManualClock) {
  const sim: SimulatorServer = await startSimulatorServer({ cloud });
  closers.push(() => sim.close());
  const o = DEMO_CREDENTIALS.oauth;
  const client = new CleverClient({
    credentials: operatorCredentials(
      { kind: 'oauth1', token: o.token, secret: o.secret },
      { consumerKey: o.consumerKey, consumerSecret: o.consumerSecret },
    ),
    apiHost: sim.url,
  });
  const service = new ReaperService({
    sessions: createSessionFactory({
      demoClock: clock,
      accountClock: clock,
      timeScale: 1,
      scenario: 'e2e',
      accountBackend: () => new MemoryBackend(),
      accountDatastore: () => ({ store: new SqliteStore(':memory:'), problem: null }),
    }),
    credentials: new FixedCredentials(client),
    initial: 'account',
    version: 'test',
  });
  await service.start();
  closers.push(() => service.close());
  return service.api();
}

describe('task apps', () => {
  it('a route to a task app is refused with the reason; a regular app of the same owner is accepted', async () => {
    const clock = new ManualClock(MONDAY_9AM);
    const cloud = new SimulatedCloud(clock);
    const org = cloud.addOrganisation('Acme');
    const task = cloud.addApp(org.id, 'nightly-export', { lifetime: 'TASK', state: 'SHOULD_BE_DOWN' });
    const site = cloud.addApp(org.id, 'site');
    const api = await accountOn(cloud, clock);

    const refused = api.createRoute({ appId: task.id, ownerId: org.id });
    await expect(refused).rejects.toBeInstanceOf(InputError);
    await expect(refused).rejects.toMatchObject({
      problems: [
        {
          field: 'appId',
          code: 'taskApp',
          message:
            'App: nightly-export is a task app (instance lifetime TASK): it runs and stops by itself, the reaper does not manage it.',
        },
      ],
    });
    expect(await api.listRoutes()).toEqual([]);

    const route = await api.createRoute({ appId: site.id, ownerId: org.id });
    await expect(api.updateRoute({ routeId: route.id, changes: { appId: task.id } })).rejects.toMatchObject({
      problems: [{ field: 'appId' }],
    });
  });
});
