/**
 * The French catalogue, every namespace: loaded on its own by the dashboard when it speaks French
 * (renderer/i18n.ts). Checked against English's shape key by key (`Messages`), namespace by namespace.
 */
import type { en, Namespace } from './catalog-en.ts';
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
import type { Messages } from './messages.ts';

export const fr: { readonly [N in Namespace]: Messages<(typeof en)[N]> } = {
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
