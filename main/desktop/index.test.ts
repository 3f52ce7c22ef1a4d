/**
 * The desktop app's main process (index.ts, as electron-vite bundles it) started on a fake of
 * Electron (testing/fake-electron.ts, aliased by vitest.config.ts): what the wiring does with the
 * window, the IPC, the tray, the settings file and quitting. The Electron binary cannot run here;
 * this runs everything around it. The e2e `electron` project runs the real one where it exists.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Snapshot } from '../../shared/api.ts';
import type { Envelope } from '../../shared/api-errors.ts';
import { CALL_CHANNEL, EVENT_CHANNEL, LANGUAGE_CHANNEL, READY_CHANNEL } from '../../shared/ipc.ts';
import { ManualClock } from '../engine/clocks.ts';
import { buildE2eScenario } from '../simulator/scenarios.ts';

/** The e2e scenario's apps, every one under a route. */
const E2E_APPS = buildE2eScenario(new ManualClock(0)).apps.length;

type Fake = typeof import('./testing/fake-electron.ts');

const argv = process.argv;
beforeEach(() => {
  // The app logs to the console as well as to its file: keep the test output for the results.
  vi.spyOn(console, 'log').mockImplementation(() => undefined);
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => {
  process.argv = argv;
  vi.restoreAllMocks();
});

/** Import index.ts afresh on a fresh fake, with this command line, and let Electron be ready. */
async function launch(args: string[], before?: (electron: Fake) => void): Promise<Fake> {
  vi.resetModules();
  process.argv = [process.execPath, '.', ...args];
  const electron = (await import('electron')) as unknown as Fake;
  before?.(electron);
  await import('./index.ts');
  electron.app.becomeReady();
  await vi.waitFor(() => expect(electron.fake.trays).toHaveLength(1), { timeout: 20_000 });
  return electron;
}

async function quit(electron: Fake) {
  electron.app.quit();
  await vi.waitFor(() => expect(electron.fake.quit).toBe(true), { timeout: 20_000 });
}

function trusted(electron: Fake) {
  const win = electron.fake.windows[0]!;
  return { sender: win.webContents, senderFrame: { url: win.url, parent: null } };
}

async function call<T>(electron: Fake, name: string, input: unknown = {}, event = trusted(electron)) {
  const handler = electron.fake.handlers.get(CALL_CHANNEL) as unknown as (
    e: unknown,
    n: string,
    i: unknown,
  ) => Promise<Envelope<T>>;
  return handler(event, name, input);
}

describe('the desktop main process', () => {
  it('opens a sandboxed window on the built dashboard, with the preload, in the data folder given', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'reaper-main-'));
    const electron = await launch(['--demo', '--scenario', 'e2e', '--data-dir', dataDir]);
    try {
      expect(electron.app.getPath('userData')).toBe(dataDir);
      const win = electron.fake.windows[0]!;
      expect(win.options).toMatchObject({ show: false });
      // Every security preference spelled out (Electron's checklist, items 2-4, 6, 8-10, 12). Checked
      // here, not only by the security scan: electronegativity 1.10 cannot see nodeIntegration
      // turned on in a window whose preferences also name `sandbox`.
      const {
        preload: _preload,
        devTools: _devTools,
        ...prefs
      } = win.options.webPreferences as Record<string, unknown>;
      expect(prefs).toEqual({
        contextIsolation: true,
        sandbox: true,
        nodeIntegration: false,
        nodeIntegrationInWorker: false,
        nodeIntegrationInSubFrames: false,
        webSecurity: true,
        allowRunningInsecureContent: false,
        experimentalFeatures: false,
        webviewTag: false,
        navigateOnDragDrop: false,
        spellcheck: false,
      });
      // And every renderer sandboxed whatever its preferences, from before Electron is ready.
      expect(electron.fake.sandboxedBeforeReady).toBe(true);
      expect(String((win.options.webPreferences as { preload: string }).preload)).toMatch(
        /preload[/\\]index\.cjs$/,
      );
      expect(win.url).toMatch(/^file:\/\/.*\/renderer\/index\.html$/);
      await vi.waitFor(() => expect(win.visible).toBe(true));
      // No menu bar on Linux and Windows; navigation and new windows are restricted.
      expect(electron.fake.applicationMenu).toBeNull();
      expect(win.webContents.openHandler?.({ url: 'https://evil.example/' } as never)).toEqual({
        action: 'deny',
      });
      // A link the app builds goes to the browser, through Electron's shell; nothing else does.
      win.webContents.openHandler?.({ url: 'https://console.clever-cloud.com/' } as never);
      win.webContents.openHandler?.({ url: 'file:///etc/passwd' } as never);
      expect(electron.fake.opened).toEqual(['https://console.clever-cloud.com/']);
      expect(existsSync(join(dataDir, 'logs', 'main.log'))).toBe(true);
    } finally {
      await quit(electron);
    }
  });

  it('denies every permission, in the default session and in any session created later', async () => {
    const electron = await launch(['--demo', '--data-dir', mkdtempSync(join(tmpdir(), 'reaper-main-'))]);
    try {
      const later = new electron.FakeSession();
      electron.app.emit('session-created', later);
      for (const s of [electron.session.defaultSession, later]) {
        const answers: boolean[] = [];
        (s.requestHandler as unknown as (c: unknown, p: string, cb: (ok: boolean) => void) => void)(
          {},
          'media',
          (ok) => answers.push(ok),
        );
        expect(answers).toEqual([false]);
        expect((s.checkHandler as unknown as () => boolean)()).toBe(false);
        expect((s.deviceHandler as unknown as () => boolean)()).toBe(false);
      }
    } finally {
      await quit(electron);
    }
  });

  it("answers the dashboard's calls over IPC, pushes the engine's events once it listens, and refuses strangers", async () => {
    const electron = await launch([
      '--demo',
      '--scenario',
      'e2e',
      '--data-dir',
      mkdtempSync(join(tmpdir(), 'reaper-main-')),
    ]);
    try {
      const snapshot = await call<Snapshot>(electron, 'snapshot');
      expect(snapshot.ok && snapshot.value.status.mode).toBe('demo');
      expect(snapshot.ok && snapshot.value.apps).toHaveLength(E2E_APPS);

      const stranger = { ...trusted(electron), senderFrame: { url: 'https://evil.example/', parent: null } };
      expect(await call(electron, 'snapshot', {}, stranger)).toMatchObject({
        ok: false,
        error: { code: 'unauthorized' },
      });

      const win = electron.fake.windows[0]!;
      (electron.fake.listeners.get(READY_CHANNEL) as unknown as (e: unknown) => void)(trusted(electron));
      expect(await call(electron, 'updateSettings', { dryRun: true })).toMatchObject({ ok: true });
      await vi.waitFor(() =>
        expect(
          win.webContents.sent.some(
            ([channel, event]) =>
              channel === EVENT_CHANNEL && (event as { type: string }).type === 'settings',
          ),
        ).toBe(true),
      );
    } finally {
      await quit(electron);
    }
  });

  it('draws the tray from the reaper, and quits from its menu, stopping the reaper first', async () => {
    const electron = await launch([
      '--demo',
      '--scenario',
      'e2e',
      '--data-dir',
      mkdtempSync(join(tmpdir(), 'reaper-main-')),
    ]);
    const tray = electron.fake.trays[0]!;
    await vi.waitFor(() =>
      expect(tray.tooltip).toMatch(new RegExp(`^Clever Reaper \\(demo\\): ${E2E_APPS} apps`)),
    );
    expect((tray.image as { path: string }).path).toMatch(/build[/\\]icons[/\\]tray[/\\][\w-]+(@2x)?\.png$/);
    const quitItem = tray.menu?.template.find((i) => i.label === 'Quit Clever Reaper');
    quitItem?.click?.();
    await vi.waitFor(() => expect(electron.fake.quit).toBe(true), { timeout: 20_000 });
    expect(tray.destroyed).toBe(true);
    // The service is closed: a call after Quit finds no session.
    expect(await call(electron, 'listApps')).toMatchObject({ ok: false, error: { code: 'unavailable' } });
  });

  it("speaks the system's language in the tray, then the one chosen in the dashboard, kept across a restart", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'reaper-main-'));
    const args = ['--demo', '--scenario', 'e2e', '--data-dir', dataDir];
    const quitLabel = (electron: Fake) => electron.fake.trays[0]!.menu?.template.at(-1)?.label;
    const setLanguage = (electron: Fake, choice: unknown, event: unknown = trusted(electron)) =>
      (
        electron.fake.handlers.get(LANGUAGE_CHANNEL) as unknown as (
          e: unknown,
          c: unknown,
        ) => Promise<unknown>
      )(event, choice);
    let electron = await launch(args, (e) => {
      // Some Linux desktops give no list: the UI locale then.
      e.fake.systemLanguages = [];
      e.fake.locale = 'fr-FR';
    });
    try {
      await vi.waitFor(() => expect(quitLabel(electron)).toBe('Quitter Clever Reaper'));
      expect(electron.fake.trays[0]!.tooltip).toMatch(/^Clever Reaper \(démo\) : \d+ applications/);
      expect(await setLanguage(electron, 'en')).toEqual({
        ok: true,
        value: { choice: 'en', language: 'en' },
      });
      expect(quitLabel(electron)).toBe('Quit Clever Reaper');
      expect(JSON.parse(readFileSync(join(dataDir, 'config.json'), 'utf8')).desktop.language).toBe('en');
      // Anything else is refused, and so is a page that is not the app's.
      expect(await setLanguage(electron, 'de')).toMatchObject({
        ok: false,
        error: { code: 'invalid-input' },
      });
      const stranger = { sender: { id: 999 }, senderFrame: { url: 'https://example.org/', parent: null } };
      expect(await setLanguage(electron, 'fr', stranger)).toMatchObject({
        ok: false,
        error: { code: 'unauthorized' },
      });
      expect(quitLabel(electron)).toBe('Quit Clever Reaper');
    } finally {
      await quit(electron);
    }
    // Restarted on a French system: the choice (English) is kept.
    electron = await launch(args, (e) => {
      e.fake.systemLanguages = ['fr-FR'];
    });
    try {
      await vi.waitFor(() => expect(electron.fake.trays[0]!.tooltip).toMatch(/^Clever Reaper \(demo\): /));
      expect(quitLabel(electron)).toBe('Quit Clever Reaper');
      expect(await setLanguage(electron, null)).toEqual({
        ok: true,
        value: { choice: null, language: 'fr' },
      });
      expect(quitLabel(electron)).toBe('Quitter Clever Reaper');
      expect(JSON.parse(readFileSync(join(dataDir, 'config.json'), 'utf8')).desktop).not.toHaveProperty(
        'language',
      );
    } finally {
      await quit(electron);
    }
  });

  it('starts from the defaults with a warning in the dashboard and a notification when the settings file is corrupt', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'reaper-main-'));
    writeFileSync(join(dataDir, 'config.json'), '{"routes": [');
    const electron = await launch(['--data-dir', dataDir]);
    try {
      const status = await call<{ problems: string[]; mode: string }>(electron, 'status');
      expect(status.ok && status.value.mode).toBe('disconnected');
      expect(status.ok && status.value.problems[0]).toMatch(
        /The settings file could not be read .*config\.json\.corrupt-\d+/,
      );
      expect(readdirSync(dataDir).filter((f) => f.startsWith('config.json.corrupt-'))).toHaveLength(1);
      await vi.waitFor(() =>
        expect(electron.fake.notifications.map((n) => n.options.body)).toContainEqual(
          expect.stringMatching(/The settings file could not be read/),
        ),
      );
    } finally {
      await quit(electron);
    }
  });

  it('says what is wrong with its command line, and exits', async () => {
    vi.resetModules();
    process.argv = [process.execPath, '.', '--scenario', 'e2e'];
    const electron = (await import('electron')) as unknown as Fake;
    await import('./index.ts');
    expect(electron.fake.errors[0]).toMatch(/^--scenario: only with --demo\n\nUsage: clever-reaper/);
    expect(electron.fake.exitCode).toBe(2);
  });
});
