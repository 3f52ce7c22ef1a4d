/**
 * The engine's ports: everything it needs from the world, as interfaces it is given. The engine
 * imports no Electron, no HTTP client and no database; main/clever, main/store and the shells
 * implement these.
 */
import type { AppRecord, CleverState, DeploymentState, HistoryEntry } from '../../shared/domain.ts';
import type { Route } from '../../shared/routes.ts';
import type { Rule } from '../../shared/rules.ts';
import type { Settings } from '../../shared/settings.ts';
import type { SseEvent } from '../../shared/sse.ts';

export type TimerHandle = { readonly id: number } | ReturnType<typeof setTimeout>;

/** Time, and timers that follow it (a manual clock in tests, a scaled one in demos). */
export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

/** An application as the reaper needs it from Clever Cloud. */
export interface CleverApp {
  id: string;
  ownerId: string;
  name: string;
  state: CleverState;
  /** ApplicationView.last_deploy: changes when the app is deployed again; null when absent. */
  lastDeployNumber: number | null;
  /** For savings: instances and the hourly price of the flavor, when the API gives them. */
  instances?: { min: number; max: number; flavorName: string | null; flavorPrice: number | null };
  vhosts?: string[];
  /**
   * ApplicationView `instance.lifetime`: REGULAR, MIGRATION or TASK (OpenAPI; clever-tools
   * `create.command.js` reads TASK as a task app). Absent when the API does not give it.
   */
  lifetime?: string | null;
}

/** A v2 deployment ("activity" entry), newest first in lists. */
export interface CleverDeployment {
  /** The deployment id (v2 `uuid`), what a start returns as deploymentId. */
  uuid: string;
  state: DeploymentState;
  /** DEPLOY, UNDEPLOY, UPSCALE, ...; null when absent. */
  action: string | null;
  /** Epoch ms. */
  date: number;
  cause: string | null;
}

export type CallOptions = { signal?: AbortSignal };

/** An owner of apps: the personal space (user_...) or an organisation (orga_...). */
export interface CleverOwner {
  id: string;
  name: string;
}

/** An event of the platform's event socket (a deployment beginning or ending, an app stopped...). */
export interface CleverEvent {
  /** DEPLOYMENT_ACTION_BEGIN, DEPLOYMENT_ACTION_END, APPLICATION_STOP, ... */
  type: string;
  date: string | null;
  /** The app the event is about (data.appId, or data.id), when it names one. */
  appId: string | null;
  data: Record<string, unknown>;
}

/** How an app's access-log stream is read, and resumed (`lastEventId`). */
export interface AccessLogOptions {
  signal?: AbortSignal;
  lastEventId?: string | null;
  since?: string;
  onEvent: (event: SseEvent) => void;
}

/**
 * What a port may offer besides the calls: the HTTP client does, the in-process simulator does not.
 * A session asks for each before it uses it; the engine uses none.
 */
export interface CleverCapabilities {
  /**
   * Follow an app's access-log stream (server-sent events) until the server ends it or the signal
   * aborts; rejects with a CleverCallError when it cannot be opened or breaks.
   */
  accessLogs?(ownerId: string, appId: string, options: AccessLogOptions): Promise<void>;
  /** Whether `events` can open the event socket with these credentials (OAuth can, an API token not). */
  readonly hasEventSocket?: boolean;
  /** The platform's events, until the socket closes; null when it cannot be opened. */
  events?(options?: CallOptions): AsyncIterable<CleverEvent> | null;
}

export interface CleverCloudPort extends CleverCapabilities {
  /** The personal space first, then the organisations the credentials can see. */
  listOwners(options?: CallOptions): Promise<CleverOwner[]>;
  listApplications(ownerId: string, options?: CallOptions): Promise<CleverApp[]>;
  /** null when the app does not exist (or is not visible with these credentials). */
  getApplication(ownerId: string, appId: string, options?: CallOptions): Promise<CleverApp | null>;
  /** Newest first. */
  listDeployments(
    ownerId: string,
    appId: string,
    options?: CallOptions & { limit?: number },
  ): Promise<CleverDeployment[]>;
  /** POST .../instances; the deployment id when the answer carries one. */
  startApplication(
    ownerId: string,
    appId: string,
    options?: CallOptions,
  ): Promise<{ deploymentId: string | null }>;
  /** DELETE .../instances. */
  stopApplication(ownerId: string, appId: string, options?: CallOptions): Promise<void>;
}

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

/**
 * Where app states and their history live. Each call is one transaction. An embedded store
 * (node:sqlite) answers at once; a shared one (PostgreSQL) answers with a promise: the engine waits
 * for it before anything else of that decision (in memory, events, the Clever Cloud call).
 */
export interface EngineStore {
  loadRecords(): AppRecord[] | Promise<AppRecord[]>;
  /**
   * Write the record (or remove it) and append the history entries, atomically. With a guard, only
   * while the lease it names is still held (LeaseLost otherwise, nothing written).
   */
  commit(change: StoreCommit, guard?: LeaseGuard): void | Promise<void>;
}

/** Routes, rules and settings, as the operator set them. */
export interface EngineConfig {
  routes(): readonly Route[];
  /** In their order of precedence (the first that matches an app takes it). */
  rules(): readonly Rule[];
  settings(): Settings;
}
