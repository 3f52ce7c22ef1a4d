/**
 * How much of the process the wake proxy may take: connections in total and per client address, and
 * the waking page's live-status streams. A flood of idle connections then meets a cap well below the
 * process's open-file limit, and the rest stays for the engine's own calls to Clever Cloud, the
 * access-log streams, the datastore and the admin API (which has a cap of its own).
 */
import { readFileSync } from 'node:fs';

export interface ProxyLimits {
  /** Connections the wake proxy holds at once; more are closed as they arrive. */
  maxConnections: number;
  /** Connections one client address holds at once. */
  maxConnectionsPerAddress: number;
  /** Live-status streams (the waking page's server-sent events) open at once; more get 503. */
  maxStatusStreams: number;
  /** Live-status streams of one client address. */
  maxStatusStreamsPerAddress: number;
  /** A status stream whose unread output stays above this many bytes ... */
  statusUnreadBytes: number;
  /** ... for this long (real time) is dropped: a client that does not read. */
  statusStallMs: number;
}

/** The open-file limit of this process (Linux), or null where it cannot be read. */
export function openFileLimit(): number | null {
  try {
    const line = readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Max open files'));
    const soft = line ? Number(line.split(/\s+/)[3]) : Number.NaN;
    return Number.isInteger(soft) && soft > 0 ? soft : null;
  } catch {
    return null;
  }
}

/**
 * The defaults: the wake proxy takes at most 40% of the open files (and never more than 4,096
 * connections), the admin API 10% (at most 256); half or more stays for everything else.
 */
export function defaultLimits(files = openFileLimit()): ProxyLimits & { adminMaxConnections: number } {
  const share = (fraction: number, most: number) =>
    files === null ? most : Math.max(16, Math.min(most, Math.floor(files * fraction)));
  return {
    maxConnections: share(0.4, 4096),
    maxConnectionsPerAddress: 256,
    maxStatusStreams: 512,
    maxStatusStreamsPerAddress: 16,
    statusUnreadBytes: 64 * 1024,
    statusStallMs: 10_000,
    adminMaxConnections: share(0.1, 256),
  };
}

let processLimits: ProxyLimits = defaultLimits();

/** The limits of the wake proxies of this process (the headless server sets them from its flags). */
export function proxyLimits(): ProxyLimits {
  return processLimits;
}

export function setProxyLimits(limits: Partial<ProxyLimits>): void {
  processLimits = { ...processLimits, ...limits };
}

/** Places per client address, within a total. */
export class Places {
  private readonly byAddress = new Map<string, number>();
  private taken = 0;
  private readonly perAddress: () => number;
  private readonly total: () => number;

  constructor(perAddress: () => number, total: () => number = () => Number.POSITIVE_INFINITY) {
    this.perAddress = perAddress;
    this.total = total;
  }

  get size(): number {
    return this.taken;
  }

  /** Take a place for this address; false when it has none left (nothing is taken then). */
  take(address: string): boolean {
    const held = this.byAddress.get(address) ?? 0;
    if (held >= this.perAddress() || this.taken >= this.total()) return false;
    this.byAddress.set(address, held + 1);
    this.taken++;
    return true;
  }

  release(address: string): void {
    const held = this.byAddress.get(address) ?? 0;
    if (held <= 0) return;
    if (held === 1) this.byAddress.delete(address);
    else this.byAddress.set(address, held - 1);
    this.taken--;
  }
}

/** A socket's client address, IPv4-mapped IPv6 written as IPv4. */
export function clientAddress(socket: { remoteAddress?: string | undefined }): string {
  return (socket.remoteAddress ?? '').replace(/^::ffff:/, '');
}
