/**
 * The errors and values the engine's ports speak, shared by the engine and the adapters that
 * implement the ports (main/clever, main/simulator, main/store), so that neither side depends on the
 * other for them: a failed Clever Cloud call (CleverCallError), and a datastore commit with the
 * lease that fences it (StoreCommit, LeaseGuard, LeaseLost).
 */
import type { AppRecord, HistoryEntry } from './domain.ts';

export type CleverErrorKind =
  | 'never-deployed'
  | 'unauthorized'
  | 'forbidden'
  | 'not-found'
  | 'rate-limited'
  | 'server'
  | 'network'
  | 'timeout'
  | 'aborted'
  | 'invalid-response'
  | 'client';

/**
 * A failed Clever Cloud call, as every implementation of the port reports it: the HTTP status and
 * the Clever Cloud error id and message when there was an answer. Never carries a credential.
 */
export class CleverCallError extends Error {
  readonly kind: CleverErrorKind;
  readonly status: number | null;
  readonly cleverId: number | string | null;
  readonly endpoint: string;

  constructor(
    kind: CleverErrorKind,
    message: string,
    details: {
      status?: number | null;
      cleverId?: number | string | null;
      endpoint?: string;
      cause?: unknown;
    } = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'CleverCallError';
    this.kind = kind;
    this.status = details.status ?? null;
    this.cleverId = details.cleverId ?? null;
    this.endpoint = details.endpoint ?? '';
  }

  /** A fault that may pass: worth trying again later. */
  get transient(): boolean {
    return (
      this.kind === 'rate-limited' ||
      this.kind === 'server' ||
      this.kind === 'network' ||
      this.kind === 'timeout'
    );
  }
}

export function isNeverDeployed(error: unknown): boolean {
  return error instanceof CleverCallError && error.kind === 'never-deployed';
}

/** One write of the engine: a record upserted or removed, and the history entries it adds. */
export interface StoreCommit {
  upsert?: AppRecord;
  remove?: string;
  history: HistoryEntry[];
}

/** An owner's lease as the committing instance believes it holds it: the fencing condition. */
export interface LeaseGuard {
  /** The owner (organisation or personal space) the lease covers. */
  ownerId: string;
  /** The instance holding it. */
  holder: string;
  /** The fencing token: grows each time the lease changes hands. */
  token: number;
}

/** A guarded commit refused: the instance no longer holds the owner's lease. Nothing was written. */
export class LeaseLost extends Error {
  readonly guard: LeaseGuard;
  constructor(guard: LeaseGuard) {
    super(
      `the lease of ${guard.ownerId} is no longer held by ${guard.holder} (token ${guard.token}): another instance took it over`,
    );
    this.name = 'LeaseLost';
    this.guard = guard;
  }
}
