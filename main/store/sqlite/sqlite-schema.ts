/**
 * The SQLite schema: versioned migrations (PRAGMA user_version), each in its own transaction. A
 * datastore written by a newer reaper is refused (SchemaTooNew), never changed.
 */
import type { DatabaseSync } from 'node:sqlite';
import { SchemaTooNew } from '../contract.ts';

/** Migrations, in order; the index + 1 is the schema version they lead to. Never edit a released one. */
export const MIGRATIONS: ((db: DatabaseSync) => void)[] = [
  (db) =>
    db.exec(`
      CREATE TABLE app_state (
        app_id TEXT PRIMARY KEY,
        owner_id TEXT NOT NULL,
        name TEXT NOT NULL,
        state TEXT NOT NULL,
        state_since INTEGER NOT NULL,
        came_up_at INTEGER,
        last_request_at INTEGER,
        last_request_source TEXT,
        stop_asked_at INTEGER,
        first_start_asked_at INTEGER,
        last_start_asked_at INTEGER,
        deployment_id TEXT,
        cause TEXT,
        pending_call TEXT,
        wake_requested_at INTEGER,
        keep_awake_until INTEGER,
        release_noticed_at INTEGER,
        clever_state TEXT,
        last_deploy_number INTEGER,
        redeploy_seen_at INTEGER,
        dry_run_sleep_noted_at INTEGER,
        notice TEXT
      ) STRICT;
      CREATE TABLE history (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        app_id TEXT NOT NULL,
        at INTEGER NOT NULL,
        kind TEXT NOT NULL,
        from_state TEXT,
        to_state TEXT,
        actor TEXT NOT NULL,
        reason TEXT NOT NULL
      ) STRICT;
      CREATE INDEX history_app_at ON history (app_id, at);
      CREATE INDEX history_at ON history (at);
    `),
  // 2: the history across apps (filters on kind, actor and states, newest first by at and id), the
  // names of apps kept after their release, and the instance facts the savings estimate needs.
  (db) =>
    db.exec(`
      CREATE INDEX history_kind_at ON history (kind, at);
      CREATE INDEX history_actor_at ON history (actor, at);
      CREATE INDEX history_to_at ON history (to_state, at);
      CREATE INDEX history_from_at ON history (from_state, at);
      CREATE TABLE app_names (
        app_id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        owner_id TEXT NOT NULL
      ) STRICT;
      INSERT INTO app_names (app_id, name, owner_id) SELECT app_id, name, owner_id FROM app_state;
      CREATE TRIGGER app_state_keeps_name AFTER INSERT ON app_state BEGIN
        INSERT INTO app_names (app_id, name, owner_id) VALUES (NEW.app_id, NEW.name, NEW.owner_id)
          ON CONFLICT (app_id) DO UPDATE SET name = excluded.name, owner_id = excluded.owner_id
          WHERE name IS NOT excluded.name OR owner_id IS NOT excluded.owner_id;
      END;
      CREATE TABLE app_facts (
        app_id TEXT PRIMARY KEY,
        flavor_name TEXT,
        flavor_price REAL,
        min_instances INTEGER,
        max_instances INTEGER,
        seen_at INTEGER NOT NULL
      ) STRICT;
    `),
  // 3: the rest of the datastore contract (contract.ts): routes and settings as key-value pairs, the
  // webhook delivery state, the credentials status, and the owners' leases a guarded commit checks.
  (db) =>
    db.exec(`
      CREATE TABLE config (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
      ) STRICT;
      CREATE TABLE webhook_deliveries (
        url TEXT PRIMARY KEY,
        status TEXT NOT NULL
      ) STRICT;
      CREATE TABLE credentials_status (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        status TEXT NOT NULL
      ) STRICT;
      CREATE TABLE leases (
        owner_id TEXT PRIMARY KEY,
        holder TEXT NOT NULL,
        token INTEGER NOT NULL,
        expires_at INTEGER NOT NULL
      ) STRICT;
    `),
  // 4: the newest deployment known for the app, that a start's own deployment is listed above.
  (db) => db.exec('ALTER TABLE app_state ADD COLUMN known_deployment_id TEXT;'),
  // 5: people (issue 25): personal tokens (a salted scrypt hash, never the token), browsers' sign-in
  // sessions (a hash of the cookie), and the audit of configuration changes.
  (db) =>
    db.exec(`
      CREATE TABLE tokens (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        role TEXT NOT NULL CHECK (role IN ('viewer', 'operator', 'admin')),
        salt TEXT NOT NULL,
        hash TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        created_by TEXT NOT NULL,
        expires_at INTEGER,
        revoked_at INTEGER
      ) STRICT;
      CREATE UNIQUE INDEX tokens_live_name ON tokens (name) WHERE revoked_at IS NULL;
      CREATE TABLE sessions (
        id_hash TEXT PRIMARY KEY,
        token_id TEXT NOT NULL,
        csrf TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL,
        ended_at INTEGER
      ) STRICT;
      CREATE INDEX sessions_token ON sessions (token_id);
      CREATE TABLE audit (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        at INTEGER NOT NULL,
        by_name TEXT NOT NULL,
        via TEXT NOT NULL,
        what TEXT NOT NULL,
        target TEXT,
        before TEXT,
        after TEXT
      ) STRICT;
    `),
  // 6: who asked for a manual action (issue 25): the person and through what, on its history entry
  // (null for an automatic one, and for the entries written before).
  (db) =>
    db.exec(`
      ALTER TABLE history ADD COLUMN by_name TEXT;
      ALTER TABLE history ADD COLUMN by_via TEXT;
    `),
];

export function userVersion(db: DatabaseSync): number {
  const row = db.prepare('PRAGMA user_version').get() as { user_version: number };
  return row.user_version;
}

/** Bring the schema to the latest version, one migration per transaction. */
export function migrate(db: DatabaseSync, migrations = MIGRATIONS): void {
  const current = userVersion(db);
  if (current > migrations.length) {
    throw new SchemaTooNew(current, migrations.length);
  }
  for (let v = current; v < migrations.length; v++) {
    db.exec('BEGIN IMMEDIATE');
    try {
      migrations[v]!(db);
      db.exec(`PRAGMA user_version = ${v + 1}`);
      db.exec('COMMIT');
    } catch (error) {
      db.exec('ROLLBACK');
      throw error;
    }
  }
}
