/**
 * Team mode: the requests handed over that the datastore has not taken yet (it is away). Kept here
 * in order, at most OUTBOX_MAX, each until its time to live, and written once the datastore answers
 * again, tried with backoff. The asker of an operator's action is told once it is kept here (it is
 * answered at once: handed over, will run when the datastore is back).
 */
import { describeError, type Log } from '../../shared/log.ts';
import type { ForwardedRequest } from '../store/team-contract.ts';

/** At most this many handed-over requests are kept here while the datastore is away. */
export const OUTBOX_MAX = 10_000;
/** The backoff of the writes of kept requests (real ms): the first delay, doubling, and the longest. */
const OUTBOX_BACKOFF = { first: 100, max: 5000 };

/** A request handed over and not written yet. */
export interface OutboxEntry {
  request: ForwardedRequest;
  keptAt: number;
  /** Called once, when the request is known to be kept here (the datastore refused or is away). */
  keptHere: (() => void) | undefined;
  /** Called once, when the request leaves unwritten: its time to live ran out, or the instance stopped. */
  lapsed: (() => void) | undefined;
}

export interface IntentOutboxOptions {
  /** Write the request to the datastore (the bus's publish). */
  publish: (request: ForwardedRequest) => Promise<void>;
  /** How long a request is kept (real ms). */
  ttlMs: () => number;
  log?: Log;
}

export class IntentOutbox {
  private readonly options: IntentOutboxOptions;
  private readonly entries: OutboxEntry[] = [];
  private dropped = 0;
  private expired = 0;
  private failures = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private publishing: Promise<void> | null = null;
  private stopped = false;

  constructor(options: IntentOutboxOptions) {
    this.options = options;
  }

  /** Keep a request and write it (now, or once the datastore answers); null when there is no room. */
  send(request: ForwardedRequest, keptHere?: () => void, lapsed?: () => void): OutboxEntry | null {
    if (this.entries.length >= OUTBOX_MAX) {
      this.dropped++;
      this.options.log?.(
        'error',
        `a request for ${request.appId} was not kept: ${OUTBOX_MAX} requests already wait for the datastore`,
      );
      return null;
    }
    const entry: OutboxEntry = { request, keptAt: Date.now(), keptHere, lapsed };
    this.entries.push(entry);
    // The datastore is known to be away (a write failed and waits for its backoff): kept, said at once.
    if (this.failures > 0) told(entry);
    if (!this.publishing && !this.timer) this.drain();
    return entry;
  }

  /** Whether the entry still waits here (not written, not expired). */
  holds(entry: OutboxEntry): boolean {
    return this.entries.includes(entry);
  }

  /** How many wait to be written, and how many were not kept or expired. */
  get facts(): { waiting: number; dropped: number; expired: number } {
    return { waiting: this.entries.length, dropped: this.dropped, expired: this.expired };
  }

  /** No more writes; the one under way ends first. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.publishing; // never rejects: a failed write is kept and tried again
    if (this.entries.length) {
      this.options.log?.(
        'warn',
        `${this.entries.length} requests handed over were not written before the stop (the datastore was away)`,
      );
      for (const left of this.entries.splice(0)) gone(left);
    }
  }

  /** Write the kept requests, oldest first; on a failure, again after a backoff. */
  private drain(): void {
    this.publishing = this.drainNow().finally(() => {
      this.publishing = null;
    });
  }

  private async drainNow(): Promise<void> {
    const { log } = this.options;
    while (this.entries.length && !this.stopped) {
      const next = this.entries[0]!;
      const ttl = this.options.ttlMs();
      if (Date.now() - next.keptAt > ttl) {
        this.entries.shift();
        this.expired++;
        log?.(
          'warn',
          `a request for ${next.request.appId} expired before the datastore took it (kept ${Math.round(ttl / 1000)} s)`,
        );
        gone(next);
        continue;
      }
      try {
        await this.options.publish(next.request);
      } catch (error) {
        const delay = Math.min(OUTBOX_BACKOFF.max, OUTBOX_BACKOFF.first * 2 ** this.failures);
        this.failures++;
        for (const kept of this.entries) told(kept);
        if (this.failures === 1) {
          log?.(
            'warn',
            `a request for ${next.request.appId} could not be handed to the instance acting on it yet (${describeError(error)}): ${this.entries.length} kept here, written once the datastore answers (tried again with backoff)`,
          );
        }
        this.timer = setTimeout(
          () => {
            this.timer = null;
            if (!this.stopped) this.drain();
          },
          delay * (0.75 + Math.random() * 0.5),
        );
        return;
      }
      this.entries.shift();
      if (this.failures > 0) {
        log?.('info', `the datastore takes handed-over requests again (after ${this.failures} tries)`);
        this.failures = 0;
      }
    }
  }
}

/** Tell the asker that the request left unwritten (once). */
function gone(entry: OutboxEntry): void {
  const tell = entry.lapsed;
  entry.lapsed = undefined;
  entry.keptHere = undefined;
  tell?.();
}

/** Tell the asker of an operator's action that it is kept here (once). */
function told(entry: OutboxEntry): void {
  const tell = entry.keptHere;
  entry.keptHere = undefined;
  tell?.();
}
