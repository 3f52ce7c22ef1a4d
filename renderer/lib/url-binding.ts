/**
 * Keeps the address bar and the dashboard's state in step. At start, the fragment's route is applied
 * (a pasted link, a reload); then every change of place is written back: a new view or a newly
 * opened item is a new history entry (Back returns to the list), a change of filters replaces the
 * current one (typing a search does not fill the history). Back, Forward and an edited fragment
 * (popstate, hashchange) are applied to the state.
 *
 * Only routes are written (formatRoute refuses a `token` parameter), so the admin token, taken out
 * of the fragment at load (api/token.ts), never comes back into the address bar.
 */
import type { StoreApi } from 'zustand/vanilla';
import { formatRoute, parseRoute } from '../../shared/nav-route.ts';
import { pendingQuestion } from './unsaved-changes.ts';
import { routeOf, stateOfRoute, type UrlState } from './url-state.ts';

interface Place {
  navigate(state: Partial<UrlState>): void;
}

type Window_ = Pick<Window, 'location' | 'history' | 'addEventListener' | 'removeEventListener'>;

/** Bind the store to the window's URL; returns the function that unbinds. */
export function bindUrl<S extends UrlState & Place>(store: StoreApi<S>, win: Window_): () => void {
  // While a route is applied, the states it goes through are not written (the route is the URL).
  let applying = false;
  const apply = () => {
    const wanted = stateOfRoute(parseRoute(win.location.hash));
    applying = true;
    try {
      if (wanted) store.getState().navigate(wanted);
    } finally {
      applying = false;
    }
    // Asked first (unsaved changes): the address goes back to what is shown, as a step again, so the
    // entry the person left (Back's) stays behind it, for a Back once the changes are saved or
    // discarded. Otherwise the address is the route as the state reads it.
    write(store.getState(), pendingQuestion() ? 'push' : 'replace');
  };

  let last = routeOf(store.getState());
  const write = (s: UrlState, how: 'push' | 'replace') => {
    const route = routeOf(s);
    last = route;
    const hash = formatRoute(route);
    if (win.location.hash === hash) return;
    const url = `${win.location.pathname}${win.location.search}${hash}`;
    if (how === 'push') win.history.pushState(null, '', url);
    else win.history.replaceState(null, '', url);
  };

  apply();
  const off = store.subscribe((s) => {
    if (applying) return;
    const route = routeOf(s);
    // A new view, item or order is a step Back returns from; typing in a filter is not.
    const moved = route.view !== last.view || route.id !== last.id || route.params.sort !== last.params.sort;
    write(s, moved ? 'push' : 'replace');
  });
  const onPop = () => apply();
  win.addEventListener('popstate', onPop);
  win.addEventListener('hashchange', onPop);
  return () => {
    off();
    win.removeEventListener('popstate', onPop);
    win.removeEventListener('hashchange', onPop);
  };
}

/**
 * A click a link to a place of the dashboard handles in the page: the main button with no modifier.
 * Any other (middle button, Ctrl, Cmd, Shift, Alt) is the browser's: a new tab or window.
 */
export function plainClick(e: {
  button: number;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}): boolean {
  return e.button === 0 && !e.ctrlKey && !e.metaKey && !e.shiftKey && !e.altKey;
}
