/**
 * The reaper's vocabulary: states, console labels, error causes, actors and the per-app record.
 * Pure data and functions: no Node, no DOM, no Electron (checked by both tsconfigs).
 * Every text here comes word for word from the lifecycle spec.
 */

import type { By } from './people.ts';

/** The shape of a Clever Cloud app id and of an owner's (organisation or personal space). */
export const APP_ID_PATTERN = /^app_[A-Za-z0-9][A-Za-z0-9-]{0,80}$/;
export const OWNER_ID_PATTERN = /^(orga|user)_[A-Za-z0-9][A-Za-z0-9-]{0,80}$/;

export const REAPER_STATES = [
  'WaitingForInit',
  'Up',
  'WaitingForShutdown',
  'Down',
  'WaitingForUp',
  'Error',
] as const;
export type ReaperState = (typeof REAPER_STATES)[number];

/** The "Console" column of the lifecycle: what the dashboard shows. */
export const CONSOLE_LABELS: Record<ReaperState, string> = {
  WaitingForInit: 'Initializing',
  Up: 'Up',
  WaitingForShutdown: 'Going to sleep',
  Down: 'Asleep',
  WaitingForUp: 'Waking up',
  Error: 'Error',
};

/** The states by urgency, most urgent first: the order summaries (header, tray tooltip) count them in. */
export const STATES_BY_URGENCY: readonly ReaperState[] = [
  'Error',
  'WaitingForUp',
  'WaitingForShutdown',
  'WaitingForInit',
  'Up',
  'Down',
];

/** States the fast pace (5 s) looks at, besides the apps a request just asked for. */
export function isInTransit(state: ReaperState): boolean {
  return state === 'WaitingForInit' || state === 'WaitingForShutdown' || state === 'WaitingForUp';
}

/**
 * Clever Cloud application states (ApplicationView.state) the reaper recognises: the one list. The
 * decisions handle each by name (a state added here fails to compile until they do); any other
 * value is kept as text and read as 'unknown'.
 */
export const KNOWN_CLEVER_STATES = [
  'SHOULD_BE_UP',
  'SHOULD_BE_DOWN',
  'WANTS_TO_BE_UP',
  'MODERATED',
  'DEFAULT_OF_PAYMENT',
] as const;
export type KnownCleverState = (typeof KNOWN_CLEVER_STATES)[number];
/** A Clever Cloud state as read and kept (on the record, in the dashboard): raw text. */
export type CleverState = KnownCleverState | (string & {});

/** v2 deployment states the reaper recognises. Unknown values are kept as text. */
export const KNOWN_DEPLOYMENT_STATES = ['WIP', 'OK', 'FAIL', 'CANCELLED', 'TASK_RUNNING'] as const;
export type KnownDeploymentState = (typeof KNOWN_DEPLOYMENT_STATES)[number];
export type DeploymentState = KnownDeploymentState | (string & {});

/**
 * v2 deployment actions (the activity's `action`, OpenAPI enum). Only DEPLOY starts code on instances
 * and UNDEPLOY stops it; the others are autoscaling and maintenance entries.
 */
export const KNOWN_DEPLOYMENT_ACTIONS = [
  'DEPLOY',
  'UNDEPLOY',
  'UPSCALE',
  'DOWNSCALE',
  'REPLACE',
  'CANCEL',
  'NONE',
] as const;
export type KnownDeploymentAction = (typeof KNOWN_DEPLOYMENT_ACTIONS)[number];

/** A value of a closed list, narrowed: one of the list, or 'unknown' with the raw text kept. */
export type Narrowed<K extends string> =
  | { readonly state: K }
  | { readonly state: 'unknown'; readonly raw: string };

/** One narrowing per list: the known values map to shared frozen objects (no allocation per read). */
function narrower<K extends string>(known: readonly K[]): (raw: string) => Narrowed<K> {
  const table = new Map<string, Narrowed<K>>(known.map((k) => [k, Object.freeze({ state: k })]));
  return (raw) => table.get(raw) ?? { state: 'unknown', raw };
}

/** A Clever Cloud application state narrowed at the boundary of the decisions. */
export type CleverStateSeen = Narrowed<KnownCleverState>;
export const narrowCleverState: (raw: string) => CleverStateSeen = narrower(KNOWN_CLEVER_STATES);

/** A deployment state narrowed at the boundary of the decisions. */
export type DeploymentStateSeen = Narrowed<KnownDeploymentState>;
export const narrowDeploymentState: (raw: string) => DeploymentStateSeen = narrower(KNOWN_DEPLOYMENT_STATES);

/** A deployment action narrowed at the boundary of the decisions. */
export type DeploymentActionSeen = Narrowed<KnownDeploymentAction>;
export const narrowDeploymentAction: (raw: string) => DeploymentActionSeen =
  narrower(KNOWN_DEPLOYMENT_ACTIONS);

/** The six causes of the lifecycle spec, exactly. */
export const CAUSES = {
  stopTimeout: 'the app did not stop within the fail timeout',
  startTimeout: 'the app did not start within the fail timeout',
  startFailed: 'the app failed to start on clever cloud',
  unsafeLastDeployment: (deploymentState: string) =>
    `the last deployment of the app is '${deploymentState}', it cannot be put to sleep safely`,
  neverDeployed: 'the app was never deployed, it cannot be started',
  unexpectedState: (cleverState: string) => `unexpected clever cloud state '${cleverState}'`,
} as const;

/** Who made a transition happen. */
export const ACTORS = ['reaper', 'request', 'schedule', 'outside', 'operator'] as const;
export type Actor = (typeof ACTORS)[number];

/** Where the last request of an app was seen. */
export const TRAFFIC_SOURCES = [
  'access-log',
  'wake-proxy',
  'dashboard',
  'tray',
  'admin-api',
  'link',
] as const;
export type TrafficSource = (typeof TRAFFIC_SOURCES)[number];

/** The pending call of a record: set in the same transaction as the transition that asks for it. */
export type PendingCall = 'stop' | 'start' | null;

/**
 * One managed app as the reaper sees it, with every clock it needs. Times are epoch milliseconds.
 * This is what the datastore keeps, so that a restarted engine resumes where it was.
 */
export interface AppRecord {
  appId: string;
  ownerId: string;
  name: string;
  state: ReaperState;
  /** When the app entered its current state. */
  stateSince: number;
  /** When the app was last seen coming up (start of the grace period when there is no later request). */
  cameUpAt: number | null;
  lastRequestAt: number | null;
  lastRequestSource: TrafficSource | null;
  /** When the reaper asked Clever Cloud to stop it (WaitingForShutdown). */
  stopAskedAt: number | null;
  /** The first start of a wake: the fail timeout counts from it, across restarts after a vanished start. */
  firstStartAskedAt: number | null;
  /** The latest start call of a wake (a vanished start is sent again one minute after it). */
  lastStartAskedAt: number | null;
  /** The deployment the reaper follows while WaitingForUp. */
  deploymentId: string | null;
  /**
   * The newest entry of the app's deployments list the reaper knows of: read when it last looked while
   * the app was awake or asleep, and kept through a wake, so a start's own deployment is one listed
   * above it (matched by identity, not by date). '' when that list was empty; null when the reaper
   * has not read it (a start is then matched by date).
   */
  knownDeploymentId: string | null;
  /** Why the app is in Error, one of CAUSES. */
  cause: string | null;
  /** A Clever Cloud call the reaper decided but has not seen answered yet. */
  pendingCall: PendingCall;
  /** A request asked for the app and has not been served by a start yet. */
  wakeRequestedAt: number | null;
  /** No sleep before this time ("Keep awake until"). */
  keepAwakeUntil: number | null;
  /** The job noticed that no enabled route manages the app any more. */
  releaseNoticedAt: number | null;
  /** The last Clever Cloud state seen for the app, and the deployment number that came with it. */
  cleverState: CleverState | null;
  lastDeployNumber: number | null;
  /** When a new deployment number was first seen on an Up app whose deployment is not listed yet. */
  redeploySeenAt: number | null;
  /** In dry-run: when the reaper recorded the sleep it would have done for the current idle period. */
  dryRunSleepNotedAt: number | null;
  /** The last problem met while talking to Clever Cloud for this app, shown but not an Error state. */
  notice: string | null;
}

export function newRecord(appId: string, ownerId: string, name: string, now: number): AppRecord {
  return {
    appId,
    ownerId,
    name,
    state: 'WaitingForInit',
    stateSince: now,
    cameUpAt: null,
    lastRequestAt: null,
    lastRequestSource: null,
    stopAskedAt: null,
    firstStartAskedAt: null,
    lastStartAskedAt: null,
    deploymentId: null,
    knownDeploymentId: null,
    cause: null,
    pendingCall: null,
    wakeRequestedAt: null,
    keepAwakeUntil: null,
    releaseNoticedAt: null,
    cleverState: null,
    lastDeployNumber: null,
    redeploySeenAt: null,
    dryRunSleepNotedAt: null,
    notice: null,
  };
}

/** What a history entry records: a transition, or an action that did not change the state. */
export const HISTORY_KINDS = [
  'transition',
  'stop-asked',
  'start-asked',
  'restart-asked',
  'would-sleep',
  /** Dry-run: traffic came back for an app whose sleep was recorded (the wake it would have needed). */
  'would-wake',
  'release',
  'reset',
  'call-failed',
  'keep-awake',
  /** The wake proxy saw the app answer the first request of a wake (the wait its visitor had). */
  'first-answer',
] as const;
export type HistoryKind = (typeof HISTORY_KINDS)[number];

export interface HistoryEntry {
  id?: number;
  appId: string;
  at: number;
  kind: HistoryKind;
  from: ReaperState | null;
  to: ReaperState | null;
  actor: Actor;
  reason: string;
  /** Who asked for a manual action (actor 'operator') and through what; absent for automatic ones. */
  by?: By;
}

export function assertNever(value: never): never {
  throw new Error(`unhandled value: ${JSON.stringify(value)}`);
}
