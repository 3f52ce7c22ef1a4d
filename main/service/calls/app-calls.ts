/** The calls about the managed apps: list, detail, history, and the operator's actions on one. */
import type { AppDetail } from '../../../shared/api.ts';
import { ConflictError, TimeoutError } from '../../../shared/api-errors.ts';
import { handedOverNote, matchesFilter } from '../../../shared/app-view.ts';
import type { AppRecord } from '../../../shared/domain.ts';
import { DAY, MINUTE } from '../../../shared/durations.ts';
import { InputError, NotFoundError } from '../../../shared/errors.ts';
import { describeError } from '../../../shared/log.ts';
import { nextTransitions } from '../../../shared/schedule.ts';
import { transitionDurationsFrom } from '../../reports/durations.ts';
import { type CallContext, type HandlersOf, recordOf } from './context.ts';
import { groupView } from './rule-calls.ts';

/** The longest "keep awake until". */
export const MAX_KEEP_AWAKE_MS = 30 * DAY;

export type AppCall = 'listApps' | 'getApp' | 'history' | 'reset' | 'wake' | 'keepAwake' | 'release';

export function appCalls(ctx: CallContext): HandlersOf<AppCall> {
  return {
    listApps: async (filter) => {
      const s = ctx.need();
      return ctx.views(s).filter((v) => matchesFilter(v, filter));
    },

    getApp: async ({ appId }) => {
      const s = ctx.need();
      const record = recordOf(s, appId);
      const routing = s.engine.routingOf(appId);
      const ranges = routing?.ranges ?? [];
      const detail: AppDetail = {
        app: ctx.view(s, record),
        routes: s.config.routes().filter((r) => r.appId === appId),
        ranges,
        nextTransitions: ranges.length ? nextTransitions(ranges, s.clock.now(), 6) : [],
        traffic: s.traffic.appTraffic(appId),
        durations: await transitionDurationsFrom(s.store, appId),
        wakeSources: s.traffic.wakeSources(appId),
        group: groupView(s, appId),
      };
      return detail;
    },

    history: async ({ appId, limit, since }) => {
      const s = ctx.need();
      const entries = await s.store.historyOf(appId, limit);
      if (entries.length === 0 && !s.engine.get(appId)) throw new NotFoundError(`app ${appId}`);
      return since === undefined ? entries : entries.filter((e) => e.at >= since);
    },

    reset: async ({ appId }) => {
      const s = ctx.need();
      recordOf(s, appId);
      return ctx.view(s, await s.engine.reset(appId));
    },

    wake: async ({ appId, source, wait, timeoutMs }) => {
      const s = ctx.need();
      const before = recordOf(s, appId);
      if (before.state === 'Error') {
        throw new ConflictError(`the app is in Error (${before.cause}): reset it once the problem is fixed`);
      }
      s.traffic.stats.counted(appId, source);
      await s.engine.wake(appId, source);
      if (!wait) return ctx.view(s, recordOf(s, appId));
      const limit = timeoutMs ?? s.config.settings().failTimeoutMs + MINUTE;
      let reached: AppRecord;
      try {
        reached = await s.engine.waitFor(appId, ['Up', 'Error'], limit);
      } catch (error) {
        if (!s.engine.get(appId)) throw new ConflictError('the app was released while waking up');
        throw new TimeoutError(describeError(error));
      }
      if (reached.state === 'Error') throw new ConflictError(`the app went to Error: ${reached.cause}`);
      return ctx.view(s, reached);
    },

    keepAwake: async ({ appId, until, source }) => {
      const s = ctx.need();
      recordOf(s, appId);
      const now = s.clock.now();
      if (until !== null && until <= now) {
        throw InputError.of('until', 'untilPast');
      }
      if (until !== null && until > now + MAX_KEEP_AWAKE_MS) {
        throw InputError.of('until', 'untilTooFar');
      }
      return ctx.view(s, await s.engine.keepAwake(appId, until, source));
    },

    release: async ({ appId }) => {
      const s = ctx.need();
      const record = recordOf(s, appId);
      const ruleManaged = Boolean(s.engine.routingOf(appId)?.ruleId);
      const disabledRoutes = await s.config.save((c) => {
        const disabled = c.disableRoutesOf(appId);
        // A rule manages the app: a disabled route keeps it out of the rules (a route overrides them).
        if (ruleManaged) {
          disabled.push(
            c.createRoute({ appId, ownerId: record.ownerId, enabled: false, label: 'kept out of the rules' }),
          );
        }
        return disabled;
      });
      await s.engine.releaseNow(appId);
      const kept = s.engine.keptAction(appId) === 'release';
      return { appId, disabledRoutes, handedOver: kept ? handedOverNote('release') : null };
    },
  };
}
