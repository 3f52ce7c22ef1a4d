/**
 * What the dashboard says about an app in Error (a plain explanation and the next step), about the
 * outcome of Reset and Wake, and why actions are unavailable, in the current language (the words are
 * in shared/i18n, namespace `apps`). The causes themselves stay word for word (shared/domain.ts
 * CAUSES): these texts come beside them, never instead.
 */
import type { AppView } from '../../shared/app-view.ts';
import { causeKind } from '../../shared/causes.ts';
import { assertNever, type HistoryEntry } from '../../shared/domain.ts';
import type { ConnectionState } from '../api/dashboard-api.ts';
import { i18n } from '../i18n.ts';
import type { AppAction } from '../store/change-actions.ts';
import { causeText } from './cause-text.ts';
import { cleverStateText } from './clever-status.ts';
import { formatDuration, fullTime, shortDuration, stateLabel } from './format.ts';
import { reasonText } from './reasons.ts';

/** Which of the app's console pages an explanation links to. */
export type ConsoleLinkKind = 'app' | 'logs';

/** The text of a console link, in the current language. */
export function consoleLinkText(kind: ConsoleLinkKind): string {
  return kind === 'app' ? i18n.t('apps:console.app') : i18n.t('apps:console.logs');
}

export interface ErrorExplanation {
  title: string;
  /** What the cause means, in plain words. */
  what: string;
  /** What to do next, and who can. */
  next: string;
  links: ConsoleLinkKind[];
  /** A command that helps, shown as code. */
  command: string | null;
  /** For a fail timeout: what the reaper saw last. */
  lastSeen: string[] | null;
}

const afterFix = () => i18n.t('apps:error.afterFix');

/**
 * MODERATED and DEFAULT_OF_PAYMENT are values of ApplicationView.state (Clever Cloud's OpenAPI;
 * clever-client.js `application.types.d.ts`, `ApplicationState`); Clever Cloud's code gives them no
 * words: clever-client.js `app-status.js` reads both as "unknown", which the console's app header
 * (clever-components `cc-header-app.js`) words "Unknown state, try to restart the application or
 * contact our support". What they mean beyond their names is unconfirmed. Payments and invoices:
 * Clever Cloud's documentation, "Payments & invoicing" (the Invoices and Payment methods pages of
 * an organisation in the console) and "Manage an Organization" (its members and their roles).
 */
function unexpectedState(app: AppView, cleverState: string): ErrorExplanation {
  const base = { links: ['app'] as ConsoleLinkKind[], command: null, lastSeen: null };
  if (cleverState === 'MODERATED') {
    return {
      ...base,
      title: i18n.t('apps:error.moderated.title'),
      what: i18n.t('apps:error.moderated.what'),
      next: i18n.t('apps:error.moderated.next', { afterFix: afterFix() }),
    };
  }
  if (cleverState === 'DEFAULT_OF_PAYMENT') {
    const personal = app.ownerId.startsWith('user_');
    const owner = app.ownerName;
    return {
      ...base,
      title: i18n.t('apps:error.defaultOfPayment.title'),
      what: i18n.t('apps:error.defaultOfPayment.what', { owner }),
      next: personal
        ? i18n.t('apps:error.defaultOfPayment.nextPersonal', { afterFix: afterFix() })
        : i18n.t('apps:error.defaultOfPayment.nextOrganisation', { owner, afterFix: afterFix() }),
    };
  }
  return {
    ...base,
    title: i18n.t('apps:error.unknownState.title'),
    what: i18n.t('apps:error.unknownState.what', { state: cleverState }),
    next: i18n.t('apps:error.unknownState.next'),
  };
}

/** What the reaper saw last before a fail timeout: from the app's record and its history. */
function lastSeen(
  app: AppView,
  history: readonly HistoryEntry[],
  waitingFor: 'start' | 'stop',
  failTimeoutMs: number | null,
): string[] {
  const lines: string[] = [];
  const state = cleverStateText(app);
  lines.push(
    app.cleverState === null
      ? i18n.t('apps:error.seen.noneRead')
      : i18n.t('apps:error.seen.lastRead', { label: state.label, raw: app.cleverState }),
  );
  const errorAt = app.stateSince;
  const own = history.filter((h) => h.appId === app.appId && h.at <= errorAt);
  const asked = own.find((h) =>
    waitingFor === 'start'
      ? h.to === 'WaitingForUp' || h.kind === 'start-asked' || h.kind === 'restart-asked'
      : h.to === 'WaitingForShutdown' || h.kind === 'stop-asked',
  );
  if (asked) {
    const values = { at: fullTime(asked.at), before: shortDuration(errorAt - asked.at) };
    lines.push(
      waitingFor === 'start'
        ? i18n.t('apps:error.seen.startAsked', values)
        : i18n.t('apps:error.seen.stopAsked', values),
    );
  }
  if (failTimeoutMs !== null)
    lines.push(i18n.t('apps:error.seen.failTimeout', { duration: formatDuration(failTimeoutMs) }));
  const failed = own.filter((h) => h.kind === 'call-failed' && (!asked || h.at >= asked.at));
  if (failed.length > 0) {
    lines.push(
      i18n.t('apps:error.seen.callsFailed', { count: failed.length, reason: reasonText(failed[0]!.reason) }),
    );
  }
  lines.push(i18n.t('apps:error.seen.deployment'));
  return lines;
}

/** The title, meaning and next step of a cause, from the catalogue. */
function words(key: 'startFailed' | 'startTimeout' | 'stopTimeout' | 'neverDeployed' | 'unknown') {
  return {
    title: i18n.t(`apps:error.${key}.title`),
    what: i18n.t(`apps:error.${key}.what`),
    next: i18n.t(`apps:error.${key}.next`, { afterFix: afterFix() }),
  };
}

/** The explanation of an app's Error cause; null when the app is not in Error. */
export function explainError(
  app: AppView,
  history: readonly HistoryEntry[],
  failTimeoutMs: number | null,
): ErrorExplanation | null {
  if (app.state !== 'Error') return null;
  const cause = causeKind(app.cause);
  switch (cause.kind) {
    case 'unexpectedState':
      return unexpectedState(app, cause.cleverState);
    case 'startFailed':
      return { ...words('startFailed'), links: ['app', 'logs'], command: null, lastSeen: null };
    case 'unsafeLastDeployment': {
      const failed = cause.deploymentState === 'FAIL';
      const state = cause.deploymentState;
      return {
        title: failed
          ? i18n.t('apps:error.lastDeployment.failedTitle')
          : i18n.t('apps:error.lastDeployment.otherTitle', { state }),
        what: failed
          ? i18n.t('apps:error.lastDeployment.failedWhat')
          : i18n.t('apps:error.lastDeployment.otherWhat', { state }),
        next: i18n.t('apps:error.lastDeployment.next', { afterFix: afterFix() }),
        links: ['app', 'logs'],
        command: null,
        lastSeen: null,
      };
    }
    case 'startTimeout':
      return {
        ...words('startTimeout'),
        links: ['app', 'logs'],
        command: null,
        lastSeen: lastSeen(app, history, 'start', failTimeoutMs),
      };
    case 'stopTimeout':
      return {
        ...words('stopTimeout'),
        links: ['app'],
        command: null,
        lastSeen: lastSeen(app, history, 'stop', failTimeoutMs),
      };
    case 'neverDeployed':
      // clever-tools: `clever link <app id>` links a folder to an existing app, `clever deploy`
      // pushes its git HEAD to the app (src/commands/link, src/commands/deploy).
      return {
        ...words('neverDeployed'),
        links: ['app'],
        command: `clever link ${app.appId} && clever deploy`,
        lastSeen: null,
      };
    case 'unknown':
      return { ...words('unknown'), links: ['app'], command: null, lastSeen: null };
    default:
      return assertNever(cause);
  }
}

/** What Reset found, from its answer (the app as read again). */
export function resetOutcome(answer: AppView): string {
  if (answer.state === 'Error') {
    const cause = causeKind(answer.cause);
    return cause.kind === 'unexpectedState'
      ? i18n.t('apps:outcome.resetStill', { state: cause.cleverState })
      : i18n.t('apps:outcome.resetStillError', { cause: causeText(answer.cause ?? '').text });
  }
  if (answer.state === 'WaitingForInit') return i18n.t('apps:outcome.resetLater');
  return i18n.t('apps:outcome.resetNow', { state: stateLabel(answer.state) });
}

/** What Wake asked for, with the app's usual start duration (median of its last starts). */
export function wakeOutcome(answer: AppView, expectedStartMs: number | null): string {
  if (answer.state === 'Up') return i18n.t('apps:outcome.wakeUp');
  if (expectedStartMs === null) return i18n.t('apps:outcome.wakeUntimed');
  return i18n.t('apps:outcome.wakeExpected', { duration: formatDuration(expectedStartMs) });
}

/** Why actions are unavailable; null while the dashboard is connected. */
export function actionsBlockedReason(connection: ConnectionState): string | null {
  switch (connection) {
    case 'live':
      return null;
    case 'connecting':
    case 'reconnecting':
      return i18n.t('apps:outcome.blockedDisconnected');
    case 'unauthorized':
      return i18n.t('apps:outcome.blockedUnauthorized');
    default:
      return assertNever(connection);
  }
}

/** The label of an action button, busy or not, in the current language. */
export function actionLabels(action: AppAction): { idle: string; busy: string } {
  switch (action) {
    case 'reset':
      return { idle: i18n.t('common:actions.reset'), busy: i18n.t('common:actions.resetting') };
    case 'wake':
      return { idle: i18n.t('common:actions.wake'), busy: i18n.t('common:actions.waking') };
    case 'release':
      return { idle: i18n.t('common:actions.release'), busy: i18n.t('common:actions.releasing') };
    default:
      return assertNever(action);
  }
}
