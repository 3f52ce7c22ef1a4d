/**
 * The first requests of the browser dashboard, started by the page's first (small) script while the
 * bundle is still being fetched and compiled: who the session is, the event stream, then the
 * snapshot, in the order the store asks for them (so the stream is open before the snapshot is taken,
 * as without them).
 *
 * They go with the session cookie (same origin), started at once: no round trip before them when
 * the browser is signed in; a 401 brings the token screen. With a token in the URL (#token=...), the
 * dashboard signs in with it first (the token in the body of one POST, never in a URL) and the others
 * follow its answer. The answers are handed to the HTTP client through its `fetch`: the first request
 * of each path gets the answer already on its way, every later one goes to the network.
 * The snapshot is read and decoded as soon as it is in (`takeSnapshot`), while the bundle is still on
 * its way or compiled, not after the bundle has run: its JSON.parse and decode (1,000 apps, 900 KB of
 * JSON) are off the path of the first render (bench/first-render-trace.ts).
 */
import type { Snapshot } from '../../shared/api.ts';
import { EVENTS_PATH } from '../../shared/api-http.ts';
import { EVENTS_AFTER_PARAM } from '../../shared/first-screen.ts';
import { isSnapshotByApp, SNAPSHOT_BY_APP_PATH, snapshotFromForm } from '../../shared/snapshot-form.ts';
import { MARK_SNAPSHOT_DECODED } from '../lib/first-screen-marks.ts';
import { type SessionAnswer, signIn, whoami } from './session.ts';
import { takeTokenFromLocation } from './token.ts';

export interface EarlyRequests {
  /** Who the browser is signed in as, or why it is not (the token screen says it). */
  session: Promise<SessionAnswer>;
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

/** In the browser dashboard: start them. In the desktop window (a bridge): null. */
export function startEarlyRequests(
  win: Window,
  doFetch: typeof fetch = fetch.bind(globalThis),
  /**
   * The page carries the snapshot (its server-rendered first screen), up to this event: it is not
   * asked for, and the stream starts with the events after it (EVENTS_AFTER_PARAM). Null: asked for.
   */
  after: number | null = null,
): EarlyRequests | null {
  if (win.reaper) return null;
  const token = takeTokenFromLocation(win.location, win.history, win.sessionStorage);
  const session = token ? signIn(doFetch, '', token) : null;
  // Without a token, who the cookie is comes alongside the data, not before it.
  const signedIn = session ?? whoami(doFetch, '');
  const start = (path: string, accept: string, url = path): Started => {
    const abort = new AbortController();
    const go = () => doFetch(url, { headers: { accept }, cache: 'no-store', signal: abort.signal });
    // After a refused sign-in, nothing is asked: the token screen comes.
    const response = session
      ? session.then((answer) => (answer.ok ? go() : new Response(null, { status: 401 })))
      : go();
    // Not read (the session refused, the client gone): no unhandled rejection.
    response.catch(() => undefined);
    return { response, abort };
  };
  const events = after === null ? EVENTS_PATH : `${EVENTS_PATH}?${EVENTS_AFTER_PARAM}=${after}`;
  const pending = new Map<string, Started>([[EVENTS_PATH, start(EVENTS_PATH, 'text/event-stream', events)]]);
  let snapshot: Promise<Snapshot | null> | null =
    after === null ? decodeSnapshot(start(SNAPSHOT_BY_APP_PATH, 'application/json').response) : null;
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
  return { session: signedIn, fetch: handOver, takeSnapshot };
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
