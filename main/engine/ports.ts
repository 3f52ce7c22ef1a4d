/**
 * The engine's ports: everything it needs from the world, as interfaces it is given. The engine
 * imports no Electron, no HTTP client and no database; main/clever, main/store and the shells
 * implement these.
 */
import type { AppRecord, CleverState, DeploymentState } from '../../shared/domain.ts';
import type { LeaseGuard, StoreCommit } from '../../shared/port-errors.ts';
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

/**
 * Where app states and their history live (main/store/contract.ts has the whole datastore). Each call
 * is one transaction, and answers with a promise on every store: the engine waits for it before
 * anything else of that decision (in memory, events, the Clever Cloud call).
 */
export interface EngineStore {
  loadRecords(): Promise<AppRecord[]>;
  /**
   * Write the record (or remove it) and append the history entries, atomically; a batch of changes
   * (one owner's writes of a sweep) in one transaction, all or none. With a guard, only while the
   * lease it names is still held (LeaseLost otherwise, nothing written), checked once per call.
   */
  commit(change: StoreCommit | readonly StoreCommit[], guard?: LeaseGuard): Promise<void>;
}

/** Routes, rules and settings, as the operator set them. */
export interface EngineConfig {
  routes(): readonly Route[];
  /** In their order of precedence (the first that matches an app takes it). */
  rules(): readonly Rule[];
  settings(): Settings;
}
