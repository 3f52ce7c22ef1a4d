/**
 * The first requests of the browser dashboard, started by the page's first (small) script while the
 * bundle is still being fetched and compiled: the event stream, then the snapshot, in the order the
 * store asks for them (so the stream is open before the snapshot is taken, as without them).
 *
 * The token stays in the Authorization header (never in a URL, which a cache could keep or a log could
 * print). The answers are handed to the HTTP client through its `fetch`: the first request of each
 * path gets the answer already on its way, every later one goes to the network.
 */
import { EVENTS_PATH } from '../../shared/api-http.ts';
import { SNAPSHOT_BY_APP_PATH } from '../../shared/snapshot-form.ts';
import { takeTokenFromLocation } from './token.ts';

export interface EarlyRequests {
  token: string;
  /** A fetch that answers the first GET of each early path with the request already under way. */
  fetch: typeof fetch;
}

interface Started {
  response: Promise<Response>;
  abort: AbortController;
}

/** In the browser dashboard with a token: start them. In the desktop window (a bridge) or without a token: null. */
export function startEarlyRequests(
  win: Window,
  doFetch: typeof fetch = fetch.bind(globalThis),
): EarlyRequests | null {
  if (win.reaper) return null;
  const token = takeTokenFromLocation(win.location, win.history, win.sessionStorage);
  if (!token) return null;
  const authorization = `Bearer ${token}`;
  const start = (path: string, accept: string): Started => {
    const abort = new AbortController();
    const response = doFetch(path, {
      headers: { accept, authorization },
      cache: 'no-store',
      signal: abort.signal,
    });
    // Not read (the token refused, the client gone): no unhandled rejection.
    response.catch(() => undefined);
    return { response, abort };
  };
  const pending = new Map<string, Started>([
    [EVENTS_PATH, start(EVENTS_PATH, 'text/event-stream')],
    [SNAPSHOT_BY_APP_PATH, start(SNAPSHOT_BY_APP_PATH, 'application/json')],
  ]);
  const handOver: typeof fetch = (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const method = (init?.method ?? 'GET').toUpperCase();
    const early = method === 'GET' ? pending.get(url) : undefined;
    if (!early) return doFetch(input, init);
    pending.delete(url);
    const signal = init?.signal;
    if (signal?.aborted) early.abort.abort();
    else signal?.addEventListener('abort', () => early.abort.abort(), { once: true });
    return early.response;
  };
  return { token, fetch: handOver };
}
