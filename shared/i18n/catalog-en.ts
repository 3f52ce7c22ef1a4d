/**
 * The English catalogue, every namespace: loaded on its own by the dashboard when it speaks English
 * (renderer/i18n.ts), with the French one (catalog.ts) by the processes that speak both.
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
