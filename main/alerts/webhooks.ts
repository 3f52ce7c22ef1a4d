/**
 * Team alerts: a delivery queue per webhook URL, fed by the engine's events, never in the engine's
 * way (an event only appends to a queue; sending runs on timers of its own).
 *
 * - Each attempt has a timeout (10 s). A network error, a timeout, 408, 429 and 5xx are retried with
 *   exponential backoff and jitter (1 s, 2 s, 4 s, ... capped at 5 min, each between half and all of
 *   it; a Retry-After is honoured up to the cap), 8 attempts at most; other 4xx are not retried.
 * - A queue holds 100 payloads at most: beyond, the oldest is dropped (a receiver down for hours
 *   must not grow memory without end).
 * - A webhook removed from the settings has its waiting payloads dropped.
 * - Payloads never hold a credential (see payloads.ts); logs name the URL's origin only.
 * - With a datastore (`keepStateIn`), outcomes are added to the state every instance shows
 *   (webhook-state.ts, `sharedStatus`).
 */
import type { AppRecord, ReaperState } from '../../shared/domain.ts';
import { SECOND } from '../../shared/durations.ts';
import { describeError, type Log } from '../../shared/log.ts';
import {
  redactUrl,
  type WebhookConfig,
  type WebhookStatus,
  type WebhookTestResult,
} from '../../shared/webhooks.ts';
import type { EngineEvent } from '../engine/engine.ts';
import { type AlertEvent, payloadBody } from './payloads.ts';
import { type Delta, WebhookState, type WebhookStateStore } from './webhook-state.ts';

export type { WebhookStateStore };

export interface DispatcherOptions {
  /** The webhooks of the settings, read at each event and before each attempt. */
  webhooks: () => readonly WebhookConfig[];
  fetch?: typeof fetch;
  timeoutMs?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  maxAttempts?: number;
  maxQueue?: number;
  /** [0, 1): the jitter. */
  random?: () => number;
  /** Real time, for the delivery status. */
  now?: () => number;
  onOutcome?: (outcome: 'delivered' | 'retried' | 'failed' | 'dropped') => void;
  log?: Log;
  userAgent?: string;
}

interface Item {
  event: AlertEvent;
  format: WebhookConfig['format'];
  attempts: number;
}

interface Queue {
  items: Item[];
  sending: boolean;
  timer: ReturnType<typeof setTimeout> | null;
  status: WebhookStatus;
}

type AttemptResult =
  | { ok: true; status: number }
  | { ok: false; status: number | null; error: string; retry: boolean; retryAfterMs: number | null };

export class WebhookDispatcher {
  private readonly options: DispatcherOptions;
  private readonly queues = new Map<string, Queue>();
  private readonly inFlight = new Set<AbortController>();
  private closed = false;
  private readonly state: WebhookState;

  constructor(options: DispatcherOptions) {
    this.options = options;
    this.state = new WebhookState({
      configured: () => this.options.webhooks().map((w) => w.url),
      pending: (url) => this.queues.get(url)?.items.length ?? 0,
      log: options.log,
    });
  }

  private get now(): number {
    return (this.options.now ?? Date.now)();
  }

  /** Queue `event` for every webhook that asked for its kind. Never throws, never waits. */
  notify(event: AlertEvent): void {
    if (this.closed) return;
    for (const hook of this.options.webhooks()) {
      if (event.event !== 'test' && !hook.events.includes(event.event)) continue;
      const q = this.queue(hook.url);
      q.items.push({ event, format: hook.format, attempts: 0 });
      q.status.pending = q.items.length;
      const max = this.options.maxQueue ?? 100;
      while (q.items.length > max) {
        q.items.shift();
        q.status.failed++;
        q.status.lastFailureAt = this.now;
        q.status.lastError = `more than ${max} payloads waiting: the oldest was dropped`;
        this.note(hook.url, { failed: 1, lastFailureAt: this.now, lastError: q.status.lastError });
        this.options.onOutcome?.('dropped');
      }
      q.status.pending = q.items.length;
      this.pump(hook.url);
    }
  }

  /** "Send a test": one attempt now, outside the queue; its outcome shows in the status too. */
  async test(hook: Pick<WebhookConfig, 'url' | 'format'>, at: number): Promise<WebhookTestResult> {
    const started = performance.now();
    const event: AlertEvent = {
      event: 'test',
      appId: '',
      appName: '',
      ownerId: '',
      at,
      state: 'Up',
      cause: null,
      reason: 'a test from the settings',
      actor: 'operator',
      durationMs: null,
    };
    const result = await this.attempt(hook.url, payloadBody(event, hook.format));
    const q = this.queue(hook.url);
    if (result.ok) {
      q.status.lastSuccessAt = this.now;
      this.note(hook.url, { lastSuccessAt: this.now });
    } else {
      q.status.lastFailureAt = this.now;
      q.status.lastError = result.error;
      this.note(hook.url, { lastFailureAt: this.now, lastError: result.error });
    }
    return {
      ok: result.ok,
      status: result.status,
      error: result.ok ? null : result.error,
      durationMs: performance.now() - started,
    };
  }

  /** The status of every configured webhook (and of any other URL with payloads still waiting). */
  status(): WebhookStatus[] {
    const urls = new Set(this.options.webhooks().map((w) => w.url));
    for (const [url, q] of this.queues) if (q.items.length) urls.add(url);
    return [...urls].map((url) => ({ ...this.queue(url).status }));
  }

  /**
   * Keep the delivery state in this datastore from now on (null: this instance's memory only).
   * Outcomes not written yet are written to the new one.
   */
  keepStateIn(store: WebhookStateStore | null): void {
    this.state.keepStateIn(store);
  }

  /**
   * The status of every configured webhook as every instance sees it: the datastore's row with what
   * this instance has not written yet, and this instance's queue (`pending`). Without a datastore,
   * `status()`.
   */
  sharedStatus(): Promise<WebhookStatus[]> {
    return this.state.shared(this.status());
  }

  /** Resolves once the outcomes noted so far were written (or failed to be). */
  flushed(): Promise<void> {
    return this.state.flushed();
  }

  private note(url: string, change: Partial<Delta>): void {
    this.state.note(url, change);
  }

  /** Stop sending: timers cleared, attempts under way aborted, waiting payloads forgotten. */
  close(): void {
    this.closed = true;
    for (const q of this.queues.values()) if (q.timer) clearTimeout(q.timer);
    for (const c of this.inFlight) c.abort();
  }

  /**
   * Follow an engine: entering Error ("error"), Going to sleep -> Asleep ("sleep"), and Waking up ->
   * Up after a sleep ("wake"; a redeploy of a running app is not a wake).
   */
  watch(engine: { on(listener: (event: EngineEvent) => void): () => void }): () => void {
    const apps = new Map<string, Pick<AppRecord, 'name' | 'ownerId' | 'cause'>>();
    const transit = new Map<
      string,
      { state: ReaperState; from: ReaperState | null; at: number; reason: string; actor: AlertEvent['actor'] }
    >();
    return engine.on((e) => {
      if (e.type === 'app') {
        apps.set(e.record.appId, { name: e.record.name, ownerId: e.record.ownerId, cause: e.record.cause });
        return;
      }
      if (e.type === 'removed') {
        transit.delete(e.appId);
        return;
      }
      if (e.type !== 'history') return;
      const h = e.entry;
      if (h.kind !== 'transition' && h.kind !== 'reset' && h.kind !== 'release') return;
      const app = apps.get(h.appId);
      const base = { appId: h.appId, appName: app?.name ?? h.appId, ownerId: app?.ownerId ?? '', at: h.at };
      const before = transit.get(h.appId);
      if (h.to === 'Error') {
        this.notify({
          ...base,
          event: 'error',
          state: 'Error',
          cause: app?.cause ?? h.reason,
          reason: h.reason,
          actor: h.actor,
          durationMs: null,
        });
      } else if (h.from === 'WaitingForShutdown' && h.to === 'Down') {
        this.notify({
          ...base,
          event: 'sleep',
          state: 'Down',
          cause: null,
          reason: before?.state === 'WaitingForShutdown' ? before.reason : h.reason,
          actor: before?.actor ?? h.actor,
          durationMs: before?.state === 'WaitingForShutdown' ? h.at - before.at : null,
        });
      } else if (
        h.from === 'WaitingForUp' &&
        h.to === 'Up' &&
        before?.state === 'WaitingForUp' &&
        before.from === 'Down'
      ) {
        this.notify({
          ...base,
          event: 'wake',
          state: 'Up',
          cause: null,
          reason: before.reason,
          actor: before.actor,
          durationMs: h.at - before.at,
        });
      }
      if (h.to === 'WaitingForUp' || h.to === 'WaitingForShutdown') {
        transit.set(h.appId, { state: h.to, from: h.from, at: h.at, reason: h.reason, actor: h.actor });
      } else transit.delete(h.appId);
    });
  }

  // ---- delivery --------------------------------------------------------------------------------

  private queue(url: string): Queue {
    let q = this.queues.get(url);
    if (!q) {
      q = {
        items: [],
        sending: false,
        timer: null,
        status: {
          url,
          pending: 0,
          delivered: 0,
          failed: 0,
          lastSuccessAt: null,
          lastFailureAt: null,
          lastError: null,
        },
      };
      this.queues.set(url, q);
    }
    return q;
  }

  private pump(url: string): void {
    const q = this.queue(url);
    if (q.sending || q.timer || this.closed) return;
    this.drain(url, q).catch((error: unknown) => {
      const log = this.options.log ?? ((_level, message) => console.error(message));
      log(
        'error',
        `alerts to ${redactUrl(url)} stopped on an unexpected fault: ${describeError(error, { stack: true })}`,
      );
    });
  }

  private async drain(url: string, q: Queue): Promise<void> {
    q.sending = true;
    try {
      while (q.items.length && !this.closed) {
        if (!this.options.webhooks().some((w) => w.url === url)) {
          // Removed from the settings meanwhile: what waits for it is dropped.
          for (const _ of q.items) this.options.onOutcome?.('dropped');
          q.items = [];
          break;
        }
        const item = q.items[0]!;
        const result = await this.attempt(url, payloadBody(item.event, item.format));
        if (this.closed) return;
        item.attempts++;
        if (result.ok) {
          q.items.shift();
          q.status.delivered++;
          q.status.lastSuccessAt = this.now;
          this.note(url, { delivered: 1, lastSuccessAt: this.now });
          this.options.onOutcome?.('delivered');
          continue;
        }
        q.status.lastFailureAt = this.now;
        q.status.lastError = result.error;
        const max = this.options.maxAttempts ?? 8;
        const givenUp = !result.retry || item.attempts >= max;
        this.note(url, { failed: givenUp ? 1 : 0, lastFailureAt: this.now, lastError: result.error });
        if (givenUp) {
          q.items.shift();
          q.status.failed++;
          this.options.onOutcome?.('failed');
          this.options.log?.(
            'warn',
            `a ${item.event.event} alert to ${redactUrl(url)} was given up after ${item.attempts} attempt(s): ${result.error}`,
          );
          continue;
        }
        this.options.onOutcome?.('retried');
        const delay = this.backoff(item.attempts, result.retryAfterMs);
        q.timer = setTimeout(() => {
          q.timer = null;
          this.pump(url);
        }, delay);
        q.timer.unref?.();
        return;
      }
    } finally {
      q.sending = false;
      q.status.pending = q.items.length;
    }
  }

  /** Exponential, capped, with jitter: between half and all of base × 2^(attempt-1). */
  backoff(attempt: number, retryAfterMs: number | null = null): number {
    const base = this.options.baseDelayMs ?? SECOND;
    const cap = this.options.maxDelayMs ?? 5 * 60 * SECOND;
    const exp = Math.min(cap, base * 2 ** (attempt - 1));
    const jittered = exp / 2 + ((this.options.random ?? Math.random)() * exp) / 2;
    return Math.min(cap, Math.max(jittered, retryAfterMs ?? 0));
  }

  private async attempt(url: string, body: string): Promise<AttemptResult> {
    const controller = new AbortController();
    this.inFlight.add(controller);
    const timeoutMs = this.options.timeoutMs ?? 10 * SECOND;
    const timer = setTimeout(() => controller.abort(new Error('timeout')), timeoutMs);
    try {
      const res = await (this.options.fetch ?? fetch)(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': this.options.userAgent ?? 'clever-reaper',
        },
        body,
        signal: controller.signal,
        redirect: 'error',
      });
      // The answer's body is not needed; reading it frees the connection.
      await res.arrayBuffer().catch(() => undefined);
      if (res.ok) return { ok: true, status: res.status };
      const retry = res.status === 408 || res.status === 429 || res.status >= 500;
      return {
        ok: false,
        status: res.status,
        error: `HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''}`,
        retry,
        retryAfterMs: retryAfter(res.headers.get('retry-after')),
      };
    } catch (error) {
      const timedOut = controller.signal.aborted && !this.closed;
      return {
        ok: false,
        status: null,
        error: timedOut
          ? `no answer within ${timeoutMs < SECOND ? `${timeoutMs} ms` : `${Math.round(timeoutMs / SECOND)} s`}`
          : `cannot be reached: ${networkFailure(error)}`,
        retry: true,
        retryAfterMs: null,
      };
    } finally {
      clearTimeout(timer);
      this.inFlight.delete(controller);
    }
  }
}

function retryAfter(value: string | null): number | null {
  if (!value) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - Date.now());
}

/** A network failure by its system code (ECONNREFUSED, ...) when it has one, else in words. */
function networkFailure(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  if (cause?.code) return cause.code;
  return describeError(error);
}
