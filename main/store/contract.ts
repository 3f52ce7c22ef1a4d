/**
 * The datastore contract: everything the reaper keeps, as one asynchronous interface with two
 * implementations, SQLite (node:sqlite, embedded, the default: sqlite/sqlite-store.ts) and PostgreSQL
 * (team mode, shared by several instances: postgres/pg-store.ts), each implementing it directly. One
 * contract test suite runs against both (datastore.contract.test.ts). Callers hold a ReaperStore and
 * never ask which one it is.
 *
 * - App records and their history: `commit` writes a record (or removes it) and appends its history
 *   entries in one transaction; the engine commits before the Clever Cloud call a change asks for.
 * - A commit may carry a `guard` (an owner's lease: holder and fencing token), checked in the same
 *   transaction: unless the lease row still matches, nothing is written and the commit rejects with
 *   LeaseLost. Leases are taken and renewed elsewhere (team mode); SQLite has one instance only, and
 *   accepts any guard.
 * - The history across apps (filters, keyset pages, export), retention, the instance facts of the
 *   savings, the webhook delivery state, the credentials status, and a key-value backend for the
 *   routes and settings (ConfigStore).
 */
import type { Actor, AppRecord, HistoryEntry, ReaperState } from '../../shared/domain.ts';
import type { HistoryFilter, HistoryPage, HistoryQuery, HistoryRow } from '../../shared/history.ts';
import type { AuditEntry, AuditFilter, Role } from '../../shared/people.ts';
import { type LeaseGuard, LeaseLost, type StoreCommit } from '../../shared/port-errors.ts';
import type { WebhookStatus } from '../../shared/webhooks.ts';

export type { LeaseGuard, StoreCommit };
export { LeaseLost };

/** The datastore was written by a newer Clever Reaper: refused rather than corrupted. */
export class SchemaTooNew extends Error {
  readonly found: number;
  readonly known: number;
  constructor(found: number, known: number) {
    super(
      `the datastore was written by a newer Clever Reaper (schema ${found}, this version knows ${known}): upgrade this instance`,
    );
    this.name = 'SchemaTooNew';
    this.found = found;
    this.known = known;
  }
}

/** The kinds of entry that change an app's state, and the dry-run notes the savings count. */
export interface StateChange {
  appId: string;
  at: number;
  id: number;
  kind: 'transition' | 'reset' | 'release' | 'would-sleep' | 'would-wake';
  /** The state after the entry: null after a release, and for would-sleep / would-wake notes. */
  to: ReaperState | null;
  reason: string;
  /** Who made it happen (the savings count only the sleeps the reaper caused). */
  actor: Actor;
}

/** The oldest instant of the savings' entries and the ids of the entries at that instant, by id. */
export interface SavingsOldest {
  at: number;
  ids: number[];
}

export interface AppFacts {
  appId: string;
  flavorName: string | null;
  /** The API's `price` of the (minimum) flavor, unit unconfirmed (see shared/savings.ts). */
  flavorPrice: number | null;
  minInstances: number;
  maxInstances: number;
  /** When these facts were first seen (engine clock). */
  seenAt: number;
}

/** What is kept of the credentials' state, to show on every instance (never a token or secret). */
export interface StoredCredentialsStatus {
  state: 'connected' | 'none' | 'invalid';
  account: string | null;
  problem: string | null;
  /** When it was last written (real time). */
  at: number;
}

/** Runs `run` while this instance is the one allowed to; null when another one is. */
export type Exclusive = <T>(run: () => Promise<T>) => Promise<T | null>;

/**
 * Routes and settings as key-value pairs, read once at open (`load`) and written one key at a time,
 * each write confirmed before it resolves.
 */
export interface SharedConfigBackend {
  load(): Promise<Map<string, unknown>>;
  set(key: string, value: unknown): Promise<void>;
}

/** A personal token as kept: its id (the public part of the token), a salted scrypt hash of the rest. */
export interface StoredToken {
  id: string;
  name: string;
  role: Role;
  /** base64url */
  salt: string;
  /** base64url scrypt hash of the token's secret part with `salt` */
  hash: string;
  createdAt: number;
  createdBy: string;
  expiresAt: number | null;
  revokedAt: number | null;
}

/** A browser's sign-in session: kept by a hash of its cookie, for the token it was opened with. */
export interface StoredSession {
  /** sha256 (base64url) of the session's cookie value. */
  idHash: string;
  /** The token's id, or the bootstrap token's fingerprint (`bootstrap:...`). */
  tokenId: string;
  csrf: string;
  createdAt: number;
  expiresAt: number;
  endedAt: number | null;
}

/**
 * People on a team server (real time, epoch ms): personal tokens, sign-in sessions, and the audit of
 * configuration changes. On PostgreSQL, a change of a token or a session is announced on the bus.
 */
export interface PeopleStore {
  /** Rejects with TokenNameTaken while a token of that name is not revoked. */
  addToken(token: StoredToken): Promise<void>;
  tokenById(id: string): Promise<StoredToken | null>;
  /** Every token, revoked ones too, oldest first. */
  tokens(): Promise<StoredToken[]>;
  /** Revoke the live token of that name and end its sessions; the token revoked, or null when none. */
  revokeToken(name: string, at: number): Promise<StoredToken | null>;
  addSession(session: StoredSession): Promise<void>;
  session(idHash: string): Promise<StoredSession | null>;
  /** Whether a session was ended (false: unknown, or ended before). */
  endSession(idHash: string, at: number): Promise<boolean>;
  addAudit(entry: Omit<AuditEntry, 'id'>): Promise<void>;
  /**
   * The newest entries first, `limit` of them, with ids below `beforeId` when given, and only those
   * the filter keeps (filtered in the store's SQL, so a page is full whatever the filter).
   */
  audit(limit: number, beforeId?: number, filter?: AuditFilter): Promise<AuditEntry[]>;
}

/** A live token already has this name. */
export class TokenNameTaken extends Error {
  constructor(name: string) {
    super(`a token named '${name}' exists: revoke it first, or choose another name`);
    this.name = 'TokenNameTaken';
  }
}

export interface ReaperStore {
  readonly kind: 'sqlite' | 'postgres';
  /** The schema version the datastore is at. */
  schemaVersion(): Promise<number>;

  // ---- app records and their history (the engine) ------------------------------------------
  loadRecords(): Promise<AppRecord[]>;
  /**
   * One transaction: the guard checked (once), then each change's record written or removed and its
   * entries appended, in order. A batch (a sweep's writes of one owner) is all written or none.
   */
  commit(change: StoreCommit | readonly StoreCommit[], guard?: LeaseGuard): Promise<void>;

  // ---- history reads (the service) ---------------------------------------------------------
  /** The history of one app, newest first. */
  historyOf(appId: string, limit?: number): Promise<HistoryEntry[]>;
  /** Every entry since `at` (oldest first). */
  historySince(at: number): Promise<HistoryEntry[]>;
  /** How long this app's last starts or stops took, newest first, in ms. */
  transitionDurations(appId: string, kind: 'start' | 'stop', limit?: number): Promise<number[]>;
  /** One page of the filtered history across apps, newest first. */
  queryHistory(query: HistoryQuery): Promise<HistoryPage>;
  /** Every entry of the filtered history, newest first, a page at a time (exports). */
  iterateHistory(filter: HistoryFilter, pageSize?: number): AsyncGenerator<HistoryRow[], void, void>;
  /** The name of every app the datastore knows, released ones included. */
  appNames(): Promise<Map<string, { name: string; ownerId: string }>>;
  /** Each app's state at `from`, then its state changes and dry-run notes up to `to`, oldest first. */
  stateChanges(
    from: number,
    to: number,
  ): Promise<{ initial: Map<string, ReaperState | null>; changes: StateChange[] }>;

  /**
   * The savings' cache (reports/savings-cache.ts): the state changes and dry-run notes with an id above
   * `afterId`, by id, at most `limit` of them (entries at negative instants left out, as stateChanges does).
   */
  savingsChangesAfter(afterId: number, limit: number): Promise<StateChange[]>;
  /** One app's state changes and dry-run notes with an id up to `upToId`, oldest first (time, then id). */
  savingsChangesOf(appId: string, upToId: number): Promise<StateChange[]>;
  /** The oldest instant of the state changes and dry-run notes, with the ids at it; null when none. */
  savingsOldest(): Promise<SavingsOldest | null>;
  /** Which of these history ids are still there (retention may have deleted the others). */
  historyIdsLeft(ids: readonly number[]): Promise<Set<number>>;

  // ---- retention ---------------------------------------------------------------------------
  /** Delete up to `limit` of the oldest entries before `cutoff`; how many were deleted. */
  deleteHistoryBefore(cutoff: number, limit: number): Promise<number>;

  // ---- instance facts (savings) ------------------------------------------------------------
  readAppFacts(): Promise<Map<string, AppFacts>>;
  /** Upsert these facts, in one transaction. */
  writeAppFacts(facts: readonly AppFacts[]): Promise<void>;

  // ---- webhook delivery state --------------------------------------------------------------
  webhookStatuses(): Promise<WebhookStatus[]>;
  saveWebhookStatus(status: WebhookStatus): Promise<void>;
  /** Forget the state of webhooks no longer in the settings. */
  forgetWebhooks(keep: readonly string[]): Promise<void>;

  // ---- credentials status ------------------------------------------------------------------
  credentialsStatus(): Promise<StoredCredentialsStatus | null>;
  saveCredentialsStatus(status: StoredCredentialsStatus): Promise<void>;

  // ---- routes and settings -----------------------------------------------------------------
  configBackend(): SharedConfigBackend;

  // ---- people: tokens, sessions, audit -------------------------------------------------------
  people(): PeopleStore;

  // ---- capabilities: what one datastore offers and the other has no need of -----------------
  /**
   * Team mode (several instances on one datastore): runs a run while this instance is the one that
   * prunes the history, else answers null. Absent on a datastore of one instance (SQLite).
   */
  retentionExclusive?(instanceId: string, leaseMs: number): Exclusive;

  close(): Promise<void>;
}
