/**
 * The settings a team's instances must share (team/agreed-settings.ts), in the table `team_settings`:
 * created here if missing, under an advisory lock, so that instances starting together read and
 * write it one at a time (the first writes, the next compare).
 */
import type pg from 'pg';
import { DB_NOW, type PostgresStore } from './pg-store.ts';

/** The advisory lock of the shared settings ("RSET" in ASCII). */
const SETTINGS_LOCK = 0x52534554;

export interface StoredSettingRow {
  value: string;
  setBy: string;
  ageMs: number;
  heartbeatAgeMs: number | null;
}

export class PgSettings {
  private readonly store: PostgresStore;

  constructor(store: PostgresStore) {
    this.store = store;
  }

  settle(
    name: string,
    me: string,
    decide: (stored: StoredSettingRow | null) => string | null,
  ): Promise<void> {
    return this.store.transaction(async (c: pg.PoolClient) => {
      await c.query('SELECT pg_advisory_xact_lock($1)', [SETTINGS_LOCK]);
      await c.query(
        `CREATE TABLE IF NOT EXISTS team_settings (
           name TEXT PRIMARY KEY, value TEXT NOT NULL, set_by TEXT NOT NULL, set_at BIGINT NOT NULL)`,
      );
      const { rows } = await c.query<{ value: string; set_by: string; age: number; beat: number | null }>(
        `SELECT value, set_by, (${DB_NOW} - set_at)::bigint AS age,
                (SELECT ${DB_NOW} - max(seen_at) FROM instances WHERE id <> $2)::bigint AS beat
         FROM team_settings WHERE name = $1`,
        [name, me],
      );
      const row = rows[0];
      const value = decide(
        row ? { value: row.value, setBy: row.set_by, ageMs: row.age, heartbeatAgeMs: row.beat } : null,
      );
      if (value === null) return;
      await c.query(
        `INSERT INTO team_settings (name, value, set_by, set_at) VALUES ($1, $2, $3, ${DB_NOW})
         ON CONFLICT (name) DO UPDATE SET value = excluded.value, set_by = excluded.set_by, set_at = excluded.set_at`,
        [name, value, me],
      );
    });
  }
}
