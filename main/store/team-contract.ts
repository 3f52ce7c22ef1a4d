/**
 * What the datastore keeps and tells for team mode, seen from the instances: the requests handed to
 * the holder of an owner (kept until it acted on them), the messages its changes send to the other
 * instances (team/bus.ts is the port that carries them), the reads a message leads to, and the
 * owners' leases. On PostgreSQL: store/postgres/pg-team-store.ts (the reads), pg-bus.ts (the
 * messages) and pg-leases.ts (the leases); SQLite has one instance only, and none of them.
 *
 * Messages name ids, never rows: the receiver reads the rows it needs. Each says whether this
 * instance sent it (`own`): its own changes are already in its memory.
 */
import type { AppRecord, HistoryEntry, TrafficSource } from '../../shared/domain.ts';
import type { By } from '../../shared/people.ts';
import type { HandedAction } from '../engine/core.ts';

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
  /**
   * Who asked for it (a wake or an action from the dashboard, the API...), and through what: the
   * holder writes them on its history entry. None for traffic and for what the reaper asked itself.
   */
  by?: By;
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
  /** A personal token or a sign-in session changed (created, revoked, ended): forget what was checked. */
  | { kind: 'people'; own: boolean }
  /**
   * The bus listens (again): after a drop (`first` false), messages sent meanwhile were missed, and
   * what they named must be read again.
   */
  | { kind: 'connected'; first: boolean };

/** The reads (and the one write) a message of the bus leads to. */
export interface TeamStore {
  /** The records of these apps as stored now (an app absent from the answer was removed). */
  recordsOf(appIds: readonly string[]): Promise<AppRecord[]>;
  /** The history entries with ids from..to, oldest first. */
  historyBetween(from: number, to: number): Promise<HistoryEntry[]>;
  /** The history entries with ids above `id`, oldest first (at most `limit`). */
  historyAfter(id: number, limit: number): Promise<HistoryEntry[]>;
  /** The highest history id stored (0 when none). */
  lastHistoryId(): Promise<number>;
  /**
   * The requests waiting for these owners, oldest first; those kept longer than `ttlMs` (real time)
   * are forgotten instead.
   */
  waiting(ownerIds: readonly string[], ttlMs?: number): Promise<WaitingRequest[]>;
  /** These requests were acted on: forget them. */
  done(ids: readonly number[]): Promise<void>;
}

/** A lease held: its owner and the fencing token this instance writes with. */
export interface HeldLease {
  owner: string;
  token: number;
}

/** The owners' leases as the datastore keeps them (each call one transaction; team/lease-keeper.ts holds the policy). */
export interface LeaseTable {
  /** Heartbeat, owners registered, held leases renewed: the renewed ones, live instances, owners. */
  beat(
    me: string,
    leaseMs: number,
    known: readonly string[],
    held: readonly HeldLease[],
  ): Promise<{ renewed: Set<string>; live: number; total: number }>;
  /** Take up to `count` free or expired leases. */
  take(me: string, leaseMs: number, count: number): Promise<HeldLease[]>;
  /** Give these leases back. */
  giveBack(me: string, leases: readonly HeldLease[]): Promise<void>;
  /** Give these leases back and remove this instance's heartbeat. */
  leave(me: string, leases: readonly HeldLease[]): Promise<void>;
  /** Every owner with a lease row. */
  owners(): Promise<string[]>;
  /** The facts readiness is judged on. */
  facts(
    me: string,
    leaseMs: number,
  ): Promise<{ age: number | null; total: number; mine: number; free: number; live: number }>;
}
