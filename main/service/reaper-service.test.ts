import { afterEach, describe, expect, it } from 'vitest';
import type { ReaperEvent } from '../../shared/api.ts';
import { ApiError, ConflictError, UnavailableError } from '../../shared/api-errors.ts';
import { MINUTE, SECOND } from '../../shared/durations.ts';
import { InputError, NotFoundError } from '../../shared/errors.ts';
import { InProcessCleverPort } from '../simulator/in-process-port.ts';
import { demoService } from '../testing/demo-service.ts';
import { until } from '../testing/serve-process.ts';
import type { ReaperService } from './reaper-service.ts';

const services: ReaperService[] = [];

afterEach(async () => {
  await Promise.all(services.splice(0).map((s) => s.close()));
});

async function start(initial: 'demo' | 'account' = 'demo') {
  const { service, clock } = demoService({ initial, version: 'test' });
  services.push(service);
  const events: ReaperEvent[] = [];
  service.subscribe((e) => events.push(e));
  await service.start();
  await clock.advance(5 * SECOND);
  const api = service.api();
  const idOf = async (name: string) => {
    const app = (await api.listApps()).find((a) => a.name === name);
    if (!app) throw new Error(`no app ${name}`);
    return app;
  };
  /** Move time in steps until `predicate` holds (or fail after `limitMs`). */
  const until = async (predicate: () => Promise<boolean>, limitMs = 10 * MINUTE) => {
    for (let t = 0; t < limitMs; t += SECOND) {
      if (await predicate()) return;
      await clock.advance(SECOND);
    }
    throw new Error('the condition never held');
  };
  return { clock, service, api, events, idOf, until };
}

describe('the reaper service', () => {
  it('lists the apps of the session with their console state and owner name', async () => {
    const { api } = await start();
    const apps = await api.listApps();
    const byName = Object.fromEntries(apps.map((a) => [a.name, a]));
    expect(byName['idle-review']).toMatchObject({ label: 'Up', ownerName: 'Acme Staging' });
    expect(byName['api-sandbox']).toMatchObject({ label: 'Asleep' });
    expect(byName['partner-portal']).toMatchObject({
      label: 'Error',
      cause: "unexpected clever cloud state 'MODERATED'",
    });
    expect(byName['internal-wiki']).toBeUndefined();
    expect((await api.listApps({ state: 'Down' })).every((a) => a.state === 'Down')).toBe(true);
    expect((await api.listApps({ errorsOnly: true })).map((a) => a.name)).toEqual(['partner-portal']);
  });

  it('refuses invalid input naming the field, and applies nothing', async () => {
    const { api, idOf } = await start();
    const before = await api.listRoutes();
    const app = await idOf('idle-review');
    const bad = api.createRoute({ appId: app.appId, ownerId: app.ownerId, gracePeriodMs: 5 });
    await expect(bad).rejects.toBeInstanceOf(InputError);
    await expect(bad).rejects.toMatchObject({ problems: [{ field: 'gracePeriodMs' }] });
    const routeId = app.routeIds[0]!;
    await expect(
      api.updateRoute({ routeId, changes: { gracePeriodMs: 5, ranges: [] } }),
    ).rejects.toMatchObject({
      problems: [{ field: 'gracePeriodMs', code: 'tooShort', params: { value: 5, min: 60_000 } }],
    });
    await expect(api.updateSettings({ failTimeoutMs: 10 })).rejects.toMatchObject({
      problems: [{ field: 'failTimeoutMs' }],
    });
    expect(await api.listRoutes()).toEqual(before);
  });

  it('refuses a route to an app Clever Cloud does not know', async () => {
    const { api, idOf } = await start();
    const { ownerId } = await idOf('idle-review');
    await expect(api.createRoute({ appId: 'app_unknown', ownerId })).rejects.toMatchObject({
      problems: [{ field: 'appId' }],
    });
  });

  it('refuses a host another app routes, naming that app (its id beside the name)', async () => {
    const { api, idOf } = await start();
    const shop = await idOf('shop-staging');
    const idle = await idOf('idle-review');
    const expected = {
      problems: [
        {
          field: 'hosts',
          code: 'hostTaken',
          params: { value: 'shop.staging.localhost', other: `shop-staging (${shop.appId})` },
          message: `Wake-proxy hosts: shop.staging.localhost already routes to another app (shop-staging (${shop.appId})).`,
        },
      ],
    };
    await expect(
      api.updateRoute({ routeId: idle.routeIds[0]!, changes: { hosts: ['shop.staging.localhost'] } }),
    ).rejects.toMatchObject(expected);
    await expect(
      api.createRoute({ appId: idle.appId, ownerId: idle.ownerId, hosts: ['shop.staging.localhost'] }),
    ).rejects.toMatchObject(expected);
  });

  it('puts an app picked from the account under the reaper', async () => {
    const { api, idOf, until } = await start();
    const owners = await api.listOwners();
    const acme = owners.find((o) => o.name === 'Acme Staging')!;
    const wiki = (await api.listOwnerApps({ ownerId: acme.id })).find((a) => a.name === 'internal-wiki')!;
    expect(wiki.routeIds).toEqual([]);
    await api.createRoute({ appId: wiki.id, ownerId: acme.id });
    // Named by its id until the engine first reads it from Clever Cloud.
    const view = async () => (await api.listApps()).find((a) => a.appId === wiki.id);
    expect((await view())?.label).toBe('Initializing');
    await until(async () => (await view())?.state === 'Up');
    expect((await idOf('internal-wiki')).routeIds).toHaveLength(1);
  });

  it('wakes a sleeping app and, when asked, answers once it is Up', async () => {
    const { api, idOf, clock } = await start();
    const { appId } = await idOf('api-sandbox');
    const woken = api.wake({ appId, wait: true, source: 'dashboard' });
    let done = false;
    // Settled either way; a failure is thrown by the `await woken` below.
    const settled = () => {
      done = true;
    };
    woken.then(settled, settled);
    for (let t = 0; t < 5 * MINUTE && !done; t += SECOND) await clock.advance(SECOND);
    const view = await woken;
    expect(view.label).toBe('Up');
    expect(view.lastRequestSource).toBe('dashboard');
  });

  it('refuses to wake an app in Error: it needs a reset', async () => {
    const { api, idOf } = await start();
    const { appId } = await idOf('partner-portal');
    await expect(api.wake({ appId })).rejects.toBeInstanceOf(ConflictError);
  });

  it('resets an app in Error back to Initializing, then to its real state', async () => {
    const { api, idOf, until } = await start();
    const { appId } = await idOf('billing-preview');
    await api.wake({ appId });
    await until(async () => (await idOf('billing-preview')).state === 'Error');
    expect((await idOf('billing-preview')).cause).toBe('the app failed to start on clever cloud');
    const reset = await api.reset({ appId });
    expect(['WaitingForInit', 'Down']).toContain(reset.state);
    await until(async () => (await idOf('billing-preview')).state === 'Down');
    const transitions = (await api.history({ appId }))
      .filter((h) => h.from !== null && h.to !== null)
      .map((h) => `${h.from}->${h.to}`);
    expect(transitions.slice(0, 2)).toEqual(['WaitingForInit->Down', 'Error->WaitingForInit']);
  });

  it('keeps an app awake until a time to come, and refuses a time already past', async () => {
    const { api, idOf, clock } = await start();
    const { appId } = await idOf('idle-review');
    await expect(api.keepAwake({ appId, until: clock.now() - 1 })).rejects.toMatchObject({
      problems: [{ field: 'until' }],
    });
    const until = new Date(clock.now() + 2 * 60 * MINUTE).toISOString();
    const view = await api.keepAwake({ appId, until, source: 'dashboard' });
    expect(view.keepAwakeUntil).toBe(Date.parse(until));
    expect(view.sleepsAt).toBeGreaterThanOrEqual(Date.parse(until));
  });

  it('disables the reaper for an app: its routes are disabled and it is released at once, started first', async () => {
    const { api, idOf, events } = await start();
    const { appId } = await idOf('old-reports');
    const result = await api.release({ appId });
    expect(result.disabledRoutes.map((r) => r.enabled)).toEqual([false]);
    expect((await api.listApps()).some((a) => a.appId === appId)).toBe(false);
    expect(events).toContainEqual({ type: 'removed', appId });
    const [release] = await api.history({ appId, limit: 1 });
    expect(release).toMatchObject({ kind: 'release', actor: 'operator' });
    expect(release?.reason).toContain('started so that it is not left asleep');
  });

  it('pushes settings and every app again when the kill switch changes', async () => {
    const { api, events } = await start();
    events.length = 0;
    await api.updateSettings({ killSwitch: true });
    await until('the settings and the apps pushed', 10_000, async () =>
      ['settings', 'apps'].every((type) => events.some((e) => e.type === type)),
    );
    expect(events.find((e) => e.type === 'settings')).toMatchObject({ settings: { killSwitch: true } });
    const apps = events.find((e) => e.type === 'apps');
    expect(
      apps?.type === 'apps' && apps.apps.filter((a) => a.state === 'Up').map((a) => a.sleepNote),
    ).toEqual(expect.arrayContaining(['kill switch on']));
  });

  it('answers 404-style for an app it does not manage', async () => {
    const { api } = await start();
    await expect(api.getApp({ appId: 'app_nope' })).rejects.toBeInstanceOf(NotFoundError);
    await expect(api.history({ appId: 'app_nope' })).rejects.toBeInstanceOf(NotFoundError);
  });

  it('without an account, offers the demo, and switches to it', async () => {
    const { api, events } = await start('account');
    expect((await api.status()).mode).toBe('disconnected');
    await expect(api.listApps()).rejects.toBeInstanceOf(UnavailableError);
    await expect(api.connect({ source: 'clever-tools' })).rejects.toBeInstanceOf(ConflictError);
    const status = await api.startDemo();
    expect(status.mode).toBe('demo');
    expect(events.some((e) => e.type === 'session')).toBe(true);
    expect((await api.listApps()).length).toBeGreaterThan(0);
  });

  it('numbers its events, and says which ones a snapshot includes', async () => {
    const { service, api } = await start();
    const seqs: number[] = [];
    service.subscribe((_e, seq) => seqs.push(seq));
    const before = await api.snapshot();
    await api.updateSettings({ dryRun: true });
    expect(seqs.length).toBeGreaterThan(0);
    expect(seqs.every((seq, i) => seq === before.seq + i + 1)).toBe(true);
    expect((await api.snapshot()).seq).toBe(seqs.at(-1));
  });

  it('reads Clever Cloud again when asked to reconcile, and does nothing without a session', async () => {
    const { service } = await start();
    const port = service.current?.clever;
    if (!(port instanceof InProcessCleverPort)) throw new Error('the test demo runs in-process');
    const reads = () => port.calls.get('listApplications') ?? 0;
    const before = reads();
    await service.reconcile();
    expect(reads()).toBeGreaterThan(before);
    const { service: disconnected } = await start('account');
    expect(disconnected.mode).toBe('disconnected');
    await expect(disconnected.reconcile()).resolves.toBeUndefined();
  });

  it('names the call that does not exist', async () => {
    const { service } = await start();
    await expect(service.call('nope' as 'status', {})).rejects.toBeInstanceOf(NotFoundError);
    expect(new ApiError('conflict', 'x').code).toBe('conflict');
  });
});
