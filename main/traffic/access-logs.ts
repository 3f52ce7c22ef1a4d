/**
 * Traffic from Clever Cloud's access logs: one v4 access-log stream per managed app, giving the time
 * of each request. A request that the route's filters do not ignore counts as traffic; one logged for
 * an Asleep app asks for it (the engine wakes it).
 *
 * An entry without an `http` section (a TCP redirection, a connection cut before the request line)
 * is not a request: it neither counts as traffic nor wakes the app, as clever-tools
 * (src/commands/accesslogs/accesslogs.command.js) and the console
 * (clever-components src/components/cc-logs-app-access/cc-logs-app-access.smart.js) skip it.
 *
 * A stream that drops, ends or goes silent (no event, heartbeats included, for `silenceMs`, noticed
 * within a quarter of it more) is opened again after a backoff (1 s, x1.25 per failure, at most 60 s,
 * with jitter). It resumes with both the last event id seen (Last-Event-ID, which clever-client.js
 * sends: src/lib/stream/cc-stream.ts) and `since` the date of the last event seen, because whether the
 * server honours Last-Event-ID is unconfirmed: either way nothing in the gap is lost, and the entries
 * sent again at the boundary are skipped by their id, so nothing is counted twice.
 *
 * The first connection of an app's stream (the reaper starting, or restarted after a crash or a
 * deploy) looks back to the last thing the reaper knew of the app (its last request, or its last
 * change of state), at least a minute and at most LOOK_BACK_MAX_MS: a request logged while the reaper
 * was away still wakes an Asleep app, or keeps an awake one awake. What it sends again that the
 * reaper had already counted (not later than the app's last request) is skipped. Until that first
 * connection has sent what it had (its first heartbeat comes after), the app is not put to sleep
 * (`unread`): its last request may be older than what the logs hold. A stream that fails, or has not
 * sent it all within LOOK_BACK_MIN_MS, is not waited for.
 */

import type { AppRecord } from '../../shared/domain.ts';
import { describeError, type Log } from '../../shared/log.ts';
import type { SseEvent } from '../../shared/sse.ts';
import { compileFilters, ignoredBecause } from '../../shared/traffic-filter.ts';
import type { Engine } from '../engine/engine.ts';
import type { Clock } from '../engine/ports.ts';
import { RefusedRequests } from './refused-requests.ts';
import type { TrafficStats } from './stats.ts';

export type AccessLogSource = (
  ownerId: string,
  appId: string,
  options: {
    signal: AbortSignal;
    lastEventId: string | null;
    since?: string;
    onEvent: (event: SseEvent) => void;
  },
) => Promise<void>;

export interface AccessLogOptions {
  engine: Engine;
  source: AccessLogSource;
  clock: Clock;
  stats: TrafficStats;
  /**
   * A stream with no event at all for this long (up to a quarter more) is considered dead (Clever
   * Cloud sends heartbeats).
   */
  silenceMs?: number;
  /** Backoff bounds for reconnecting. */
  backoffMs?: { first: number; max: number };
  /**
   * An entry is about to wake an Asleep app (the first request since it went to sleep): counted, so
   * a real account shows whether requests to a stopped app reach its access logs (unconfirmed).
   */
  onWake?: (appId: string) => void;
  log?: Log;
}

interface Follow {
  appId: string;
  ownerId: string;
  controller: AbortController;
  lastEventId: string | null;
  /** The date of the last entry seen (ISO, as logged): the `since` of the next connection. */
  lastDate: string | null;
  /** Entries already handled, by their id (the entry's own, else the event's). */
  recentIds: Set<string>;
  failures: number;
  connected: boolean;
  /** The connection under way, and the watchdog's ticks since its last event. */
  attempt: AbortController | null;
  quiet: number;
  /** Events handled, for tests and the dashboard. */
  events: number;
  /** When the follow began: entries logged before it may have been counted by the reaper already. */
  since: number;
  /** What was logged before the follow began is read (a heartbeat came after it), or not waited for. */
  caughtUp: boolean;
  done: Promise<void>;
}

const RECENT_IDS = 1000;
/** The first connection looks back at least this far, so a request made while it opens counts. */
export const LOOK_BACK_MIN_MS = 60_000;
/** ...and at most this far: a request older than that, made while the reaper was away, is not waited for. */
export const LOOK_BACK_MAX_MS = 60 * 60_000;

/**
 * Where an app's first connection starts (epoch ms): after the last thing the reaper knew of it (its
 * last request, its last change of state), within [now - LOOK_BACK_MAX_MS, now - LOOK_BACK_MIN_MS].
 */
export function firstSince(
  known: Pick<AppRecord, 'lastRequestAt' | 'stateSince'> | undefined,
  now: number,
): number {
  const seen = known ? Math.max(known.lastRequestAt ?? Number.NEGATIVE_INFINITY, known.stateSince) : now;
  return Math.max(now - LOOK_BACK_MAX_MS, Math.min(now - LOOK_BACK_MIN_MS, seen));
}
/** The reason shown for entries without an `http` section. */
export const NOT_A_REQUEST = 'not an HTTP request';
/** The watchdog looks for silent streams this many times per `silenceMs`. */
const WATCHDOG_TICKS = 4;

export class AccessLogFollower {
  private readonly options: Required<Omit<AccessLogOptions, 'log' | 'onWake'>> &
    Pick<AccessLogOptions, 'log' | 'onWake'>;
  private follows = new Map<string, Follow>();
  private offEngine: (() => void) | null = null;
  private running = false;
  private begun = false;
  /**
   * One timer for every stream's silence (a timer re-armed at each event costs more than the event
   * itself when a thousand streams each get a heartbeat every 2 s).
   */
  private watchdog: ReturnType<typeof setInterval> | null = null;
  /** Requests the engine could not record (the datastore refuses writes): said once, never thrown. */
  readonly refused: RefusedRequests;

  constructor(options: AccessLogOptions) {
    this.options = {
      silenceMs: 10_000,
      backoffMs: { first: 1000, max: 60_000 },
      ...options,
    };
    this.refused = new RefusedRequests('access logs', () => options.engine.storage === null, options.log);
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.begun = true;
    // A stream is stopped after between WATCHDOG_TICKS and WATCHDOG_TICKS + 1 ticks without an event.
    this.watchdog = setInterval(() => {
      for (const f of this.follows.values()) if (++f.quiet > WATCHDOG_TICKS) f.attempt?.abort();
    }, this.options.silenceMs / WATCHDOG_TICKS);
    this.watchdog.unref?.();
    this.offEngine = this.options.engine.on((e) => {
      if (e.type === 'app') {
        const f = this.follows.get(e.record.appId);
        if (f && f.ownerId === e.record.ownerId) return;
        this.unfollow(e.record.appId);
        if (e.record.ownerId) this.follow(e.record.appId, e.record.ownerId);
      } else if (e.type === 'removed') {
        this.unfollow(e.appId);
      }
    });
    this.sync();
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.watchdog) clearInterval(this.watchdog);
    this.watchdog = null;
    this.offEngine?.();
    const done = [...this.follows.values()].map((f) => {
      f.controller.abort();
      return f.done;
    });
    this.follows.clear();
    await Promise.allSettled(done);
  }

  /** Follow exactly the apps the engine manages. */
  sync(): void {
    if (!this.running) return;
    const managed = new Map(this.options.engine.list().map((r) => [r.appId, r.ownerId]));
    for (const [appId, follow] of this.follows)
      if (managed.get(appId) !== follow.ownerId) this.unfollow(appId);
    for (const [appId, ownerId] of managed)
      if (!this.follows.has(appId) && ownerId) this.follow(appId, ownerId);
  }

  /**
   * Whether what was logged for the app while nobody read its stream is still to be read (the first
   * connection has not sent it all yet): the engine does not put it to sleep meanwhile. Before this
   * follower starts (the engine starts first), every app's is.
   */
  unread(appId: string): boolean {
    if (!this.begun) return true;
    const f = this.running ? this.follows.get(appId) : undefined;
    if (!f || f.caughtUp) return false;
    // Not waited for longer than the first connection looks back at least.
    if (this.options.clock.now() - f.since >= LOOK_BACK_MIN_MS) f.caughtUp = true;
    return !f.caughtUp;
  }

  status(appId: string): { connected: boolean; events: number; failures: number } | null {
    const f = this.follows.get(appId);
    return f ? { connected: f.connected, events: f.events, failures: f.failures } : null;
  }

  private unfollow(appId: string): void {
    this.follows.get(appId)?.controller.abort();
    this.follows.delete(appId);
  }

  private follow(appId: string, ownerId: string): void {
    const follow: Follow = {
      appId,
      ownerId,
      controller: new AbortController(),
      lastEventId: null,
      lastDate: null,
      recentIds: new Set(),
      failures: 0,
      connected: false,
      attempt: null,
      quiet: 0,
      events: 0,
      since: this.options.clock.now(),
      caughtUp: false,
      done: Promise.resolve(),
    };
    this.follows.set(appId, follow);
    follow.done = this.loop(follow);
  }

  private async loop(f: Follow): Promise<void> {
    const since = new Date(firstSince(this.options.engine.get(f.appId), f.since)).toISOString();
    while (!f.controller.signal.aborted) {
      const attempt = new AbortController();
      const stopAttempt = () => attempt.abort();
      f.controller.signal.addEventListener('abort', stopAttempt, { once: true });
      f.attempt = attempt;
      f.quiet = 0;
      try {
        await this.options.source(f.ownerId, f.appId, {
          signal: attempt.signal,
          lastEventId: f.lastEventId,
          since: f.lastDate ?? since,
          onEvent: (event) => {
            f.quiet = 0;
            f.connected = true;
            f.failures = 0;
            if (event.event === 'ACCESS_LOG') this.handle(f, event);
            else if (event.event === 'HEARTBEAT') f.caughtUp = true;
            else if (event.event === 'END_OF_STREAM') stopAttempt();
          },
        });
      } catch (error) {
        if (!f.controller.signal.aborted && !attempt.signal.aborted) {
          this.options.log?.('warn', `access log of ${f.appId}: ${describeError(error)}`);
        }
      } finally {
        // A first connection that failed is not waited for: its reconnection resumes from its date.
        f.caughtUp = true;
        f.attempt = null;
        f.controller.signal.removeEventListener('abort', stopAttempt);
        f.connected = false;
      }
      if (f.controller.signal.aborted) return;
      f.failures++;
      const { first, max } = this.options.backoffMs;
      const delay = Math.min(max, first * 1.25 ** (f.failures - 1));
      await sleep(delay / 2 + Math.random() * (delay / 2), f.controller.signal);
    }
  }

  private handle(f: Follow, event: SseEvent): void {
    if (event.id) f.lastEventId = event.id;
    let data: {
      id?: string;
      date?: string;
      http?: { request?: { path?: string } } | null;
      source?: { ip?: string };
    };
    try {
      data = JSON.parse(event.data);
    } catch {
      this.options.log?.('warn', `access log of ${f.appId}: an event that is not JSON was skipped`);
      return;
    }
    // An entry with no id at all is known by its date, source and path (two such requests in the
    // same millisecond from one address to one path then count once: rare, and never a wake lost).
    const key =
      typeof data.id === 'string' && data.id
        ? data.id
        : (event.id ??
          (data.date ? `${data.date} ${data.source?.ip ?? ''} ${data.http?.request?.path ?? ''}` : null));
    if (key) {
      if (f.recentIds.has(key)) return;
      f.recentIds.add(key);
      if (f.recentIds.size > RECENT_IDS) f.recentIds.delete(f.recentIds.values().next().value as string);
    }
    if (typeof data.date === 'string' && Number.isFinite(Date.parse(data.date))) f.lastDate = data.date;
    f.events++;
    const now = this.options.clock.now();
    const logged = data.date ? Date.parse(data.date) : Number.NaN;
    const at = Number.isFinite(logged) ? Math.min(logged, now) : now;
    if (data.http == null) {
      this.options.stats.ignored(f.appId, NOT_A_REQUEST, at);
      return;
    }
    const routing = this.options.engine.routingOf(f.appId);
    const reason = routing
      ? ignoredBecause(
          { path: data.http?.request?.path ?? '/', sourceIp: data.source?.ip ?? null },
          compiled(routing.filters),
        )
      : null;
    if (reason) {
      this.options.stats.ignored(f.appId, reason, at);
      return;
    }
    const before = this.options.engine.get(f.appId);
    // Logged before this follow began and not after the app's last request: counted before (a restart).
    if (at < f.since && before?.lastRequestAt != null && at <= before.lastRequestAt) return;
    this.options.stats.counted(f.appId, 'access-log');
    if (before?.state === 'Down' && !this.options.engine.wakeAsked(f.appId)) this.options.onWake?.(f.appId);
    this.options.engine.request(f.appId, 'access-log', at).then(this.refused.recorded, this.refused.failed);
  }
}

const compiledCache = new WeakMap<object, ReturnType<typeof compileFilters>>();
/** Filters compiled once per routing object (the engine builds new ones when routes change). */
export function compiled(filters: Parameters<typeof compileFilters>[0]): ReturnType<typeof compileFilters> {
  let c = compiledCache.get(filters);
  if (!c) {
    c = compileFilters(filters);
    compiledCache.set(filters, c);
  }
  return c;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
