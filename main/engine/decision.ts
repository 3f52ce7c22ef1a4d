/**
 * The vocabulary of the reaper's decisions (what the job observes, what a decision asks for) and the
 * small helpers the decide functions build them with. Pure: no timers, no I/O.
 */
import {
  type Actor,
  type AppRecord,
  assertNever,
  type DeploymentStateSeen,
  type HistoryKind,
  type KnownCleverState,
  narrowDeploymentAction,
  narrowDeploymentState,
  type ReaperState,
  type TrafficSource,
} from '../../shared/domain.ts';
import { MINUTE } from '../../shared/durations.ts';
import type { AppRouting } from '../../shared/routes.ts';
import type { Schedule } from '../../shared/schedule.ts';
import type { Settings } from '../../shared/settings.ts';
import type { GroupContext } from './decide-group.ts';
import type { CleverApp, CleverDeployment } from './ports.ts';

/** What the job read from Clever Cloud for this decision. */
export interface Observation {
  /** The app from Clever Cloud; null when Clever Cloud does not know it. */
  app: CleverApp | null;
  /** Its deployments, newest first; undefined when not read (the decision asks when it needs them). */
  deployments?: CleverDeployment[];
}

export interface DecisionContext {
  now: number;
  settings: Settings;
  /** The app's routing; undefined when no enabled route manages it any more. */
  routing: AppRouting | undefined;
  schedule: Schedule;
  /** The app's group, when its routing names one: the other members as they are now. */
  group?: GroupContext;
  /** The name of the member whose request woke this app with its group (the history says so). */
  groupWakeOf?: string;
  /** The app's traffic since the reaper was away is still being read (EngineDeps.trafficUnread). */
  trafficUnread?: boolean;
}

export interface Transition {
  to: ReaperState;
  actor: Actor;
  reason: string;
}

export interface Note {
  kind: HistoryKind;
  actor: Actor;
  reason: string;
}

export type Call = 'stop' | 'start' | 'restart';

export type Decision =
  /** The decision depends on the app's deployments: read them and decide again. */
  | { type: 'need-deployments' }
  /** Update the record; maybe change state, call Clever Cloud, record notes in the history. */
  | { type: 'act'; patch: Partial<AppRecord>; transition?: Transition; call?: Call; notes?: Note[] }
  /** No route manages the app any more: release it (start it first when it sleeps). */
  | { type: 'release'; start: boolean; reason: string };

/**
 * The Clever Cloud states the lifecycle follows an app through; the other known states (MODERATED,
 * DEFAULT_OF_PAYMENT) and unknown ones are "unexpected clever cloud state '...'".
 */
export type FollowedState = Extract<KnownCleverState, 'SHOULD_BE_UP' | 'SHOULD_BE_DOWN' | 'WANTS_TO_BE_UP'>;

/** Clock tolerance between this machine and Clever Cloud, when a deployment is matched by date. */
export const DEPLOYMENT_DATE_TOLERANCE_MS = 2 * MINUTE;

/**
 * Deployments that put code on instances: DEPLOY entries. A stop shows as an UNDEPLOY entry, and the
 * autoscaler's and the platform's entries (UPSCALE, DOWNSCALE, REPLACE, CANCEL, NONE) say nothing of
 * whether the app can start: a failed one must not block a sleep nor fail a wake. An entry without an
 * action, or with one the reaper does not know, counts as a deployment (the careful reading: a failed
 * one keeps the app awake).
 */
export function isDeployment(d: CleverDeployment): boolean {
  if (d.action === null) return true;
  const seen = narrowDeploymentAction(d.action);
  switch (seen.state) {
    case 'DEPLOY':
    case 'unknown':
      return true;
    case 'UNDEPLOY':
    case 'UPSCALE':
    case 'DOWNSCALE':
    case 'REPLACE':
    case 'CANCEL':
    case 'NONE':
      return false;
    default:
      return assertNever(seen);
  }
}

/**
 * Is a deployment or a stop queued or under way? A state the reaper does not know (v4's QUEUED, should
 * v2 ever show it) counts as under way: a start is never sent again on a guess.
 */
export function somethingUnderWay(deployments: readonly CleverDeployment[]): boolean {
  return deployments.some((d) => {
    if (!isDeployment(d) && d.action !== 'UNDEPLOY') return false;
    const seen = narrowDeploymentState(d.state);
    return seen.state === 'unknown' || underWay(d);
  });
}

/**
 * The newest entry of a deployments list, as a record keeps it (`knownDeploymentId`): '' for an
 * empty list.
 */
export function newestEntry(deployments: readonly CleverDeployment[]): string {
  return deployments[0]?.uuid ?? '';
}

/**
 * The deployments (DEPLOY entries) listed above the known entry, newest first: those made since the
 * reaper last read the list. Only the order of the list is relied on (newest first, as the console
 * and clever-tools read it), never the dates, which may be equal or out of order. null when it cannot
 * be told: nothing was known, or the known entry is no longer listed (past the page read).
 */
export function listedSince(
  deployments: readonly CleverDeployment[],
  known: string | null,
): CleverDeployment[] | null {
  if (known === null) return null;
  if (known === '') return deployments.filter(isDeployment);
  const at = deployments.findIndex((d) => d.uuid === known);
  return at < 0 ? null : deployments.slice(0, at).filter(isDeployment);
}

/** The newest deployment (DEPLOY entry), as the sleep check reads it. */
export function lastDeployment(deployments: readonly CleverDeployment[]): CleverDeployment | null {
  return deployments.find(isDeployment) ?? null;
}

/** A deployment's state narrowed, 'none' when there is no deployment. */
export function deploymentSeen(d: CleverDeployment | null): DeploymentStateSeen | { state: 'none' } {
  return d ? narrowDeploymentState(d.state) : { state: 'none' };
}

/** Is this deployment under way (someone is deploying)? */
export function underWay(d: CleverDeployment): boolean {
  const seen = narrowDeploymentState(d.state);
  switch (seen.state) {
    case 'WIP':
    case 'TASK_RUNNING':
      return true;
    case 'OK':
    case 'FAIL':
    case 'CANCELLED':
    case 'unknown':
      return false;
    default:
      return assertNever(seen);
  }
}

export function actorOfSource(source: TrafficSource | null): Actor {
  return source === 'access-log' || source === 'wake-proxy' || source === null ? 'request' : 'operator';
}

/** Start of the idle period: the last request or when the app came up, whichever is later. */
export function idleSince(record: AppRecord): number {
  return Math.max(record.lastRequestAt ?? 0, record.cameUpAt ?? record.stateSince);
}

/** The fields of a record reset when it enters `to`, and the clocks that state starts. */
function enter(to: ReaperState, now: number, extra: Partial<AppRecord> = {}): Partial<AppRecord> {
  const cleared: Partial<AppRecord> = {
    notice: null,
    pendingCall: null,
    stopAskedAt: null,
    firstStartAskedAt: null,
    lastStartAskedAt: null,
    deploymentId: null,
    cause: null,
    dryRunSleepNotedAt: null,
    redeploySeenAt: null,
  };
  switch (to) {
    case 'Up':
      return { ...cleared, cameUpAt: now, wakeRequestedAt: null, ...extra };
    case 'WaitingForShutdown':
      return { ...cleared, stopAskedAt: now, pendingCall: 'stop', ...extra };
    case 'Down':
      return { ...cleared, cameUpAt: null, ...extra };
    case 'WaitingForUp':
      return { ...cleared, cameUpAt: null, ...extra };
    case 'Error':
      return { ...cleared, wakeRequestedAt: null, ...extra };
    case 'WaitingForInit':
      return {
        ...cleared,
        cameUpAt: null,
        cleverState: null,
        lastDeployNumber: null,
        knownDeploymentId: null,
        ...extra,
      };
    default:
      return assertNever(to);
  }
}

export function act(
  patch: Partial<AppRecord>,
  transition?: Transition,
  call?: Call,
  notes?: Note[],
): Extract<Decision, { type: 'act' }> {
  const d: Extract<Decision, { type: 'act' }> = { type: 'act', patch };
  if (transition) d.transition = transition;
  if (call) d.call = call;
  if (notes?.length) d.notes = notes;
  return d;
}

/** A transition to `to`: the fields that state resets, then `extra`. */
export function go(
  to: ReaperState,
  actor: Actor,
  reason: string,
  now: number,
  extra?: Partial<AppRecord>,
  call?: Call,
) {
  return act(enter(to, now, extra), { to, actor, reason }, call);
}

export const wait = (patch: Partial<AppRecord> = {}) => act(patch);

/** Observed facts that are kept on the record whatever the decision. */
export function observed(record: AppRecord, app: CleverApp | null): Partial<AppRecord> {
  if (!app) return {};
  const patch: Partial<AppRecord> = {};
  if (app.state !== record.cleverState) patch.cleverState = app.state;
  if (app.name && app.name !== record.name) patch.name = app.name;
  return patch;
}
