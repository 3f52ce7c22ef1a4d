/**
 * Wrong tokens slowed per client address: a few are answered 401 at once, then each further one
 * closes the address for a while that doubles (from `firstMs`, at most `maxMs`), during which every
 * attempt from it is answered 429 with Retry-After, without checking anything. A right token from the
 * address clears its count; other addresses are not affected. Counted for /metrics.
 */
export interface ThrottleOptions {
  /** Wrong tokens answered before the backoff starts (default 5). */
  free?: number;
  firstMs?: number;
  maxMs?: number;
  now?: () => number;
  /** Addresses remembered at most (the oldest forgotten first). */
  maxAddresses?: number;
}

export class Throttle {
  private readonly byAddress = new Map<string, { wrong: number; until: number }>();
  private readonly options: Required<ThrottleOptions>;
  /** Wrong tokens and sessions seen, and attempts answered 429. */
  wrong = 0;
  refused = 0;

  constructor(options: ThrottleOptions = {}) {
    this.options = {
      free: 5,
      firstMs: 250,
      maxMs: 60_000,
      now: Date.now,
      maxAddresses: 10_000,
      ...options,
    };
  }

  /** Seconds to wait when this address is closed now (the attempt is refused, and counted), else null. */
  closed(address: string): number | null {
    const entry = this.byAddress.get(address);
    const left = entry ? entry.until - this.options.now() : 0;
    if (left <= 0) return null;
    this.refused++;
    return Math.max(1, Math.ceil(left / 1000));
  }

  failed(address: string): void {
    this.wrong++;
    const { free, firstMs, maxMs, now, maxAddresses } = this.options;
    const entry = this.byAddress.get(address) ?? { wrong: 0, until: 0 };
    entry.wrong++;
    if (entry.wrong > free) entry.until = now() + Math.min(maxMs, firstMs * 2 ** (entry.wrong - free - 1));
    this.byAddress.delete(address);
    this.byAddress.set(address, entry);
    if (this.byAddress.size > maxAddresses) this.byAddress.delete(this.byAddress.keys().next().value!);
  }

  succeeded(address: string): void {
    this.byAddress.delete(address);
  }

  metricsText(): string {
    return [
      '# HELP reaper_auth_wrong_total Requests with a wrong, revoked or expired token or session.',
      '# TYPE reaper_auth_wrong_total counter',
      `reaper_auth_wrong_total ${this.wrong}`,
      '# HELP reaper_auth_throttled_total Requests answered 429 while their address was slowed down.',
      '# TYPE reaper_auth_throttled_total counter',
      `reaper_auth_throttled_total ${this.refused}`,
      '',
    ].join('\n');
  }
}
