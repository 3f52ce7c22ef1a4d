/**
 * The decisions of a sleeping app and of an app waking up (Down, WaitingForUp): starts made outside
 * the reaper, the wake a request or a must-be-up range asks for, and the table of "Waking up".
 */
import { type Actor, type AppRecord, assertNever, CAUSES, type TrafficSource } from '../../shared/domain.ts';
import { formatDuration } from '../../shared/durations.ts';
import {
  act,
  actorOfSource,
  DEPLOYMENT_DATE_TOLERANCE_MS,
  type Decision,
  type DecisionContext,
  deploymentSeen,
  type FollowedState,
  go,
  isDeployment,
  lastDeployment,
  listedSince,
  newestEntry,
  type Observation,
  somethingUnderWay,
  underWay,
  wait,
} from './decision.ts';
import type { CleverApp, CleverDeployment } from './ports.ts';

/** The start of a wake: the reaper asks Clever Cloud to start the app. */
function startApp(actor: Actor, reason: string, now: number, known: Partial<AppRecord>): Decision {
  return go(
    'WaitingForUp',
    actor,
    reason,
    now,
    { ...known, firstStartAskedAt: now, lastStartAskedAt: now, pendingCall: 'start', wakeRequestedAt: null },
    'start',
  );
}

export function decideDown(
  record: AppRecord,
  app: CleverApp,
  cc: FollowedState,
  obs: Observation,
  ctx: DecisionContext,
  base: Partial<AppRecord>,
): Decision {
  const { now } = ctx;
  switch (cc) {
    case 'WANTS_TO_BE_UP': {
      if (!obs.deployments) return { type: 'need-deployments' };
      // A deployment listed since the reaper last read the list is a start made outside, whatever
      // its state (its own outcome then decides, row by row): followed by identity.
      const since = listedSince(obs.deployments, record.knownDeploymentId);
      const fresh = since?.[0] ?? null;
      if (fresh) {
        return go('WaitingForUp', 'outside', `started outside the reaper: deployment ${fresh.state}`, now, {
          ...base,
          deploymentId: fresh.uuid,
        });
      }
      const last = lastDeployment(obs.deployments);
      if (last && underWay(last)) {
        return go('WaitingForUp', 'outside', `started outside the reaper: deployment ${last.state}`, now, {
          ...base,
          deploymentId: last.uuid,
        });
      }
      // Already WANTS_TO_BE_UP when seen last, and no deployment since nor under way: the state a
      // failed or cancelled start left (the console reads it as "start failed", or as not starting),
      // not a new start. A new start shows as a new deployment. Asleep, as after SHOULD_BE_DOWN.
      if (record.cleverState === 'WANTS_TO_BE_UP') {
        return asleep(record, ctx, { ...base, knownDeploymentId: newestEntry(obs.deployments) });
      }
      // Just became WANTS_TO_BE_UP: a start whose deployment is not listed yet (a new deployment is
      // listed a moment after its start: clever-tools src/models/deployments.js). Followed once it
      // is: the first listed above the newest known now.
      return go(
        'WaitingForUp',
        'outside',
        'started outside the reaper: Clever Cloud says WANTS_TO_BE_UP',
        now,
        since ? base : { ...base, knownDeploymentId: newestEntry(obs.deployments) },
      );
    }
    case 'SHOULD_BE_UP': {
      if (!obs.deployments) return { type: 'need-deployments' };
      const last = lastDeployment(obs.deployments);
      if (last && underWay(last)) {
        return go('WaitingForUp', 'outside', `started outside the reaper: deployment ${last.state}`, now, {
          ...base,
          deploymentId: last.uuid,
        });
      }
      return go('Up', 'outside', 'started outside the reaper: Clever Cloud says SHOULD_BE_UP', now, {
        ...base,
        lastDeployNumber: app.lastDeployNumber,
        knownDeploymentId: newestEntry(obs.deployments),
      });
    }
    case 'SHOULD_BE_DOWN':
      return asleep(record, ctx, base);
    default:
      return assertNever(cc);
  }
}

/** Asleep. "Started by the next request, or at the start of a must-be-up range." */
function asleep(record: AppRecord, ctx: DecisionContext, base: Partial<AppRecord>): Decision {
  const { now, routing, schedule } = ctx;
  // The start's own deployment will be listed above the newest entry known now.
  const known = base.knownDeploymentId !== undefined ? { knownDeploymentId: base.knownDeploymentId } : {};
  if (record.wakeRequestedAt !== null) {
    const actor = actorOfSource(record.lastRequestSource);
    const from = record.lastRequestSource ?? 'a request';
    const reason = ctx.groupWakeOf
      ? `woken with its group (request for ${ctx.groupWakeOf})`
      : `asked for by ${from}`;
    return startApp(actor, reason, now, known);
  }
  const range = routing ? schedule.activeAt(now) : null;
  if (range && range.start > record.stateSince) {
    return startApp('schedule', 'a must-be-up range begins', now, known);
  }
  return wait(base);
}

export function decideWaitingForUp(
  record: AppRecord,
  app: CleverApp,
  cc: FollowedState,
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
  } else {
    // Ours is the first listed above the newest entry known when this wake began (the list is newest
    // first; the dates may be equal or out of order, and are not read). An entry listed before the
    // new one is, however recent, is not this start's.
    const since = listedSince(obs.deployments, record.knownDeploymentId);
    if (since) followed = since[0] ?? null;
    else {
      // Nothing known when it began (a record from before the reaper kept it, or the known entry past
      // the page read): a deployment dated since the start, within the clock tolerance.
      const from = startedByReaper ? lastAsked : record.stateSince;
      followed = deployments.find((d) => d.date >= from - DEPLOYMENT_DATE_TOLERANCE_MS) ?? null;
    }
  }
  if (followed && followed.uuid !== record.deploymentId) patch.deploymentId = followed.uuid;
  // The newest entry listed now, known from here on. While ours is not listed, none of these is ours:
  // ours will be listed above it (so a date tolerance never reaches back past what was read). Leaving
  // the wait, the next start's deployment will be listed above it.
  const leaving = { knownDeploymentId: newestEntry(obs.deployments) };
  if (!followed && leaving.knownDeploymentId !== record.knownDeploymentId) Object.assign(patch, leaving);

  if (record.pendingCall === 'start') {
    // The start was not answered: a deployment since then means it was carried out. A deployment is
    // listed a moment after its start, so it is sent again only after a minute without one, and only
    // when Clever Cloud shows no sign of it: the app still SHOULD_BE_DOWN, nothing queued or under way
    // (a slow platform may hold it QUEUED, which v2 does not list: then WANTS_TO_BE_UP tells).
    if (!followed) {
      const unseen = cc === 'SHOULD_BE_DOWN' && !somethingUnderWay(obs.deployments);
      if (unseen && now - lastAsked >= settings.restartAfterMs && now - clockStart < settings.failTimeoutMs) {
        return act({ ...patch, lastStartAskedAt: now }, undefined, 'restart');
      }
      return failTimeoutOr(clockStart, ctx, patch);
    }
    patch.pendingCall = null;
  }

  const up = (actor: Actor, reason: string) =>
    go('Up', actor, reason, now, { ...patch, ...leaving, lastDeployNumber: app.lastDeployNumber });

  // The table of "Waking up", row by row: the deployment followed, then what Clever Cloud says.
  const dep = deploymentSeen(followed);
  switch (dep.state) {
    case 'FAIL':
      return go('Error', 'reaper', CAUSES.startFailed, now, {
        ...patch,
        ...leaving,
        cause: CAUSES.startFailed,
      });
    case 'CANCELLED':
      switch (cc) {
        case 'WANTS_TO_BE_UP':
        case 'SHOULD_BE_DOWN':
          return go('Down', 'reaper', 'the deployment was cancelled: the next request asks again', now, {
            ...patch,
            ...leaving,
          });
        case 'SHOULD_BE_UP':
          // A cancelled redeploy of a running app leaves the previous instances up.
          return up('outside', 'the deployment was cancelled, Clever Cloud says SHOULD_BE_UP');
        default:
          return assertNever(cc);
      }
    case 'OK':
      if (cc === 'SHOULD_BE_UP') {
        return up(startedByReaper ? 'reaper' : 'outside', 'Clever Cloud says SHOULD_BE_UP, deployment OK');
      }
      return failTimeoutOr(clockStart, ctx, patch);
    case 'none':
      switch (cc) {
        case 'SHOULD_BE_UP':
          if (!startedByReaper) return up('outside', 'Clever Cloud says SHOULD_BE_UP, deployment none');
          return failTimeoutOr(clockStart, ctx, patch);
        case 'SHOULD_BE_DOWN':
          // A deployment queued or under way (another one ahead of this start) is no vanished start.
          if (somethingUnderWay(obs.deployments)) return failTimeoutOr(clockStart, ctx, patch);
          return startVanished(ctx, patch, startedByReaper, clockStart, lastAsked);
        case 'WANTS_TO_BE_UP':
          return failTimeoutOr(clockStart, ctx, patch);
        default:
          return assertNever(cc);
      }
    case 'WIP':
    case 'TASK_RUNNING':
    case 'unknown':
      return failTimeoutOr(clockStart, ctx, patch);
    default:
      return assertNever(dep);
  }
}

/** WaitingForUp, no deployment, Clever Cloud says SHOULD_BE_DOWN: the start did not happen. */
function startVanished(
  ctx: DecisionContext,
  patch: Partial<AppRecord>,
  startedByReaper: boolean,
  clockStart: number,
  lastAsked: number,
): Decision {
  const { now, settings } = ctx;
  if (now - lastAsked < settings.restartAfterMs) return failTimeoutOr(clockStart, ctx, patch);
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

/** "If the app is not up within the fail timeout of its start, it goes to Error." */
function failTimeoutOr(clockStart: number, ctx: DecisionContext, patch: Partial<AppRecord>): Decision {
  if (ctx.now - clockStart >= ctx.settings.failTimeoutMs) {
    return go('Error', 'reaper', CAUSES.startTimeout, ctx.now, { ...patch, cause: CAUSES.startTimeout });
  }
  return wait(patch);
}

/**
 * Dry-run: the first request after a sleep was recorded is the wake that sleep would have needed
 * (the savings count a projected sleep up to it). The note to write with the request, if it is one.
 */
export function wouldWakeNotes(
  record: AppRecord,
  dryRun: boolean,
  at: number,
  source: TrafficSource,
): { kind: 'would-wake'; actor: 'request'; reason: string }[] | undefined {
  const wouldWake =
    dryRun &&
    record.state === 'Up' &&
    record.dryRunSleepNotedAt !== null &&
    at >= record.dryRunSleepNotedAt &&
    (record.lastRequestAt === null || record.lastRequestAt < record.dryRunSleepNotedAt);
  return wouldWake
    ? [
        {
          kind: 'would-wake',
          actor: 'request',
          reason: `dry-run: a request (${source}) would have woken the app`,
        },
      ]
    : undefined;
}

/** The history note of a wake's first answer, seen by the wake proxy: how long its visitor waited. */
export function firstAnswerNote(
  waitMs: number,
  afterUpMs: number,
): { kind: 'first-answer'; actor: 'request'; reason: string } {
  const reason = `the app answered the first request ${formatDuration(waitMs)} after it (${formatDuration(afterUpMs)} after Up)`;
  return { kind: 'first-answer', actor: 'request', reason };
}
