import { describe, expect, it, vi } from 'vitest';
import { NO_CREDENTIALS, type ReaperListener, type Snapshot } from '../../shared/api.ts';
import { appView, fakeApi } from '../test/fake-api.ts';
import { createDashboardStore } from './dashboard-store.ts';

/** A fake API whose snapshot answers when the test says, and whose events carry chosen numbers. */
function controlled() {
  const api = fakeApi({ apps: [appView('shop', 'Up')] });
  let listener: ReaperListener = () => {};
  api.subscribe = (l) => {
    listener = l;
    return () => {};
  };
  let answer: (s: Snapshot) => void = () => {};
  api.answer('snapshot', () => new Promise<Snapshot>((resolve) => (answer = resolve)));
  const snapshot = (seq: number, state: 'Up' | 'Down') =>
    answer({
      seq,
      status: {
        now: Date.now(),
        timeScale: 1,
        mode: 'demo',
        scenario: 'e2e',
        version: 'test',
        wakeProxy: { url: null },
        problems: [],
        credentials: NO_CREDENTIALS,
      },
      apps: [appView('shop', state)],
      routes: [],
      rules: [],
      settings: {} as Snapshot['settings'],
    });
  const push: ReaperListener = (event, seq) => listener(event, seq);
  return { api, snapshot, push };
}

const settle = async () => {
  await vi.advanceTimersByTimeAsync(100);
};

describe('the dashboard store', () => {
  it('keeps an event newer than the snapshot that arrived while the snapshot was on its way', async () => {
    vi.useFakeTimers();
    const { api, snapshot, push } = controlled();
    const store = createDashboardStore(api);
    store.getState().start();
    push({ type: 'app', app: appView('shop', 'WaitingForShutdown') }, 11);
    await settle();
    snapshot(10, 'Up');
    await settle();
    expect(store.getState().apps.app_shop?.label).toBe('Going to sleep');
    vi.useRealTimers();
  });

  it('does not go back to an event the snapshot already includes', async () => {
    vi.useFakeTimers();
    const { api, snapshot, push } = controlled();
    const store = createDashboardStore(api);
    store.getState().start();
    snapshot(12, 'Down');
    await settle();
    push({ type: 'app', app: appView('shop', 'WaitingForShutdown') }, 11);
    await settle();
    expect(store.getState().apps.app_shop?.label).toBe('Asleep');
    push({ type: 'app', app: appView('shop', 'WaitingForUp') }, 13);
    await settle();
    expect(store.getState().apps.app_shop?.label).toBe('Waking up');
    vi.useRealTimers();
  });

  it('shows an alert once, even when it is replayed over a snapshot', async () => {
    vi.useFakeTimers();
    const { api, snapshot, push } = controlled();
    const store = createDashboardStore(api);
    store.getState().start();
    push(
      { type: 'alert', appId: 'app_shop', name: 'shop', cause: 'the app failed to start on clever cloud' },
      5,
    );
    await settle();
    snapshot(4, 'Up');
    await settle();
    expect(store.getState().toasts.filter((t) => t.kind === 'alert')).toHaveLength(1);
    vi.useRealTimers();
  });
});

describe('the store actions', () => {
  it('apply an answer as its pushed event would, and the event that follows changes nothing more', async () => {
    vi.useFakeTimers();
    const api = fakeApi({ apps: [appView('shop', 'Up')] });
    const store = createDashboardStore(api);
    store.getState().start();
    await settle();
    const saved = await store.getState().saveSettings({ killSwitch: true });
    expect(store.getState().settings?.killSwitch).toBe(true);
    const before = store.getState();
    api.emit({ type: 'settings', settings: saved });
    await settle();
    expect(store.getState().settings).toEqual(before.settings);
    expect(store.getState().toasts).toEqual(before.toasts);
    // An event after the answer still lands: the answer did not move the sequence.
    api.emit({ type: 'settings', settings: { ...saved, killSwitch: false } });
    await settle();
    expect(store.getState().settings?.killSwitch).toBe(false);
    vi.useRealTimers();
  });

  it('put a saved route in place of its former self, and a new one at the end', async () => {
    vi.useFakeTimers();
    const api = fakeApi({ apps: [appView('shop', 'Up'), appView('blog', 'Down')] });
    const store = createDashboardStore(api);
    store.getState().start();
    await settle();
    await store.getState().updateRoute('route_shop', { enabled: false });
    expect(store.getState().routes.map((r) => [r.id, r.enabled])).toEqual([
      ['route_shop', false],
      ['route_blog', true],
    ]);
    await store.getState().createRoute({ appId: 'app_wiki', ownerId: 'orga_acme' });
    expect(store.getState().routes.map((r) => r.id)).toEqual(['route_shop', 'route_blog', 'route_new']);
    expect(api.calls.map((c) => c.name)).toEqual(['snapshot', 'updateRoute', 'createRoute']);
    vi.useRealTimers();
  });

  it('throw a refusal to the form that asked, and change nothing', async () => {
    vi.useFakeTimers();
    const api = fakeApi({ apps: [appView('shop', 'Up')] });
    api.answer('updateSettings', () => {
      throw new Error('refused');
    });
    const store = createDashboardStore(api);
    store.getState().start();
    await settle();
    const before = store.getState().settings;
    await expect(store.getState().saveSettings({ dryRun: true })).rejects.toThrow('refused');
    expect(store.getState().settings).toBe(before);
    vi.useRealTimers();
  });

  it('tells in an error toast the failure of an action nobody awaits, and keeps going', async () => {
    vi.useFakeTimers();
    const api = fakeApi({ apps: [appView('shop', 'Up')] });
    api.answer('updateRoute', () => {
      throw new Error('the reaper refused the route');
    });
    const store = createDashboardStore(api);
    store.getState().start();
    await settle();
    store.getState().perform(() => store.getState().updateRoute('route_shop', { enabled: false }));
    store.getState().perform(() => store.getState().setSwitch('dryRun', true));
    await settle();
    expect(store.getState().toasts.map((t) => [t.kind, t.text])).toEqual([
      ['error', 'the reaper refused the route'],
    ]);
    expect(store.getState().settings?.dryRun).toBe(true);
    vi.useRealTimers();
  });
});
