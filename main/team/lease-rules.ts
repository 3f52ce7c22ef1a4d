/**
 * Team mode's lease policy as rules on data (pure, no I/O): how many owners an instance holds, which
 * it gives back, and whether it does its part (/readyz). The lease keeper (lease-keeper.ts) reads the
 * facts from the datastore, asks these rules, and carries the answer out.
 */

/** What a round of an instance should do: the leases it gives back, or how many it takes. */
export interface ShareAnswer {
  /** Its share: ceil(owners / live instances), at least 1 while there are owners. */
  share: number;
  /** The owners it gives back (a new instance takes them): the last ones, by id, beyond its share. */
  giveBack: string[];
  /** How many free or expired leases it takes (0 when it holds its share or more). */
  take: number;
}

/**
 * The balancing share: an instance holds at most ceil(owners / live instances); it gives back the
 * extra ones (in the order of their ids: the same answer on every round) and takes up to its share.
 * `live` counts this instance (its heartbeat was just written); 0 is read as 1.
 */
export function leaseShare(facts: { held: readonly string[]; total: number; live: number }): ShareAnswer {
  const share = Math.ceil(facts.total / Math.max(1, facts.live));
  const held = [...facts.held].sort();
  if (held.length > share) return { share, giveBack: held.slice(share), take: 0 };
  return { share, giveBack: [], take: share - held.length };
}

/** What /readyz is told about the leases (see leaseReadiness). */
export interface LeaseReadiness {
  ready: boolean;
  /** The one word /readyz answers when not ready. */
  word: 'heartbeat' | 'leases' | null;
  reason: string;
}

/** The facts readiness is judged on: this instance's and the datastore's. */
export interface ReadinessFacts {
  /** Whether the lease keeper runs. */
  running: boolean;
  /** Real ms since it started. */
  sinceStartMs: number;
  /**
   * Real ms since its last lease round ended (null before the first). Over a lease time: it was
   * paused (a SIGSTOP, a long GC, a frozen VM) or its rounds fail; its leases may have moved.
   */
  sinceRoundMs?: number | null;
  leaseMs: number;
  /** The age of this instance's heartbeat on the database's clock (null: none). */
  age: number | null;
  /** Owners with a lease row, leases this instance holds, free ones, live instances. */
  total: number;
  mine: number;
  free: number;
  live: number;
}

/**
 * Whether an instance does its part: its heartbeat is within a lease time, and it holds leases, or
 * waits for its share for a reason that passes (every owner is held by another live instance, which
 * gives extra ones back at its next round; or it started less than a lease time ago).
 */
export function leaseReadiness(f: ReadinessFacts): LeaseReadiness {
  if (!f.running) return { ready: false, word: 'leases', reason: 'the lease keeper is stopped' };
  if (f.sinceRoundMs != null && f.sinceRoundMs > f.leaseMs) {
    return {
      ready: false,
      word: 'leases',
      reason: `no lease round ended for ${f.sinceRoundMs} ms, more than the lease time (${f.leaseMs} ms): paused, or its rounds fail; ready again after its next round`,
    };
  }
  if (f.age === null || f.age > f.leaseMs) {
    return {
      ready: false,
      word: 'heartbeat',
      reason:
        f.age === null
          ? 'no heartbeat of this instance in the database: its lease rounds fail'
          : `the last heartbeat is ${f.age} ms old, more than the lease time (${f.leaseMs} ms): its lease rounds fail`,
    };
  }
  if (f.total === 0) return { ready: true, word: null, reason: 'no owner to hold yet' };
  if (f.mine > 0) {
    return {
      ready: true,
      word: null,
      reason: `holds ${f.mine} of ${f.total} owners (${f.live} live instances)`,
    };
  }
  if (f.free === 0) {
    return {
      ready: true,
      word: null,
      reason: `waits for its share: all ${f.total} owners are held by other live instances (${f.live} live), extra ones are given back at their next round`,
    };
  }
  if (f.sinceStartMs < f.leaseMs) {
    return {
      ready: true,
      word: null,
      reason: `waits for its share: ${f.free} free owners, taken at its next round`,
    };
  }
  return {
    ready: false,
    word: 'leases',
    reason: `holds no lease while ${f.free} of ${f.total} owners are free: it does not take its share`,
  };
}
