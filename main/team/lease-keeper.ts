/**
 * Team mode's leases: each owner (organisation or personal space) is acted on by one instance at a
 * time, the holder of its lease until it expires (on the database's clock), with a fencing token that
 * grows at each handover. Every write of the engine names the token it believes (`guard`), and the
 * datastore checks it in the write's own transaction.
 *
 * Each instance, every lease time / 3: beats its heartbeat, registers the owners it knows, renews the
 * leases it holds (a lease it no longer holds is dropped at once), then balances by the rule of
 * lease-rules.ts (`leaseShare`): gives back the extra ones (a new instance takes its share) and takes
 * free or expired ones up to its share. A taken owner is acted on only once the engine has read its
 * records again (`onTaken`): what the previous holder left pending is found there. On stop every
 * lease is given back at once. The SQL is the datastore's (`LeaseTable`: store/postgres/pg-leases.ts).
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { describeError, type Log } from '../../shared/log.ts';
import type { LeaseGuard } from '../../shared/port-errors.ts';
import type { HeldLease, LeaseTable } from '../store/team-contract.ts';
import { type LeaseReadiness, leaseReadiness, leaseShare } from './lease-rules.ts';

export type { LeaseReadiness };

export const DEFAULT_LEASE_MS = 15_000;

/** An instance's id: host and process first (an operator reading the leases table knows which instance holds what). */
export function newInstanceId(): string {
  return `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
}

export interface LeaseKeeperOptions {
  table: LeaseTable;
  /** This instance's id (default: host name, process id and a random part). */
  instanceId?: string;
  /** How long a lease lasts without renewal (default 15 s); renewed every third of it. */
  leaseMs?: number;
  /** The owners this instance knows of (routes, records): registered so that every instance sees them. */
  owners(): Iterable<string>;
  /** These owners were just taken: resolves once their records were read again; then they are acted on. */
  onTaken?(ownerIds: string[]): Promise<void>;
  /** These owners are acted on from now on (in the background: the round does not wait for it). */
  onActive?(ownerIds: string[]): Promise<void>;
  /** These owners are no longer acted on (given back, or lost); resolves when their actions under way ended. */
  onLetGo?(ownerIds: string[]): Promise<void>;
  /** After each round: the owners this instance does not act on (their records, read for the dashboard). */
  onRound?(others: string[]): Promise<void>;
  /** Monotonic real time in ms (default `performance.now()`): a lease's end as this instance knows it. */
  now?: () => number;
  log?: Log;
}

export class LeaseKeeper {
  readonly instanceId: string;
  readonly leaseMs: number;
  /** The leases held: owner -> fencing token. */
  private readonly held = new Map<string, number>();
  /** The owners acted on: held, and their records read again since they were taken. */
  private readonly active = new Set<string>();
  /**
   * Owner -> the end of its lease on this instance's monotonic clock: the moment the round that took
   * or renewed it began, plus the lease time. The database set its expiry later than that moment, so
   * this end is never after the database's: past it, another instance may hold the owner.
   */
  private readonly until = new Map<string, number>();
  private readonly now: () => number;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private round: Promise<void> | null = null;
  private running = false;
  private readonly options: LeaseKeeperOptions;
  /** Real time of the start, and of the last round that reached the database. */
  private startedAt = 0;
  private lastRoundAt = 0;
  /** Real time a round last ended (after its balancing): readiness waits for one after a pause. */
  private roundEndedAt = 0;
  /** The last readiness reason logged (logged again only when it changes). */
  private lastReason: string | null = null;

  constructor(options: LeaseKeeperOptions) {
    this.options = options;
    this.instanceId = options.instanceId ?? newInstanceId();
    this.leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    this.now = options.now ?? (() => performance.now());
  }

  /** Whether this instance acts on the owner's apps now. */
  acts(ownerId: string): boolean {
    return this.active.has(ownerId);
  }

  /**
   * Whether a start or a stop of the owner's apps may leave now (null), or why not. Asked right
   * before the call, after the write that asked for it: that write checked the lease, but an instance
   * frozen between the two (SIGSTOP, a long pause, a frozen VM) may resume after its lease ran out and
   * another instance took the owner over and sent the call itself. Clever Cloud takes no fencing
   * token, so the check is here: the call leaves only while the lease, as last renewed, has more than
   * a sixth of the lease time left (a call under way reaches Clever Cloud before the lease can end).
   */
  callRefusal(ownerId: string): string | null {
    if (!this.active.has(ownerId)) return `this instance does not act on ${ownerId} now`;
    const left = (this.until.get(ownerId) ?? Number.NEGATIVE_INFINITY) - this.now();
    if (left > this.leaseMs / 6) return null;
    const ago = Math.round(this.leaseMs - left);
    return `the lease of ${ownerId} was last renewed ${ago} ms ago (lease ${this.leaseMs} ms): it may have run out (this instance was paused, or the database was slow), so another instance may be acting on it`;
  }

  /**
   * The guard of a write of the owner's apps: the lease held. When it is not held, a guard that no
   * row matches (tokens start at 1), so the write is refused rather than left unfenced.
   */
  guard(ownerId: string): LeaseGuard {
    return { ownerId, holder: this.instanceId, token: this.held.get(ownerId) ?? 0 };
  }

  /**
   * A write of the owner was refused with LeaseLost: the datastore says another instance holds it
   * now (this one stalled past its lease, or the database was away that long). It is let go at
   * once (no more actions on it here), and a round runs to learn the rest.
   */
  lost(ownerId: string): void {
    if (!this.held.has(ownerId)) return;
    this.forget(ownerId);
    this.options.log?.('info', `lease lost (a write was refused: another instance holds it): ${ownerId}`);
    const letGo = this.options.onLetGo?.([ownerId]) ?? Promise.resolve();
    letGo
      .then(() => this.runRound())
      .catch((error: unknown) =>
        this.options.log?.('warn', `letting ${ownerId} go failed: ${describeError(error)}`),
      );
  }

  /** The owners acted on now. */
  activeOwners(): string[] {
    return [...this.active].sort();
  }

  /**
   * Whether this instance does its part (GET /readyz), by the rule of lease-rules.ts
   * (`leaseReadiness`) on the datastore's facts. `reason` is logged when it changes. Rejects when
   * the database cannot be reached.
   */
  async readiness(): Promise<LeaseReadiness> {
    const facts = this.running ? await this.options.table.facts(this.instanceId, this.leaseMs) : null;
    const answer = leaseReadiness({
      running: this.running,
      sinceStartMs: Date.now() - this.startedAt,
      sinceRoundMs: this.roundEndedAt ? Date.now() - this.roundEndedAt : null,
      leaseMs: this.leaseMs,
      ...(facts ?? { age: null, total: 0, mine: 0, free: 0, live: 0 }),
    });
    if (answer.reason !== this.lastReason) {
      this.lastReason = answer.reason;
      this.options.log?.(answer.ready ? 'info' : 'warn', `readiness (leases): ${answer.reason}`);
    }
    return answer;
  }

  /** Real time of the last lease round that reached the database (0 before the first). */
  get lastRound(): number {
    return this.lastRoundAt;
  }

  /** Run the first round (the leases free now are taken), then one every lease time / 3. */
  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    this.startedAt = Date.now();
    await this.runRound();
    this.arm();
  }

  /** Stop renewing and give every lease back at once (another instance takes them at its next round). */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.round; // never rejects: a failed round is logged
    const leases = this.leases([...this.held.keys()]);
    this.active.clear();
    this.until.clear();
    await this.options.onLetGo?.(leases.map((l) => l.owner));
    this.held.clear();
    try {
      await this.options.table.leave(this.instanceId, leases);
    } catch (error) {
      this.options.log?.('warn', `could not give the leases back (they expire): ${describeError(error)}`);
    }
  }

  /** One round now (tests; the timer runs them otherwise). Never rejects: a failed round is logged. */
  runRound(): Promise<void> {
    if (!this.running) return Promise.resolve();
    if (!this.round) {
      this.round = this.roundNow()
        .catch((error: unknown) => {
          this.options.log?.('warn', `a lease round failed: ${describeError(error)}`);
        })
        .finally(() => {
          this.round = null;
        });
    }
    return this.round;
  }

  private arm(): void {
    if (!this.running) return;
    this.timer = setTimeout(
      () => {
        this.runRound().then(
          () => this.arm(),
          (error: unknown) =>
            this.options.log?.('error', `the lease rounds stopped: ${describeError(error)}`),
        );
      },
      Math.max(50, Math.floor(this.leaseMs / 3)),
    );
  }

  /** The owner is no longer held here. */
  private forget(ownerId: string): void {
    this.held.delete(ownerId);
    this.active.delete(ownerId);
    this.until.delete(ownerId);
  }

  private leases(owners: readonly string[]): HeldLease[] {
    return owners.map((owner) => ({ owner, token: this.held.get(owner) ?? 0 }));
  }

  private async roundNow(): Promise<void> {
    const { table } = this.options;
    const known = [...new Set(this.options.owners())].filter((o) => o !== '');
    const began = this.now();
    const { renewed, live, total } = await table.beat(
      this.instanceId,
      this.leaseMs,
      known,
      this.leases([...this.held.keys()]),
    );
    this.lastRoundAt = Date.now();
    if (!this.running) return;
    for (const o of renewed) if (this.held.has(o)) this.until.set(o, began + this.leaseMs);

    const lost = [...this.held.keys()].filter((o) => !renewed.has(o));
    if (lost.length) {
      for (const o of lost) this.forget(o);
      this.options.log?.('info', `leases lost (another instance took them over): ${lost.join(', ')}`);
      await this.options.onLetGo?.(lost);
    }

    const answer = leaseShare({ held: [...this.held.keys()], total, live });
    if (answer.giveBack.length) await this.giveBack(answer.giveBack);
    else if (answer.take > 0) await this.take(answer.take);

    const others = (await table.owners()).filter((o) => !this.active.has(o));
    this.roundEndedAt = Date.now();
    await this.options.onRound?.(others);
  }

  /** Give these leases back (a new instance takes its share), once their actions under way ended. */
  private async giveBack(owners: string[]): Promise<void> {
    for (const o of owners) {
      this.active.delete(o);
      this.until.delete(o);
    }
    await this.options.onLetGo?.(owners);
    const leases = this.leases(owners);
    for (const o of owners) this.held.delete(o);
    await this.options.table.giveBack(this.instanceId, leases);
    this.options.log?.('info', `leases given back to balance the instances: ${owners.join(', ')}`);
  }

  /** Take up to `count` free or expired leases; act on them once their records were read again. */
  private async take(count: number): Promise<void> {
    const began = this.now();
    const taken = await this.options.table.take(this.instanceId, this.leaseMs, count);
    if (!taken.length) return;
    for (const t of taken) {
      this.held.set(t.owner, t.token);
      this.until.set(t.owner, began + this.leaseMs);
    }
    const owners = taken.map((t) => t.owner);
    try {
      await this.options.onTaken?.(owners);
    } catch (error) {
      this.options.log?.(
        'warn',
        `could not read the records of ${owners.join(', ')}: ${describeError(error)}`,
      );
      await this.giveBack(owners);
      return;
    }
    const still = owners.filter((o) => this.held.has(o));
    for (const o of still) this.active.add(o);
    this.options.log?.(
      'info',
      `leases taken: ${taken.map((t) => `${t.owner} (token ${t.token})`).join(', ')}`,
    );
    this.options
      .onActive?.(still)
      .catch((error: unknown) =>
        this.options.log?.('warn', `could not act on ${still.join(', ')}: ${describeError(error)}`),
      );
  }
}
