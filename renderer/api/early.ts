/**
 * The first requests of the browser dashboard, started by the page's first (small) script while the
 * bundle is still being fetched and compiled: the event stream, then the snapshot, in the order the
 * store asks for them (so the stream is open before the snapshot is taken, as without them).
 *
 * The token stays in the Authorization header (never in a URL, which a cache could keep or a log could
 * print). The event stream is handed to the HTTP client through its `fetch`: its first request gets
 * the answer already on its way, every later one goes to the network. The snapshot is read and
 * decoded as soon as it is in (`takeSnapshot`), while the bundle is still on its way or compiled, not
 * after the bundle has run: its JSON.parse and decode (1,000 apps, 900 KB of JSON) are off the path
 * of the first render (bench/first-render-trace.ts).
 */
import type { Snapshot } from '../../shared/api.ts';
import { EVENTS_PATH } from '../../shared/api-http.ts';
import { isSnapshotByApp, SNAPSHOT_BY_APP_PATH, snapshotFromForm } from '../../shared/snapshot-form.ts';
import { MARK_SNAPSHOT_DECODED } from '../lib/first-screen-marks.ts';
import { splitToken, takeTokenFromLocation } from './token.ts';

export interface EarlyRequests {
  token: string;
  /** A fetch that answers the first GET of each early path with the request already under way. */
  fetch: typeof fetch;
  /**
   * The snapshot the first script asked for, decoded, once: null when already taken; resolves to null
   * when that answer is not a snapshot (refused, failed, unreadable): then ask again, as without it.
   */
  takeSnapshot(): Promise<Snapshot | null> | null;
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
  // A token in the address bar is used at once; it is put away (sessionStorage, the address bar
  // cleaned) right after the requests leave, in this same task: the first touch of sessionStorage
  // in a new tab waits on the browser process (about 10 ms of the first script, from a trace).
  const fromAddress = splitToken(win.location.hash).token;
  const token = fromAddress ?? takeTokenFromLocation(win.location, win.history, win.sessionStorage);
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
  const pending = new Map<string, Started>([[EVENTS_PATH, start(EVENTS_PATH, 'text/event-stream')]]);
  let snapshot: Promise<Snapshot | null> | null = decodeSnapshot(
    start(SNAPSHOT_BY_APP_PATH, 'application/json').response,
  );
  if (fromAddress) takeTokenFromLocation(win.location, win.history, win.sessionStorage);
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
  const takeSnapshot = () => {
    const taken = snapshot;
    snapshot = null;
    return taken;
  };
  return { token, fetch: handOver, takeSnapshot };
}

/**
 * The early snapshot's answer, decoded; null for anything but a snapshot (an error status, a network
 * failure, a body that is not one): the HTTP client then asks again through its own path, which
 * reports the error (and a refused token) as it always has.
 */
async function decodeSnapshot(response: Promise<Response>): Promise<Snapshot | null> {
  try {
    const res = await response;
    if (!res.ok) return null;
    const answer: unknown = JSON.parse(await res.text());
    const decoded = (isSnapshotByApp(answer) ? snapshotFromForm(answer) : answer) as Snapshot;
    performance.mark(MARK_SNAPSHOT_DECODED);
    return decoded;
  } catch {
    return null;
  }
}
