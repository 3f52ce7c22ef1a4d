/**
 * The page's first requests (early.ts): with a token in the address bar, one sign-in (the token in
 * its body, never in a header or a URL) and the others after its answer; with none, "who am I", the
 * stream and the snapshot at once, on the session cookie. The event stream is handed to the HTTP
 * client, and the snapshot decoded as soon as it is in, once; anything but a snapshot (a refused
 * session, a failure, a body that is not JSON) leaves the client to ask again and report it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Snapshot } from '../../shared/api.ts';
import { EVENTS_PATH } from '../../shared/api-http.ts';
import { PEOPLE_ROUTES } from '../../shared/people.ts';
import { SNAPSHOT_BY_APP_PATH, snapshotByApp } from '../../shared/snapshot-form.ts';
import { appView, fakeApi, routeOf } from '../test/fake-api.ts';
import { startEarlyRequests } from './early.ts';
import { createHttpClient } from './http-client.ts';

const SESSION = PEOPLE_ROUTES.whoami.path;
const SESSION_INFO = { name: 'alice', role: 'operator', by: 'session', csrf: 'c1', expiresAt: null };

interface Sent {
  method: string;
  url: string;
  auth: string | null;
  body: string | null;
}

/** A fetch that records each request and answers with `answer` (real Response objects). */
function recordingFetch(answer: (url: string, method: string) => Response | Promise<Response>) {
  const sent: Sent[] = [];
  const fetchFn = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = String(input);
    const method = (init.method ?? 'GET').toUpperCase();
    sent.push({
      method,
      url,
      auth: new Headers(init.headers).get('authorization'),
      body: typeof init.body === 'string' ? init.body : null,
    });
    return answer(url, method);
  }) as typeof fetch;
  return { sent, fetchFn };
}

async function twoAppSnapshot(): Promise<Snapshot> {
  const shop = appView('shop-staging', 'Down');
  const wiki = appView('internal-wiki', 'Up');
  // Two routes for one app, one for the other, interleaved: the decode must put them back in order.
  const routes = [routeOf(shop), routeOf(wiki, { id: 'route_w' }), routeOf(shop, { id: 'route_s2' })];
  return fakeApi({ apps: [shop, wiki], routes }).snapshot();
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

afterEach(() => {
  window.sessionStorage.clear();
  window.localStorage.clear();
  window.history.replaceState(null, '', '/');
});

const signedIn = () => json(200, SESSION_INFO);

describe('the first requests of the page', () => {
  it('sign in once with the token from the address bar, then leave on the cookie', async () => {
    window.history.replaceState(null, '', '/#/apps?token=s3cret');
    const flat = await twoAppSnapshot();
    const { sent, fetchFn } = recordingFetch((url) =>
      url === SESSION
        ? signedIn()
        : url === SNAPSHOT_BY_APP_PATH
          ? json(200, snapshotByApp(flat))
          : new Response(''),
    );
    const early = startEarlyRequests(window, fetchFn)!;
    // The address bar is cleaned at once, the token kept nowhere.
    expect(window.location.href).not.toContain('s3cret');
    expect(window.location.hash).toBe('#/apps');
    expect(window.sessionStorage.length).toBe(0);
    expect(await early.session).toMatchObject({ ok: true, info: { name: 'alice' } });
    expect(await early.takeSnapshot()).toEqual(flat);
    expect(sent).toEqual([
      { method: 'POST', url: SESSION, auth: null, body: JSON.stringify({ token: 's3cret' }) },
      { method: 'GET', url: EVENTS_PATH, auth: null, body: null },
      { method: 'GET', url: SNAPSHOT_BY_APP_PATH, auth: null, body: null },
    ]);
  });

  it('without a token, ask who the cookie is alongside the data, not before it', async () => {
    const flat = await twoAppSnapshot();
    const { sent, fetchFn } = recordingFetch((url) =>
      url === SESSION
        ? signedIn()
        : url === SNAPSHOT_BY_APP_PATH
          ? json(200, snapshotByApp(flat))
          : json(200, {}),
    );
    const early = startEarlyRequests(window, fetchFn)!;
    // All three left in the first script's task, before any answer.
    expect(sent.map((s) => `${s.method} ${s.url}`).sort()).toEqual(
      [`GET ${SESSION}`, `GET ${EVENTS_PATH}`, `GET ${SNAPSHOT_BY_APP_PATH}`].sort(),
    );
    const api = createHttpClient({ baseUrl: '', fetch: early.fetch, earlySnapshot: early.takeSnapshot });
    expect(await api.snapshot()).toEqual(flat);
    expect(sent.filter((s) => s.url.startsWith('/api/snapshot'))).toHaveLength(1);
    // A later snapshot (after a reconnection) is asked of the server.
    expect(await api.snapshot()).toEqual(flat);
    expect(sent.filter((s) => s.url.startsWith('/api/snapshot'))).toHaveLength(2);
    expect(early.takeSnapshot()).toBeNull();
  });

  it('hand the event stream to the client, and the network after it', async () => {
    let streams = 0;
    const { sent, fetchFn } = recordingFetch((url) => {
      if (url === SESSION) return signedIn();
      if (url === EVENTS_PATH) streams++;
      return new Response(`stream ${streams}`, { status: 200 });
    });
    const early = startEarlyRequests(window, fetchFn)!;
    expect(await (await early.fetch(EVENTS_PATH)).text()).toBe('stream 1');
    expect(await (await early.fetch(EVENTS_PATH)).text()).toBe('stream 2');
    expect(sent.filter((s) => s.url === EVENTS_PATH)).toHaveLength(2);
  });

  it('ask nothing more after a refused sign-in; the client asks again and says so', async () => {
    window.history.replaceState(null, '', '/#token=wrong');
    const refused = () =>
      json(401, { error: { code: 'unauthorized', message: 'the token is not valid', problems: [] } });
    const { sent, fetchFn } = recordingFetch(refused);
    const early = startEarlyRequests(window, fetchFn)!;
    expect(await early.session).toEqual({ ok: false, failure: { kind: 'refused' } });
    expect(await early.takeSnapshot()).toBeNull();
    expect(sent.map((s) => s.method)).toEqual(['POST']);
    const connections: string[] = [];
    const api = createHttpClient({ baseUrl: '', fetch: early.fetch });
    api.onConnection?.((state) => connections.push(state));
    await expect(api.snapshot()).rejects.toMatchObject({ code: 'unauthorized' });
    expect(connections).toContain('unauthorized');
    expect(sent.filter((s) => s.url.startsWith('/api/snapshot'))).toHaveLength(1);
  });

  it('leave an answer that is not JSON, or a failed request, to the client', async () => {
    const flat = await twoAppSnapshot();
    let snapshots = 0;
    const { fetchFn } = recordingFetch((url) => {
      if (url === SESSION) return signedIn();
      if (url !== SNAPSHOT_BY_APP_PATH) return new Response('', { status: 200 });
      snapshots++;
      if (snapshots === 1) return new Response('<html>a proxy page</html>', { status: 200 });
      return json(200, snapshotByApp(flat));
    });
    const early = startEarlyRequests(window, fetchFn)!;
    expect(await early.takeSnapshot()).toBeNull();

    const failing = startEarlyRequests(window, (async (input: RequestInfo | URL) => {
      if (String(input) === SNAPSHOT_BY_APP_PATH) throw new TypeError('Failed to fetch');
      return String(input) === SESSION ? signedIn() : new Response('', { status: 200 });
    }) as typeof fetch)!;
    expect(await failing.takeSnapshot()).toBeNull();
    // The client, given the first one's fetch, gets the snapshot from the server.
    const api = createHttpClient({ baseUrl: '', fetch: early.fetch });
    expect(await api.snapshot()).toEqual(flat);
  });

  it('are not started in the desktop window', () => {
    const { sent, fetchFn } = recordingFetch(() => new Response('', { status: 200 }));
    const desktop = Object.assign(Object.create(window) as Window, { reaper: {} });
    window.history.replaceState(null, '', '/#token=t4');
    expect(startEarlyRequests(desktop, fetchFn)).toBeNull();
    expect(sent).toEqual([]);
  });
});
