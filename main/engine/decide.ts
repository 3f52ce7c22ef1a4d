/**
 * The reaper's decisions: a pure function of an app's record, what Clever Cloud says about it, its
 * routes, the settings and the time. No timers, no I/O: the job (engine.ts) reads Clever Cloud,
 * calls `decide`, and carries out what it returns. Each branch names the line of the lifecycle spec
 * it implements.
 */
import {
  type Actor,
  type AppRecord,
  assertNever,
  CAUSES,
  type HistoryKind,
  type ReaperState,
  type TrafficSource,
} from '../../shared/domain.ts';
import { formatDuration, MINUTE } from '../../shared/durations.ts';
import type { AppRouting } from '../../shared/routes.ts';
import type { Schedule } from '../../shared/schedule.ts';
import type { Settings } from '../../shared/settings.ts';
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

/** Clock tolerance between this machine and Clever Cloud, when a deployment is matched by date. */
export const DEPLOYMENT_DATE_TOLERANCE_MS = 2 * MINUTE;

const KNOWN_STATES = new Set(['SHOULD_BE_UP', 'SHOULD_BE_DOWN', 'WANTS_TO_BE_UP']);

/** Deployments that put code on instances (a stop shows as an UNDEPLOY entry). */
export function isDeployment(d: CleverDeployment): boolean {
  return d.action !== 'UNDEPLOY';
}

/** The last deployment of an app, as the sleep check reads it. */
export function lastDeployment(deployments: readonly CleverDeployment[]): CleverDeployment | null {
  return deployments.find(isDeployment) ?? null;
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
      return { ...cleared, cameUpAt: null, cleverState: null, lastDeployNumber: null, ...extra };
    default:
      return assertNever(to);
  }
}

function act(
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

function go(
  to: ReaperState,
  actor: Actor,
  reason: string,
  now: number,
  extra?: Partial<AppRecord>,
  call?: Call,
) {
  return act(enter(to, now, extra), { to, actor, reason }, call);
}

const wait = (patch: Partial<AppRecord> = {}) => act(patch);

/** Observed facts that are kept on the record whatever the decision. */
function observed(record: AppRecord, app: CleverApp | null): Partial<AppRecord> {
  if (!app) return {};
  const patch: Partial<AppRecord> = {};
  if (app.state !== record.cleverState) patch.cleverState = app.state;
  if (app.name && app.name !== record.name) patch.name = app.name;
  return patch;
}

/** The start of a wake: the reaper asks Clever Cloud to start the app. */
function startApp(actor: Actor, reason: string, now: number): Decision {
  return go(
    'WaitingForUp',
    actor,
    reason,
    now,
    { firstStartAskedAt: now, lastStartAskedAt: now, pendingCall: 'start', wakeRequestedAt: null },
    'start',
  );
}

export function decide(record: AppRecord, obs: Observation, ctx: DecisionContext): Decision {
  const { now, settings, routing } = ctx;
  const app = obs.app;

  // Releasing: a route disabled, deleted or re-pointed is noticed here and released after the delay.
  if (!routing) {
    if (record.releaseNoticedAt === null) return wait({ ...observed(record, app), releaseNoticedAt: now });
    if (now - record.releaseNoticedAt >= settings.releaseDelayMs) return releaseDecision(record);
  } else if (record.releaseNoticedAt !== null) {
    return wait({ releaseNoticedAt: null });
  }

  // "An app in Error is left alone: never stopped, never started" (until reset, or released).
  if (record.state === 'Error') return wait(observed(record, app));

  const base = observed(record, app);
  if (!app) {
    return wait({
      ...base,
      notice: 'Clever Cloud does not know this app (deleted, or not visible with these credentials)',
    });
  }

  // "unexpected clever cloud state '...'": MODERATED, DEFAULT_OF_PAYMENT, or a state the reaper does not know.
  if (!KNOWN_STATES.has(app.state)) {
    return go('Error', 'reaper', CAUSES.unexpectedState(app.state), now, {
      ...base,
      cause: CAUSES.unexpectedState(app.state),
    });
  }

  switch (record.state) {
    case 'WaitingForInit':
      return decideInit(app, obs, ctx, base);
    case 'Up':
      return decideUp(record, app, obs, ctx, base);
    case 'WaitingForShutdown':
      return decideShutdown(record, app, obs, ctx, base);
    case 'Down':
      return decideDown(record, app, obs, ctx, base);
    case 'WaitingForUp':
      return decideWaitingForUp(record, app, obs, ctx, base);
    default:
      return assertNever(record.state);
  }
}

/** Release: "if the app sleeps, it is started ... then its state is forgotten. Its history stays." */
export function releaseDecision(record: AppRecord): Extract<Decision, { type: 'release' }> {
  const sleeps = record.state === 'Down' || record.state === 'WaitingForShutdown';
  return {
    type: 'release',
    start: sleeps,
    reason: sleeps
      ? 'released: started so that it is not left asleep, then forgotten'
      : 'released: forgotten',
  };
}

/** WaitingForInit: "its state is read from Clever Cloud at the next run". */
function decideInit(
  app: CleverApp,
  obs: Observation,
  ctx: DecisionContext,
  base: Partial<AppRecord>,
): Decision {
  const { now } = ctx;
  const extra = { ...base, lastDeployNumber: app.lastDeployNumber };
  switch (app.state) {
    case 'SHOULD_BE_DOWN':
      return go('Down', 'reaper', 'Clever Cloud says SHOULD_BE_DOWN', now, extra);
    case 'WANTS_TO_BE_UP':
      return go(
        'WaitingForUp',
        'reaper',
        'Clever Cloud says WANTS_TO_BE_UP: the app is starting',
        now,
        extra,
      );
    default: {
      // SHOULD_BE_UP: up, unless a deployment is under way.
      if (!obs.deployments) return { type: 'need-deployments' };
      const last = lastDeployment(obs.deployments);
      if (last && (last.state === 'WIP' || last.state === 'TASK_RUNNING')) {
        return go('WaitingForUp', 'reaper', `Clever Cloud says SHOULD_BE_UP, deployment ${last.state}`, now, {
          ...extra,
          deploymentId: last.uuid,
        });
      }
      return go('Up', 'reaper', 'Clever Cloud says SHOULD_BE_UP', now, extra);
    }
  }
}

/** Why an Up app may not be put to sleep now, or null when all conditions of the lifecycle hold. */
export function sleepBlocker(record: AppRecord, ctx: DecisionContext): string | null {
  const { now, routing, schedule, settings } = ctx;
  if (!routing) return 'no enabled route manages the app';
  if (schedule.activeAt(now)) return 'inside a must-be-up range';
  const since = idleSince(record);
  if (now - since < routing.gracePeriodMs) return 'traffic within the grace period';
  if (record.keepAwakeUntil !== null && now < record.keepAwakeUntil) return 'kept awake';
  if (settings.killSwitch) return 'the kill switch is on';
  return null;
}

/** When an Up app becomes due for sleep, if nothing changes (traffic, ranges, settings). */
export function sleepDueAt(record: AppRecord, ctx: DecisionContext): number | null {
  const { routing, schedule, now } = ctx;
  if (!routing) return null;
  let at = idleSince(record) + routing.gracePeriodMs;
  if (record.keepAwakeUntil !== null) at = Math.max(at, record.keepAwakeUntil);
  const inside = schedule.activeAt(Math.max(at, now));
  if (inside) at = inside.end;
  return at;
}

function decideUp(
  record: AppRecord,
  app: CleverApp,
  obs: Observation,
  ctx: DecisionContext,
  base: Partial<AppRecord>,
): Decision {
  const { now, settings } = ctx;

  // Changes made outside the reaper.
  if (app.state === 'SHOULD_BE_DOWN') {
    return go('Down', 'outside', 'stopped outside the reaper: Clever Cloud says SHOULD_BE_DOWN', now, base);
  }
  if (app.state === 'WANTS_TO_BE_UP') {
    return go(
      'WaitingForUp',
      'outside',
      'restarted outside the reaper: Clever Cloud says WANTS_TO_BE_UP',
      now,
      base,
    );
  }
  const redeployed =
    record.lastDeployNumber !== null &&
    app.lastDeployNumber !== null &&
    app.lastDeployNumber !== record.lastDeployNumber;
  if (redeployed) {
    if (!obs.deployments) return { type: 'need-deployments' };
    const last = lastDeployment(obs.deployments);
    if (last && (last.state === 'WIP' || last.state === 'TASK_RUNNING')) {
      return go('WaitingForUp', 'outside', `redeployed outside the reaper: deployment ${last.state}`, now, {
        ...base,
        lastDeployNumber: app.lastDeployNumber,
        deploymentId: last.uuid,
      });
    }
    // Deployed and done between two runs: a fresh grace period starts now. A deployment is listed a
    // moment after it begins: until one newer than the app's last coming up shows (or for a minute),
    // the reaper waits rather than miss it.
    const listed = last !== null && last.date > (record.cameUpAt ?? record.stateSince);
    const waited = record.redeploySeenAt !== null && now - record.redeploySeenAt >= settings.restartAfterMs;
    if (!listed && !waited) return wait({ ...base, redeploySeenAt: record.redeploySeenAt ?? now });
    return wait({
      ...base,
      lastDeployNumber: app.lastDeployNumber,
      cameUpAt: now,
      redeploySeenAt: null,
      notice: null,
    });
  }
  if (record.lastDeployNumber === null && app.lastDeployNumber !== null)
    base.lastDeployNumber = app.lastDeployNumber;
  if (record.wakeRequestedAt !== null) base.wakeRequestedAt = null;

  const blocker = sleepBlocker(record, ctx);
  if (blocker) return wait({ ...base, ...(record.notice ? { notice: null } : {}) });

  // In dry-run, the sleep is recorded once per idle period, with its reason, and nothing is stopped.
  const since = idleSince(record);
  if (settings.dryRun && record.dryRunSleepNotedAt !== null && record.dryRunSleepNotedAt >= since) {
    return wait(base);
  }

  // "Before stopping it, the reaper reads the last deployment of the app."
  if (!obs.deployments) return { type: 'need-deployments' };
  const last = lastDeployment(obs.deployments);
  const idle = `no traffic for ${formatDuration(now - since)} (grace period ${formatDuration(ctx.routing!.gracePeriodMs)})`;
  const lastText = last ? `last deployment ${last.state}` : 'no deployment';

  if (settings.dryRun) {
    const outcome =
      !last || last.state === 'OK'
        ? 'would stop the app'
        : last.state === 'FAIL' || last.state === 'CANCELLED'
          ? `would not stop it: ${CAUSES.unsafeLastDeployment(last.state)}`
          : 'would wait: someone is deploying';
    return act({ ...base, dryRunSleepNotedAt: now }, undefined, undefined, [
      { kind: 'would-sleep', actor: 'reaper', reason: `dry-run: ${outcome}; ${idle}, ${lastText}` },
    ]);
  }

  if (!last || last.state === 'OK') {
    return go('WaitingForShutdown', 'reaper', `${idle}, ${lastText}`, now, base, 'stop');
  }
  if (last.state === 'WIP' || last.state === 'TASK_RUNNING') {
    return wait({ ...base, notice: `someone is deploying (${last.state}): checked again at the next run` });
  }
  if (last.state === 'FAIL' || last.state === 'CANCELLED') {
    const cause = CAUSES.unsafeLastDeployment(last.state);
    return go('Error', 'reaper', cause, now, { ...base, cause });
  }
  // A deployment state the reaper does not know: not safe either.
  const cause = CAUSES.unsafeLastDeployment(last.state);
  return go('Error', 'reaper', cause, now, { ...base, cause });
}

function decideShutdown(
  record: AppRecord,
  app: CleverApp,
  obs: Observation,
  ctx: DecisionContext,
  base: Partial<AppRecord>,
): Decision {
  const { now, settings } = ctx;
  if (app.state === 'SHOULD_BE_DOWN') {
    return go('Down', 'reaper', 'Clever Cloud says SHOULD_BE_DOWN', now, {
      ...base,
      lastDeployNumber: app.lastDeployNumber,
    });
  }
  const askedAt = record.stopAskedAt ?? record.stateSince;
  if (now - askedAt >= settings.failTimeoutMs) {
    return go('Error', 'reaper', CAUSES.stopTimeout, now, { ...base, cause: CAUSES.stopTimeout });
  }
  if (record.pendingCall === 'stop') {
    // The stop call was not answered (a fault, or a crash): was it carried out before sending it again?
    if (!obs.deployments) return { type: 'need-deployments' };
    const undeploy = obs.deployments.find(
      (d) => d.action === 'UNDEPLOY' && d.date >= askedAt - DEPLOYMENT_DATE_TOLERANCE_MS,
    );
    if (undeploy) return wait({ ...base, pendingCall: null });
    // Not listed yet may only mean not listed yet: sent again once a minute has passed without it,
    // unless a sleep is no longer allowed (kill switch, dry-run, a must-be-up range begun since).
    const allowed = !settings.killSwitch && !settings.dryRun && !ctx.schedule.activeAt(now);
    if (allowed && now - askedAt >= settings.restartAfterMs) return act(base, undefined, 'stop');
    return wait(base);
  }
  return wait(base);
}

function decideDown(
  record: AppRecord,
  app: CleverApp,
  obs: Observation,
  ctx: DecisionContext,
  base: Partial<AppRecord>,
): Decision {
  const { now, routing, schedule } = ctx;
  if (app.state === 'WANTS_TO_BE_UP') {
    return go(
      'WaitingForUp',
      'outside',
      'started outside the reaper: Clever Cloud says WANTS_TO_BE_UP',
      now,
      base,
    );
  }
  if (app.state === 'SHOULD_BE_UP') {
    if (!obs.deployments) return { type: 'need-deployments' };
    const last = lastDeployment(obs.deployments);
    if (last && (last.state === 'WIP' || last.state === 'TASK_RUNNING')) {
      return go('WaitingForUp', 'outside', `started outside the reaper: deployment ${last.state}`, now, {
        ...base,
        deploymentId: last.uuid,
      });
    }
    return go('Up', 'outside', 'started outside the reaper: Clever Cloud says SHOULD_BE_UP', now, {
      ...base,
      lastDeployNumber: app.lastDeployNumber,
    });
  }
  // SHOULD_BE_DOWN: asleep. "Started by the next request, or at the start of a must-be-up range."
  if (record.wakeRequestedAt !== null) {
    const actor = actorOfSource(record.lastRequestSource);
    const from = record.lastRequestSource ?? 'a request';
    return startApp(actor, `asked for by ${from}`, now);
  }
  const range = routing ? schedule.activeAt(now) : null;
  if (range && range.start > record.stateSince) {
    return startApp('schedule', 'a must-be-up range begins', now);
  }
  return wait(base);
}

function decideWaitingForUp(
  record: AppRecord,
  app: CleverApp,
  obs: Observation,
  ctx: DecisionContext,
  base: Partial<AppRecord>,
): Decision {
  const { now, settings } = ctx;
  if (!obs.deployments) return { type: 'need-deployments' };
  const startedByReaper = record.firstStartAskedAt !== null;
  const clockStart = record.firstStartAskedAt ?? record.stateSince;
  const lastAsked = record.lastStartAskedAt ?? clockStart;
  const patch: Partial<AppRecord> = { ...base };

  // The deployment this wake follows: ours (or a newer one, when someone deployed since).
  const deployments = obs.deployments.filter(isDeployment);
  let followed: CleverDeployment | null = null;
  if (record.deploymentId) {
    // Once ours is listed, the newest deployment decides: ours, or a newer one someone else made.
    if (deployments.some((d) => d.uuid === record.deploymentId)) followed = deployments[0] ?? null;
  } else if (startedByReaper) {
    followed = deployments.find((d) => d.date >= lastAsked - DEPLOYMENT_DATE_TOLERANCE_MS) ?? null;
  } else {
    followed = deployments[0] ?? null;
  }
  if (followed && followed.uuid !== record.deploymentId) patch.deploymentId = followed.uuid;

  if (record.pendingCall === 'start') {
    // The start was not answered: a deployment since then means it was carried out. A deployment is
    // listed a moment after its start, so it is sent again only after a minute without one.
    if (!followed) {
      if (now - lastAsked >= settings.restartAfterMs && now - clockStart < settings.failTimeoutMs) {
        return act({ ...patch, lastStartAskedAt: now }, undefined, 'restart');
      }
      return failTimeoutOr(clockStart, ctx, patch);
    }
    patch.pendingCall = null;
  }

  const dep = followed?.state ?? null;
  const cc = app.state;

  // The table of "Waking up", row by row.
  if (dep === 'FAIL') {
    return go('Error', 'reaper', CAUSES.startFailed, now, { ...patch, cause: CAUSES.startFailed });
  }
  if (dep === 'CANCELLED' && (cc === 'WANTS_TO_BE_UP' || cc === 'SHOULD_BE_DOWN')) {
    return go('Down', 'reaper', 'the deployment was cancelled: the next request asks again', now, patch);
  }
  if (cc === 'SHOULD_BE_UP' && (dep === 'WIP' || dep === 'TASK_RUNNING')) {
    return failTimeoutOr(clockStart, ctx, patch);
  }
  if (cc === 'SHOULD_BE_UP' && (dep === 'OK' || (dep === null && !startedByReaper))) {
    const actor = startedByReaper ? 'reaper' : 'outside';
    return go('Up', actor, `Clever Cloud says SHOULD_BE_UP, deployment ${dep ?? 'none'}`, now, {
      ...patch,
      lastDeployNumber: app.lastDeployNumber,
    });
  }
  if (cc === 'SHOULD_BE_UP' && dep === 'CANCELLED') {
    // A cancelled redeploy of a running app leaves the previous instances up.
    return go('Up', 'outside', 'the deployment was cancelled, Clever Cloud says SHOULD_BE_UP', now, {
      ...patch,
      lastDeployNumber: app.lastDeployNumber,
    });
  }
  if (cc === 'SHOULD_BE_DOWN' && dep === null && now - lastAsked >= settings.restartAfterMs) {
    if (now - clockStart >= settings.failTimeoutMs) return failTimeoutOr(clockStart, ctx, patch);
    if (!startedByReaper) {
      return go(
        'Down',
        'outside',
        'a start made outside the reaper did not happen: Clever Cloud says SHOULD_BE_DOWN',
        now,
        patch,
      );
    }
    // "started again, same fail timeout": the clock of the first start is kept.
    return act(
      { ...patch, lastStartAskedAt: now, pendingCall: 'start', deploymentId: null },
      undefined,
      'restart',
    );
  }
  return failTimeoutOr(clockStart, ctx, patch);
}

/** "If the app is not up within the fail timeout of its start, it goes to Error." */
function failTimeoutOr(clockStart: number, ctx: DecisionContext, patch: Partial<AppRecord>): Decision {
  if (ctx.now - clockStart >= ctx.settings.failTimeoutMs) {
    return go('Error', 'reaper', CAUSES.startTimeout, ctx.now, { ...patch, cause: CAUSES.startTimeout });
  }
  return wait(patch);
}

/**
 * The next time the app needs a look regardless of the paces: the end of its grace period, the start
 * of a must-be-up range, a fail timeout, the restart of a vanished start, a pending release.
 */
export function nextDueAt(record: AppRecord, ctx: DecisionContext): number | null {
  const { settings, schedule, now } = ctx;
  const candidates: number[] = [];
  if (record.releaseNoticedAt !== null) candidates.push(record.releaseNoticedAt + settings.releaseDelayMs);
  switch (record.state) {
    case 'Up': {
      const dryRunDone =
        settings.dryRun &&
        record.dryRunSleepNotedAt !== null &&
        record.dryRunSleepNotedAt >= idleSince(record);
      if (!settings.killSwitch && !dryRunDone) {
        const at = sleepDueAt(record, ctx);
        if (at !== null) candidates.push(at);
      }
      break;
    }
    case 'Down': {
      if (ctx.routing) {
        const next = schedule.nextStartAfter(now);
        if (next !== null) candidates.push(next);
      }
      break;
    }
    case 'WaitingForShutdown': {
      const askedAt = record.stopAskedAt ?? record.stateSince;
      candidates.push(askedAt + settings.failTimeoutMs);
      if (record.pendingCall === 'stop') candidates.push(askedAt + settings.restartAfterMs);
      break;
    }
    case 'WaitingForUp': {
      const clockStart = record.firstStartAskedAt ?? record.stateSince;
      candidates.push(clockStart + settings.failTimeoutMs);
      if (record.lastStartAskedAt !== null)
        candidates.push(record.lastStartAskedAt + settings.restartAfterMs);
      break;
    }
    case 'WaitingForInit':
    case 'Error':
      break;
    default:
      assertNever(record.state);
  }
  const future = candidates.filter((t) => Number.isFinite(t));
  return future.length ? Math.min(...future) : null;
}
