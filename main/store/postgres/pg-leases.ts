/**
 * Team mode's leases on PostgreSQL: the SQL of the tables `leases` (owner -> holder, fencing token,
 * expiry in epoch ms on the database's clock) and `instances` (each instance's heartbeat). The
 * policy (when to renew, how many to hold, when an instance is ready) is team/lease-keeper.ts and
 * team/lease-rules.ts; this file only reads and writes, each call in one transaction.
 */
import type { HeldLease, LeaseTable } from '../team-contract.ts';
import { DB_NOW, type PostgresStore } from './pg-store.ts';

export class PgLeases implements LeaseTable {
  private readonly store: PostgresStore;

  constructor(store: PostgresStore) {
    this.store = store;
  }

  /**
   * A heartbeat round: beat this instance's heartbeat, forget instances silent for 20 lease times,
   * register the owners it knows, renew the leases it holds (those still its own). Answers the
   * owners renewed, the live instances (a heartbeat within a lease time) and the owners known.
   */
  async beat(
    me: string,
    leaseMs: number,
    known: readonly string[],
    held: readonly HeldLease[],
  ): Promise<{ renewed: Set<string>; live: number; total: number }> {
    return this.store.transaction(async (c) => {
      await c.query(
        `INSERT INTO instances (id, seen_at) VALUES ($1, ${DB_NOW})
         ON CONFLICT (id) DO UPDATE SET seen_at = excluded.seen_at`,
        [me],
      );
      await c.query(`DELETE FROM instances WHERE seen_at < ${DB_NOW} - $1::bigint`, [leaseMs * 20]);
      if (known.length) {
        await c.query(
          `INSERT INTO leases (owner_id, holder, token, expires_at)
           SELECT o, '', 0, 0 FROM unnest($1::text[]) AS o ON CONFLICT (owner_id) DO NOTHING`,
          [known],
        );
      }
      const renewed = held.length
        ? (
            await c.query<{ owner_id: string }>(
              `UPDATE leases SET expires_at = ${DB_NOW} + $2::bigint
               WHERE holder = $1 AND expires_at > ${DB_NOW}
                 AND (owner_id, token) IN (SELECT * FROM unnest($3::text[], $4::bigint[]))
               RETURNING owner_id`,
              [me, leaseMs, ...columns(held)],
            )
          ).rows.map((r) => r.owner_id)
        : [];
      const counts = await c.query<{ live: number; total: number }>(
        `SELECT (SELECT count(*) FROM instances WHERE seen_at > ${DB_NOW} - $1::bigint)::int AS live,
                (SELECT count(*) FROM leases)::int AS total`,
        [leaseMs],
      );
      return { renewed: new Set(renewed), live: counts.rows[0]!.live, total: counts.rows[0]!.total };
    });
  }

  /** Take up to `count` free or expired leases, in an order of this instance's own (so that instances starting together spread). */
  async take(me: string, leaseMs: number, count: number): Promise<HeldLease[]> {
    return this.store.transaction(async (c) => {
      const free = await c.query<{ owner_id: string }>(
        `SELECT owner_id FROM leases WHERE expires_at <= ${DB_NOW} ORDER BY md5(owner_id || $1) LIMIT $2`,
        [me, count],
      );
      const got: HeldLease[] = [];
      for (const { owner_id } of free.rows) {
        const row = await c.query<{ token: number }>(
          `UPDATE leases SET holder = $1, token = token + 1, expires_at = ${DB_NOW} + $2::bigint
           WHERE owner_id = $3 AND expires_at <= ${DB_NOW} RETURNING token`,
          [me, leaseMs, owner_id],
        );
        if (row.rows[0]) got.push({ owner: owner_id, token: row.rows[0].token });
      }
      return got;
    });
  }

  /** Give these leases back (they are free at once), those still held with these tokens. */
  async giveBack(me: string, leases: readonly HeldLease[]): Promise<void> {
    await this.store.transaction((c) => c.query(GIVE_BACK, [me, ...columns(leases)]));
  }

  /** Give every lease back and remove this instance's heartbeat (it stops). */
  async leave(me: string, leases: readonly HeldLease[]): Promise<void> {
    await this.store.transaction(async (c) => {
      await c.query(GIVE_BACK, [me, ...columns(leases)]);
      await c.query('DELETE FROM instances WHERE id = $1', [me]);
    });
  }

  /** Every owner with a lease row. */
  async owners(): Promise<string[]> {
    const { rows } = await this.store.transaction((c) =>
      c.query<{ owner_id: string }>('SELECT owner_id FROM leases'),
    );
    return rows.map((r) => r.owner_id);
  }

  /** What readiness is judged on (team/lease-rules.ts, `leaseReadiness`). */
  async facts(
    me: string,
    leaseMs: number,
  ): Promise<{ age: number | null; total: number; mine: number; free: number; live: number }> {
    const { rows } = await this.store.pool.query<{
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
      [me, leaseMs],
    );
    return rows[0]!;
  }
}

const GIVE_BACK = `UPDATE leases SET expires_at = 0
  WHERE holder = $1 AND (owner_id, token) IN (SELECT * FROM unnest($2::text[], $3::bigint[]))`;

const columns = (leases: readonly HeldLease[]): [string[], number[]] => [
  leases.map((l) => l.owner),
  leases.map((l) => l.token),
];
