/**
 * Team mode's leases: each owner (organisation or personal space) is acted on by one instance at a
 * time, the holder of its row in `leases` until `expires_at` (epoch ms on the database's clock), with
 * a fencing token that grows at each handover. Every write of the engine names the token it believes
 * (`guard`), and the datastore checks it in the write's own transaction (pg-store.ts, `commit`).
 *
 * Each instance, every lease time / 3: beats its heartbeat (`instances`), registers the owners it
 * knows, renews the leases it holds (a lease it no longer holds is dropped at once), then balances:
 * it holds at most ceil(owners / live instances), gives back the extra ones (a new instance takes its
 * share) and takes free or expired ones up to its share. A taken owner is acted on only once the
 * engine has read its records again (`onTaken`): what the previous holder left pending is found there.
 * On stop every lease is given back at once.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { describeError, type Log } from '../../../shared/log.ts';
import type { LeaseGuard } from '../../../shared/port-errors.ts';
import { DB_NOW, type PostgresStore } from './pg-store.ts';

export const DEFAULT_LEASE_MS = 15_000;

export interface LeaseKeeperOptions {
  store: PostgresStore;
  /** This instance's id (default: host name, process id and a random part). */
  instanceId?: string;
  /** How long a lease lasts without renewal (default 15 s); renewed every third of it. */
  leaseMs?: number;
  /** The owners this instance knows of (routes, records): registered so that every instance sees them. */
  owners(): Iterable<string>;
  /** These owners were just taken: resolves once their records were read again; then they are acted on. */
  onTaken?(ownerIds: string[]): Promise<void>;
  /** These owners are acted on from now on. */
  onActive?(ownerIds: string[]): void;
  /** These owners are no longer acted on (given back, or lost); resolves when their actions under way ended. */
  onLetGo?(ownerIds: string[]): Promise<void>;
  /** After each round: the owners this instance does not act on (their records, read for the dashboard). */
  onRound?(others: string[]): Promise<void> | void;
  log?: Log;
}

/** What /readyz is told about the leases (see LeaseKeeper.readiness). */
export interface LeaseReadiness {
  ready: boolean;
  /** The one word /readyz answers when not ready. */
  word: 'heartbeat' | 'leases' | null;
  reason: string;
}

export class LeaseKeeper {
  readonly instanceId: string;
  readonly leaseMs: number;
  /** The leases held: owner -> fencing token. */
  private readonly held = new Map<string, number>();
  /** The owners acted on: held, and their records read again since they were taken. */
  private readonly active = new Set<string>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private round: Promise<void> | null = null;
  private running = false;
  private readonly options: LeaseKeeperOptions;
  /** Real time of the start, and of the last round that reached the database. */
  private startedAt = 0;
  private lastRoundAt = 0;
  /** The last readiness reason logged (logged again only when it changes). */
  private lastReason: string | null = null;

  constructor(options: LeaseKeeperOptions) {
    this.options = options;
    // Host and process first: an operator reading the leases table knows which instance holds what.
    this.instanceId = options.instanceId ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
    this.leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  }

  /** Whether this instance acts on the owner's apps now. */
  acts(ownerId: string): boolean {
    return this.active.has(ownerId);
  }

  /**
   * The guard of a write of the owner's apps: the lease held. When it is not held, a guard that no
   * row matches (tokens start at 1), so the write is refused rather than left unfenced.
   */
  guard(ownerId: string): LeaseGuard {
    return { ownerId, holder: this.instanceId, token: this.held.get(ownerId) ?? 0 };
  }

  /** The owners acted on now. */
  activeOwners(): string[] {
    return [...this.active].sort();
  }

  /**
   * Whether this instance does its part (GET /readyz): the database answers, this instance's
   * heartbeat is within a lease time, and it holds leases, or waits for its share for a reason that
   * passes (every owner is held by another live instance, which gives extra ones back at its next
   * round; or it started less than a lease time ago). `word` is what /readyz answers when not ready;
   * `reason` says it in words (logged when it changes). Rejects when the database cannot be reached.
   */
  async readiness(): Promise<LeaseReadiness> {
    const answer = await this.readinessNow();
    if (answer.reason !== this.lastReason) {
      this.lastReason = answer.reason;
      this.options.log?.(answer.ready ? 'info' : 'warn', `readiness (leases): ${answer.reason}`);
    }
    return answer;
  }

  private async readinessNow(): Promise<LeaseReadiness> {
    if (!this.running) return { ready: false, word: 'leases', reason: 'the lease keeper is stopped' };
    const { rows } = await this.options.store.pool.query<{
      age: number | null;
      total: number;
      mine: number;
      free: number;
      live: number;
    }>(
      `SELECT (SELECT ${DB_NOW} - seen_at FROM instances WHERE id = $1)::bigint AS age,
              (SELECT count(*) FROM leases)::int AS total,
              (SELECT count(*) FROM leases WHERE holder = $1 AND expires_at > ${DB_NOW})::int AS mine,
              (SELECT count(*) FROM leases WHERE expires_at <= ${DB_NOW})::int AS free,
              (SELECT count(*) FROM instances WHERE seen_at > ${DB_NOW} - $2::bigint)::int AS live`,
      [this.instanceId, this.leaseMs],
    );
    const { age, total, mine, free, live } = rows[0]!;
    if (age === null || age > this.leaseMs) {
      return {
        ready: false,
        word: 'heartbeat',
        reason:
          age === null
            ? 'no heartbeat of this instance in the database: its lease rounds fail'
            : `the last heartbeat is ${age} ms old, more than the lease time (${this.leaseMs} ms): its lease rounds fail`,
      };
    }
    if (total === 0) return { ready: true, word: null, reason: 'no owner to hold yet' };
    if (mine > 0) {
      return { ready: true, word: null, reason: `holds ${mine} of ${total} owners (${live} live instances)` };
    }
    if (free === 0) {
      return {
        ready: true,
        word: null,
        reason: `waits for its share: all ${total} owners are held by other live instances (${live} live), extra ones are given back at their next round`,
      };
    }
    if (Date.now() - this.startedAt < this.leaseMs) {
      return {
        ready: true,
        word: null,
        reason: `waits for its share: ${free} free owners, taken at its next round`,
      };
    }
    return {
      ready: false,
      word: 'leases',
      reason: `holds no lease while ${free} of ${total} owners are free: it does not take its share`,
    };
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
    await this.round?.catch(() => {});
    const owners = [...this.held.keys()];
    this.active.clear();
    await this.options.onLetGo?.(owners);
    const { owners: o, tokens } = this.pairs(owners);
    this.held.clear();
    try {
      await this.options.store.transaction(async (c) => {
        await c.query(
          `UPDATE leases SET expires_at = 0 WHERE holder = $1 AND (owner_id, token) IN (SELECT * FROM unnest($2::text[], $3::bigint[]))`,
          [this.instanceId, o, tokens],
        );
        await c.query('DELETE FROM instances WHERE id = $1', [this.instanceId]);
      });
    } catch (error) {
      this.options.log?.('warn', `could not give the leases back (they expire): ${describeError(error)}`);
    }
  }

  /** One round now (tests; the timer runs them otherwise). */
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
        void this.runRound().finally(() => this.arm());
      },
      Math.max(50, Math.floor(this.leaseMs / 3)),
    );
  }

  private pairs(owners: string[]): { owners: string[]; tokens: number[] } {
    return { owners, tokens: owners.map((o) => this.held.get(o) ?? 0) };
  }

  private async roundNow(): Promise<void> {
    const { store } = this.options;
    const me = this.instanceId;
    const known = [...new Set(this.options.owners())].filter((o) => o !== '');
    const { renewed, live, total } = await store.transaction(async (c) => {
      await c.query(
        `INSERT INTO instances (id, seen_at) VALUES ($1, ${DB_NOW})
         ON CONFLICT (id) DO UPDATE SET seen_at = excluded.seen_at`,
        [me],
      );
      await c.query(`DELETE FROM instances WHERE seen_at < ${DB_NOW} - $1::bigint`, [this.leaseMs * 20]);
      if (known.length) {
        await c.query(
          `INSERT INTO leases (owner_id, holder, token, expires_at)
           SELECT o, '', 0, 0 FROM unnest($1::text[]) AS o ON CONFLICT (owner_id) DO NOTHING`,
          [known],
        );
      }
      const { owners, tokens } = this.pairs([...this.held.keys()]);
      const renewed = owners.length
        ? (
            await c.query<{ owner_id: string }>(
              `UPDATE leases SET expires_at = ${DB_NOW} + $2::bigint
               WHERE holder = $1 AND expires_at > ${DB_NOW}
                 AND (owner_id, token) IN (SELECT * FROM unnest($3::text[], $4::bigint[]))
               RETURNING owner_id`,
              [me, this.leaseMs, owners, tokens],
            )
          ).rows.map((r) => r.owner_id)
        : [];
      const counts = await c.query<{ live: number; total: number }>(
        `SELECT (SELECT count(*) FROM instances WHERE seen_at > ${DB_NOW} - $1::bigint)::int AS live,
                (SELECT count(*) FROM leases)::int AS total`,
        [this.leaseMs],
      );
      return { renewed: new Set(renewed), live: counts.rows[0]!.live, total: counts.rows[0]!.total };
    });
    this.lastRoundAt = Date.now();
    if (!this.running) return;

    const lost = [...this.held.keys()].filter((o) => !renewed.has(o));
    if (lost.length) {
      for (const o of lost) {
        this.held.delete(o);
        this.active.delete(o);
      }
      this.options.log?.('info', `leases lost (another instance took them over): ${lost.join(', ')}`);
      await this.options.onLetGo?.(lost);
    }

    const share = Math.ceil(total / Math.max(1, live));
    if (this.held.size > share) await this.giveBack([...this.held.keys()].sort().slice(share));
    else if (this.held.size < share) await this.take(share - this.held.size);

    const others = (
      await store.transaction((c) => c.query<{ owner_id: string }>('SELECT owner_id FROM leases'))
    ).rows
      .map((r) => r.owner_id)
      .filter((o) => !this.active.has(o));
    await this.options.onRound?.(others);
  }

  /** Give these leases back (a new instance takes its share), once their actions under way ended. */
  private async giveBack(owners: string[]): Promise<void> {
    for (const o of owners) this.active.delete(o);
    await this.options.onLetGo?.(owners);
    const pairs = this.pairs(owners);
    for (const o of owners) this.held.delete(o);
    await this.options.store.transaction((c) =>
      c.query(
        `UPDATE leases SET expires_at = 0 WHERE holder = $1 AND (owner_id, token) IN (SELECT * FROM unnest($2::text[], $3::bigint[]))`,
        [this.instanceId, pairs.owners, pairs.tokens],
      ),
    );
    this.options.log?.('info', `leases given back to balance the instances: ${owners.join(', ')}`);
  }

  /** Take up to `count` free or expired leases; act on them once their records were read again. */
  private async take(count: number): Promise<void> {
    const me = this.instanceId;
    const taken = await this.options.store.transaction(async (c) => {
      // Candidates in an order of this instance's own, so that instances starting together spread.
      const free = await c.query<{ owner_id: string }>(
        `SELECT owner_id FROM leases WHERE expires_at <= ${DB_NOW} ORDER BY md5(owner_id || $1) LIMIT $2`,
        [me, count],
      );
      const got: { owner: string; token: number }[] = [];
      for (const { owner_id } of free.rows) {
        const row = await c.query<{ token: number }>(
          `UPDATE leases SET holder = $1, token = token + 1, expires_at = ${DB_NOW} + $2::bigint
           WHERE owner_id = $3 AND expires_at <= ${DB_NOW} RETURNING token`,
          [me, this.leaseMs, owner_id],
        );
        if (row.rows[0]) got.push({ owner: owner_id, token: row.rows[0].token });
      }
      return got;
    });
    if (!taken.length) return;
    for (const t of taken) this.held.set(t.owner, t.token);
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
    this.options.onActive?.(still);
  }
}
