/**
 * A token given in the dashboard's URL. The server prints the dashboard's URL with the token in
 * the fragment (#token=...), which browsers never send over the network; the dashboard takes it out
 * of the address bar at once, before anything else reads the fragment, and signs in with it
 * (session.ts): the token is kept nowhere, the session cookie stands for it. The token may also come after a route
 * (`#/apps/app_...?token=...`, a link with the token added by hand): it is taken out the same way
 * and the route stays. The dashboard's router never writes a token back (shared/nav-route.ts).
 */
/** Where the dashboard kept the token before sign-in sessions (issue 25). */
const KEY = 'clever-reaper.token';

/** The fragment without its token: `#token=...` alone, or a route's `token` parameter. */
export function splitToken(hash: string): { token: string | null; rest: string } {
  const text = hash.replace(/^#/, '');
  const q = text.startsWith('/') ? text.indexOf('?') : -1;
  const path = text.startsWith('/') ? (q < 0 ? text : text.slice(0, q)) : '';
  const query = text.startsWith('/') ? (q < 0 ? '' : text.slice(q + 1)) : text;
  const params = new URLSearchParams(query);
  const token = params.get('token');
  if (!token) return { token: null, rest: hash };
  params.delete('token');
  const left = params.toString();
  const rest = path ? `${path}${left ? `?${left}` : ''}` : left;
  return { token, rest: rest ? `#${rest}` : '' };
}

/**
 * The token of the fragment, taken out of the address bar; else one an earlier version of the
 * dashboard kept in sessionStorage (taken out of it: the session cookie replaces it); else null.
 */
export function takeTokenFromLocation(location: Location, history: History, storage: Storage): string | null {
  const { token, rest } = splitToken(location.hash);
  const kept = storage.getItem(KEY);
  if (kept !== null) storage.removeItem(KEY);
  if (token) {
    history.replaceState(null, '', `${location.pathname}${location.search}${rest}`);
    return token;
  }
  return kept;
}
