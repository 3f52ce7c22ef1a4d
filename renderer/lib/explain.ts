/**
 * What the dashboard says about an app in Error (a plain explanation and the next step), about the
 * outcome of Reset and Wake, and why actions are unavailable. Pure, and every user-facing text of
 * these features is here, in English, to move into message catalogues later. The causes themselves
 * stay word for word (shared/domain.ts CAUSES): these texts come beside them, never instead.
 */
import type { AppView } from '../../shared/app-view.ts';
import { causeKind } from '../../shared/causes.ts';
import { assertNever, type HistoryEntry } from '../../shared/domain.ts';
import { formatDuration } from '../../shared/durations.ts';
import type { ConnectionState } from '../api/dashboard-api.ts';
import type { AppAction } from '../store/change-actions.ts';
import { cleverStateText } from './clever-status.ts';
import { fullTime, shortDuration } from './format.ts';

/** Which of the app's console pages an explanation links to. */
export type ConsoleLinkKind = 'app' | 'logs';

export const CONSOLE_LINK_TEXT: Record<ConsoleLinkKind, string> = {
  app: 'Open in the Clever Cloud console',
  logs: 'Logs in the Clever Cloud console',
};

/** Said to screen readers after a console link: it leaves the dashboard. */
export const OPENS_ELSEWHERE = '(opens in your browser)';

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

const AFTER_FIX = 'Once it is fixed, Reset reads the app again from Clever Cloud.';

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
      title: 'Moderated by Clever Cloud',
      what:
        'Clever Cloud has put this app under moderation: Clever Cloud itself holds it, not the reaper, ' +
        'and the reaper leaves it alone.',
      next:
        'Only Clever Cloud can lift a moderation: contact Clever Cloud support from the console. ' +
        AFTER_FIX,
    };
  }
  if (cleverState === 'DEFAULT_OF_PAYMENT') {
    const personal = app.ownerId.startsWith('user_');
    return {
      ...base,
      title: 'Unpaid invoices (default of payment)',
      what: `Clever Cloud reports a default of payment for ${app.ownerName}: an invoice is unpaid, and Clever Cloud holds its apps.`,
      next: personal
        ? 'The owner of this personal space can pay the unpaid invoices in the console (Invoices), or add a payment method. ' +
          AFTER_FIX
        : `An administrator or an accountant of ${app.ownerName} can pay the unpaid invoices in the console (the organisation's Invoices), or add a payment method. ${AFTER_FIX}`,
    };
  }
  return {
    ...base,
    title: 'A state the reaper does not know',
    what: `Clever Cloud reports the state ${cleverState}, which the reaper does not know: it leaves the app alone rather than guess.`,
    next: `Look at the app in the console; once it is running or stopped as usual, Reset.`,
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
      ? 'Clever Cloud state: none read'
      : `Last Clever Cloud state read: ${state.label} (${app.cleverState})`,
  );
  const errorAt = app.stateSince;
  const own = history.filter((h) => h.appId === app.appId && h.at <= errorAt);
  const asked = own.find((h) =>
    waitingFor === 'start'
      ? h.to === 'WaitingForUp' || h.kind === 'start-asked' || h.kind === 'restart-asked'
      : h.to === 'WaitingForShutdown' || h.kind === 'stop-asked',
  );
  if (asked) {
    lines.push(
      `${waitingFor === 'start' ? 'Start' : 'Stop'} asked ${fullTime(asked.at)}, ${shortDuration(errorAt - asked.at)} before the Error`,
    );
  }
  if (failTimeoutMs !== null) lines.push(`Fail timeout: ${formatDuration(failTimeoutMs)}`);
  const failed = own.filter((h) => h.kind === 'call-failed' && (!asked || h.at >= asked.at));
  if (failed.length > 0) {
    lines.push(
      `${failed.length} call${failed.length === 1 ? '' : 's'} to Clever Cloud failed meanwhile, the last: ${failed[0]!.reason}`,
    );
  }
  lines.push("The deployment's own state is in the console's activity, with its logs.");
  return lines;
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
      return {
        title: 'The start failed on Clever Cloud',
        what: 'Clever Cloud ran the deployment that starts the app, and it failed (the console says "Start failed").',
        next: `Read that deployment's logs in the console to see why (a build that fails, a crash at boot, a port not listened on), fix it and deploy again. ${AFTER_FIX}`,
        links: ['app', 'logs'],
        command: null,
        lastSeen: null,
      };
    case 'unsafeLastDeployment': {
      const failed = cause.deploymentState === 'FAIL';
      return {
        title: failed ? 'The last deployment failed' : `The last deployment is ${cause.deploymentState}`,
        what: failed
          ? 'The newest deployment of the app failed: a stop now and a start later would redeploy what failed, so the reaper does not put it to sleep.'
          : `The newest deployment of the app ended as ${cause.deploymentState}: the reaper cannot tell what a start would run, so it does not put it to sleep.`,
        next: `See the deployments and their logs in the console, then deploy a working version. ${AFTER_FIX}`,
        links: ['app', 'logs'],
        command: null,
        lastSeen: null,
      };
    }
    case 'startTimeout':
      return {
        title: 'Not up within the fail timeout',
        what: 'The reaper asked Clever Cloud to start the app, and it was not up when the fail timeout ran out.',
        next: `See in the console whether its deployment is still running, failed or was cancelled, and its logs. ${AFTER_FIX}`,
        links: ['app', 'logs'],
        command: null,
        lastSeen: lastSeen(app, history, 'start', failTimeoutMs),
      };
    case 'stopTimeout':
      return {
        title: 'Not stopped within the fail timeout',
        what: 'The reaper asked Clever Cloud to stop the app, and Clever Cloud still did not say it was stopped when the fail timeout ran out.',
        next: `See in the console whether the app is stopped (its activity shows the stop). ${AFTER_FIX}`,
        links: ['app'],
        command: null,
        lastSeen: lastSeen(app, history, 'stop', failTimeoutMs),
      };
    case 'neverDeployed':
      // clever-tools: `clever link <app id>` links a folder to an existing app, `clever deploy`
      // pushes its git HEAD to the app (src/commands/link, src/commands/deploy).
      return {
        title: 'Never deployed',
        what: 'Clever Cloud has no deployment of this app yet: there is nothing to start.',
        next: `Deploy it once: push its code to its Clever Cloud git remote (shown on its page in the console), or with Clever Tools from the code's folder. ${AFTER_FIX}`,
        links: ['app'],
        command: `clever link ${app.appId} && clever deploy`,
        lastSeen: null,
      };
    case 'unknown':
      return {
        title: 'In Error',
        what: 'The reaper leaves the app alone until it is reset.',
        next: `Look at the app in the console. ${AFTER_FIX}`,
        links: ['app'],
        command: null,
        lastSeen: null,
      };
    default:
      return assertNever(cause);
  }
}

/** What Reset found, from its answer (the app as read again). */
export function resetOutcome(answer: AppView): string {
  if (answer.state === 'Error') {
    const cause = causeKind(answer.cause);
    return cause.kind === 'unexpectedState'
      ? `Reset: read again from Clever Cloud, still ${cause.cleverState}`
      : `Reset: read again from Clever Cloud, still in Error: ${answer.cause}`;
  }
  if (answer.state === 'WaitingForInit') return 'Reset: Clever Cloud will be read again at the next check';
  return `Reset: read again from Clever Cloud, now ${answer.label}`;
}

/** What Wake asked for, with the app's usual start duration (median of its last starts). */
export function wakeOutcome(answer: AppView, expectedStartMs: number | null): string {
  if (answer.state === 'Up') return 'Wake asked: the app is already up';
  if (expectedStartMs === null) return 'Wake asked: no start timed yet for this app';
  return `Wake asked: expected up in about ${formatDuration(expectedStartMs)}`;
}

/** Why actions are unavailable; null while the dashboard is connected. */
export function actionsBlockedReason(connection: ConnectionState): string | null {
  switch (connection) {
    case 'live':
      return null;
    case 'connecting':
    case 'reconnecting':
      return 'Unavailable while the dashboard is disconnected from the reaper: reconnecting…';
    case 'unauthorized':
      return "Unavailable: the reaper refused this dashboard's token";
    default:
      return assertNever(connection);
  }
}

/** The label of an action button, busy or not. */
export const ACTION_LABELS: Record<AppAction, { idle: string; busy: string }> = {
  reset: { idle: 'Reset', busy: 'Resetting…' },
  wake: { idle: 'Wake', busy: 'Waking…' },
  release: { idle: 'Disable and release', busy: 'Disabling…' },
};
