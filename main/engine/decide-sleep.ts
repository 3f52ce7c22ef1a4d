/**
 * The decisions of an awake app and of an app going to sleep (Up, WaitingForShutdown): changes made
 * outside the reaper, the sleep conditions of the lifecycle, the stop and its confirmation.
 */
import { type AppRecord, assertNever, CAUSES } from '../../shared/domain.ts';
import { formatDuration } from '../../shared/durations.ts';
import { groupSleepBlocker, groupSleepDueAt } from './decide-group.ts';
import {
  act,
  DEPLOYMENT_DATE_TOLERANCE_MS,
  type Decision,
  type DecisionContext,
  deploymentSeen,
  type FollowedState,
  go,
  idleSince,
  lastDeployment,
  newestEntry,
  type Observation,
  underWay,
  wait,
} from './decision.ts';
import type { CleverApp, CleverDeployment } from './ports.ts';

/** The sleep blocker while the traffic logged when the reaper was away is being read. */
export const TRAFFIC_UNREAD = 'the traffic logged while the reaper was away is still being read';

/** Why an Up app may not be put to sleep now, or null when all conditions of the lifecycle hold. */
export function sleepBlocker(record: AppRecord, ctx: DecisionContext): string | null {
  const { now, routing, schedule, settings } = ctx;
  if (!routing) return 'no enabled route manages the app';
  if (schedule.activeAt(now)) return 'inside a must-be-up range';
  const since = idleSince(record);
  if (now - since < routing.gracePeriodMs) return 'traffic within the grace period';
  if (ctx.trafficUnread) return TRAFFIC_UNREAD;
  if (record.keepAwakeUntil !== null && now < record.keepAwakeUntil) return 'kept awake';
  if (settings.killSwitch) return 'the kill switch is on';
  // A group sleeps together: not before every other awake member may sleep too.
  return ctx.group ? groupSleepBlocker(ctx.group) : null;
}

/** When an Up app becomes due for sleep, if nothing changes (traffic, ranges, settings). */
export function sleepDueAt(record: AppRecord, ctx: DecisionContext): number | null {
  const { routing, schedule, now } = ctx;
  if (!routing) return null;
  let at = idleSince(record) + routing.gracePeriodMs;
  if (record.keepAwakeUntil !== null) at = Math.max(at, record.keepAwakeUntil);
  const inside = schedule.activeAt(Math.max(at, now));
  if (inside) at = inside.end;
  return groupSleepDueAt(at, ctx.group);
}

export function decideUp(
  record: AppRecord,
  app: CleverApp,
  cc: FollowedState,
  obs: Observation,
  ctx: DecisionContext,
  base: Partial<AppRecord>,
): Decision {
  const { now } = ctx;
  switch (cc) {
    // Changes made outside the reaper.
    case 'SHOULD_BE_DOWN':
      return go('Down', 'outside', 'stopped outside the reaper: Clever Cloud says SHOULD_BE_DOWN', now, base);
    case 'WANTS_TO_BE_UP':
      return go(
        'WaitingForUp',
        'outside',
        'restarted outside the reaper: Clever Cloud says WANTS_TO_BE_UP',
        now,
        base,
      );
    case 'SHOULD_BE_UP':
      return decideRunning(record, app, obs, ctx, base);
    default:
      return assertNever(cc);
  }
}

/** Up, and Clever Cloud says SHOULD_BE_UP: redeployed outside the reaper, or time to sleep? */
function decideRunning(
  record: AppRecord,
  app: CleverApp,
  obs: Observation,
  ctx: DecisionContext,
  base: Partial<AppRecord>,
): Decision {
  const { now, settings } = ctx;
  const redeployed =
    record.lastDeployNumber !== null &&
    app.lastDeployNumber !== null &&
    app.lastDeployNumber !== record.lastDeployNumber;
  if (redeployed) {
    if (!obs.deployments) return { type: 'need-deployments' };
    const last = lastDeployment(obs.deployments);
    if (last && underWay(last)) {
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
      knownDeploymentId: newestEntry(obs.deployments),
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
  // The newest entry known before the stop: the next start's deployment is one listed above it.
  const known = newestEntry(obs.deployments);
  if (known !== record.knownDeploymentId) base.knownDeploymentId = known;
  const idle = `no traffic for ${formatDuration(now - since)} (grace period ${formatDuration(ctx.routing!.gracePeriodMs)})`;
  const lastText = last ? `last deployment ${last.state}` : 'no deployment';

  if (settings.dryRun) {
    return act({ ...base, dryRunSleepNotedAt: now }, undefined, undefined, [
      {
        kind: 'would-sleep',
        actor: 'reaper',
        reason: `dry-run: ${dryRunOutcome(last)}; ${idle}, ${lastText}`,
      },
    ]);
  }

  const seen = deploymentSeen(last);
  switch (seen.state) {
    case 'none':
    case 'OK':
      return go('WaitingForShutdown', 'reaper', `${idle}, ${lastText}`, now, base, 'stop');
    case 'WIP':
    case 'TASK_RUNNING':
      return wait({ ...base, notice: `someone is deploying (${seen.state}): checked again at the next run` });
    case 'FAIL':
    case 'CANCELLED': {
      const cause = CAUSES.unsafeLastDeployment(seen.state);
      return go('Error', 'reaper', cause, now, { ...base, cause });
    }
    case 'unknown': {
      // A deployment state the reaper does not know: not safe either.
      const cause = CAUSES.unsafeLastDeployment(seen.raw);
      return go('Error', 'reaper', cause, now, { ...base, cause });
    }
    default:
      return assertNever(seen);
  }
}

/** What a sleep would do, in dry-run. */
function dryRunOutcome(last: CleverDeployment | null): string {
  const seen = deploymentSeen(last);
  switch (seen.state) {
    case 'none':
    case 'OK':
      return 'would stop the app';
    case 'FAIL':
    case 'CANCELLED':
      return `would not stop it: ${CAUSES.unsafeLastDeployment(seen.state)}`;
    case 'WIP':
    case 'TASK_RUNNING':
    case 'unknown':
      return 'would wait: someone is deploying';
    default:
      return assertNever(seen);
  }
}

export function decideShutdown(
  record: AppRecord,
  app: CleverApp,
  cc: FollowedState,
  obs: Observation,
  ctx: DecisionContext,
  base: Partial<AppRecord>,
): Decision {
  const { now, settings } = ctx;
  switch (cc) {
    case 'SHOULD_BE_DOWN':
      return go('Down', 'reaper', 'Clever Cloud says SHOULD_BE_DOWN', now, {
        ...base,
        lastDeployNumber: app.lastDeployNumber,
      });
    case 'SHOULD_BE_UP':
    case 'WANTS_TO_BE_UP':
      break;
    default:
      return assertNever(cc);
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
