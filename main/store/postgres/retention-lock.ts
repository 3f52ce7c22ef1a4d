/**
 * Team mode: the history retention (retention.ts) runs on one instance only. Each instance's timer
 * asks; a run goes ahead only on the instance with the smallest id among the live ones (heartbeat
 * within a lease time: leases.ts), and only while it holds a session advisory lock on a connection
 * of its own, so that two instances never prune at once even while they disagree on who is live
 * (one just started, one just stopped). The lock goes with its connection: an instance killed
 * mid-run holds it no longer.
 */
import type pg from 'pg';
import type { Exclusive } from '../contract.ts';
import { DB_NOW } from './pg-schema.ts';

/** The advisory lock of the retention ("PRUN" in ASCII). */
export const RETENTION_LOCK = 0x5052554e;

export type { Exclusive };

export function retentionExclusive(pool: pg.Pool, instanceId: string, leaseMs: number): Exclusive {
  return async (run) => {
    const client = await pool.connect();
    let broken: Error | undefined;
    try {
      const first = await client.query<{ id: string }>(
        `SELECT id FROM instances WHERE seen_at > ${DB_NOW} - $1::bigint ORDER BY id COLLATE "C" LIMIT 1`,
        [leaseMs],
      );
      if (first.rows[0]?.id !== instanceId) return null;
      const lock = await client.query<{ got: boolean }>('SELECT pg_try_advisory_lock($1) AS got', [
        RETENTION_LOCK,
      ]);
      if (!lock.rows[0]?.got) return null;
      try {
        return await run();
      } finally {
        await client.query('SELECT pg_advisory_unlock($1)', [RETENTION_LOCK]).catch((error: unknown) => {
          // The connection is gone, and the lock with it: the pool must not reuse it.
          broken = error instanceof Error ? error : new Error(String(error));
        });
      }
    } finally {
      client.release(broken);
    }
  };
}
