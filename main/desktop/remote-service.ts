/**
 * The ReaperApi of a team server, for the desktop's main process in team mode: calls over its admin
 * API (requests built from the shared route table, as the dashboard's HTTP client builds them) and
 * its events from its event stream (server-sent events, parsed with shared/sse.ts), which the window,
 * the tray and the notifications then hear as they hear the local engine's.
 *
 * The stream reconnects (1 s, doubling up to 15 s) when it drops, ends or goes silent past three
 * heartbeats; after a reconnection the listeners hear a `session` event, so they start again from a
 * snapshot (events were missed meanwhile). A refused token stops it: 'unauthorized' until the
 * operator connects again. Redirects are refused (the token goes to the address given, nowhere else).
 */
import type { CallName, ReaperEvent, ReaperListener, ReaperStatus } from '../../shared/api.ts';
import { ApiError, fromErrorBody, isErrorBody } from '../../shared/api-errors.ts';
import { EVENTS_PATH, fillPath, HTTP_ROUTES } from '../../shared/api-http.ts';
import type { Log } from '../../shared/log.ts';
import { PEOPLE_ROUTES, type SessionInfo, VIA_HEADER } from '../../shared/people.ts';
import { SseParser } from '../../shared/sse.ts';
import type { TeamConnection } from '../../shared/team-console.ts';

export interface RemoteServiceOptions {
  /** The server's origin (checkServerUrl). */
  url: string;
  token: string;
  fetch?: typeof fetch;
  log?: Log;
  /** First reconnection delay, doubled up to maxRetryMs (real time). */
  retryMs?: number;
  maxRetryMs?: number;
  /** No byte for this long (the server sends a heartbeat every 15 s): the stream is dead. */
  silenceMs?: number;
  /** A call that takes longer fails as unavailable. */
  callTimeoutMs?: number;
}

export class RemoteService {
  private readonly options: RemoteServiceOptions;
  private readonly doFetch: typeof fetch;
  private readonly listeners = new Set<ReaperListener>();
  private readonly connectionListeners = new Set<(state: TeamConnection) => void>();
  private state: TeamConnection = 'connecting';
  private stream: AbortController | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private closed = false;
  private wasLive = false;

  constructor(options: RemoteServiceOptions) {
    this.options = options;
    this.doFetch = options.fetch ?? fetch.bind(globalThis);
  }

  get connection(): TeamConnection {
    return this.state;
  }

  onConnection(listener: (state: TeamConnection) => void): () => void {
    this.connectionListeners.add(listener);
    return () => this.connectionListeners.delete(listener);
  }

  /** Open the event stream (it stays open, reconnecting, until close()). */
  start(): void {
    if (this.stream || this.closed) return;
    this.runStream(this.options.retryMs ?? 1000);
  }

  subscribe(listener: ReaperListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The server's engine reads its apps on its own; nothing to do from a console. */
  async reconcile(): Promise<void> {}

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.stream?.abort();
    this.stream = null;
    this.listeners.clear();
    this.connectionListeners.clear();
  }

  async call(name: CallName, raw: unknown, via: 'desktop' | 'tray' = 'desktop'): Promise<unknown> {
    const route = HTTP_ROUTES[name];
    const input = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
    const { path, rest } = fillPath(route.path, input);
    let url = `${this.options.url}${path}`;
    let body: string | undefined;
    if (route.method === 'GET' || route.method === 'DELETE') {
      const query = new URLSearchParams();
      for (const [k, v] of Object.entries(rest)) if (v !== undefined && v !== null) query.set(k, String(v));
      if (query.size > 0) url += `?${query}`;
    } else {
      body = JSON.stringify((route.bodyField ? rest[route.bodyField] : rest) ?? {});
    }
    let res: Response;
    try {
      res = await this.doFetch(url, {
        method: route.method,
        headers: {
          authorization: `Bearer ${this.options.token}`,
          // The audit and the history say the change came through the desktop app (or its tray).
          [VIA_HEADER]: via,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body }),
        redirect: 'error',
        signal: AbortSignal.timeout(this.options.callTimeoutMs ?? 60_000),
      });
    } catch (error) {
      throw new ApiError('unavailable', `the team server cannot be reached (${reason(error)})`);
    }
    const text = await res.text();
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = null;
    }
    if (!res.ok) {
      if (res.status === 401) this.setState('unauthorized');
      if (isErrorBody(parsed)) throw fromErrorBody(parsed);
      throw new ApiError(
        res.status === 401 ? 'unauthorized' : 'unavailable',
        `the team server answered HTTP ${res.status}`,
      );
    }
    return parsed;
  }

  private setState(state: TeamConnection): void {
    if (state === this.state) return;
    this.state = state;
    for (const l of [...this.connectionListeners]) l(state);
  }

  private emit(event: ReaperEvent, seq: number): void {
    for (const l of [...this.listeners]) {
      try {
        l(event, seq);
      } catch (error) {
        this.options.log?.('error', `a listener of the team server's events failed: ${reason(error)}`);
      }
    }
  }

  /** run() logs a failed stream and reconnects itself; what reaches the catch is a fault of this client. */
  private runStream(delay: number): void {
    this.run(delay).catch((error: unknown) =>
      this.options.log?.('error', `the team server's event stream stopped: ${reason(error)}`),
    );
  }

  private async run(delay: number): Promise<void> {
    if (this.closed) return;
    const controller = new AbortController();
    this.stream = controller;
    const silenceMs = this.options.silenceMs ?? 45_000;
    let silence: ReturnType<typeof setTimeout> | null = null;
    const heard = () => {
      if (silence) clearTimeout(silence);
      silence = setTimeout(() => controller.abort(), silenceMs);
    };
    let next = delay;
    try {
      heard();
      const res = await this.doFetch(`${this.options.url}${EVENTS_PATH}`, {
        headers: { accept: 'text/event-stream', authorization: `Bearer ${this.options.token}` },
        redirect: 'error',
        signal: controller.signal,
      });
      if (res.status === 401) {
        await res.body?.cancel();
        this.setState('unauthorized');
        this.options.log?.('warn', 'the team server refused the admin token');
        return;
      }
      if (!res.ok || !res.body) throw new Error(`HTTP ${res.status}`);
      next = this.options.retryMs ?? 1000;
      this.setState('live');
      if (this.wasLive) await this.resync();
      this.wasLive = true;
      const parser = new SseParser();
      const decoder = new TextDecoder();
      for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
        heard();
        for (const message of parser.push(decoder.decode(chunk, { stream: true }))) {
          let event: ReaperEvent;
          try {
            event = JSON.parse(message.data) as ReaperEvent;
          } catch {
            continue;
          }
          this.emit(event, Number(message.id ?? 0) || 0);
        }
      }
    } catch (error) {
      if (!this.closed) this.options.log?.('warn', `the team server's event stream: ${reason(error)}`);
    } finally {
      if (silence) clearTimeout(silence);
    }
    if (this.closed || this.stream !== controller) return;
    this.setState('reconnecting');
    this.timer = setTimeout(
      () => this.runStream(Math.min(next * 2, this.options.maxRetryMs ?? 15_000)),
      next,
    );
  }

  /** After a reconnection: everyone starts again from a snapshot. */
  private async resync(): Promise<void> {
    try {
      const status = (await this.call('status', {})) as ReaperStatus;
      this.emit({ type: 'session', status }, 0);
    } catch (error) {
      this.options.log?.('warn', `the team server's status after a reconnection: ${reason(error)}`);
    }
  }
}

function reason(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause;
    return cause instanceof Error ? `${error.message}: ${cause.message}` : error.message;
  }
  return String(error);
}

/**
 * Check a team server and its token before they are kept: its status answers with the token, and
 * it is a Clever Reaper. The problem in words for the form, or null.
 */
export async function checkTeamServer(
  url: string,
  token: string,
  doFetch: typeof fetch = fetch.bind(globalThis),
  timeoutMs = 10_000,
): Promise<string | null> {
  let res: Response;
  try {
    res = await doFetch(`${url}${HTTP_ROUTES.status.path}`, {
      headers: { authorization: `Bearer ${token}` },
      redirect: 'error',
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    return `The team server cannot be reached at ${url} (${reason(error)})`;
  }
  const text = await res.text().catch(() => '');
  if (res.status === 401) return 'The team server refused this admin token';
  if (res.status === 403)
    return `The team server refuses this address (${url}): add its name to its --allowed-host`;
  if (!res.ok) return `The team server answered HTTP ${res.status}: is it a Clever Reaper server?`;
  let status: unknown = null;
  try {
    status = JSON.parse(text);
  } catch {
    status = null;
  }
  const mode = (status as { mode?: unknown } | null)?.mode;
  if (mode !== 'account' && mode !== 'demo' && mode !== 'disconnected') {
    return `${url} answered, but it is not a Clever Reaper server`;
  }
  return null;
}

/**
 * Who a token is on a team server (its name and role), to show "signed in as alice (operator)" and to
 * keep a viewer's desktop read-only; null when the server does not say (an older server, or a refusal).
 */
export async function teamIdentity(
  url: string,
  token: string,
  doFetch: typeof fetch = fetch.bind(globalThis),
  timeoutMs = 10_000,
): Promise<Pick<SessionInfo, 'name' | 'role'> | null> {
  try {
    const res = await doFetch(`${url}${PEOPLE_ROUTES.whoami.path}`, {
      headers: { authorization: `Bearer ${token}`, [VIA_HEADER]: 'desktop' },
      redirect: 'error',
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!res.ok) return null;
    const info = (await res.json()) as Partial<SessionInfo>;
    if (
      typeof info.name !== 'string' ||
      (info.role !== 'viewer' && info.role !== 'operator' && info.role !== 'admin')
    )
      return null;
    return { name: info.name, role: info.role };
  } catch {
    return null;
  }
}
