/**
 * The HTTP transport of the ReaperApi: the method and path of each call. The server routes with this
 * table and the dashboard's HTTP client builds its requests from it, so the two cannot disagree.
 *
 * Input of a call = the path parameters + the query string + the JSON body (or, when `bodyField` is
 * set, the body becomes that one field: PATCH /api/routes/{routeId} sends the changes themselves).
 */
import type { CallName } from './api.ts';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export interface HttpRoute {
  method: HttpMethod;
  /** With `:name` parameters, each a field of the call's input. */
  path: string;
  bodyField?: string;
  /** The status of a success (200 unless told). */
  status?: number;
  /**
   * An operator's action that may be handed over while the datastore is away: answered 202 Accepted
   * when the answer's `handedOver` says so (it runs once the datastore is back).
   */
  mayBeHandedOver?: true;
}

/** The status of a success: 202 for an action handed over to run later, else the route's. */
export function successStatus(route: HttpRoute, answer: unknown): number {
  const later =
    route.mayBeHandedOver === true &&
    typeof answer === 'object' &&
    answer !== null &&
    typeof (answer as { handedOver?: unknown }).handedOver === 'string';
  return later ? 202 : (route.status ?? 200);
}

export const API_PREFIX = '/api';
/** Server-sent events: every ReaperEvent, one `data:` line of JSON each. */
export const EVENTS_PATH = '/api/events';
/**
 * The history across apps: `?format=csv` or `?format=json` streams the whole filtered history as a
 * file (the filters of historyQuery, no paging) instead of answering one page.
 */
export const HISTORY_PATH = '/api/history';
/** Prometheus text format 0.0.4, with the admin token like the rest of the API. */
export const METRICS_PATH = '/metrics';

export const HTTP_ROUTES: Record<CallName, HttpRoute> = {
  snapshot: { method: 'GET', path: '/api/snapshot' },
  status: { method: 'GET', path: '/api/status' },
  listApps: { method: 'GET', path: '/api/apps' },
  getApp: { method: 'GET', path: '/api/apps/:appId' },
  history: { method: 'GET', path: '/api/apps/:appId/history' },
  reset: { method: 'POST', path: '/api/apps/:appId/_reset', mayBeHandedOver: true },
  wake: { method: 'POST', path: '/api/apps/:appId/_wake' },
  keepAwake: { method: 'POST', path: '/api/apps/:appId/_keep-awake', mayBeHandedOver: true },
  release: { method: 'POST', path: '/api/apps/:appId/_release', mayBeHandedOver: true },
  bulk: { method: 'POST', path: '/api/apps/_bulk' },
  listRoutes: { method: 'GET', path: '/api/routes' },
  getRoute: { method: 'GET', path: '/api/routes/:routeId' },
  createRoute: { method: 'POST', path: '/api/routes', status: 201 },
  updateRoute: { method: 'PATCH', path: '/api/routes/:routeId', bodyField: 'changes' },
  deleteRoute: { method: 'DELETE', path: '/api/routes/:routeId' },
  listRules: { method: 'GET', path: '/api/rules' },
  getRule: { method: 'GET', path: '/api/rules/:ruleId' },
  createRule: { method: 'POST', path: '/api/rules', status: 201 },
  updateRule: { method: 'PATCH', path: '/api/rules/:ruleId', bodyField: 'changes' },
  deleteRule: { method: 'DELETE', path: '/api/rules/:ruleId' },
  previewRule: { method: 'POST', path: '/api/rules/_preview' },
  getSettings: { method: 'GET', path: '/api/settings' },
  updateSettings: { method: 'PATCH', path: '/api/settings' },
  listOwners: { method: 'GET', path: '/api/owners' },
  listOwnerApps: { method: 'GET', path: '/api/owners/:ownerId/applications' },
  credentials: { method: 'GET', path: '/api/credentials' },
  connect: { method: 'POST', path: '/api/credentials/_connect' },
  startDemo: { method: 'POST', path: '/api/credentials/_demo' },
  historyQuery: { method: 'GET', path: HISTORY_PATH },
  routeTransitions: { method: 'GET', path: '/api/routes/:routeId/transitions' },
  previewRanges: { method: 'POST', path: '/api/routes/_preview' },
  savings: { method: 'GET', path: '/api/savings' },
  webhookStatus: { method: 'GET', path: '/api/webhooks' },
  testWebhook: { method: 'POST', path: '/api/webhooks/_test' },
};

/** The names of a path's parameters, in order. */
export function pathParams(path: string): string[] {
  return path
    .split('/')
    .filter((s) => s.startsWith(':'))
    .map((s) => s.slice(1));
}

/** Match a request path against a route path: its parameters, or null. */
export function matchPath(routePath: string, path: string): Record<string, string> | null {
  const want = routePath.split('/');
  const got = path.split('/');
  if (want.length !== got.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i]!;
    const g = got[i]!;
    if (w.startsWith(':')) {
      if (!g) return null;
      try {
        params[w.slice(1)] = decodeURIComponent(g);
      } catch {
        return null;
      }
    } else if (w !== g) return null;
  }
  return params;
}

/** Fill a route path with the input's parameters; the rest of the input is returned apart. */
export function fillPath(
  routePath: string,
  input: Record<string, unknown>,
): { path: string; rest: Record<string, unknown> } {
  const rest = { ...input };
  const path = routePath
    .split('/')
    .map((segment) => {
      if (!segment.startsWith(':')) return segment;
      const name = segment.slice(1);
      const value = rest[name];
      delete rest[name];
      return encodeURIComponent(String(value ?? ''));
    })
    .join('/');
  return { path, rest };
}
