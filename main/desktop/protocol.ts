/**
 * `clever-reaper://` links: `clever-reaper://open/{appId}` shows an app in the dashboard,
 * `clever-reaper://wake/{appId}` wakes it (an explicit wake, source "link"), and
 * `clever-reaper://open/{view}[/{id}][?filters]` lands on the place the web dashboard's URL
 * `#/{view}[/{id}][?filters]` shows (`clever-reaper://open/apps?state=Error`,
 * `clever-reaper://open/history?app=app_...`). Anything else is refused: a link comes from outside
 * the app (a browser, a chat message), so it is parsed strictly, the app id checked against the
 * pattern of the routes, a place read as a dashboard route (shared/nav-route.ts, which drops any
 * token), and nothing in it is ever executed or opened as a URL.
 */
import { formatRoute, parseRoute } from '../../shared/nav-route.ts';
import { APP_ID_PATTERN } from '../../shared/routes.ts';

export const LINK_SCHEME = 'clever-reaper';

export type LinkAction =
  | { action: 'open'; appId: string }
  | { action: 'wake'; appId: string }
  /** A place of the dashboard: the route of its URL fragment (`#/apps?state=Error`). */
  | { action: 'navigate'; route: string };

/** The views a link may open (the dashboard ignores a route of a view it does not have). */
const LINK_VIEWS = /^(apps|history|savings|routes|settings|rules)$/;

const MAX_LINK_LENGTH = 300;

/** The action of a link, or null when it is not one this app understands. */
export function parseLink(link: string): LinkAction | null {
  if (link.length > MAX_LINK_LENGTH || !URL.canParse(link)) return null;
  const url = new URL(link);
  if (url.protocol !== `${LINK_SCHEME}:`) return null;
  if (url.username || url.password || url.port || url.hash) return null;
  // clever-reaper://wake/app_x: WHATWG URLs keep a non-special scheme's "host" as written.
  const action = url.hostname.toLowerCase();
  const parts = url.pathname.split('/').filter(Boolean);
  if (action === 'open' && (url.search || (parts[0] !== undefined && LINK_VIEWS.test(parts[0])))) {
    return placeOf(url);
  }
  if (url.search || parts.length !== 1) return null;
  // Not decoded: an app id has no character that needs escaping, so an escaped one is refused.
  const appId = parts[0]!;
  if (!APP_ID_PATTERN.test(appId)) return null;
  if (action === 'open' || action === 'wake') return { action, appId };
  return null;
}

/** `clever-reaper://open/apps?state=Error` as the dashboard route `#/apps?state=Error`, or null. */
function placeOf(url: URL): LinkAction | null {
  const route = parseRoute(`#${url.pathname}${url.search}`);
  if (!route || !LINK_VIEWS.test(route.view)) return null;
  if (route.view === 'apps' && route.id !== null && !APP_ID_PATTERN.test(route.id)) return null;
  return { action: 'navigate', route: formatRoute(route) };
}

/** The link of an action (for a "copy link" button or a test). */
export function linkFor(action: 'open' | 'wake', appId: string): string {
  return `${LINK_SCHEME}://${action}/${appId}`;
}
