/**
 * The PostgreSQL schema, created and migrated on start. Versioned migrations: the version is the row
 * of `schema_version`; each migration runs in its own transaction under a transaction-level advisory
 * lock, so instances starting together never race (one migrates, the others wait, then find the
 * schema current). A schema newer than this code knows is refused (SchemaTooNew), never touched.
 *
 * Instants are BIGINT epoch ms as in SQLite (read back as numbers: pg-types.ts).
 */
import type pg from 'pg';
import { SchemaTooNew } from '../contract.ts';

/** The advisory lock of migrations ("REAP" in ASCII). */
/** The database's clock, in epoch ms: lease expiry is judged on it, the same for every instance. */
export const DB_NOW = '(extract(epoch FROM clock_timestamp()) * 1000)::bigint';

export const MIGRATION_LOCK = 0x52454150;

/** Migrations, in order; the index + 1 is the schema version they lead to. Never edit a released one. */
export const PG_MIGRATIONS: string[] = [
  // 1: the schema of SQLite's versions 1 to 3 (datastore.ts), at once.
  `
  CREATE TABLE app_state (
    app_id TEXT PRIMARY KEY,
    owner_id TEXT NOT NULL,
    name TEXT NOT NULL,
    state TEXT NOT NULL,
    state_since BIGINT NOT NULL,
    came_up_at BIGINT,
    last_request_at BIGINT,
    last_request_source TEXT,
    stop_asked_at BIGINT,
    first_start_asked_at BIGINT,
    last_start_asked_at BIGINT,
    deployment_id TEXT,
    cause TEXT,
    pending_call TEXT,
    wake_requested_at BIGINT,
    keep_awake_until BIGINT,
    release_noticed_at BIGINT,
    clever_state TEXT,
    last_deploy_number BIGINT,
    redeploy_seen_at BIGINT,
    dry_run_sleep_noted_at BIGINT,
    notice TEXT
  );
  CREATE TABLE history (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    app_id TEXT NOT NULL,
    at BIGINT NOT NULL,
    kind TEXT NOT NULL,
    from_state TEXT,
    to_state TEXT,
    actor TEXT NOT NULL,
    reason TEXT NOT NULL
  );
  CREATE INDEX history_app_at ON history (app_id, at);
  CREATE INDEX history_at ON history (at);
  CREATE INDEX history_kind_at ON history (kind, at);
  CREATE INDEX history_actor_at ON history (actor, at);
  CREATE INDEX history_to_at ON history (to_state, at);
  CREATE INDEX history_from_at ON history (from_state, at);
  CREATE TABLE app_names (
    app_id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    owner_id TEXT NOT NULL
  );
  CREATE FUNCTION reaper_keep_app_name() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    INSERT INTO app_names (app_id, name, owner_id) VALUES (NEW.app_id, NEW.name, NEW.owner_id)
      ON CONFLICT (app_id) DO UPDATE SET name = excluded.name, owner_id = excluded.owner_id
      WHERE app_names.name IS DISTINCT FROM excluded.name OR app_names.owner_id IS DISTINCT FROM excluded.owner_id;
    RETURN NEW;
  END $$;
  CREATE TRIGGER app_state_keeps_name AFTER INSERT OR UPDATE ON app_state
    FOR EACH ROW EXECUTE FUNCTION reaper_keep_app_name();
  CREATE TABLE app_facts (
    app_id TEXT PRIMARY KEY,
    flavor_name TEXT,
    flavor_price DOUBLE PRECISION,
    min_instances INTEGER,
    max_instances INTEGER,
    seen_at BIGINT NOT NULL
  );
  CREATE TABLE config (
    key TEXT PRIMARY KEY,
    value JSONB NOT NULL
  );
  CREATE TABLE webhook_deliveries (
    url TEXT PRIMARY KEY,
    status JSONB NOT NULL
  );
  CREATE TABLE credentials_status (
    id SMALLINT PRIMARY KEY CHECK (id = 1),
    status JSONB NOT NULL
  );
  -- An owner's lease: the instance acting on its apps, until expires_at (epoch ms, the database's
  -- clock), with a fencing token that grows each time the lease changes hands.
  CREATE TABLE leases (
    owner_id TEXT PRIMARY KEY,
    holder TEXT NOT NULL,
    token BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
  );
  `,
  // 2: the live instances of team mode, each with its heartbeat (epoch ms, the database's clock):
  // leases are balanced across the instances seen within a lease time.
  `
  CREATE TABLE instances (
    id TEXT PRIMARY KEY,
    seen_at BIGINT NOT NULL
  );
  `,
  // 3: the instances' bus (pg-bus.ts). Requests (and operators' actions) that reached an instance not
  // holding the app's owner, kept until the holder acted on them; and a NOTIFY on the channel `clever_reaper` at the commit of
  // each change another instance shows or acts on. Payloads name ids, never rows:
  //   {"k":"s","a":app,"o":owner}   an app's record was written or removed
  //   {"k":"h","f":first,"t":last}  history entries with ids first..last were added (one per statement)
  //   {"k":"c","key":key}           routes, rules or settings were saved
  //   {"k":"r","id":id,"o":owner}   a request for an app of that owner waits in wake_requests
  `
  CREATE TABLE wake_requests (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    app_id TEXT NOT NULL,
    owner_id TEXT NOT NULL,
    source TEXT NOT NULL,
    at BIGINT NOT NULL,
    -- NULL: a request (traffic, a wake); else an operator's action: keepAwake (until_at), reset, release
    action TEXT,
    until_at BIGINT,
    from_instance TEXT NOT NULL,
    created_at BIGINT NOT NULL
  );
  CREATE INDEX wake_requests_owner ON wake_requests (owner_id, id);
  CREATE FUNCTION reaper_notify_state() RETURNS trigger LANGUAGE plpgsql AS $$
  DECLARE r RECORD;
  BEGIN
    IF TG_OP = 'DELETE' THEN r := OLD; ELSE r := NEW; END IF;
    PERFORM pg_notify('clever_reaper', json_build_object('k', 's', 'a', r.app_id, 'o', r.owner_id)::text);
    RETURN NULL;
  END $$;
  CREATE TRIGGER app_state_notifies AFTER INSERT OR UPDATE OR DELETE ON app_state
    FOR EACH ROW EXECUTE FUNCTION reaper_notify_state();
  CREATE FUNCTION reaper_notify_history() RETURNS trigger LANGUAGE plpgsql AS $$
  DECLARE lo BIGINT; hi BIGINT;
  BEGIN
    SELECT min(id), max(id) INTO lo, hi FROM added;
    IF lo IS NOT NULL THEN
      PERFORM pg_notify('clever_reaper', json_build_object('k', 'h', 'f', lo, 't', hi)::text);
    END IF;
    RETURN NULL;
  END $$;
  CREATE TRIGGER history_notifies AFTER INSERT ON history REFERENCING NEW TABLE AS added
    FOR EACH STATEMENT EXECUTE FUNCTION reaper_notify_history();
  CREATE FUNCTION reaper_notify_config() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    PERFORM pg_notify('clever_reaper', json_build_object('k', 'c', 'key', NEW.key)::text);
    RETURN NULL;
  END $$;
  CREATE TRIGGER config_notifies AFTER INSERT OR UPDATE ON config
    FOR EACH ROW EXECUTE FUNCTION reaper_notify_config();
  CREATE FUNCTION reaper_notify_request() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    PERFORM pg_notify('clever_reaper', json_build_object('k', 'r', 'id', NEW.id, 'o', NEW.owner_id)::text);
    RETURN NULL;
  END $$;
  CREATE TRIGGER wake_requests_notify AFTER INSERT ON wake_requests
    FOR EACH ROW EXECUTE FUNCTION reaper_notify_request();
  `,
  // 4: the newest deployment known for the app, that a start's own deployment is listed above
  // (SQLite's version 4).
  `
  ALTER TABLE app_state ADD COLUMN known_deployment_id TEXT;
  `,
  // 5: the triggers of app_state fire once per statement, not once per row (a sweep's writes of
  // an owner are one statement: pg-store.ts, commit): the names kept, and the NOTIFY of the records
  // written or removed, one per owner of the statement's rows (more when their ids would not fit
  // one payload, under 8,000 bytes), which replaces the one per row ({"k":"s"}):
  //   {"k":"S","o":owner,"a":[app, ...]}   these apps' records were written or removed
  // (a transition table serves one event only: three triggers, one function).
  `
  DROP TRIGGER app_state_keeps_name ON app_state;
  DROP TRIGGER app_state_notifies ON app_state;
  DROP FUNCTION reaper_keep_app_name();
  DROP FUNCTION reaper_notify_state();
  CREATE FUNCTION reaper_keep_app_names() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    INSERT INTO app_names (app_id, name, owner_id)
      SELECT DISTINCT ON (app_id) app_id, name, owner_id FROM changed ORDER BY app_id
      ON CONFLICT (app_id) DO UPDATE SET name = excluded.name, owner_id = excluded.owner_id
      WHERE app_names.name IS DISTINCT FROM excluded.name OR app_names.owner_id IS DISTINCT FROM excluded.owner_id;
    RETURN NULL;
  END $$;
  CREATE TRIGGER app_state_inserted_keep_names AFTER INSERT ON app_state REFERENCING NEW TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION reaper_keep_app_names();
  CREATE TRIGGER app_state_updated_keep_names AFTER UPDATE ON app_state REFERENCING NEW TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION reaper_keep_app_names();
  CREATE FUNCTION reaper_notify_states() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    -- Each owner's ids in parts of at most 6,000 bytes of JSON (and one id more).
    PERFORM pg_notify('clever_reaper',
        json_build_object('k', 'S', 'o', owner_id, 'a', json_agg(app_id ORDER BY app_id))::text)
      FROM (
        SELECT owner_id, app_id,
          (sum(octet_length(to_json(app_id)::text) + 2) OVER (PARTITION BY owner_id ORDER BY app_id) - 1) / 6000 AS part
        FROM (SELECT DISTINCT owner_id, app_id FROM changed) AS rows
      ) AS parts
      GROUP BY owner_id, part;
    RETURN NULL;
  END $$;
  CREATE TRIGGER app_state_inserted_notify AFTER INSERT ON app_state REFERENCING NEW TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION reaper_notify_states();
  CREATE TRIGGER app_state_updated_notify AFTER UPDATE ON app_state REFERENCING NEW TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION reaper_notify_states();
  CREATE TRIGGER app_state_deleted_notify AFTER DELETE ON app_state REFERENCING OLD TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION reaper_notify_states();
  `,
  // 6: people (issue 25; SQLite's version 5): personal tokens (a salted scrypt hash, never the
  // token), browsers' sign-in sessions (a hash of the cookie), the audit of configuration changes. A
  // change of a token or a session is announced on the bus (kind 'p'): a revocation or a sign-out
  // takes effect on every instance at once.
  `
  CREATE TABLE tokens (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    role TEXT NOT NULL CHECK (role IN ('viewer', 'operator', 'admin')),
    salt TEXT NOT NULL,
    hash TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    created_by TEXT NOT NULL,
    expires_at BIGINT,
    revoked_at BIGINT
  );
  CREATE UNIQUE INDEX tokens_live_name ON tokens (name) WHERE revoked_at IS NULL;
  CREATE TABLE sessions (
    id_hash TEXT PRIMARY KEY,
    token_id TEXT NOT NULL,
    csrf TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    ended_at BIGINT
  );
  CREATE INDEX sessions_token ON sessions (token_id);
  CREATE TABLE audit (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    at BIGINT NOT NULL,
    by_name TEXT NOT NULL,
    via TEXT NOT NULL,
    what TEXT NOT NULL,
    target TEXT,
    before TEXT,
    after TEXT
  );
  CREATE FUNCTION reaper_notify_people() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    PERFORM pg_notify('clever_reaper', json_build_object('k', 'p', 't', TG_TABLE_NAME)::text);
    RETURN NULL;
  END $$;
  CREATE TRIGGER tokens_notify AFTER INSERT OR UPDATE OR DELETE ON tokens
    FOR EACH STATEMENT EXECUTE FUNCTION reaper_notify_people();
  CREATE TRIGGER sessions_notify AFTER UPDATE OR DELETE ON sessions
    FOR EACH STATEMENT EXECUTE FUNCTION reaper_notify_people();
  `,
  // 7: who asked for a manual action (issue 25; SQLite's version 6): the person and through what, on
  // its history entry (null for an automatic one, and for the entries written before).
  `
  ALTER TABLE history ADD COLUMN by_name TEXT;
  ALTER TABLE history ADD COLUMN by_via TEXT;
  `,
  // 8: who asked for a request or an operator's action handed to the owner's holder (issue 25): the
  // person and through what, which the holder writes on its history entry (null for traffic, for
  // what the reaper asked on its own, and for the rows written before). The bus's message still
  // names the row's id only.
  `
  ALTER TABLE wake_requests ADD COLUMN by_name TEXT;
  ALTER TABLE wake_requests ADD COLUMN by_via TEXT;
  `,
];

/** The schema version of the database (0 when it has none yet). */
export async function schemaVersionOf(client: pg.ClientBase): Promise<number> {
  const exists = await client.query<{ t: string | null }>("SELECT to_regclass('schema_version') AS t");
  if (!exists.rows[0]?.t) return 0;
  const row = await client.query<{ version: number }>('SELECT version FROM schema_version WHERE id = 1');
  return row.rows[0]?.version ?? 0;
}

/**
 * Bring the schema to the latest version, one migration per transaction, each under the advisory
 * lock. Resolves with the version reached; rejects with SchemaTooNew on a newer schema.
 */
export async function migratePostgres(client: pg.ClientBase, migrations = PG_MIGRATIONS): Promise<number> {
  for (;;) {
    await client.query('BEGIN');
    try {
      await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      await client.query(
        'CREATE TABLE IF NOT EXISTS schema_version (id SMALLINT PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL)',
      );
      await client.query(
        'INSERT INTO schema_version (id, version) VALUES (1, 0) ON CONFLICT (id) DO NOTHING',
      );
      const current = (
        await client.query<{ version: number }>('SELECT version FROM schema_version WHERE id = 1')
      ).rows[0]!.version;
      if (current > migrations.length) throw new SchemaTooNew(current, migrations.length);
      if (current === migrations.length) {
        await client.query('COMMIT');
        return current;
      }
      await client.query(migrations[current]!);
      await client.query('UPDATE schema_version SET version = $1 WHERE id = 1', [current + 1]);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    }
  }
}
