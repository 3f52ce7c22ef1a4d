/**
 * The datastore: app states with their clocks, and the history of every transition and action, in
 * one SQLite file (node:sqlite, built into Node 24 and Electron: no native module to rebuild).
 *
 * - A record and its history entries are written in one transaction (`commit`).
 * - WAL journal with synchronous=NORMAL: a committed transaction survives a crash of the process.
 * - Versioned migrations (PRAGMA user_version), each in its own transaction.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync, type SQLInputValue } from 'node:sqlite';
import type { AppRecord, HistoryEntry } from '../../shared/domain.ts';
import type { EngineStore } from '../engine/ports.ts';
import { type LeaseGuard, LeaseLost, SchemaTooNew, type StoreCommit } from './contract.ts';
import { restrictFile } from './data-dir.ts';
import { durationsFrom, toHistoryEntry, transitionsSql, transitState } from './history-sql.ts';

/** Record fields and their columns, in table order. */
export const COLUMNS: [keyof AppRecord, string][] = [
  ['appId', 'app_id'],
  ['ownerId', 'owner_id'],
  ['name', 'name'],
  ['state', 'state'],
  ['stateSince', 'state_since'],
  ['cameUpAt', 'came_up_at'],
  ['lastRequestAt', 'last_request_at'],
  ['lastRequestSource', 'last_request_source'],
  ['stopAskedAt', 'stop_asked_at'],
  ['firstStartAskedAt', 'first_start_asked_at'],
  ['lastStartAskedAt', 'last_start_asked_at'],
  ['deploymentId', 'deployment_id'],
  ['cause', 'cause'],
  ['pendingCall', 'pending_call'],
  ['wakeRequestedAt', 'wake_requested_at'],
  ['keepAwakeUntil', 'keep_awake_until'],
  ['releaseNoticedAt', 'release_noticed_at'],
  ['cleverState', 'clever_state'],
  ['lastDeployNumber', 'last_deploy_number'],
  ['redeploySeenAt', 'redeploy_seen_at'],
  ['dryRunSleepNotedAt', 'dry_run_sleep_noted_at'],
  ['notice', 'notice'],
  ['knownDeploymentId', 'known_deployment_id'],
];

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
];

export class Datastore implements EngineStore {
  readonly file: string;
  readonly db: DatabaseSync;
  private readonly upsertStmt;
  private readonly deleteStmt;
  private readonly historyStmt;

  constructor(file: string) {
    this.file = file;
    if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
    this.db = new DatabaseSync(file);
    try {
      this.db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000;');
      migrate(this.db);
      // Owner-only, whoever created them; SQLite gives a -wal or -shm it creates later the file's mode.
      if (file !== ':memory:') for (const suffix of ['', '-wal', '-shm']) restrictFile(file + suffix);
    } catch (error) {
      this.db.close();
      throw error;
    }
    const cols = COLUMNS.map(([, c]) => c);
    this.upsertStmt = this.db.prepare(
      `INSERT OR REPLACE INTO app_state (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`,
    );
    this.deleteStmt = this.db.prepare('DELETE FROM app_state WHERE app_id = ?');
    this.historyStmt = this.db.prepare(
      'INSERT INTO history (app_id, at, kind, from_state, to_state, actor, reason) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
  }

  get schemaVersion(): number {
    return userVersion(this.db);
  }

  loadRecords(): AppRecord[] {
    const rows = this.db.prepare(`SELECT ${COLUMNS.map(([, c]) => c).join(', ')} FROM app_state`).all();
    return rows.map((row) => {
      const record = {} as Record<string, unknown>;
      for (const [field, column] of COLUMNS) record[field] = row[column] ?? null;
      return record as unknown as AppRecord;
    });
  }

  /**
   * Write a record (or remove it) and append its history entries, in one transaction. With a guard,
   * nothing is written unless the owner's lease row still names this holder and token and has not
   * expired (real time): LeaseLost otherwise.
   */
  commit(change: StoreCommit, guard?: LeaseGuard): void {
    this.transaction(() => {
      if (guard) {
        const held = this.db
          .prepare(
            'SELECT 1 AS ok FROM leases WHERE owner_id = ? AND holder = ? AND token = ? AND expires_at > ?',
          )
          .get(guard.ownerId, guard.holder, guard.token, Date.now());
        if (!held) throw new LeaseLost(guard);
      }
      if (change.upsert) {
        const r = change.upsert;
        this.upsertStmt.run(...COLUMNS.map(([field]) => r[field] as SQLInputValue));
      }
      if (change.remove) this.deleteStmt.run(change.remove);
      for (const h of change.history) {
        this.historyStmt.run(h.appId, h.at, h.kind, h.from, h.to, h.actor, h.reason);
      }
    });
  }

  /** The history of one app, newest first. */
  historyOf(appId: string, limit = 100): HistoryEntry[] {
    const rows = this.db
      .prepare(
        'SELECT id, app_id, at, kind, from_state, to_state, actor, reason FROM history WHERE app_id = ? ORDER BY at DESC, id DESC LIMIT ?',
      )
      .all(appId, limit);
    return rows.map(toHistoryEntry);
  }

  /** Every history entry since `at` (oldest first), to rebuild what is computed from recent history. */
  historySince(at: number): HistoryEntry[] {
    const rows = this.db
      .prepare(
        'SELECT id, app_id, at, kind, from_state, to_state, actor, reason FROM history WHERE at >= ? ORDER BY at, id',
      )
      .all(at);
    return rows.map(toHistoryEntry);
  }

  /**
   * How long this app's last starts (WaitingForUp -> Up) or stops (WaitingForShutdown -> Down) took,
   * newest first, in ms.
   */
  transitionDurations(appId: string, kind: 'start' | 'stop', limit = 20): number[] {
    const transit = transitState(kind);
    const rows = this.db.prepare(transitionsSql('sqlite')).all(appId, transit, transit, limit * 4) as {
      at: number;
      from_state: string | null;
      to_state: string | null;
    }[];
    return durationsFrom(rows, kind, limit);
  }

  transaction<T>(fn: () => T): T {
    this.db.exec('BEGIN IMMEDIATE');
    try {
      const result = fn();
      this.db.exec('COMMIT');
      return result;
    } catch (error) {
      // SQLite rolls back by itself on some errors (a full disk): only roll back what is still open.
      if (this.db.isTransaction) this.db.exec('ROLLBACK');
      throw error;
    }
  }

  close(): void {
    if (this.db.isOpen) this.db.close();
  }
}

export { toHistoryEntry };

function userVersion(db: DatabaseSync): number {
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
