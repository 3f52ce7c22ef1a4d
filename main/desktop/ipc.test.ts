/**
 * The IPC transport without Electron: the main side's handlers called as ipcMain would call them,
 * the preload's bridge and the dashboard's unwrapping around them, and every value copied the way
 * IPC copies it (structured clone), on the real service running the e2e demo scenario.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CALL_NAMES, type CallName, type ReaperEvent } from '../../shared/api.ts';
import { ApiError, type Envelope, problemsOf } from '../../shared/api-errors.ts';
import { SECOND } from '../../shared/durations.ts';
import { apiFromBridge, BRIDGE_CALLS, bridgeFromInvoke, EVENT_CHANNEL } from '../../shared/ipc.ts';
import { ManualClock } from '../engine/clocks.ts';
import type { ReaperService } from '../service/reaper-service.ts';
import { startRuntime } from '../service/runtime.ts';
import { MONDAY_9AM } from '../testing/engine-harness.ts';
import {
  createCallHandler,
  createReadyHandler,
  EventPipe,
  HELD_MAX,
  isTrustedSender,
  type PushTarget,
  type SenderInfo,
  type Trust,
} from './ipc.ts';

const PAGE = 'file:///opt/Clever%20Reaper/resources/app.asar/renderer/index.html';
const trust: Trust = { page: { kind: 'file', url: PAGE }, isAppWindow: (id) => id === 7 };

function sender(
  overrides: Partial<{ id: number; url: string; parent: unknown; frame: null }> = {},
): SenderInfo {
  return {
    sender: { id: overrides.id ?? 7 },
    senderFrame:
      overrides.frame === null
        ? null
        : { url: overrides.url ?? `${PAGE}#apps`, parent: overrides.parent ?? null },
  };
}

describe('the IPC sender check', () => {
  it("trusts the main frame of the app's window on the app's page", () => {
    expect(isTrustedSender(sender(), trust)).toBe(true);
  });

  it.each([
    ['another webContents', sender({ id: 8 })],
    ['an iframe of the window', sender({ parent: {} })],
    ['another page in the window', sender({ url: 'https://evil.example/' })],
    ['another file', sender({ url: 'file:///tmp/evil.html' })],
    ['a frame that is gone', sender({ frame: null })],
  ])('refuses %s', (_what, event) => {
    expect(isTrustedSender(event, trust)).toBe(false);
  });

  it("trusts the dev server's origin when the page comes from it", () => {
    const dev: Trust = { page: { kind: 'dev', url: 'http://localhost:5173/' }, isAppWindow: () => true };
    expect(isTrustedSender(sender({ url: 'http://localhost:5173/index.html' }), dev)).toBe(true);
    expect(isTrustedSender(sender({ url: 'http://localhost:5174/' }), dev)).toBe(false);
  });
});

describe('the call handler', () => {
  const calls: [CallName, unknown][] = [];
  const handler = createCallHandler(
    {
      call: async (name, input) => {
        calls.push([name, input]);
        return { ok: name };
      },
    },
    trust,
  );
  beforeEach(() => {
    calls.length = 0;
  });

  it('answers a known call from the app with an envelope', async () => {
    expect(await handler(sender(), 'status', {})).toEqual({ ok: true, value: { ok: 'status' } });
    expect(calls).toEqual([['status', {}]]);
  });

  it('refuses a call from anywhere else, without reaching the service', async () => {
    const answer = await handler(sender({ url: 'https://evil.example/' }), 'release', { appId: 'app_1' });
    expect(answer).toEqual({ ok: false, error: { code: 'unauthorized', message: expect.any(String) } });
    expect(calls).toEqual([]);
  });

  it('refuses a name that is not a call, inherited names included', async () => {
    for (const name of ['nope', '__proto__', 'constructor', 'toString', 42, null]) {
      const answer = await handler(sender(), name, {});
      expect(answer).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
    }
    expect(calls).toEqual([]);
  });

  it('hides an unexpected error behind "internal", and logs it', async () => {
    const logged: string[] = [];
    const failing = createCallHandler(
      {
        call: async () => {
          throw new Error('disk on fire at /home/op/secret-path');
        },
      },
      trust,
      (_level, message) => logged.push(message),
    );
    const answer = await failing(sender(), 'status', {});
    expect(answer).toMatchObject({ ok: false, error: { code: 'internal' } });
    expect(JSON.stringify(answer)).not.toContain('secret-path');
    expect(logged[0]).toContain('disk on fire');
  });
});

class FakeContents implements PushTarget {
  readonly sent: [ReaperEvent, number][] = [];
  destroyed = false;
  readonly id: number;
  constructor(id = 7) {
    this.id = id;
  }
  isDestroyed() {
    return this.destroyed;
  }
  send(channel: string, event: ReaperEvent, seq: number) {
    expect(channel).toBe(EVENT_CHANNEL);
    this.sent.push([structuredClone(event), seq]);
  }
}

const removed = (appId: string): ReaperEvent => ({ type: 'removed', appId });

describe('the push channel', () => {
  it('holds events while the page loads, then sends them in order once it listens', () => {
    const pipe = new EventPipe();
    const contents = new FakeContents();
    pipe.attach(contents);
    pipe.push(removed('app_1'), 1);
    pipe.push({ type: 'show-app', appId: 'app_2' }, 0);
    expect(contents.sent).toEqual([]);
    createReadyHandler(pipe, trust)(sender());
    pipe.push(removed('app_3'), 2);
    expect(contents.sent.map(([e, seq]) => [e.type, seq])).toEqual([
      ['removed', 1],
      ['show-app', 0],
      ['removed', 2],
    ]);
  });

  it('does not take "ready" from another sender', () => {
    const pipe = new EventPipe();
    const contents = new FakeContents();
    pipe.attach(contents);
    createReadyHandler(pipe, trust)(sender({ url: 'https://evil.example/' }));
    pipe.push(removed('app_1'), 1);
    expect(contents.sent).toEqual([]);
  });

  it('holds events again while the page reloads', () => {
    const pipe = new EventPipe();
    const contents = new FakeContents();
    pipe.attach(contents);
    pipe.markReady(7);
    pipe.attach(contents);
    pipe.push(removed('app_1'), 1);
    expect(contents.sent).toEqual([]);
    expect(pipe.waiting).toBe(1);
  });

  it('with no window, keeps only the shell\'s "show this app" for the next one', () => {
    const pipe = new EventPipe();
    pipe.push(removed('app_1'), 1);
    pipe.push({ type: 'show-app', appId: 'app_2' }, 0);
    const contents = new FakeContents();
    pipe.attach(contents);
    pipe.markReady(7);
    expect(contents.sent).toEqual([[{ type: 'show-app', appId: 'app_2' }, 0]]);
  });

  it('drops what it held for a window that closed, but a "show this app"', () => {
    const pipe = new EventPipe();
    const contents = new FakeContents();
    pipe.attach(contents);
    pipe.push(removed('app_1'), 1);
    pipe.push({ type: 'show-app', appId: 'app_2' }, 0);
    pipe.detach(contents);
    expect(pipe.waiting).toBe(1);
  });

  it('holds a bounded number of events, dropping the oldest engine events first', () => {
    const pipe = new EventPipe();
    const contents = new FakeContents();
    pipe.attach(contents);
    pipe.push({ type: 'show-app', appId: 'app_0' }, 0);
    for (let seq = 1; seq <= HELD_MAX + 10; seq++) pipe.push(removed(`app_${seq}`), seq);
    expect(pipe.waiting).toBe(HELD_MAX);
    pipe.markReady(7);
    expect(contents.sent[0]).toEqual([{ type: 'show-app', appId: 'app_0' }, 0]);
    expect(contents.sent[1]?.[1]).toBe(12);
  });

  it('sends nothing to a destroyed window', () => {
    const pipe = new EventPipe();
    const contents = new FakeContents();
    pipe.attach(contents);
    pipe.markReady(7);
    contents.destroyed = true;
    pipe.push(removed('app_1'), 1);
    expect(contents.sent).toEqual([]);
  });
});

describe('the bridge, end to end over a copying transport', () => {
  let service: ReaperService;
  let clock: ManualClock;

  beforeEach(async () => {
    clock = new ManualClock(MONDAY_9AM);
    service = await startRuntime({
      demo: true,
      scenario: 'e2e',
      timeScale: 1,
      dataDir: mkdtempSync(join(tmpdir(), 'reaper-ipc-')),
      apiUrl: null,
      env: {},
      demoClock: clock,
    });
    await clock.advance(5 * SECOND);
  });
  afterEach(() => service.close());

  /** What the dashboard gets: apiFromBridge(preload's bridge(ipcRenderer.invoke → handler)). */
  function dashboardApi() {
    const pipe = new EventPipe();
    const contents = new FakeContents();
    pipe.attach(contents);
    const handler = createCallHandler(service, trust);
    const invoke = async (name: CallName, input: unknown) =>
      structuredClone(await handler(sender(), name, structuredClone(input))) as Envelope<unknown>;
    const listeners = new Set<(event: ReaperEvent, seq: number) => void>();
    service.subscribe((event, seq) => pipe.push(event, seq));
    const bridge = bridgeFromInvoke(invoke, (listener) => {
      listeners.add(listener);
      pipe.markReady(7);
      return () => listeners.delete(listener);
    });
    return { api: apiFromBridge(bridge), contents };
  }

  it('has one bridge function per call of the contract', () => {
    expect([...BRIDGE_CALLS].sort()).toEqual([...CALL_NAMES].sort());
    const { api } = dashboardApi();
    for (const name of CALL_NAMES) expect(typeof api[name]).toBe('function');
  });

  it('answers calls with their values', async () => {
    const { api } = dashboardApi();
    const snapshot = await api.snapshot();
    expect(snapshot.status.mode).toBe('demo');
    expect(snapshot.apps.map((a) => a.name)).toContain('billing-preview');
  });

  it('rebuilds a refused input as an ApiError with the field of each problem, for the forms', async () => {
    const { api } = dashboardApi();
    const error = await api.updateSettings({ intervalMs: 5 } as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('invalid-input');
    expect(problemsOf(error, 'intervalMs')).toEqual([
      'Job interval: 0.005 seconds is too short; the least is 1 second.',
    ]);
  });

  it('rebuilds a conflict and a missing app with their codes', async () => {
    const { api } = dashboardApi();
    const missing = await api.wake({ appId: 'app_nope' }).catch((e: unknown) => e);
    expect(missing).toMatchObject({ code: 'not-found' });
    const failing = (await api.listApps()).find((a) => a.name === 'partner-portal')!;
    const conflict = await api.wake({ appId: failing.appId }).catch((e: unknown) => e);
    expect(conflict).toMatchObject({ code: 'conflict' });
  });

  it("pushes the engine's events to the window once the page listens", async () => {
    const { api, contents } = dashboardApi();
    api.subscribe(() => undefined);
    await api.updateSettings({ dryRun: true });
    expect(contents.sent.map(([e]) => e.type)).toContain('settings');
  });
});
