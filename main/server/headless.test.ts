import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppView } from '../../shared/api.ts';
import { SECOND } from '../../shared/durations.ts';
import { ManualClock } from '../engine/clocks.ts';
import { InProcessCleverPort } from '../simulator/in-process-port.ts';
import { SimulatedCloud } from '../simulator/model.ts';
import { MONDAY_9AM } from '../testing/engine-harness.ts';
import { TEST_SERVER } from '../testing/test-server.ts';
import { type Headless, startHeadless } from './headless.ts';

const running: Headless[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

describe('the headless server on an account', () => {
  const clock = new ManualClock(MONDAY_9AM);
  const cloud = new SimulatedCloud(clock);
  const org = cloud.addOrganisation('Acme');
  const app = cloud.addApp(org.id, 'staging');

  async function serve(dataDir: string) {
    const server = await startHeadless({
      ...TEST_SERVER,
      dataDir,
      clever: new InProcessCleverPort(cloud),
      accountClock: clock,
    });
    running.push(server);
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${server.url}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${server.token.token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: res.status, body: await res.json() };
    };
    return { server, call };
  }

  it('keeps routes, settings, states and history in the data directory across a restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'reaper-account-'));
    const first = await serve(dataDir);
    expect(first.server.service.mode).toBe('account');
    expect((await first.call('POST', '/api/routes', { appId: app.id, ownerId: org.id })).status).toBe(201);
    await first.call('PATCH', '/api/settings', { dryRun: true });
    await clock.advance(10 * SECOND);
    const [view] = (await first.call('GET', '/api/apps')).body as AppView[];
    expect(view).toMatchObject({ name: 'staging', label: 'Up', ownerName: 'Acme' });
    await first.server.close();
    expect(statSync(join(dataDir, 'config.json')).mode & 0o777).toBe(0o600);

    const second = await serve(dataDir);
    expect(((await second.call('GET', '/api/settings')).body as { dryRun: boolean }).dryRun).toBe(true);
    expect(((await second.call('GET', '/api/apps')).body as AppView[]).map((a) => a.label)).toEqual(['Up']);
    const history = (await second.call('GET', `/api/apps/${app.id}/history`)).body as { reason: string }[];
    expect(history.map((h) => h.reason)).toContain('put under the reaper by a route');
  });
});
