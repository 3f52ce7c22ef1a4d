/**
 * The desktop shell's behaviour on the real service (the e2e demo scenario on a manual clock), with
 * fakes for the window, the tray, the notifications and the login item: what the operator sees in
 * the tray and the notifications, and what the tray's items, the links and a resume do.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ReaperEvent } from '../../shared/api.ts';
import { MINUTE, SECOND } from '../../shared/durations.ts';
import { ManualClock } from '../engine/clocks.ts';
import type { ReaperService } from '../service/reaper-service.ts';
import { startRuntime } from '../service/runtime.ts';
import { buildE2eScenario } from '../simulator/scenarios.ts';
import { MONDAY_9AM } from '../testing/engine-harness.ts';
import { DesktopController } from './controller.ts';
import type { LoginItem } from './login-item.ts';
import type { NotificationSpec } from './notifications.ts';
import { DESKTOP_DEFAULTS, type DesktopPrefs } from './settings-file.ts';
import type { MenuSpec, TrayView } from './tray-menu.ts';

const e2e = buildE2eScenario(new ManualClock(0));
/** The e2e scenario's apps, every one under a route, and those asleep at the start. */
const E2E_APPS = e2e.apps.length;
const E2E_ASLEEP = [...e2e.cloud.apps.values()].filter((a) => a.state === 'SHOULD_BE_DOWN').length;

let clock: ManualClock;
let service: ReaperService;
let controller: DesktopController;
let drawn: TrayView[];
let shown: NotificationSpec[];
let pushed: ReaperEvent[];
let windowOpened: number;
let reconciled: number;
let prefs: DesktopPrefs;
let quit: number;
let login: LoginItem & { on: boolean };

async function start(options: { notices?: string[]; systemLanguages?: string[] } = {}) {
  clock = new ManualClock(MONDAY_9AM);
  service = await startRuntime({
    demo: true,
    scenario: 'e2e',
    timeScale: 1,
    dataDir: mkdtempSync(join(tmpdir(), 'reaper-desktop-')),
    apiUrl: null,
    env: {},
    demoClock: clock,
    ...(options.notices ? { notices: () => options.notices! } : {}),
  });
  controller = new DesktopController({
    service: {
      call: (name, input) => service.call(name, input),
      subscribe: (listener) => service.subscribe(listener),
      reconcile: async () => {
        reconciled += 1;
        await service.reconcile();
      },
    },
    window: { open: () => (windowOpened += 1) },
    tray: { render: (view) => drawn.push(view) },
    pipe: { push: (event) => pushed.push(event) },
    notifications: { show: (n) => shown.push(n) },
    prefs: { get: () => prefs, update: (changes) => (prefs = { ...prefs, ...changes }) },
    login,
    quit: () => (quit += 1),
    trayDelayMs: 0,
    ...(options.systemLanguages ? { systemLanguages: () => options.systemLanguages! } : {}),
  });
  await controller.start();
}

beforeEach(() => {
  drawn = [];
  shown = [];
  pushed = [];
  windowOpened = 0;
  reconciled = 0;
  quit = 0;
  prefs = { ...DESKTOP_DEFAULTS };
  login = {
    supported: true,
    on: false,
    isEnabled: () => login.on,
    setEnabled: (on) => {
      login.on = on;
    },
  };
});
afterEach(async () => {
  controller?.stop();
  await service?.close();
});

const tray = () => drawn.at(-1)!;
const appId = async (name: string) =>
  (await service.call('listApps', {})).find((a) => a.name === name)!.appId;

function item(menu: MenuSpec[], label: string): MenuSpec | undefined {
  for (const i of menu) {
    if (i.type !== 'separator' && i.label === label) return i;
    if (i.type === 'submenu') {
      const found = item(i.items, label);
      if (found) return found;
    }
  }
  return undefined;
}

describe('the tray', () => {
  it('turns red with the app in Error, counts the apps, and lists what can be woken', async () => {
    await start();
    await clock.advance(5 * SECOND);
    await vi.waitFor(() => expect(tray().status).toBe('error'));
    expect(tray().tooltip).toMatch(
      new RegExp(`^Clever Reaper \\(demo\\): ${E2E_APPS} apps \\(1 Error, .*\\)$`),
    );
    expect(item(tray().menu, 'partner-portal')).toBeDefined();
    expect(item(tray().menu, `Wake (${E2E_ASLEEP} asleep)`)).toBeDefined();
  });

  it('wakes an app from its menu, as the tray (the history says who asked)', async () => {
    await start();
    await clock.advance(5 * SECOND);
    const id = await appId('api-sandbox');
    await controller.run({ kind: 'wake', appId: id });
    await vi.waitFor(async () => {
      const reasons = (await service.call('history', { appId: id, limit: 10 })).map((e) => e.reason);
      expect(reasons.join('\n')).toContain('asked for by tray');
    });
  });

  it('pauses the reaper with the kill switch, and shows it checked', async () => {
    await start();
    await clock.advance(5 * SECOND);
    await controller.run({ kind: 'kill-switch', on: true });
    expect((await service.call('getSettings', {})).killSwitch).toBe(true);
    await vi.waitFor(() =>
      expect(item(tray().menu, 'Pause the reaper (kill switch)')).toMatchObject({ checked: true }),
    );
    expect(tray().tooltip).toContain('kill switch on');
  });

  it('says in a notification when an action of its menu fails', async () => {
    await start();
    await clock.advance(5 * SECOND);
    await controller.run({ kind: 'wake', appId: await appId('partner-portal') });
    expect(shown.at(-1)).toMatchObject({ title: 'Could not wake partner-portal', urgent: false });
    expect(shown.at(-1)?.body).toMatch(/in Error/);
  });

  it('switches start at login and sleep-wake notifications, and shows them checked', async () => {
    await start();
    await controller.run({ kind: 'start-at-login', on: true });
    await controller.run({ kind: 'notify-sleep-wake', on: true });
    expect(login.on).toBe(true);
    expect(prefs.notifySleepWake).toBe(true);
    expect(item(tray().menu, 'Start at login')).toMatchObject({ checked: true });
    expect(item(tray().menu, 'Notify on sleep and wake')).toMatchObject({ checked: true });
  });

  it('quits from its menu', async () => {
    await start();
    await controller.run({ kind: 'quit' });
    expect(quit).toBe(1);
  });
});

describe('notifications', () => {
  it('announce an app that enters Error with its cause; a click shows it in the dashboard', async () => {
    await start();
    await clock.advance(5 * SECOND);
    const id = await appId('billing-preview');
    await service.call('wake', { appId: id, source: 'dashboard' });
    await clock.advance(MINUTE);
    await vi.waitFor(() =>
      expect(shown.find((n) => n.title === 'billing-preview is in Error')?.body).toBe(
        'the app failed to start on clever cloud',
      ),
    );
    shown.find((n) => n.title === 'billing-preview is in Error')!.onClick();
    expect(windowOpened).toBe(1);
    expect(pushed).toEqual([{ type: 'show-app', appId: id }]);
  });

  it('carry the warnings of the start (a settings file set aside), once', async () => {
    await start({ notices: ['The settings file could not be read'] });
    expect(shown.filter((n) => n.body === 'The settings file could not be read')).toHaveLength(1);
    await service.call('startDemo', {});
    expect(shown.filter((n) => n.body === 'The settings file could not be read')).toHaveLength(1);
  });

  it('tell once that closing the window leaves the reaper running', async () => {
    await start();
    controller.windowClosed();
    controller.windowClosed();
    expect(shown.filter((n) => n.title === 'Clever Reaper is still running')).toHaveLength(1);
    expect(prefs.trayHintShown).toBe(true);
  });

  it('do not tell it when the window closes because the app quits', async () => {
    await start();
    controller.stop();
    controller.windowClosed();
    expect(shown.filter((n) => n.title === 'Clever Reaper is still running')).toEqual([]);
    expect(prefs.trayHintShown).toBe(false);
  });
});

describe('the language', () => {
  it("follows the system's: a French system gets the tray and the notifications in French", async () => {
    await start({ systemLanguages: ['fr-FR', 'en-US'] });
    await clock.advance(5 * SECOND);
    await vi.waitFor(() => expect(tray().status).toBe('error'));
    expect(controller.language()).toBe('fr');
    expect(tray().tooltip).toMatch(
      new RegExp(`^Clever Reaper \\(démo\\) : ${E2E_APPS} applications \\(1 En erreur, .*\\)$`),
    );
    expect(item(tray().menu, `Réveiller (${E2E_ASLEEP} en veille)`)).toBeDefined();
    await controller.run({ kind: 'wake', appId: await appId('partner-portal') });
    expect(shown.at(-1)).toMatchObject({ title: 'Impossible de réveiller partner-portal' });
    controller.windowClosed();
    expect(shown.at(-1)).toMatchObject({ title: 'Clever Reaper fonctionne toujours' });
  });

  it("the operator's choice wins over the system's, is kept, and null goes back to the system's", async () => {
    await start({ systemLanguages: ['de-DE', 'fr-CH'] });
    expect(tray().menu.at(-1)).toMatchObject({ label: 'Quitter Clever Reaper' });
    expect(controller.setLanguage('en')).toBe('en');
    expect(prefs.language).toBe('en');
    expect(tray().menu.at(-1)).toMatchObject({ label: 'Quit Clever Reaper' });
    await controller.openLink('clever-reaper://nowhere');
    expect(shown.at(-1)).toMatchObject({ title: 'Clever Reaper cannot open this link' });
    expect(controller.setLanguage(null)).toBe('fr');
    expect(prefs.language).toBeUndefined();
    expect(tray().menu.at(-1)).toMatchObject({ label: 'Quitter Clever Reaper' });
  });

  it('is English on a system whose languages it does not speak', async () => {
    await start({ systemLanguages: ['de-DE', 'it'] });
    expect(controller.language()).toBe('en');
    expect(tray().menu.at(-1)).toMatchObject({ label: 'Quit Clever Reaper' });
  });
});

describe('clever-reaper:// links', () => {
  it('open an app in the dashboard', async () => {
    await start();
    await controller.openLink('clever-reaper://open/app_x');
    expect(windowOpened).toBe(1);
    expect(pushed).toEqual([{ type: 'show-app', appId: 'app_x' }]);
  });

  it('open a place of the dashboard: the same route as the web dashboard URL', async () => {
    await start();
    await controller.openLink('clever-reaper://open/apps?state=Error');
    expect(windowOpened).toBe(1);
    expect(pushed).toEqual([{ type: 'navigate', route: '#/apps?state=Error' }]);
  });

  it('wake an app (as a link, in its history), then show it', async () => {
    await start();
    await clock.advance(5 * SECOND);
    const id = await appId('api-sandbox');
    await controller.openLink(`clever-reaper://wake/${id}`);
    expect((await service.call('getApp', { appId: id })).app.state).toBe('WaitingForUp');
    const reasons = (await service.call('history', { appId: id, limit: 10 })).map((e) => e.reason);
    expect(reasons.join('\n')).toContain('asked for by link');
    expect(pushed).toEqual([{ type: 'show-app', appId: id }]);
  });

  it('that are not understood open the dashboard and say so', async () => {
    await start();
    await controller.openLink('clever-reaper://delete/app_x');
    expect(windowOpened).toBe(1);
    expect(shown.at(-1)?.title).toBe('Clever Reaper cannot open this link');
    expect(pushed).toEqual([]);
  });
});

describe('a resume from OS sleep', () => {
  it('reads every app at once', async () => {
    await start();
    await controller.resumed();
    expect(reconciled).toBe(1);
  });
});
