/**
 * The desktop as a console of a team server, against a real headless server on loopback (the demo
 * scenario) and a real local engine: the address and token checked before anything changes, the
 * local engine turned off, calls and events from the server, reconnection and a visible
 * "disconnected", a refused token, back to local in one call, and the mode kept across a restart with
 * the OS keychain (Electron's safeStorage: a working one, and the fake Electron's, which has none).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppView, ReaperEvent } from '../../shared/api.ts';
import { ApiError } from '../../shared/api-errors.ts';
import { type ConsoleState, checkServerUrl } from '../../shared/team-console.ts';
import { type Headless, startHeadless } from '../server/headless.ts';
import type { ReaperService } from '../service/reaper-service.ts';
import { startRuntime } from '../service/runtime.ts';
import { createConsoleHandler } from './console-ipc.ts';
import { ConsoleMode, type LocalBackend } from './console-mode.ts';
import { DesktopController } from './controller.ts';
import type { Trust } from './ipc.ts';
import { type SafeStoragePort, SafeStorageSecrets } from './safe-storage-secrets.ts';
import { DESKTOP_DEFAULTS } from './settings-file.ts';
import { safeStorage as noKeychain } from './testing/fake-electron.ts';
import type { TrayView } from './tray-menu.ts';

const TOKEN = 'the-team-servers-admin-token';
const dirs: string[] = [];
const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

async function teamServer(port = 0, token = TOKEN): Promise<Headless> {
  const server = await startHeadless({
    demo: true,
    scenario: 'demo',
    host: '127.0.0.1',
    port,
    dataDir: tempDir('reaper-team-server-'),
    apiUrl: null,
    timeScale: 1,
    staticDir: null,
    env: { REAPER_ADMIN_TOKEN: token },
    heartbeatMs: 200,
  });
  closers.push(() => server.close());
  return server;
}

/** A keychain that works (encryption is not what is tested here). */
const keychain: SafeStoragePort = {
  isAsyncEncryptionAvailable: async () => true,
  encryptStringAsync: async (text) => Buffer.from(`sealed:${Buffer.from(text).toString('base64')}`),
  decryptStringAsync: async (sealed) => ({
    shouldReEncrypt: false,
    result: Buffer.from(sealed.toString().replace(/^sealed:/, ''), 'base64').toString(),
  }),
};

interface Console {
  mode: ConsoleMode;
  store: SafeStorageSecrets;
  locals: ReaperService[];
  events: ReaperEvent[];
  states: ConsoleState[];
}

async function desktop(dataDir: string, port: SafeStoragePort = keychain): Promise<Console> {
  const store = await SafeStorageSecrets.open({
    file: join(dataDir, 'team-server.safe'),
    safeStorage: port,
    platform: 'darwin',
  });
  const locals: ReaperService[] = [];
  const mode = new ConsoleMode({
    startLocal: async (): Promise<LocalBackend> => {
      const service = await startRuntime({
        demo: true,
        scenario: 'e2e',
        timeScale: 1,
        dataDir,
        apiUrl: null,
        env: {},
      });
      locals.push(service);
      return {
        call: (name, input) => service.call(name, input),
        subscribe: (listener) => service.subscribe(listener),
        reconcile: async () => service.current?.engine.reconcileNow(),
        close: () => service.close(),
      };
    },
    store,
    remote: { retryMs: 50, maxRetryMs: 200, silenceMs: 2000 },
  });
  const events: ReaperEvent[] = [];
  const states: ConsoleState[] = [];
  mode.subscribe((event) => events.push(event));
  mode.onState((state) => states.push(state));
  closers.push(async () => {
    await mode.close();
    await store.flush();
  });
  await mode.start();
  return { mode, store, locals, events, states };
}

async function until<T>(what: () => T | undefined | null | false, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = what();
    if (value) return value;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * The desktop's controller on a console, drawing its tray into the list returned (closed after the
 * test); its calls made as the tray's when `via` says so.
 */
async function trayOf(d: Console, via?: 'tray'): Promise<TrayView[]> {
  const drawn: TrayView[] = [];
  const controller = new DesktopController({
    service: {
      call: ((name: Parameters<ConsoleMode['call']>[0], input: unknown) =>
        via ? d.mode.call(name, input, via) : d.mode.call(name, input)) as never,
      subscribe: (listener) => d.mode.subscribe(listener),
      reconcile: () => d.mode.reconcile(),
    },
    console: d.mode,
    window: { open: () => undefined },
    tray: { render: (view) => drawn.push(view) },
    pipe: { push: () => undefined },
    notifications: { show: () => undefined },
    prefs: { get: () => DESKTOP_DEFAULTS, update: () => DESKTOP_DEFAULTS },
    login: { supported: false, isEnabled: () => false, setEnabled: () => undefined },
    quit: () => undefined,
    trayDelayMs: 0,
  });
  closers.push(async () => controller.stop());
  await controller.start();
  return drawn;
}

async function refusal(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('not refused');
}

describe("a team server's address", () => {
  it('is https, or http on this computer only, and the origin alone', () => {
    expect(checkServerUrl(' https://reaper.example.com/ ')).toEqual({
      url: 'https://reaper.example.com',
      host: 'reaper.example.com',
    });
    expect(checkServerUrl('http://127.0.0.1:7410')).toEqual({
      url: 'http://127.0.0.1:7410',
      host: '127.0.0.1:7410',
    });
    expect(checkServerUrl('http://localhost:7410')).toMatchObject({ host: 'localhost:7410' });
    expect(checkServerUrl('http://[::1]:7410')).toMatchObject({ host: '[::1]:7410' });
    const problems = [
      '',
      'reaper.example.com',
      'http://reaper.example.com',
      'http://10.0.0.5:7410',
      'ftp://reaper.example.com',
      'https://user:pw@reaper.example.com',
      'https://reaper.example.com/api',
      'https://reaper.example.com/?token=x',
    ].map((text) => ('problem' in checkServerUrl(text) ? 'refused' : text));
    expect(problems.every((p) => p === 'refused')).toBe(true);
    expect(checkServerUrl('http://reaper.example.com')).toEqual({
      problem:
        'The address must be https:// (http:// is accepted on this computer only: localhost, 127.0.0.1)',
    });
  });
});

describe('the desktop as a console of a team server', () => {
  it('checks the address and the token first: the local engine runs on after a refusal', async () => {
    const server = await teamServer();
    const dir = tempDir('reaper-console-');
    const d = await desktop(dir);
    expect(d.mode.state()).toEqual({ mode: 'local' });
    expect(d.locals).toHaveLength(1);

    const badUrl = await refusal(d.mode.connect({ url: 'http://reaper.example.com', token: TOKEN }));
    expect(badUrl.code).toBe('invalid-input');
    expect(badUrl.problems[0]?.field).toBe('url');
    const noToken = await refusal(d.mode.connect({ url: server.url, token: '  ' }));
    expect(noToken.problems[0]).toEqual({ field: 'token', message: "Enter the team server's admin token" });
    const wrong = await refusal(d.mode.connect({ url: server.url, token: 'not-the-token' }));
    expect(wrong.problems[0]).toEqual({
      field: 'token',
      message: 'The team server refused this admin token',
    });
    const { port } = new URL(server.url);
    await server.close();
    const gone = await refusal(d.mode.connect({ url: `http://127.0.0.1:${port}`, token: TOKEN }));
    expect(gone.problems[0]?.field).toBe('url');
    expect(gone.message).toMatch(/^The team server cannot be reached at http:\/\/127\.0\.0\.1:\d+/);

    // Nothing changed: still local, its engine running, nothing kept.
    expect(d.mode.state()).toEqual({ mode: 'local' });
    expect(d.locals[0]!.current?.engine.isRunning).toBe(true);
    expect(d.store.load()).toBeNull();
  });

  it('turns the local engine off and answers from the server; events come from its stream', async () => {
    const server = await teamServer();
    const dir = tempDir('reaper-console-');
    const d = await desktop(dir);
    const localEngine = d.locals[0]!.current!.engine;
    const host = new URL(server.url).host;

    const state = await d.mode.connect({ url: `${server.url}/`, token: TOKEN });
    expect(state).toMatchObject({ mode: 'team', url: server.url, host });
    expect(localEngine.isRunning).toBe(false);
    expect(d.locals[0]!.current).toBeNull();
    await until(
      () =>
        d.mode.state().mode === 'team' && (d.mode.state() as { connection: string }).connection === 'live',
    );
    expect(d.states.map((s) => (s.mode === 'team' ? s.connection : s.mode)).at(-1)).toBe('live');

    // The server's apps, not the local e2e scenario's.
    const apps = (await d.mode.call('listApps', {})) as AppView[];
    const serverApps = (await server.service.call('listApps', {})) as AppView[];
    expect(apps.map((a) => a.appId).sort()).toEqual(serverApps.map((a) => a.appId).sort());
    expect(d.events.some((e) => e.type === 'session')).toBe(true);

    // A change made on the server (by another operator) reaches this desktop's listeners.
    await server.service.call('updateSettings', { dryRun: true });
    await until(() => d.events.find((e) => e.type === 'settings' && e.settings.dryRun));
    // And a change made here is the server's.
    await d.mode.call('updateSettings', { dryRun: false });
    expect(((await server.service.call('getSettings', {})) as { dryRun: boolean }).dryRun).toBe(false);
    // Refusals keep their code and field problems across HTTP.
    const invalid = await refusal(d.mode.call('updateSettings', { graceMs: -5 }));
    expect(invalid.code).toBe('invalid-input');

    // Kept with the keychain, never in clear.
    const kept = JSON.parse(d.store.load()!) as { url: string; token: string };
    expect(kept).toEqual({ url: server.url, token: TOKEN });
    await d.store.flush();
    expect(readFileSync(join(dir, 'team-server.safe'), 'utf8')).not.toContain(TOKEN);
  });

  it('shows "disconnected" when the server goes away, reconnects and starts again from a snapshot', async () => {
    const first = await teamServer();
    const { port } = new URL(first.url);
    const d = await desktop(tempDir('reaper-console-'));
    await d.mode.connect({ url: first.url, token: TOKEN });
    const connection = () => (d.mode.state() as { connection?: string }).connection;
    await until(() => connection() === 'live');

    await first.close();
    await until(() => connection() === 'reconnecting');
    const failed = await refusal(d.mode.call('listApps', {}));
    expect(failed.code).toBe('unavailable');

    const sessionsBefore = d.events.filter((e) => e.type === 'session').length;
    await teamServer(Number(port));
    await until(() => connection() === 'live');
    await until(() => d.events.filter((e) => e.type === 'session').length > sessionsBefore);
    expect(((await d.mode.call('listApps', {})) as AppView[]).length).toBeGreaterThan(0);
  });

  it('says when the server refuses the token it was given', async () => {
    const first = await teamServer();
    const { port } = new URL(first.url);
    const d = await desktop(tempDir('reaper-console-'));
    await d.mode.connect({ url: first.url, token: TOKEN });
    const connection = () => (d.mode.state() as { connection?: string }).connection;
    await until(() => connection() === 'live');
    await first.close();
    await teamServer(Number(port), 'a-rotated-admin-token');
    await until(() => connection() === 'unauthorized');
  });

  it('goes back to local in one call, and opens in the mode it was left in', async () => {
    const server = await teamServer();
    const dir = tempDir('reaper-console-');
    const d = await desktop(dir);
    await d.mode.connect({ url: server.url, token: TOKEN });
    await d.mode.close();
    await d.store.flush();

    // Restarted: team mode at once, the local engine never started.
    const restarted = await desktop(dir);
    expect(restarted.locals).toHaveLength(0);
    expect(restarted.mode.state()).toMatchObject({ mode: 'team', url: server.url });
    await until(() => (restarted.mode.state() as { connection?: string }).connection === 'live');

    expect(await restarted.mode.switchToLocal()).toEqual({ mode: 'local' });
    expect(restarted.locals).toHaveLength(1);
    expect(restarted.locals[0]!.current?.engine.isRunning).toBe(true);
    expect(restarted.store.load()).toBeNull();
    const local = (await restarted.mode.call('listApps', {})) as AppView[];
    const remote = (await server.service.call('listApps', {})) as AppView[];
    expect(local.map((a) => a.appId).sort()).not.toEqual(remote.map((a) => a.appId).sort());
    expect(restarted.events.filter((e) => e.type === 'session').length).toBeGreaterThanOrEqual(2);
  });

  it('without a keychain (the fake Electron has none), follows the server for this run only', async () => {
    const server = await teamServer();
    const dir = tempDir('reaper-console-');
    const d = await desktop(dir, noKeychain);
    expect(d.store.unavailable).not.toBeNull();
    expect(await d.mode.connect({ url: server.url, token: TOKEN })).toMatchObject({ mode: 'team' });
    await d.mode.close();
    const restarted = await desktop(dir, noKeychain);
    expect(restarted.mode.state()).toEqual({ mode: 'local' });
  });
});

describe('the console over IPC, and the tray in team mode', () => {
  const PAGE = 'file:///app/out/renderer/index.html';
  const trust: Trust = { page: { kind: 'file', url: PAGE }, isAppWindow: (id) => id === 7 };
  const from = (url = PAGE) => ({ sender: { id: 7 }, senderFrame: { url, parent: null } });

  it("answers the app's window only, and known operations only", async () => {
    const server = await teamServer();
    const d = await desktop(tempDir('reaper-console-'));
    const handle = createConsoleHandler(d.mode, trust);
    expect(
      await handle(from('https://evil.example/'), 'connect', { url: server.url, token: TOKEN }),
    ).toMatchObject({
      ok: false,
      error: { code: 'unauthorized' },
    });
    expect(await handle(from(), 'format-disk', {})).toMatchObject({
      ok: false,
      error: { code: 'invalid-input' },
    });
    expect(await handle(from(), 'get', {})).toEqual({ ok: true, value: { mode: 'local' } });
    expect(await handle(from(), 'connect', { url: server.url, token: 'wrong' })).toMatchObject({
      ok: false,
      error: { code: 'invalid-input', problems: [{ field: 'token' }] },
    });
    expect(await handle(from(), 'connect', { url: server.url, token: TOKEN })).toMatchObject({
      ok: true,
      value: { mode: 'team', url: server.url },
    });
    expect(await handle(from(), 'local', {})).toEqual({ ok: true, value: { mode: 'local' } });
  });

  it('names the team server in the tray, and says when it is lost', async () => {
    const first = await teamServer();
    const { port, host } = new URL(first.url);
    const d = await desktop(tempDir('reaper-console-'));
    const drawn = await trayOf(d);
    await d.mode.connect({ url: first.url, token: TOKEN });
    const serverApps = ((await first.service.call('listApps', {})) as AppView[]).length;
    const last = () => drawn.at(-1);
    await until(() => last()?.tooltip.startsWith(`Clever Reaper (team server ${host}): ${serverApps} apps`));
    await first.close();
    await until(
      () =>
        last()?.tooltip === `Clever Reaper (team server ${host}): disconnected from ${host}, reconnecting…`,
    );
    expect(last()?.status).toBe('paused');
    expect(last()?.menu[0]).toMatchObject({ label: expect.stringContaining(`disconnected from ${host}`) });
    await teamServer(Number(port));
    await until(() => last()?.tooltip.startsWith(`Clever Reaper (team server ${host}): ${serverApps} apps`));
  });

  it("signs in with a person's own token: says who and which role; a viewer's tray is read-only, the reason said", async () => {
    const server = await teamServer();
    const { token } = await server.people.createToken({ name: 'vera', role: 'viewer' }, 'test');
    const d = await desktop(tempDir('reaper-console-'));
    const drawn = await trayOf(d, 'tray');
    await d.mode.connect({ url: server.url, token });
    // The window's header reads it from the console state (the token is kept as every token is: sealed).
    await until(() => d.states.find((s) => s.mode === 'team' && s.who));
    expect(d.mode.state()).toMatchObject({ mode: 'team', who: { name: 'vera', role: 'viewer' } });
    const labels = (items: TrayView['menu']): { label: string; enabled: boolean | undefined }[] =>
      items.flatMap((i) =>
        i.type === 'separator'
          ? []
          : i.type === 'submenu'
            ? [{ label: i.label, enabled: undefined }, ...labels(i.items)]
            : [{ label: i.label, enabled: i.enabled }],
      );
    const menu = await until(() => {
      const m = drawn.at(-1)?.menu;
      return m && labels(m).some((l) => l.label === 'Signed in as vera (viewer)') ? labels(m) : null;
    });
    expect(drawn.at(-1)?.tooltip).toContain('vera, viewer');
    const kill = menu.find((l) => l.label === 'Pause the reaper (kill switch)');
    expect(kill?.enabled).toBe(false);
    expect(menu.some((l) => l.label === 'Read-only here: this needs the admin role, you are viewer')).toBe(
      true,
    );
    // The server refuses what the tray would not offer: the role is the server's, the tray only says it.
    await expect(d.mode.call('updateSettings', { killSwitch: true }, 'tray')).rejects.toThrow(/admin role/);
  });
});
