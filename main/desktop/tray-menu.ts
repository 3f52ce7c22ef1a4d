/**
 * The tray menu as data: what it shows for a status, the apps and the preferences, and the action
 * each item asks for. Pure, so what the operator sees is tested in Node; tray.ts turns it into an
 * Electron Menu and the shell runs the actions.
 *
 *   Clever Reaper: An app is in Error          (the status, disabled)
 *   ──
 *   In Error                                   (header)
 *     billing-preview ▸  the cause / Reset / Show in the dashboard
 *   Wake ▸  api-sandbox, docs-preview, …       (sleeping apps)
 *   ──
 *   ☐ Pause the reaper (kill switch)
 *   ☐ Dry-run
 *   ──
 *   Open the dashboard
 *   Preferences ▸  ☐ Start at login / ☐ Notify on sleep and wake
 *   ──
 *   Quit Clever Reaper
 */
import type { MenuItemConstructorOptions } from 'electron';
import type { TFunction } from 'i18next';
import { assertNever } from '../../shared/domain.ts';
import {
  killSwitchWho,
  signedInAs,
  statusLabel,
  type TrayApp,
  type TrayInput,
  type TrayStatus,
  teamTrouble,
  trayRefusal,
  trayTitle,
  trayWords,
} from './tray-status.ts';

export type TrayAction =
  | { kind: 'open-dashboard' }
  | { kind: 'show-app'; appId: string }
  | { kind: 'reset'; appId: string }
  | { kind: 'wake'; appId: string }
  | { kind: 'kill-switch'; on: boolean }
  | { kind: 'dry-run'; on: boolean }
  | { kind: 'start-at-login'; on: boolean }
  | { kind: 'notify-sleep-wake'; on: boolean }
  | { kind: 'quit' };

export type MenuSpec =
  | { type: 'separator' }
  | { type: 'normal'; label: string; enabled: boolean; action?: TrayAction }
  | { type: 'checkbox'; label: string; checked: boolean; enabled: boolean; action: TrayAction }
  | { type: 'submenu'; label: string; items: MenuSpec[] };

/** What the tray shows: drawn by tray.ts, computed by the controller. */
export interface TrayView {
  status: TrayStatus;
  tooltip: string;
  menu: MenuSpec[];
}

/** What the controller needs of the tray (tests give a fake). */
export interface TrayPort {
  render(view: TrayView): void;
}

export interface DesktopPreferences {
  /** null: this platform (or this build) cannot start the app at login. */
  startAtLogin: boolean | null;
  notifySleepWake: boolean;
}

export interface TrayMenuInput extends TrayInput {
  status: TrayStatus;
  preferences: DesktopPreferences;
}

/** Apps listed per section; the rest are counted and left to the dashboard. */
export const MENU_APPS_MAX = 15;
const NAME_MAX = 48;

const separator: MenuSpec = { type: 'separator' };

function shortName(name: string): string {
  return name.length <= NAME_MAX ? name : `${name.slice(0, NAME_MAX - 1)}…`;
}

function byName(a: TrayApp, b: TrayApp): number {
  return a.name.localeCompare(b.name) || a.appId.localeCompare(b.appId);
}

function more(count: number, t: TFunction<'tray'>): MenuSpec {
  return {
    type: 'normal',
    label: t('menu.more', { count }),
    enabled: true,
    action: { kind: 'open-dashboard' },
  };
}

export function trayMenu(input: TrayMenuInput): MenuSpec[] {
  const t = trayWords(input);
  const items: MenuSpec[] = [];
  const title = trayTitle(input);
  const trouble = teamTrouble(input);
  const detail = trouble
    ? trouble
    : input.mode === 'disconnected'
      ? t('noAccount')
      : statusLabel(input.status, input.language);
  items.push({ type: 'normal', label: t('line', { title, detail }), enabled: false });
  const as = signedInAs(input);
  if (as) items.push({ type: 'normal', label: as, enabled: false });
  // A viewer's tray is read-only, an operator's may not touch the switches: disabled, the reason said.
  const actRefused = trayRefusal(input, 'operator');
  const switchRefused = trayRefusal(input, 'admin');

  const inError = input.apps.filter((a) => a.state === 'Error').sort(byName);
  const asleep = input.apps.filter((a) => a.state === 'Down').sort(byName);
  if (inError.length || asleep.length) items.push(separator);
  if (inError.length) {
    items.push({ type: 'normal', label: t('menu.inError', { count: inError.length }), enabled: false });
    for (const app of inError.slice(0, MENU_APPS_MAX)) {
      items.push({
        type: 'submenu',
        label: shortName(app.name),
        items: [
          { type: 'normal', label: app.cause ?? t('menu.noCause'), enabled: false },
          ...(actRefused ? [{ type: 'normal' as const, label: actRefused, enabled: false }] : []),
          separator,
          {
            type: 'normal',
            label: t('menu.reset'),
            enabled: actRefused === null,
            action: { kind: 'reset', appId: app.appId },
          },
          {
            type: 'normal',
            label: t('menu.showApp'),
            enabled: true,
            action: { kind: 'show-app', appId: app.appId },
          },
        ],
      });
    }
    if (inError.length > MENU_APPS_MAX) items.push(more(inError.length - MENU_APPS_MAX, t));
  }
  if (asleep.length) {
    const wake: MenuSpec[] = asleep.slice(0, MENU_APPS_MAX).map((app) => ({
      type: 'normal',
      label: shortName(app.name),
      enabled: actRefused === null,
      action: { kind: 'wake', appId: app.appId },
    }));
    if (asleep.length > MENU_APPS_MAX) wake.push(separator, more(asleep.length - MENU_APPS_MAX, t));
    if (actRefused) wake.unshift({ type: 'normal', label: actRefused, enabled: false }, separator);
    items.push({ type: 'submenu', label: t('menu.wake', { count: asleep.length }), items: wake });
  }

  const connected = input.mode !== 'disconnected' && input.switches !== null;
  const killSwitch = input.switches?.killSwitch ?? false;
  const dryRun = input.switches?.dryRun ?? false;
  items.push(
    separator,
    {
      type: 'checkbox',
      label: t('menu.killSwitch'),
      checked: killSwitch,
      enabled: connected && switchRefused === null,
      action: { kind: 'kill-switch', on: !killSwitch },
    },
    ...(() => {
      const who = killSwitchWho(input, 'menu');
      return who ? [{ type: 'normal' as const, label: who, enabled: false }] : [];
    })(),
    {
      type: 'checkbox',
      label: t('menu.dryRun'),
      checked: dryRun,
      enabled: connected && switchRefused === null,
      action: { kind: 'dry-run', on: !dryRun },
    },
    ...(switchRefused ? [{ type: 'normal' as const, label: switchRefused, enabled: false }] : []),
    separator,
    {
      type: 'normal',
      label: t('menu.openDashboard'),
      enabled: true,
      action: { kind: 'open-dashboard' },
    },
  );

  const { startAtLogin, notifySleepWake } = input.preferences;
  const preferences: MenuSpec[] = [];
  if (startAtLogin !== null) {
    preferences.push({
      type: 'checkbox',
      label: t('menu.startAtLogin'),
      checked: startAtLogin,
      enabled: true,
      action: { kind: 'start-at-login', on: !startAtLogin },
    });
  }
  preferences.push({
    type: 'checkbox',
    label: t('menu.notifySleepWake'),
    checked: notifySleepWake,
    enabled: true,
    action: { kind: 'notify-sleep-wake', on: !notifySleepWake },
  });
  items.push({ type: 'submenu', label: t('menu.preferences'), items: preferences }, separator, {
    type: 'normal',
    label: t('menu.quit'),
    enabled: true,
    action: { kind: 'quit' },
  });
  return items;
}

/**
 * A label as Windows and Linux menus show it: there `&` marks the access key of an item, so an app
 * named "R&D" would lose its `&` (and gain an access key) unless doubled.
 */
export function menuLabel(text: string, platform: NodeJS.Platform): string {
  return platform === 'darwin' ? text : text.replaceAll('&', '&&');
}

/** An Electron menu template for the specs; `run` is called with the action of a clicked item. */
export function toMenuTemplate(
  specs: readonly MenuSpec[],
  platform: NodeJS.Platform,
  run: (action: TrayAction) => void,
): MenuItemConstructorOptions[] {
  return specs.map((spec): MenuItemConstructorOptions => {
    switch (spec.type) {
      case 'separator':
        return { type: 'separator' };
      case 'submenu':
        return {
          label: menuLabel(spec.label, platform),
          submenu: toMenuTemplate(spec.items, platform, run),
        };
      case 'checkbox':
      case 'normal': {
        const { action } = spec;
        return {
          type: spec.type,
          label: menuLabel(spec.label, platform),
          enabled: spec.enabled,
          ...(spec.type === 'checkbox' ? { checked: spec.checked } : {}),
          ...(action ? { click: () => run(action) } : {}),
        };
      }
      default:
        return assertNever(spec);
    }
  });
}
