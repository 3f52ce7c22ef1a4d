/**
 * Task apps (ApplicationView instance.lifetime TASK) run and stop by themselves: a route to one is
 * refused with the reason, through the service, the real client and the simulator over HTTP.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { InputError } from '../../shared/errors.ts';
import { ManualClock } from '../engine/clocks.ts';
import { SimulatedCloud } from '../simulator/model.ts';
import { accountOn, closeAccounts } from '../testing/account-service.ts';
import { MONDAY_9AM } from '../testing/engine-harness.ts';

afterEach(closeAccounts);

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
