/** The calls about routes: the operator's rules that put an app under the reaper, and their times. */
import { UnavailableError } from '../../../shared/api-errors.ts';
import { InputError } from '../../../shared/errors.ts';
import { describeError } from '../../../shared/log.ts';
import { CleverCallError } from '../../../shared/port-errors.ts';
import { nextTransitions } from '../../../shared/schedule.ts';
import { isTaskApp } from '../../engine/decide.ts';
import { ownHostOf, upstreamHost } from '../../traffic/loop-guard.ts';
import type { Session } from '../session.ts';
import type { CallContext, HandlersOf } from './context.ts';

export type RouteCall =
  | 'listRoutes'
  | 'getRoute'
  | 'createRoute'
  | 'updateRoute'
  | 'deleteRoute'
  | 'routeTransitions'
  | 'previewRanges';

export function routeCalls(ctx: CallContext): HandlersOf<RouteCall> {
  return {
    listRoutes: async ({ appId }) => {
      const s = ctx.need();
      return s.config.routes().filter((r) => appId === undefined || r.appId === appId);
    },

    getRoute: async ({ routeId }) => ctx.need().config.route(routeId),

    createRoute: async (input) => {
      const s = ctx.need();
      await checkApp(s, input.ownerId, input.appId, input.hosts ?? []);
      return namingHostOwner(s, input.appId, () => s.config.save((c) => c.createRoute(input)));
    },

    updateRoute: async ({ routeId, changes }) => {
      const s = ctx.need();
      const current = s.config.route(routeId);
      if (changes.appId !== undefined || changes.ownerId !== undefined || changes.hosts !== undefined) {
        await checkApp(
          s,
          changes.ownerId ?? current.ownerId,
          changes.appId ?? current.appId,
          changes.hosts ?? current.hosts,
        );
      }
      return namingHostOwner(s, changes.appId ?? current.appId, () =>
        s.config.save((c) => c.updateRoute(routeId, changes)),
      );
    },

    deleteRoute: async ({ routeId }) => {
      await ctx.need().config.save((c) => c.deleteRoute(routeId));
      return { deleted: routeId };
    },

    routeTransitions: async ({ routeId, count }) => {
      const s = ctx.need();
      const route = s.config.route(routeId);
      return route.enabled ? nextTransitions(route.ranges, s.clock.now(), count) : [];
    },

    previewRanges: async ({ ranges, count }) =>
      nextTransitions(ranges, ctx.session?.clock.now() ?? Date.now(), count),
  };
}

/**
 * A host taken by another app's route is refused by the route book with an app's id (whichever of
 * the two holding it came first in the list); the operator reads the name of the other app, the one
 * not being saved ("shop-staging (app_532c…)"), its id kept beside it for the API's reader.
 */
async function namingHostOwner<T>(s: Session, appId: string, save: () => Promise<T>): Promise<T> {
  try {
    return await save();
  } catch (error) {
    const taken =
      error instanceof InputError ? error.problems.find((p) => p.code === 'hostTaken') : undefined;
    const host = taken?.params?.value;
    if (!taken || typeof host !== 'string') throw error;
    const other = s.config.routes().find((r) => r.appId !== appId && r.hosts.includes(host))?.appId;
    const name = other && s.engine.list().find((r) => r.appId === other)?.name;
    if (!other) throw error;
    throw InputError.of(taken.field, 'hostTaken', {
      ...taken.params,
      other: name ? `${name} (${other})` : other,
    });
  }
}

/**
 * A route must point at an app Clever Cloud knows, under that owner, and not at a task app. A route
 * the wake proxy serves (it has host names) needs a domain of the app that does not lead back to this
 * reaper: its cleverapps.io domain, or one that is none of the reaper's host names (loop-guard.ts).
 */
async function checkApp(s: Session, ownerId: string, appId: string, hosts: readonly string[]): Promise<void> {
  let app: Awaited<ReturnType<typeof s.clever.getApplication>>;
  try {
    app = await s.clever.getApplication(ownerId, appId);
  } catch (error) {
    if (error instanceof CleverCallError && (error.kind === 'not-found' || error.kind === 'forbidden')) {
      app = null;
    } else {
      throw new UnavailableError(`the app cannot be checked on Clever Cloud: ${describeError(error)}`);
    }
  }
  if (!app) {
    throw InputError.of('appId', 'unknownApp', { value: appId, owner: ownerId });
  }
  if (isTaskApp(app)) throw InputError.of('appId', 'taskApp', { value: app.name });
  if (!hosts.length) return;
  const saved = new Set(hosts.map((h) => h.trim().toLowerCase()));
  const own = ownHostOf(s.engine);
  if (upstreamHost(app.vhosts, (h) => saved.has(h) || own(h)) === null) {
    const value = app.vhosts?.length ? app.vhosts.join(', ') : 'none';
    throw InputError.of('hosts', 'noUpstream', { value });
  }
}
