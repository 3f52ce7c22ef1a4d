/**
 * Where the dashboard is, as a path the URL fragment holds: `#/apps?state=Error`, `#/apps/app_...`,
 * `#/history?appId=...`, `#/routes/route_...`. The dashboard keeps its view, open item and filters
 * there (reload keeps them, Back and Forward work, a link can be pasted to a colleague), and the
 * desktop's `clever-reaper://open/...` links land on the same paths.
 *
 * Generic on purpose: a view is a name, an optional item id and text parameters; which views exist
 * and what their parameters mean is the dashboard's business (a new view slots in without a change
 * here). The admin token is never part of a route: a `token` parameter is dropped when parsing and
 * refused when formatting, so a route written back to the address bar cannot carry it.
 */

export interface NavRoute {
  /** The view's name: `apps`, `history`, `routes`... */
  view: string;
  /** The item open in the view (an app id, a route id), or null. */
  id: string | null;
  /** The view's parameters (its filters), in a stable order when formatted. */
  params: Record<string, string>;
}

/** Parameters no route may hold (secrets must never end up in a link). */
export const SECRET_PARAMS: ReadonlySet<string> = new Set(['token']);

const NAME = /^[a-z][a-z0-9-]{0,40}$/;
const ID = /^[A-Za-z0-9_-]{1,120}$/;
const MAX_PARAM_LENGTH = 500;
const MAX_PARAMS = 30;

/**
 * The route of a fragment (`#/apps/app_x?state=Error`, with or without the `#`), or null when it is
 * not one: an empty fragment, the server's `#token=...`, a malformed path. Unknown parameters are
 * kept (the view ignores them); `token` is dropped; empty values are left out.
 */
export function parseRoute(fragment: string): NavRoute | null {
  const text = fragment.replace(/^#/, '');
  if (!text.startsWith('/')) return null;
  const q = text.indexOf('?');
  const path = q < 0 ? text : text.slice(0, q);
  const query = q < 0 ? '' : text.slice(q + 1);
  const parts = path.split('/').filter(Boolean);
  if (parts.length === 0 || parts.length > 2) return null;
  let view: string;
  let id: string | null = null;
  try {
    view = decodeURIComponent(parts[0]!);
    if (parts[1] !== undefined) id = decodeURIComponent(parts[1]);
  } catch {
    return null;
  }
  if (!NAME.test(view) || (id !== null && !ID.test(id))) return null;
  const params: Record<string, string> = {};
  let count = 0;
  for (const [key, value] of new URLSearchParams(query)) {
    if (SECRET_PARAMS.has(key) || value === '' || !NAME.test(key)) continue;
    if (value.length > MAX_PARAM_LENGTH || ++count > MAX_PARAMS) continue;
    params[key] = value;
  }
  return { view, id, params };
}

/**
 * The fragment of a route, `#/view[/id][?a=1&b=2]`, parameters sorted by name, empty ones left out.
 * Throws on a secret parameter or a name/id that would not parse back.
 */
export function formatRoute(route: NavRoute): string {
  if (!NAME.test(route.view)) throw new Error(`not a view name: ${route.view}`);
  if (route.id !== null && !ID.test(route.id)) throw new Error(`not an item id: ${route.id}`);
  const search = new URLSearchParams();
  for (const key of Object.keys(route.params).sort()) {
    if (SECRET_PARAMS.has(key)) throw new Error(`a route never holds the parameter '${key}'`);
    if (!NAME.test(key)) throw new Error(`not a parameter name: ${key}`);
    const value = route.params[key]!;
    if (value !== '') search.set(key, value);
  }
  const query = search.toString();
  return `#/${route.view}${route.id === null ? '' : `/${route.id}`}${query ? `?${query}` : ''}`;
}
