/**
 * The webhooks' delivery state kept in the datastore (contract.ts, `webhookStatuses`), so that every
 * instance of a team server shows the same: each outcome an instance meets is added to the URL's row
 * (delivered, failed, last success, last failure and its error), one write at a time, the outcomes
 * of a burst in one. What is stored is what the dashboard shows of a delivery (the URL, as the
 * settings hold it; counts, times, an error like "HTTP 500"): never a payload, a token or a secret.
 * Two instances adding to one row in the same instant may lose one count (read, then write).
 */
import { describeError, type Log } from '../../shared/log.ts';
import type { WebhookStatus } from '../../shared/webhooks.ts';
import type { ReaperStore } from '../store/contract.ts';

/** Where the delivery state is kept for every instance. */
export type WebhookStateStore = Pick<ReaperStore, 'webhookStatuses' | 'saveWebhookStatus' | 'forgetWebhooks'>;

/** What changed in a URL's status since it was last written to the datastore. */
export interface Delta {
  delivered: number;
  failed: number;
  lastSuccessAt: number | null;
  lastFailureAt: number | null;
  lastError: string | null;
}

export interface WebhookStateOptions {
  /** The URLs of the settings (rows of others are forgotten). */
  configured: () => string[];
  /** The payloads waiting on this instance for a URL. */
  pending: (url: string) => number;
  log?: Log;
}

export class WebhookState {
  private readonly options: WebhookStateOptions;
  private store: WebhookStateStore | null = null;
  private deltas = new Map<string, Delta>();
  private flushing: Promise<void> = Promise.resolve();
  private flushQueued = false;
  private flushFailed = false;

  constructor(options: WebhookStateOptions) {
    this.options = options;
  }

  keepStateIn(store: WebhookStateStore | null): void {
    this.store = store;
    if (store && this.deltas.size) this.queueFlush();
  }

  /** This instance's statuses, each with the datastore's row and this instance's queue. */
  async shared(local: WebhookStatus[]): Promise<WebhookStatus[]> {
    const store = this.store;
    if (!store) return local;
    const stored = new Map((await store.webhookStatuses()).map((s) => [s.url, s]));
    return local.map((l) => ({
      ...merged(stored.get(l.url) ?? emptyStatus(l.url), this.deltas.get(l.url)),
      pending: l.pending,
    }));
  }

  /** Resolves once the outcomes noted so far were written (or failed to be). */
  async flushed(): Promise<void> {
    for (let i = 0; i < 10 && this.store && (this.flushQueued || this.deltas.size > 0); i++) {
      if (!this.flushQueued) this.queueFlush();
      await this.flushing;
    }
  }

  note(url: string, change: Partial<Delta>): void {
    const d = this.deltas.get(url) ?? {
      delivered: 0,
      failed: 0,
      lastSuccessAt: null,
      lastFailureAt: null,
      lastError: null,
    };
    this.deltas.set(url, addDelta(d, { ...emptyDelta(), ...change }));
    if (this.store) this.queueFlush();
  }

  private queueFlush(): void {
    if (this.flushQueued) return;
    this.flushQueued = true;
    this.flushing = this.flushing.then(() => {
      this.flushQueued = false;
      return this.flush();
    });
  }

  private async flush(): Promise<void> {
    const store = this.store;
    if (!store || this.deltas.size === 0) return;
    const deltas = this.deltas;
    this.deltas = new Map();
    try {
      const stored = new Map((await store.webhookStatuses()).map((s) => [s.url, s]));
      for (const [url, d] of deltas) {
        const row = merged(stored.get(url) ?? emptyStatus(url), d);
        await store.saveWebhookStatus({ ...row, pending: this.options.pending(url) });
      }
      await store.forgetWebhooks(this.options.configured());
      this.flushFailed = false;
    } catch (error) {
      // Kept for the next write; said once until a write works again.
      for (const [url, d] of deltas) {
        const later = this.deltas.get(url);
        this.deltas.set(url, later ? addDelta(d, later) : d);
      }
      if (!this.flushFailed) {
        this.flushFailed = true;
        this.options.log?.('warn', `the webhook delivery state could not be stored: ${describeError(error)}`);
      }
    }
  }
}

function emptyStatus(url: string): WebhookStatus {
  return {
    url,
    pending: 0,
    delivered: 0,
    failed: 0,
    lastSuccessAt: null,
    lastFailureAt: null,
    lastError: null,
  };
}

function emptyDelta(): Delta {
  return { delivered: 0, failed: 0, lastSuccessAt: null, lastFailureAt: null, lastError: null };
}

const latest = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.max(a, b));

/** A stored row with what happened since. */
function merged(row: WebhookStatus, d: Delta | undefined): WebhookStatus {
  if (!d) return row;
  const failureIsNew =
    d.lastFailureAt !== null && (row.lastFailureAt === null || d.lastFailureAt >= row.lastFailureAt);
  return {
    ...row,
    delivered: row.delivered + d.delivered,
    failed: row.failed + d.failed,
    lastSuccessAt: latest(row.lastSuccessAt, d.lastSuccessAt),
    lastFailureAt: latest(row.lastFailureAt, d.lastFailureAt),
    lastError: failureIsNew ? d.lastError : row.lastError,
  };
}

/** Two deltas in order (`b` after `a`). */
function addDelta(a: Delta, b: Delta): Delta {
  return {
    delivered: a.delivered + b.delivered,
    failed: a.failed + b.failed,
    lastSuccessAt: latest(a.lastSuccessAt, b.lastSuccessAt),
    lastFailureAt: latest(a.lastFailureAt, b.lastFailureAt),
    lastError: b.lastFailureAt !== null ? b.lastError : a.lastError,
  };
}
