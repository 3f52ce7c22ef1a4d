/**
 * The bus between the instances of team mode: what one instance tells the others, and what they read
 * back when told. A port, so that the engine and the service never import a database client: on
 * PostgreSQL it is LISTEN/NOTIFY on one dedicated connection (store/postgres/pg-bus.ts); SQLite has one
 * instance only, and no bus (team-sync.ts is then not started).
 *
 * Messages name ids, never rows: the receiver reads the rows it needs. Each says whether this
 * instance sent it (`own`): its own changes are already in its memory.
 */
import type { AppRecord, HistoryEntry, TrafficSource } from '../../shared/domain.ts';
import type { HandedAction } from '../engine/engine.ts';

export type { HandedAction };

/** A request that reached an instance not acting on the app's owner, for the instance that does. */
export interface ForwardedRequest {
  appId: string;
  ownerId: string;
  source: TrafficSource;
  /** When it arrived (engine clock). */
  at: number;
  /** An operator's action (keep awake, reset, release) instead of a request. */
  action?: HandedAction;
}

/** A forwarded request as kept until the owner's holder acted on it. */
export interface WaitingRequest extends ForwardedRequest {
  id: number;
}

export type BusMessage =
  /** An app's record was written or removed. */
  | { kind: 'state'; appId: string; ownerId: string; own: boolean }
  /** History entries with ids from..to were added (in one statement). */
  | { kind: 'history'; from: number; to: number; own: boolean }
  /** Routes, rules or settings were saved. */
  | { kind: 'config'; key: string; own: boolean }
  /** A forwarded request for an app of this owner waits. */
  | { kind: 'request'; id: number; ownerId: string; own: boolean }
  /**
   * The bus listens (again): after a drop (`first` false), messages sent meanwhile were missed, and
   * what they named must be read again.
   */
  | { kind: 'connected'; first: boolean };

export interface TeamBus {
  /** Hear every message, in the order received. */
  subscribe(listener: (message: BusMessage) => void): () => void;
  /** Whether the bus listens now. */
  readonly listening: boolean;

  /** The records of these apps as stored now (an app absent from the answer was removed). */
  recordsOf(appIds: readonly string[]): Promise<AppRecord[]>;
  /** The history entries with ids from..to, oldest first. */
  historyBetween(from: number, to: number): Promise<HistoryEntry[]>;
  /** The history entries with ids above `id`, oldest first (at most `limit`). */
  historyAfter(id: number, limit: number): Promise<HistoryEntry[]>;
  /** The highest history id stored (0 when none). */
  lastHistoryId(): Promise<number>;

  /** Keep a request for the owner's holder, and tell it. */
  forward(request: ForwardedRequest): Promise<void>;
  /** The requests waiting for these owners, oldest first. */
  waiting(ownerIds: readonly string[]): Promise<WaitingRequest[]>;
  /** These requests were acted on: forget them. */
  done(ids: readonly number[]): Promise<void>;

  close(): Promise<void>;
}
