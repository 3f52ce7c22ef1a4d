/**
 * The dashboard's place as a route of the URL fragment (shared/nav-route.ts), both ways:
 * `#/apps?state=Error&q=shop`, `#/apps/app_...` (the details open; `#/apps?app=app_...` too), `#/history?app=...&cause=...`,
 * `#/routes?q=...`, `#/routes/route_...` (the editor open), `#/audit?who=alice&what=route&from=...`,
 * `#/savings?tz=Asia/Tokyo` (the zone its days are counted in; none: the viewer's), `#/settings`. The apps
 * table's sort is there too: `#/apps?sort=-lastRequest` (a minus for descending; by name, ascending,
 * says nothing).
 *
 * Each view says which part of the state its route holds (URL_VIEWS); a view without an entry is
 * just its name. A route of an unknown view, or with values the dashboard would not accept (a state
 * that does not exist, an id of the wrong form), falls back to what is valid.
 */
import { APP_ID_PATTERN, OWNER_ID_PATTERN, REAPER_STATES, type ReaperState } from '../../shared/domain.ts';
import type { NavRoute } from '../../shared/nav-route.ts';
import { SORT_KEYS, type SortDir, type SortKey } from './sort.ts';
import { isTimeZoneOffered } from './time-zones.ts';

export const VIEWS = ['apps', 'history', 'savings', 'routes', 'audit', 'settings'] as const;
export type View = (typeof VIEWS)[number];

export interface Filters {
  search: string;
  state: ReaperState | '';
  ownerId: string;
  errorsOnly: boolean;
}

export const INITIAL_FILTERS: Filters = { search: '', state: '', ownerId: '', errorsOnly: false };

export interface Sort {
  key: SortKey;
  dir: SortDir;
}
export const INITIAL_SORT: Sort = { key: 'name', dir: 'asc' };

/** The sort as the URL holds it: `state`, `-lastRequest`; by name ascending (the default) is ''. */
export function sortParam(sort: Sort): string {
  if (sort.key === INITIAL_SORT.key && sort.dir === INITIAL_SORT.dir) return '';
  return `${sort.dir === 'desc' ? '-' : ''}${sort.key}`;
}

/** The sort of a URL parameter; the default for none or one that names no column. */
export function sortOfParam(param: string | undefined): Sort {
  if (!param) return INITIAL_SORT;
  const dir: SortDir = param.startsWith('-') ? 'desc' : 'asc';
  const key = param.replace(/^-/, '');
  return (SORT_KEYS as readonly string[]).includes(key) ? { key: key as SortKey, dir } : INITIAL_SORT;
}

/** The History view's filters as the URL and its form hold them (text, empty = not filtered). */
export const HISTORY_PARAMS = ['app', 'state', 'cause', 'actor', 'kind', 'from', 'to'] as const;
export type HistoryParams = Partial<Record<(typeof HISTORY_PARAMS)[number], string>>;

/** The Audit view's filters as the URL and its form hold them (text, empty = not filtered). */
export const AUDIT_PARAMS = ['what', 'who', 'target', 'via', 'from', 'to'] as const;
export type AuditParams = Partial<Record<(typeof AUDIT_PARAMS)[number], string>>;

/** The part of the dashboard's state that the URL holds. */
export interface UrlState {
  view: View;
  selectedAppId: string | null;
  filters: Filters;
  /** The apps table's order. */
  sort: Sort;
  editingRoute: string | 'new' | null;
  historyParams: HistoryParams;
  auditParams: AuditParams;
  routesSearch: string;
  /** The zone the Savings view counts its days in; '' for the viewer's own. */
  savingsZone: string;
}

interface ViewUrl {
  toRoute(s: UrlState): Pick<NavRoute, 'id' | 'params'>;
  /** The state of a route of this view (the fields it holds; the others keep their value). */
  fromRoute(r: NavRoute): Partial<UrlState>;
}

const ROUTE_ID = /^route_[A-Za-z0-9-]{1,100}$/;

/** An app's id as a route names it: `#/apps/app_…`, or `#/apps?app=app_…` (a link's other form). */
function appIdOf(id: string | null): string | null {
  return id !== null && APP_ID_PATTERN.test(id) ? id : null;
}

const URL_VIEWS: Partial<Record<View, ViewUrl>> = {
  apps: {
    toRoute: (s) => ({
      id: s.selectedAppId,
      params: {
        q: s.filters.search,
        state: s.filters.state,
        owner: s.filters.ownerId,
        errors: s.filters.errorsOnly ? '1' : '',
        sort: sortParam(s.sort),
      },
    }),
    fromRoute: (r) => ({
      selectedAppId: appIdOf(r.id ?? r.params.app ?? null),
      filters: {
        search: r.params.q ?? '',
        state: REAPER_STATES.includes(r.params.state as ReaperState) ? (r.params.state as ReaperState) : '',
        ownerId: r.params.owner && OWNER_ID_PATTERN.test(r.params.owner) ? r.params.owner : '',
        errorsOnly: r.params.errors === '1',
      },
      sort: sortOfParam(r.params.sort),
    }),
  },
  history: {
    toRoute: (s) => ({ id: null, params: { ...s.historyParams } }),
    fromRoute: (r) => ({
      historyParams: Object.fromEntries(
        HISTORY_PARAMS.flatMap((k) => (r.params[k] ? [[k, r.params[k]]] : [])),
      ) as HistoryParams,
    }),
  },
  savings: {
    toRoute: (s) => ({ id: null, params: { tz: s.savingsZone } }),
    fromRoute: (r) => ({ savingsZone: r.params.tz && isTimeZoneOffered(r.params.tz) ? r.params.tz : '' }),
  },
  audit: {
    toRoute: (s) => ({ id: null, params: { ...s.auditParams } }),
    fromRoute: (r) => ({
      auditParams: Object.fromEntries(
        AUDIT_PARAMS.flatMap((k) => (r.params[k] ? [[k, r.params[k]]] : [])),
      ) as AuditParams,
    }),
  },
  routes: {
    toRoute: (s) => ({ id: s.editingRoute, params: { q: s.routesSearch } }),
    fromRoute: (r) => ({
      editingRoute: r.id === 'new' || (r.id !== null && ROUTE_ID.test(r.id)) ? r.id : null,
      routesSearch: r.params.q ?? '',
    }),
  },
};

/** The route of the state (what the address bar shows). */
export function routeOf(s: UrlState): NavRoute {
  const own = URL_VIEWS[s.view]?.toRoute(s) ?? { id: null, params: {} };
  return { view: s.view, ...own };
}

/**
 * The state a route asks for, or null when it names no view of the dashboard. Fields of other views
 * are reset (a pasted link shows what it says, not what was open before); the open app only lives
 * in the apps view.
 */
export function stateOfRoute(r: NavRoute | null): Partial<UrlState> | null {
  if (!r || !(VIEWS as readonly string[]).includes(r.view)) return null;
  const view = r.view as View;
  return {
    view,
    selectedAppId: null,
    editingRoute: null,
    ...URL_VIEWS[view]?.fromRoute(r),
  };
}
