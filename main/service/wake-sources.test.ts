/**
 * Wake sources through the service's API (issue 13, item 11): for each combination of wake-proxy
 * host names, must-be-up ranges and access logs, what GET /api/apps/{id} says and when it warns;
 * the wakes access logs trigger, and the connections open through the wake proxy, counted in the
 * details and in /metrics. An account session on the live harness: the real client and the
 * simulator over HTTP, on a clock 100 times faster.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { type AddressInfo, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { AppDetail, ReaperApi } from '../../shared/api.ts';
import { SECOND } from '../../shared/durations.ts';
import type { RouteCreate } from '../../shared/routes.ts';
import { ONLY_ACCESS_LOGS_WARNING } from '../../shared/wake-sources.ts';
import { MemoryBackend } from '../store/config-store.ts';
import { demoService } from '../testing/demo-service.ts';
import { type LiveHarness, liveHarness } from '../testing/live-harness.ts';
import type { ReaperService } from './reaper-service.ts';
import { startRuntime } from './runtime.ts';

let h: LiveHarness | null = null;
let service: ReaperService | null = null;
let dir: string | null = null;
let blocker: Server | null = null;
afterEach(async () => {
  await service?.close();
  await h?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  if (blocker) await new Promise((r) => blocker?.close(r));
  h = service = dir = blocker = null;
});

async function account(options: { upstreamToSimulator?: boolean } = {}): Promise<{
  api: ReaperApi;
  ownerId: string;
  harness: LiveHarness;
  svc: ReaperService;
}> {
  const harness = await liveHarness();
  h = harness;
  dir = mkdtempSync(join(tmpdir(), 'reaper-wake-sources-'));
  const svc = await startRuntime({
    demo: false,
    scenario: 'e2e',
    timeScale: 1,
    dataDir: dir,
    apiUrl: null,
    env: {},
    clever: harness.client,
    accountClock: harness.clock,
    accountBackend: () => new MemoryBackend(),
    version: 'test',
    ...(options.upstreamToSimulator ? { upstreamOrigin: harness.sim.url } : {}),
  });
  service = svc;
  const api = svc.api();
  await api.updateSettings({ wakeProxyPort: 0 });
  return { api, ownerId: harness.cloud.addOrganisation('Team').id, harness, svc };
}

async function detailOf(api: ReaperApi, appId: string, ready: (d: AppDetail) => boolean = () => true) {
  const end = Date.now() + 15_000;
  for (;;) {
    const detail = await api.getApp({ appId }).catch(() => null);
    if (detail && ready(detail)) return detail;
    if (Date.now() > end) throw new Error(`no detail of ${appId} as awaited`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const RANGES: RouteCreate['ranges'] = [{ days: 'Mon-Sun', start: '03:00', end: '04:00', timeZone: 'UTC' }];

describe('wake sources per app, through the API', () => {
  it.each([
    { hosts: false, ranges: false, warned: true },
    { hosts: true, ranges: false, warned: false },
    { hosts: false, ranges: true, warned: false },
    { hosts: true, ranges: true, warned: false },
  ])('an account with access logs: host names $hosts, ranges $ranges', async (c) => {
    const { api, ownerId, harness } = await account();
    const app = harness.cloud.addApp(ownerId, 'combo');
    const hosts = c.hosts ? ['combo.example.test'] : [];
    await api.createRoute({ appId: app.id, ownerId, hosts, ...(c.ranges ? { ranges: RANGES } : {}) });
    const detail = await detailOf(api, app.id, (d) => d.wakeSources.proxy.listening === c.hosts);
    expect(detail.wakeSources).toEqual({
      proxy: { hosts, listening: c.hosts },
      accessLogs: true,
      ranges: c.ranges,
      manual: true,
      accessLogWakes: 0,
      warning: c.warned ? ONLY_ACCESS_LOGS_WARNING : null,
    });
  });

  it('host names the wake proxy cannot serve (its port is taken) leave access logs alone: warned', async () => {
    const { api, ownerId, harness } = await account();
    const taken = createServer();
    blocker = taken;
    const port = await new Promise<number>((resolve) =>
      taken.listen(0, '127.0.0.1', () => resolve((taken.address() as AddressInfo).port)),
    );
    await api.updateSettings({ wakeProxyPort: port });
    const app = harness.cloud.addApp(ownerId, 'blocked');
    await api.createRoute({ appId: app.id, ownerId, hosts: ['blocked.example.test'] });
    const detail = await detailOf(api, app.id);
    expect(detail.wakeSources.proxy).toEqual({ hosts: ['blocked.example.test'], listening: false });
    expect(detail.wakeSources.warning).toBe(
      `The wake proxy is not listening for blocked.example.test. ${ONLY_ACCESS_LOGS_WARNING}`,
    );
  });

  it('a session without access logs (the in-process demo): no warning, manual wakes and what routes give', async () => {
    const { service: demo, clock } = demoService({ version: 'test' });
    service = demo;
    await demo.start();
    await clock.advance(5 * SECOND);
    const api = demo.api();
    const apps = Object.fromEntries((await api.listApps()).map((a) => [a.name, a.appId]));
    const sources = async (name: string) => (await api.getApp({ appId: apps[name] ?? '' })).wakeSources;
    expect(await sources('idle-review')).toMatchObject({
      proxy: { hosts: [] },
      accessLogs: false,
      ranges: false,
      manual: true,
      warning: null,
    });
    expect(await sources('shop-staging')).toMatchObject({ proxy: { hosts: ['shop.staging.localhost'] } });
    expect(await sources('docs-preview')).toMatchObject({ ranges: true, accessLogs: false, warning: null });
  });
});

describe('wakes by access log, counted', () => {
  it('an entry for an Asleep app wakes it once, counted in its details and in /metrics', async () => {
    const { api, ownerId, harness, svc } = await account();
    expect(svc.metricsText()).toContain('clever_reaper_access_log_wakes_total 0');
    const app = harness.cloud.addApp(ownerId, 'sleeper', { state: 'SHOULD_BE_DOWN' });
    await api.createRoute({ appId: app.id, ownerId });
    await detailOf(api, app.id, (d) => d.app.state === 'Down' && d.traffic.accessLog?.connected === true);

    for (let i = 0; i < 3; i++) harness.cloud.recordRequest(app.id, { path: `/p${i}` });
    const woken = await detailOf(api, app.id, (d) => d.app.state === 'Up');
    expect(woken.wakeSources.accessLogWakes).toBe(1);
    expect(woken.traffic.bySource['access-log']).toBe(3);
    expect(svc.metricsText()).toContain('clever_reaper_access_log_wakes_total 1');

    // Requests while Up, and a manual wake, are no wake by access log.
    harness.cloud.recordRequest(app.id, { path: '/up' });
    await detailOf(api, app.id, (d) => d.traffic.bySource['access-log'] === 4);
    await api.wake({ appId: app.id });
    expect((await api.getApp({ appId: app.id })).wakeSources.accessLogWakes).toBe(1);
    expect(svc.metricsText()).toContain('clever_reaper_access_log_wakes_total 1');
  });
});

describe('open connections, counted', () => {
  it('a WebSocket open through the wake proxy shows in the details and in /metrics, then goes', async () => {
    const { api, ownerId, harness, svc } = await account({ upstreamToSimulator: true });
    const app = harness.cloud.addApp(ownerId, 'live');
    await api.createRoute({ appId: app.id, ownerId, hosts: ['live.example.test'] });
    await detailOf(api, app.id, (d) => d.app.state === 'Up');
    const listening = () => svc.current?.traffic.proxyStatus().url ?? null;
    await harness.eventually(() => listening() !== null, 'listening');
    const url = listening()!;
    const ws = new WebSocket(`${url.replace('http', 'ws')}/live`, {
      headers: { host: 'live.example.test' },
    });
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    const open = await detailOf(api, app.id, (d) => d.traffic.connections.open === 1);
    expect(open.traffic.connections).toEqual({ open: 1, inUse: 1 });
    expect(svc.metricsText()).toContain(`clever_reaper_open_connections{app="${app.id}",in_use="true"} 1`);
    ws.close();
    await detailOf(api, app.id, (d) => d.traffic.connections.open === 0);
    expect(svc.metricsText()).not.toContain(`clever_reaper_open_connections{app="${app.id}"`);
  });
});
