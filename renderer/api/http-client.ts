/**
 * The ReaperApi over HTTP + server-sent events, for the dashboard served by the headless server.
 * Requests are built from the shared route table, so they match the server's router by construction.
 */
import type { CallName, ReaperCalls, ReaperEvent, ReaperListener, Snapshot } from '../../shared/api.ts';
import { ApiError, fromErrorBody, isErrorBody } from '../../shared/api-errors.ts';
import { EVENTS_PATH, fillPath, HISTORY_PATH, HTTP_ROUTES } from '../../shared/api-http.ts';
import { VIA_HEADER } from '../../shared/people.ts';
import { isSnapshotByApp, SNAPSHOT_BY_APP, snapshotFromForm } from '../../shared/snapshot-form.ts';
import type { DashboardApi } from './dashboard-api.ts';
import { openStream, type StreamState } from './sse.ts';

export interface HttpClientOptions {
  /** The server's origin (and base path); '' for the page's own origin. */
  baseUrl: string;
  token: string;
  fetch?: typeof fetch;
  /**
   * The snapshot the page's first script asked for, already decoded (renderer/api/early.ts): the
   * first snapshot() takes it; null (or its answer null) asks the server as usual.
   */
  earlySnapshot?: () => Promise<Snapshot | null> | null;
}

export function createHttpClient(options: HttpClientOptions): DashboardApi {
  const doFetch = options.fetch ?? fetch.bind(globalThis);
  const auth = () => ({ authorization: `Bearer ${options.token}` });
  const listeners = new Set<ReaperListener>();
  const connectionListeners = new Set<(state: StreamState) => void>();
  let connection: StreamState = 'connecting';
  let stream: { stop(): void } | null = null;

  const invoke = async (name: CallName, input: unknown): Promise<unknown> => {
    const route = HTTP_ROUTES[name];
    const { path, rest } = fillPath(route.path, (input ?? {}) as Record<string, unknown>);
    let url = `${options.baseUrl}${path}`;
    let body: string | undefined;
    if (route.method === 'GET' || route.method === 'DELETE') {
      const query = new URLSearchParams();
      for (const [k, v] of Object.entries(rest)) if (v !== undefined && v !== null) query.set(k, String(v));
      const q = query.toString();
      if (q) url += `?${q}`;
    } else {
      const payload = route.bodyField ? rest[route.bodyField] : rest;
      body = JSON.stringify(payload ?? {});
    }
    let res: Response;
    try {
      res = await doFetch(url, {
        method: route.method,
        // The audit names the dashboard as the way a change came (shared/people.ts).
        headers: {
          ...auth(),
          [VIA_HEADER]: 'dashboard',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body }),
        cache: 'no-store',
      });
    } catch (error) {
      throw new ApiError('unavailable', `the reaper cannot be reached (${(error as Error).message})`);
    }
    const text = await res.text();
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = null;
    }
    if (!res.ok) {
      if (res.status === 401) setConnection('unauthorized');
      if (isErrorBody(parsed)) throw fromErrorBody(parsed);
      throw new ApiError(res.status === 401 ? 'unauthorized' : 'internal', `HTTP ${res.status}`);
    }
    return parsed;
  };

  function setConnection(state: StreamState) {
    connection = state;
    for (const l of connectionListeners) l(state);
  }

  const subscribe = (listener: ReaperListener) => {
    listeners.add(listener);
    if (!stream) {
      stream = openStream({
        url: `${options.baseUrl}${EVENTS_PATH}`,
        headers: auth,
        fetch: doFetch,
        onState: setConnection,
        onMessage: ({ id, data }) => {
          let event: ReaperEvent;
          try {
            event = JSON.parse(data) as ReaperEvent;
          } catch {
            return;
          }
          const seq = Number(id ?? 0) || 0;
          for (const l of listeners) l(event, seq);
        },
      });
    }
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0 && stream) {
        stream.stop();
        stream = null;
      }
    };
  };

  // One function per call of the route table (every call has a route). Not apiFromInvoke of
  // shared/api.ts: that module builds every input schema when loaded, and the first screen's bundle
  // then carries zod (bench/dashboard.ts: first render).
  const calls = Object.fromEntries(
    (Object.keys(HTTP_ROUTES) as CallName[]).map((name) => [
      name,
      (input?: unknown) => invoke(name, input ?? {}),
    ]),
  ) as unknown as ReaperCalls;

  return {
    ...calls,
    // By app: half the bytes on the wire for the same data (shared/snapshot-form.ts).
    async snapshot() {
      const early = await options.earlySnapshot?.();
      if (early) return early;
      const answer = await invoke('snapshot', { form: SNAPSHOT_BY_APP });
      return (isSnapshotByApp(answer) ? snapshotFromForm(answer) : answer) as Snapshot;
    },
    subscribe,
    serverHost: serverHostOf(options.baseUrl),
    async exportHistory(format, filter) {
      const query = new URLSearchParams({ format });
      for (const [k, v] of Object.entries(filter)) if (v !== undefined && v !== null) query.set(k, String(v));
      let res: Response;
      try {
        res = await doFetch(`${options.baseUrl}${HISTORY_PATH}?${query}`, {
          headers: auth(),
          cache: 'no-store',
        });
      } catch (error) {
        throw new ApiError('unavailable', `the reaper cannot be reached (${(error as Error).message})`);
      }
      if (!res.ok) {
        const text = await res.text();
        let parsed: unknown = null;
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = null;
        }
        if (isErrorBody(parsed)) throw fromErrorBody(parsed);
        throw new ApiError('internal', `HTTP ${res.status}`);
      }
      const disposition = res.headers.get('content-disposition') ?? '';
      const filename = /filename="([^"]+)"/.exec(disposition)?.[1] ?? `clever-reaper-history.${format}`;
      return { blob: await res.blob(), filename };
    },
    onConnection(listener) {
      connectionListeners.add(listener);
      listener(connection);
      return () => connectionListeners.delete(listener);
    },
  };
}

/** The host (and port) of the server: the base URL's, or the page's own origin's. */
function serverHostOf(baseUrl: string): string | undefined {
  if (URL.canParse(baseUrl)) return new URL(baseUrl).host;
  return typeof location === 'undefined' ? undefined : location.host;
}
