/**
 * `clever-reaper://` links: `clever-reaper://open/{appId}` shows an app in the dashboard,
 * `clever-reaper://wake/{appId}` wakes it (an explicit wake, source "link"). Anything else is
 * refused: a link comes from outside the app (a browser, a chat message), so it is parsed strictly,
 * the app id checked against the pattern of the routes, and nothing in it is ever executed or
 * opened as a URL.
 */
import { APP_ID_PATTERN } from '../../shared/routes.ts';

export const LINK_SCHEME = 'clever-reaper';

export type LinkAction = { action: 'open'; appId: string } | { action: 'wake'; appId: string };

const MAX_LINK_LENGTH = 300;

/** The action of a link, or null when it is not one this app understands. */
export function parseLink(link: string): LinkAction | null {
  if (link.length > MAX_LINK_LENGTH || !URL.canParse(link)) return null;
  const url = new URL(link);
  if (url.protocol !== `${LINK_SCHEME}:`) return null;
  if (url.username || url.password || url.port || url.search || url.hash) return null;
  // clever-reaper://wake/app_x: WHATWG URLs keep a non-special scheme's "host" as written.
  const action = url.hostname.toLowerCase();
  const parts = url.pathname.split('/').filter(Boolean);
  if (parts.length !== 1) return null;
  // Not decoded: an app id has no character that needs escaping, so an escaped one is refused.
  const appId = parts[0]!;
  if (!APP_ID_PATTERN.test(appId)) return null;
  if (action === 'open' || action === 'wake') return { action, appId };
  return null;
}

/** The link of an action (for a "copy link" button or a test). */
export function linkFor(action: LinkAction['action'], appId: string): string {
  return `${LINK_SCHEME}://${action}/${appId}`;
}
