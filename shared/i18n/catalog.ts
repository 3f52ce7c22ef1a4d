/**
 * Every catalogue, by language and namespace. A namespace per area of the interface keeps the files
 * small and lets each area's strings be found next to each other; add a namespace in both languages
 * and list it here.
 */
import { apps as enApps } from './en/apps.ts';
import { common as enCommon } from './en/common.ts';
import { firstRun as enFirstRun } from './en/firstRun.ts';
import { history as enHistory } from './en/history.ts';
import { notifications as enNotifications } from './en/notifications.ts';
import { reasons as enReasons } from './en/reasons.ts';
import { routes as enRoutes } from './en/routes.ts';
import { savings as enSavings } from './en/savings.ts';
import { settings as enSettings } from './en/settings.ts';
import { shell as enShell } from './en/shell.ts';
import { tray as enTray } from './en/tray.ts';
import { validation as enValidation } from './en/validation.ts';
import { waking as enWaking } from './en/waking.ts';
import { apps as frApps } from './fr/apps.ts';
import { common as frCommon } from './fr/common.ts';
import { firstRun as frFirstRun } from './fr/firstRun.ts';
import { history as frHistory } from './fr/history.ts';
import { notifications as frNotifications } from './fr/notifications.ts';
import { reasons as frReasons } from './fr/reasons.ts';
import { routes as frRoutes } from './fr/routes.ts';
import { savings as frSavings } from './fr/savings.ts';
import { settings as frSettings } from './fr/settings.ts';
import { shell as frShell } from './fr/shell.ts';
import { tray as frTray } from './fr/tray.ts';
import { validation as frValidation } from './fr/validation.ts';
import { waking as frWaking } from './fr/waking.ts';
import type { Language } from './languages.ts';
import type { Messages } from './messages.ts';

export const en = {
  apps: enApps,
  common: enCommon,
  notifications: enNotifications,
  reasons: enReasons,
  tray: enTray,
  waking: enWaking,
  firstRun: enFirstRun,
  history: enHistory,
  savings: enSavings,
  settings: enSettings,
  shell: enShell,
  routes: enRoutes,
  validation: enValidation,
} as const;

export type Namespace = keyof typeof en;

/** French is checked against English's shape key by key (`Messages`), and here namespace by namespace. */
const fr: { readonly [N in Namespace]: Messages<(typeof en)[N]> } = {
  apps: frApps,
  common: frCommon,
  notifications: frNotifications,
  reasons: frReasons,
  tray: frTray,
  waking: frWaking,
  firstRun: frFirstRun,
  history: frHistory,
  savings: frSavings,
  settings: frSettings,
  shell: frShell,
  routes: frRoutes,
  validation: frValidation,
};

export const CATALOG: Record<Language, { readonly [N in Namespace]: Messages<(typeof en)[N]> }> = { en, fr };

export const NAMESPACES = Object.keys(en) as Namespace[];
