/** The tray's status, tooltip and menu, as data (tray.ts only draws them). */
import { describe, expect, it } from 'vitest';
import type { ReaperState } from '../../shared/domain.ts';
import {
  MENU_APPS_MAX,
  type MenuSpec,
  menuLabel,
  type TrayAction,
  type TrayMenuInput,
  toMenuTemplate,
  trayMenu,
} from './tray-menu.ts';
import { TOOLTIP_MAX, type TrayApp, type TrayInput, trayStatus, trayTooltip } from './tray-status.ts';

let n = 0;
function app(state: ReaperState, name = `app-${++n}`, cause: string | null = null): TrayApp {
  return { appId: `app_${name}`, name, state, cause };
}

const fine = { killSwitch: false, dryRun: false };

function input(apps: readonly TrayApp[], switches = fine, mode: TrayInput['mode'] = 'account'): TrayInput {
  return { mode, apps, switches };
}

function menuInput(partial: Partial<TrayMenuInput> = {}): TrayMenuInput {
  const base = input(partial.apps ?? []);
  return {
    ...base,
    status: trayStatus(base),
    preferences: { startAtLogin: false, notifySleepWake: false },
    ...partial,
  };
}

/** Every label of a menu, submenus flattened with " > ". */
function labels(items: MenuSpec[], prefix = ''): string[] {
  return items.flatMap((item) => {
    if (item.type === 'separator') return [];
    if (item.type === 'submenu')
      return [`${prefix}${item.label}`, ...labels(item.items, `${prefix}${item.label} > `)];
    return [`${prefix}${item.label}`];
  });
}

function find(items: MenuSpec[], label: string): MenuSpec | undefined {
  for (const item of items) {
    if (item.type !== 'separator' && item.label === label) return item;
    if (item.type === 'submenu') {
      const found = find(item.items, label);
      if (found) return found;
    }
  }
  return undefined;
}

function actionOf(items: MenuSpec[], label: string): TrayAction | undefined {
  const item = find(items, label);
  return item && (item.type === 'normal' || item.type === 'checkbox') ? item.action : undefined;
}

describe('the tray status', () => {
  it('is fine when every app is Up or Asleep, and when there is no app', () => {
    expect(trayStatus(input([app('Up'), app('Down')]))).toBe('ok');
    expect(trayStatus(input([]))).toBe('ok');
  });

  it('shows apps in transit: initializing, going to sleep, waking up', () => {
    for (const state of ['WaitingForInit', 'WaitingForShutdown', 'WaitingForUp'] as const) {
      expect(trayStatus(input([app('Up'), app(state)]))).toBe('transit');
    }
  });

  it('turns to Error as soon as one app is in Error, above everything else', () => {
    expect(trayStatus(input([app('Up'), app('Error')], { killSwitch: true, dryRun: true }))).toBe('error');
  });

  it('shows the kill switch above dry-run and apps in transit: a pause stays visible', () => {
    expect(trayStatus(input([app('WaitingForUp')], { killSwitch: true, dryRun: true }))).toBe('paused');
    expect(trayStatus(input([app('WaitingForUp')], { killSwitch: false, dryRun: true }))).toBe('dry-run');
  });
});

describe('the tray tooltip', () => {
  it('counts the apps per console state, the most urgent first, and names the switches on', () => {
    const apps = [app('Up'), app('Up'), app('Down'), app('Error'), app('WaitingForUp')];
    expect(trayTooltip(input(apps, { killSwitch: true, dryRun: false }))).toBe(
      'Clever Reaper: 5 apps (1 Error, 1 Waking up, 2 Up, 1 Asleep) · kill switch on',
    );
  });

  it('says when there is no account, and when it is the demo', () => {
    expect(trayTooltip(input([], fine, 'disconnected'))).toBe(
      'Clever Reaper: no Clever Cloud account connected',
    );
    expect(trayTooltip(input([app('Up')], { killSwitch: false, dryRun: true }, 'demo'))).toBe(
      'Clever Reaper (demo): 1 app (1 Up) · dry-run',
    );
  });

  it('stays within what Windows shows of a tooltip', () => {
    const states: ReaperState[] = [
      'Error',
      'WaitingForUp',
      'WaitingForShutdown',
      'WaitingForInit',
      'Up',
      'Down',
    ];
    const apps = states.flatMap((s) => Array.from({ length: 1000 }, () => app(s)));
    const text = trayTooltip(input(apps, { killSwitch: true, dryRun: true }, 'demo'));
    expect(text.length).toBeLessThanOrEqual(TOOLTIP_MAX);
    expect(text.endsWith('…')).toBe(true);
  });
});

describe('the tray menu', () => {
  it('has the status, the switches, the dashboard, the preferences and Quit, in that order', () => {
    expect(labels(trayMenu(menuInput()))).toEqual([
      'Clever Reaper: All fine',
      'Pause the reaper (kill switch)',
      'Dry-run',
      'Open the dashboard',
      'Preferences',
      'Preferences > Start at login',
      'Preferences > Notify on sleep and wake',
      'Quit Clever Reaper',
    ]);
  });

  it('lists the apps in Error with their cause, Reset and Show in the dashboard', () => {
    const broken = app('Error', 'billing-preview', 'the app failed to start on clever cloud');
    const base = input([broken, app('Up')]);
    const menu = trayMenu(menuInput({ ...base, status: trayStatus(base) }));
    expect(labels(menu)).toEqual(
      expect.arrayContaining([
        'Clever Reaper: An app is in Error',
        'In Error (1)',
        'billing-preview > the app failed to start on clever cloud',
        'billing-preview > Reset',
        'billing-preview > Show in the dashboard',
      ]),
    );
    expect(actionOf(menu, 'Reset')).toEqual({ kind: 'reset', appId: broken.appId });
    expect(actionOf(menu, 'Show in the dashboard')).toEqual({ kind: 'show-app', appId: broken.appId });
    expect(find(menu, 'the app failed to start on clever cloud')).toMatchObject({ enabled: false });
  });

  it('offers to wake each sleeping app, by name', () => {
    const menu = trayMenu(
      menuInput({ apps: [app('Down', 'zeta'), app('Down', 'alpha'), app('Up', 'up-one')] }),
    );
    const wake = find(menu, 'Wake (2 asleep)');
    expect(
      wake?.type === 'submenu' && wake.items.map((i) => (i.type === 'normal' ? i.label : i.type)),
    ).toEqual(['alpha', 'zeta']);
    expect(actionOf(menu, 'alpha')).toEqual({ kind: 'wake', appId: 'app_alpha' });
  });

  it('lists a few apps per section and sends to the dashboard for the rest', () => {
    const asleep = Array.from({ length: MENU_APPS_MAX + 5 }, (_, i) =>
      app('Down', `sleeper-${String(i).padStart(2, '0')}`),
    );
    const broken = Array.from({ length: MENU_APPS_MAX + 2 }, (_, i) =>
      app('Error', `broken-${String(i).padStart(2, '0')}`),
    );
    const menu = trayMenu(menuInput({ apps: [...asleep, ...broken] }));
    expect(labels(menu)).toContain('2 more: open the dashboard');
    expect(labels(menu)).toContain(`Wake (${MENU_APPS_MAX + 5} asleep) > 5 more: open the dashboard`);
    expect(actionOf(menu, '2 more: open the dashboard')).toEqual({ kind: 'open-dashboard' });
  });

  it('shows the switches as they are, and toggles them', () => {
    const base = input([], { killSwitch: true, dryRun: false });
    const menu = trayMenu(menuInput({ ...base, status: trayStatus(base) }));
    expect(find(menu, 'Pause the reaper (kill switch)')).toMatchObject({
      checked: true,
      enabled: true,
      action: { kind: 'kill-switch', on: false },
    });
    expect(find(menu, 'Dry-run')).toMatchObject({ checked: false, action: { kind: 'dry-run', on: true } });
    expect(labels(menu)[0]).toBe('Clever Reaper: Paused: the kill switch is on');
  });

  it('greys the switches out while no account is connected', () => {
    const base = { ...input([], fine, 'disconnected'), switches: null };
    const menu = trayMenu(menuInput({ ...base, status: trayStatus(base) }));
    expect(labels(menu)[0]).toBe('Clever Reaper: no account connected');
    expect(find(menu, 'Pause the reaper (kill switch)')).toMatchObject({ enabled: false });
    expect(find(menu, 'Dry-run')).toMatchObject({ enabled: false });
  });

  it('leaves Start at login out where the app cannot register itself', () => {
    const menu = trayMenu(menuInput({ preferences: { startAtLogin: null, notifySleepWake: true } }));
    expect(find(menu, 'Start at login')).toBeUndefined();
    expect(find(menu, 'Notify on sleep and wake')).toMatchObject({
      checked: true,
      action: { kind: 'notify-sleep-wake', on: false },
    });
  });

  it('keeps long app names short', () => {
    const menu = trayMenu(menuInput({ apps: [app('Down', 'x'.repeat(100))] }));
    const wake = find(menu, 'Wake (1 asleep)');
    const label = wake?.type === 'submenu' && wake.items[0]?.type === 'normal' ? wake.items[0].label : '';
    expect(label.length).toBeLessThanOrEqual(48);
  });
});

describe('the Electron menu template', () => {
  it('carries labels, checks and enablement, and runs the action of a clicked item', () => {
    const ran: TrayAction[] = [];
    const menu = trayMenu(menuInput({ apps: [app('Down', 'R&D portal')] }));
    const template = toMenuTemplate(menu, 'linux', (a) => ran.push(a));
    const wake = template.find((t) => t.label === 'Wake (1 asleep)');
    const item = (wake!.submenu as { label?: string; click?: () => void }[])[0]!;
    expect(item.label).toBe('R&&D portal');
    item.click!();
    expect(ran).toEqual([{ kind: 'wake', appId: 'app_R&D portal' }]);
    expect(template.find((t) => t.label === 'Dry-run')).toMatchObject({ type: 'checkbox', checked: false });
    expect(template[0]).toMatchObject({ enabled: false });
    expect(template.some((t) => t.type === 'separator')).toBe(true);
  });

  it("doubles '&' only where menus read it as an access key", () => {
    expect(menuLabel('R&D', 'win32')).toBe('R&&D');
    expect(menuLabel('R&D', 'darwin')).toBe('R&D');
  });
});
