/**
 * The reaper's decisions: a pure function of an app's record, what Clever Cloud says about it, its
 * routes, the settings and the time. No timers, no I/O: the job (engine.ts) reads Clever Cloud,
 * calls `decide`, and carries out what it returns. Each branch names the line of the lifecycle spec
 * it implements. The Clever Cloud state is narrowed here, once, into the closed list of shared/domain
 * (unknown values kept as text); the decisions per reaper state are in decide-sleep.ts (Up,
 * WaitingForShutdown) and decide-wake.ts (Down, WaitingForUp).
 */
import { type AppRecord, assertNever, CAUSES, narrowCleverState } from '../../shared/domain.ts';
import { decideShutdown, decideUp, sleepDueAt } from './decide-sleep.ts';
import { decideDown, decideWaitingForUp } from './decide-wake.ts';
import {
  type Decision,
  type DecisionContext,
  deploymentSeen,
  type FollowedState,
  go,
  idleSince,
  lastDeployment,
  newestEntry,
  type Observation,
  observed,
  underWay,
  wait,
} from './decision.ts';
import type { CleverApp } from './ports.ts';

export { sleepDueAt } from './decide-sleep.ts';
export type { Call, Decision, DecisionContext, Observation } from './decision.ts';

export function decide(record: AppRecord, obs: Observation, ctx: DecisionContext): Decision {
  const { now, settings, routing } = ctx;
  const app = obs.app;

  // Releasing: a route disabled, deleted or re-pointed is noticed here and released after the delay.
  // An app Clever Cloud no longer knows (deleted: gone from its owner's list, so from its rule) is
  // released at once, without a start; unless releases are held (an infinite release delay: the
  // configuration could not be read in full, see the config store).
  if (!routing) {
    if (!app && Number.isFinite(settings.releaseDelayMs)) return releaseDecision(record, false);
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

  // A task app runs its task and stops by itself: starting or stopping it is not the reaper's job.
  if (isTaskApp(app)) return wait({ ...base, notice: TASK_APP_NOTICE });

  // "unexpected clever cloud state '...'": MODERATED, DEFAULT_OF_PAYMENT, or a state the reaper does not know.
  let cc: FollowedState;
  const seen = narrowCleverState(app.state);
  switch (seen.state) {
    case 'SHOULD_BE_UP':
    case 'SHOULD_BE_DOWN':
    case 'WANTS_TO_BE_UP':
      cc = seen.state;
      break;
    case 'MODERATED':
    case 'DEFAULT_OF_PAYMENT':
      return unexpectedState(seen.state, now, base);
    case 'unknown':
      return unexpectedState(seen.raw, now, base);
    default:
      return assertNever(seen);
  }

  switch (record.state) {
    case 'WaitingForInit':
      return decideInit(app, cc, obs, ctx, base);
    case 'Up':
      return decideUp(record, app, cc, obs, ctx, base);
    case 'WaitingForShutdown':
      return decideShutdown(record, app, cc, obs, ctx, base);
    case 'Down':
      return decideDown(record, app, cc, obs, ctx, base);
    case 'WaitingForUp':
      return decideWaitingForUp(record, app, cc, obs, ctx, base);
    default:
      return assertNever(record.state);
  }
}

/** Why a task app is left alone, on its record (and so in the dashboard and the API). */
export const TASK_APP_NOTICE =
  'a task app (instance lifetime TASK) runs and stops by itself: the reaper leaves it alone';

/** A task app: ApplicationView `instance.lifetime` TASK. */
export function isTaskApp(app: CleverApp): boolean {
  return app.lifetime === 'TASK';
}

function unexpectedState(raw: string, now: number, base: Partial<AppRecord>): Decision {
  return go('Error', 'reaper', CAUSES.unexpectedState(raw), now, {
    ...base,
    cause: CAUSES.unexpectedState(raw),
  });
}

/** Release: "if the app sleeps, it is started ... then its state is forgotten. Its history stays." */
/** What a reset clears (the operator's "reset from the console": read again from Clever Cloud). */
export const RESET_PATCH: Partial<AppRecord> = {
  notice: null,
  cause: null,
  pendingCall: null,
  stopAskedAt: null,
  firstStartAskedAt: null,
  lastStartAskedAt: null,
  deploymentId: null,
  cameUpAt: null,
  cleverState: null,
  lastDeployNumber: null,
  redeploySeenAt: null,
  dryRunSleepNotedAt: null,
};

export function releaseDecision(record: AppRecord, known = true): Extract<Decision, { type: 'release' }> {
  if (!known) {
    return {
      type: 'release',
      start: false,
      reason: 'released: Clever Cloud no longer knows the app, forgotten',
    };
  }
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
  cc: FollowedState,
  obs: Observation,
  ctx: DecisionContext,
  base: Partial<AppRecord>,
): Decision {
  const { now } = ctx;
  // Every reading starts from the deployments listed now: the newest is known from here on, so a
  // start's own deployment is told from the ones before it by identity.
  if (!obs.deployments) return { type: 'need-deployments' };
  const extra = {
    ...base,
    lastDeployNumber: app.lastDeployNumber,
    knownDeploymentId: newestEntry(obs.deployments),
  };
  switch (cc) {
    case 'SHOULD_BE_DOWN':
      return go('Down', 'reaper', 'Clever Cloud says SHOULD_BE_DOWN', now, extra);
    case 'WANTS_TO_BE_UP': {
      // Starting, or left WANTS_TO_BE_UP by a start that failed or was cancelled: the console reads
      // WANTS_TO_BE_UP with the newest deployment FAIL as "start failed", with CANCELLED as not
      // starting (clever-client.js esm/utils/app-status.js).
      const last = lastDeployment(obs.deployments);
      const seen = deploymentSeen(last);
      switch (seen.state) {
        case 'FAIL':
        case 'CANCELLED':
          return go(
            'Down',
            'reaper',
            `Clever Cloud says WANTS_TO_BE_UP, but its last start ended ${seen.state}: not starting`,
            now,
            extra,
          );
        case 'WIP':
        case 'TASK_RUNNING':
        case 'unknown':
          return go(
            'WaitingForUp',
            'reaper',
            `Clever Cloud says WANTS_TO_BE_UP, deployment ${last!.state}`,
            now,
            {
              ...extra,
              deploymentId: last!.uuid,
            },
          );
        case 'OK':
        case 'none':
          // A start whose deployment is not listed yet: followed once it is.
          return go(
            'WaitingForUp',
            'reaper',
            'Clever Cloud says WANTS_TO_BE_UP: the app is starting',
            now,
            extra,
          );
        default:
          return assertNever(seen);
      }
    }
    case 'SHOULD_BE_UP': {
      // Up, unless a deployment is under way.
      const last = lastDeployment(obs.deployments);
      if (last && underWay(last)) {
        return go('WaitingForUp', 'reaper', `Clever Cloud says SHOULD_BE_UP, deployment ${last.state}`, now, {
          ...extra,
          deploymentId: last.uuid,
        });
      }
      return go('Up', 'reaper', 'Clever Cloud says SHOULD_BE_UP', now, extra);
    }
    default:
      return assertNever(cc);
  }
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
