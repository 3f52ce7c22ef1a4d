/**
 * A Clever Cloud state as people read it in the console ("Running", "Stopped", "Starting", "Start
 * failed", ...), from the app's state and its last deployment's state. The raw value stays what the
 * API gives and what the dashboard shows on hover.
 *
 * The reading follows Clever Cloud's own code:
 * - clever-client.js `esm/utils/app-status.js` (`getStatus`): SHOULD_BE_DOWN is stopped;
 *   WANTS_TO_BE_UP with the newest deployment WIP is starting, FAIL is start failed; SHOULD_BE_UP
 *   with WIP is restarting, FAIL is restart failed, otherwise running; anything else is unknown;
 * - clever-components `src/components/cc-header-app/cc-header-app.js` (`_getStatusMsg`) and
 *   `src/translations/translations.en.js` (`cc-header-app.state-msg.*`): the words of each status
 *   ("Your application is running", "... is currently stopped", "The last deployment failed").
 * The reaper does not keep the instances' states, so a SHOULD_BE_UP app is read as running, and
 * without a known deployment state WANTS_TO_BE_UP is read as starting. MODERATED and
 * DEFAULT_OF_PAYMENT are "unknown" to getStatus; they get their own words here.
 */
import type { AppView } from '../../shared/app-view.ts';
import { causeKind } from '../../shared/causes.ts';
import { assertNever, narrowCleverState } from '../../shared/domain.ts';
import { i18n } from '../i18n.ts';

export const CLEVER_STATUSES = [
  'notRead',
  'stopped',
  'starting',
  'startFailed',
  'restarting',
  'restartFailed',
  'running',
  'moderated',
  'defaultOfPayment',
  'unknown',
] as const;
export type CleverStatus = (typeof CLEVER_STATUSES)[number];

/** The console's words for a status, in the current language (shared/i18n common `cleverStatus`). */
export function cleverStatusLabel(status: CleverStatus): string {
  return i18n.t(`common:cleverStatus.${status}`);
}

/** getStatus of app-status.js, on what the reaper knows (no instances). */
export function cleverStatus(cleverState: string | null, deploymentState: string | null): CleverStatus {
  if (cleverState === null) return 'notRead';
  const seen = narrowCleverState(cleverState);
  switch (seen.state) {
    case 'SHOULD_BE_DOWN':
      return 'stopped';
    case 'WANTS_TO_BE_UP':
      return deploymentState === 'FAIL' ? 'startFailed' : 'starting';
    case 'SHOULD_BE_UP':
      if (deploymentState === 'WIP') return 'restarting';
      if (deploymentState === 'FAIL') return 'restartFailed';
      return 'running';
    case 'MODERATED':
      return 'moderated';
    case 'DEFAULT_OF_PAYMENT':
      return 'defaultOfPayment';
    case 'unknown':
      return 'unknown';
    default:
      return assertNever(seen);
  }
}

/** The last deployment's state, where the app's record tells it (its Error cause). */
export function knownDeploymentState(app: Pick<AppView, 'cause'>): string | null {
  const cause = causeKind(app.cause);
  if (cause.kind === 'unsafeLastDeployment') return cause.deploymentState;
  if (cause.kind === 'startFailed') return 'FAIL';
  return null;
}

/** The console's words for the app's Clever Cloud state, and the raw value for the hover. */
export function cleverStateText(app: Pick<AppView, 'cause' | 'cleverState'>): { label: string; raw: string } {
  const deployment = knownDeploymentState(app);
  const status = cleverStatus(app.cleverState, deployment);
  const raw = app.cleverState === null ? i18n.t('common:cleverRaw.notRead') : app.cleverState;
  return {
    label: cleverStatusLabel(status),
    raw: deployment ? i18n.t('common:cleverRaw.withDeployment', { state: raw, deployment }) : raw,
  };
}
