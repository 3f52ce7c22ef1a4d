/**
 * The page's first requests (early.ts): started with the token in a header before the token is put
 * away, the event stream handed to the HTTP client, and the snapshot decoded as soon as it is in,
 * once; anything but a snapshot (a refused token, a failure, a body that is not JSON) leaves the
 * client to ask again and report it as without the early requests.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Snapshot } from '../../shared/api.ts';
import { EVENTS_PATH } from '../../shared/api-http.ts';
import { SNAPSHOT_BY_APP_PATH, snapshotByApp } from '../../shared/snapshot-form.ts';
import { appView, fakeApi, routeOf } from '../test/fake-api.ts';
import { startEarlyRequests } from './early.ts';
import { createHttpClient } from './http-client.ts';

const TOKEN_KEY = 'clever-reaper.token';

interface Sent {
  url: string;
  auth: string | null;
  /** Whether the token was already in sessionStorage when the request left. */
  tokenStored: boolean;
}

/** A fetch that records each request and answers with `answer` (real Response objects). */
function recordingFetch(answer: (url: string) => Response | Promise<Response>) {
  const sent: Sent[] = [];
  const fetchFn = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = String(input);
    sent.push({
      url,
      auth: new Headers(init.headers).get('authorization'),
      tokenStored: window.sessionStorage.getItem(TOKEN_KEY) !== null,
    });
    return answer(url);
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
  window.history.replaceState(null, '', '/');
});

describe('the first requests of the page', () => {
  it('leave with the token from the address bar, which is put away right after', async () => {
    window.history.replaceState(null, '', '/#/apps?token=s3cret');
    const flat = await twoAppSnapshot();
    const { sent, fetchFn } = recordingFetch((url) =>
      url === SNAPSHOT_BY_APP_PATH ? json(200, snapshotByApp(flat)) : new Response('', { status: 200 }),
    );
    const early = startEarlyRequests(window, fetchFn);
    expect(early?.token).toBe('s3cret');
    // The stream first, then the snapshot; both before sessionStorage was touched.
    expect(sent).toEqual([
      { url: EVENTS_PATH, auth: 'Bearer s3cret', tokenStored: false },
      { url: SNAPSHOT_BY_APP_PATH, auth: 'Bearer s3cret', tokenStored: false },
    ]);
    expect(window.sessionStorage.getItem(TOKEN_KEY)).toBe('s3cret');
    expect(window.location.href).not.toContain('s3cret');
    expect(window.location.hash).toBe('#/apps');
  });

  it('decode the snapshot by app into the flat one, handed over once', async () => {
    window.history.replaceState(null, '', '/#token=t1');
    const flat = await twoAppSnapshot();
    const { sent, fetchFn } = recordingFetch((url) =>
      url === SNAPSHOT_BY_APP_PATH ? json(200, snapshotByApp(flat)) : json(200, { seq: 1 }),
    );
    const early = startEarlyRequests(window, fetchFn)!;
    const api = createHttpClient({
      baseUrl: '',
      token: early.token,
      fetch: early.fetch,
      earlySnapshot: early.takeSnapshot,
    });
    expect(await api.snapshot()).toEqual(flat);
    expect(sent.filter((s) => s.url.startsWith('/api/snapshot'))).toHaveLength(1);
    // A later snapshot (after a reconnection) is asked of the server.
    expect(await api.snapshot()).toEqual(flat);
    expect(sent.filter((s) => s.url.startsWith('/api/snapshot'))).toHaveLength(2);
    expect(early.takeSnapshot()).toBeNull();
  });

  it('hand the event stream to the client, and the network after it', async () => {
    window.sessionStorage.setItem(TOKEN_KEY, 'kept');
    let streams = 0;
    const { sent, fetchFn } = recordingFetch((url) => {
      if (url === EVENTS_PATH) streams++;
      return new Response(`stream ${streams}`, { status: 200 });
    });
    const early = startEarlyRequests(window, fetchFn)!;
    // A reload: the token from sessionStorage, the address bar has none.
    expect(early.token).toBe('kept');
    expect(sent.map((s) => s.auth)).toEqual(['Bearer kept', 'Bearer kept']);
    expect(await (await early.fetch(EVENTS_PATH)).text()).toBe('stream 1');
    expect(await (await early.fetch(EVENTS_PATH)).text()).toBe('stream 2');
    expect(sent.filter((s) => s.url === EVENTS_PATH)).toHaveLength(2);
  });

  it('leave a refused token to the client, which asks again and says so', async () => {
    window.history.replaceState(null, '', '/#token=wrong');
    const refused = () =>
      json(401, { error: { code: 'unauthorized', message: 'the token is not valid', problems: [] } });
    const { sent, fetchFn } = recordingFetch(refused);
    const early = startEarlyRequests(window, fetchFn)!;
    const connections: string[] = [];
    const api = createHttpClient({
      baseUrl: '',
      token: early.token,
      fetch: early.fetch,
      earlySnapshot: early.takeSnapshot,
    });
    api.onConnection?.((state) => connections.push(state));
    await expect(api.snapshot()).rejects.toMatchObject({ code: 'unauthorized' });
    expect(connections).toContain('unauthorized');
    expect(sent.filter((s) => s.url.startsWith('/api/snapshot'))).toHaveLength(2);
  });

  it('leave an answer that is not JSON, or a failed request, to the client', async () => {
    window.history.replaceState(null, '', '/#token=t2');
    const flat = await twoAppSnapshot();
    let snapshots = 0;
    const { fetchFn } = recordingFetch((url) => {
      if (url !== SNAPSHOT_BY_APP_PATH) return new Response('', { status: 200 });
      snapshots++;
      if (snapshots === 1) return new Response('<html>a proxy page</html>', { status: 200 });
      return json(200, snapshotByApp(flat));
    });
    const early = startEarlyRequests(window, fetchFn)!;
    expect(await early.takeSnapshot()).toBeNull();

    window.history.replaceState(null, '', '/#token=t3');
    const failing = startEarlyRequests(window, (async (input: RequestInfo | URL) => {
      if (String(input) === SNAPSHOT_BY_APP_PATH) throw new TypeError('Failed to fetch');
      return new Response('', { status: 200 });
    }) as typeof fetch)!;
    expect(await failing.takeSnapshot()).toBeNull();
    // The client, given the first one's fetch, gets the snapshot from the server.
    const api = createHttpClient({ baseUrl: '', token: early.token, fetch: early.fetch });
    expect(await api.snapshot()).toEqual(flat);
  });

  it('are not started without a token, nor in the desktop window', () => {
    const { sent, fetchFn } = recordingFetch(() => new Response('', { status: 200 }));
    expect(startEarlyRequests(window, fetchFn)).toBeNull();
    const desktop = Object.assign(Object.create(window) as Window, { reaper: {} });
    window.history.replaceState(null, '', '/#token=t4');
    expect(startEarlyRequests(desktop, fetchFn)).toBeNull();
    expect(sent).toEqual([]);
  });
});
