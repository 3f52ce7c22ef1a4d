/**
 * Never a loop, when routes are saved: a route the wake proxy serves needs a domain of its app that
 * does not lead back to the reaper (its cleverapps.io domain, or one that is none of the reaper's
 * host names). Through the service, the real client and the simulator over HTTP.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { InputError } from '../../shared/errors.ts';
import { ManualClock } from '../engine/clocks.ts';
import { SimulatedCloud } from '../simulator/model.ts';
import { accountOn, closeAccounts } from '../testing/account-service.ts';
import { MONDAY_9AM } from '../testing/engine-harness.ts';

afterEach(closeAccounts);

describe('a route whose requests would come back to the reaper', () => {
  it('is refused with the reason when every domain of its app is one of its host names', async () => {
    const clock = new ManualClock(MONDAY_9AM);
    const cloud = new SimulatedCloud(clock);
    const org = cloud.addOrganisation('Acme');
    const custom = cloud.addApp(org.id, 'shop', { vhosts: ['shop.example.com'] });
    const both = cloud.addApp(org.id, 'blog', { vhosts: ['blog.example.com', 'app-blog.cleverapps.io'] });
    const api = await accountOn(cloud, clock);

    const refused = api.createRoute({ appId: custom.id, ownerId: org.id, hosts: ['shop.example.com'] });
    await expect(refused).rejects.toBeInstanceOf(InputError);
    await expect(refused).rejects.toMatchObject({
      problems: [{ field: 'hosts', code: 'noUpstream', params: { value: 'shop.example.com' } }],
    });
    expect(await api.listRoutes()).toEqual([]);

    // Without host names the wake proxy does not serve it: nothing can loop.
    const quiet = await api.createRoute({ appId: custom.id, ownerId: org.id });
    await expect(
      api.updateRoute({ routeId: quiet.id, changes: { hosts: ['shop.example.com'] } }),
    ).rejects.toMatchObject({ problems: [{ field: 'hosts', code: 'noUpstream' }] });
    // A host name other than the app's domain: its requests go to shop.example.com.
    await api.updateRoute({ routeId: quiet.id, changes: { hosts: ['shop.reaper.test'] } });

    // The first domain is the reaper's, the cleverapps.io one is not: accepted.
    const ok = await api.createRoute({ appId: both.id, ownerId: org.id, hosts: ['blog.example.com'] });
    expect(ok.hosts).toEqual(['blog.example.com']);
    // Another route's host name counts as the reaper's own too.
    const other = cloud.addApp(org.id, 'docs', { vhosts: ['shop.reaper.test'] });
    await expect(
      api.createRoute({ appId: other.id, ownerId: org.id, hosts: ['docs.reaper.test'] }),
    ).rejects.toMatchObject({ problems: [{ field: 'hosts', code: 'noUpstream' }] });
  });
});
