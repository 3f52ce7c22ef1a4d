/**
 * The simulator's vocabulary: its apps, deployments, instances, options and errors (see model.ts for
 * the behaviours and their sources).
 */
import { randomUUID } from 'node:crypto';
import type { CleverState, DeploymentState } from '../../shared/domain.ts';
import { MINUTE, SECOND } from '../../shared/durations.ts';

export type DeploymentOutcome = 'ok' | 'fail' | 'cancel' | 'vanish';

/** Deployment actions (v2 `action`, the OpenAPI enum). */
export type DeploymentAction =
  | 'DEPLOY'
  | 'UNDEPLOY'
  | 'UPSCALE'
  | 'DOWNSCALE'
  | 'REPLACE'
  | 'CANCEL'
  | 'NONE';

/** The simulator's deployment states: v2's, plus QUEUED (v4 only; see `v2Queued`). */
export type SimDeploymentState = DeploymentState | 'QUEUED';

/** Instance states (v2 instance enum, OpenAPI; v4 adds BUILDING). */
export type InstanceState = 'DEPLOYING' | 'UP' | 'STOPPING' | 'TASK_IN_PROGRESS';

export interface SimInstance {
  id: string;
  appId: string;
  state: InstanceState;
  deployId: string;
  instanceNumber: number;
  creationDate: number;
}

export interface SimOwner {
  id: string;
  name: string;
}

export interface SimDeployment {
  /** Per-app sequence number (v2 `id`). */
  id: number;
  uuid: string;
  date: number;
  state: SimDeploymentState;
  /** null: an entry without `action` (tolerated by the reaper; older entries may lack it). */
  action: DeploymentAction | null;
  commit: string;
  cause: string;
  instances: number;
  author: { id: string; name: string };
  /** When it becomes visible in lists. */
  listedAt: number;
}

export interface AccessLogEntry {
  /** Increasing per app: the SSE event id, for Last-Event-ID. */
  seq: number;
  id: string;
  date: number;
  appId: string;
  ownerId: string;
  path: string;
  host: string;
  method: string;
  sourceIp: string;
  statusCode: number;
  /**
   * A connection with no HTTP request (a TCP redirection, or one cut before the request line): its
   * entry has no `http` section (clever-tools src/commands/accesslogs/accesslogs.command.js and the
   * console's cc-logs-app-access.smart.js skip such entries).
   */
  noHttp?: boolean;
}

/** An event of Clever Cloud's event socket, as its `data` carries it (before JSON encoding). */
export interface SimEvent {
  event: 'DEPLOYMENT_ACTION_BEGIN' | 'DEPLOYMENT_ACTION_END';
  date: number;
  data: {
    id: string;
    appId: string;
    ownerId: string;
    uuid: string;
    state: string;
    action: string;
    commit: string;
    cause: string;
  };
}

/** The event socket's message for a deployment beginning or ending. */
export function deploymentEvent(
  app: SimApp,
  d: SimDeployment,
  event: SimEvent['event'],
  date: number,
): SimEvent {
  const data = { id: app.id, appId: app.id, ownerId: app.ownerId, uuid: d.uuid, state: d.state };
  return { event, date, data: { ...data, action: d.action ?? '', commit: d.commit, cause: d.cause } };
}

export interface SimApp {
  id: string;
  ownerId: string;
  name: string;
  state: CleverState;
  commitId: string | null;
  deployments: SimDeployment[];
  creationDate: number;
  lastDeploy: number;
  instanceType: string;
  flavor: { name: string; mem: number; cpus: number; price: number };
  /** ApplicationView `instance.lifetime`: TASK apps run a task and stop by themselves. */
  lifetime: 'REGULAR' | 'TASK';
  minInstances: number;
  maxInstances: number;
  vhosts: string[];
  /** Faults and behaviours injected per app. */
  nextOutcomes: DeploymentOutcome[];
  stopNeverCompletes: boolean;
  deployDurationMs: number | null;
  accessLog: AccessLogEntry[];
  /** When a start last brought the stopped app up (the front's warm-up counts from it). */
  upSince?: number;
  /** Pending changes, applied when their time comes (tagged with the deployment they belong to). */
  pending: { at: number; apply: () => void; uuid: string }[];
}

export interface SimOptions {
  /** How long a deployment stays WIP. */
  deployDurationMs: number;
  /** How long a stopped app stays SHOULD_BE_UP after the stop. */
  stopDurationMs: number;
  /** Delay between a start's answer and its deployment appearing (state WANTS_TO_BE_UP). */
  listingDelayMs: number;
  /** How long a failing deployment runs before it fails. */
  failAfterMs: number;
  /** Delay between a start's answer and a stopped app becoming WANTS_TO_BE_UP. */
  startStateDelayMs: number;
  /** The state a stopped app is left in after its start failed or was cancelled. */
  afterFailedStart: 'WANTS_TO_BE_UP' | 'SHOULD_BE_DOWN';
  /** How v2 lists a QUEUED deployment: as WIP, or not at all (unconfirmed: both are modelled). */
  v2Queued: 'WIP' | 'hidden';
  /** A slow platform: how long a deployment stays QUEUED even with nothing ahead of it. */
  queueDelayMs: number;
  /** How long a task app's task runs (TASK_RUNNING) before it stops by itself. */
  taskDurationMs: number;
  /**
   * Whether a start's answer carries its `deploymentId` (clever-client.js and clever-tools read it;
   * whether every answer has it is unconfirmed).
   */
  startAnswersDeploymentId: boolean;
  /**
   * Added to the date of a start's deployment: a negative offset dates it before entries listed below
   * it (platform clocks apart; whether the list's dates follow its order is unconfirmed).
   */
  deploymentDateOffsetMs: number;
  // ---- Clever Cloud's front (app-front.ts; docs/clever-cloud-facts.md, "The front") ----
  /** After a stopped app came up: how long the front still answers "not routed yet" (0: never). */
  frontWarmupMs: number;
  /** How it answers meanwhile: its 404 with X-CleverCloudUpgrade, a 503, or the two in turn. */
  frontWarmupAnswer: FrontAnswer | 'alternate';
  /** How it answers for a stopped app. */
  frontStoppedAnswer: FrontAnswer;
}

/** The front's answers for an app it does not route: its 404 with X-CleverCloudUpgrade, or a 503. */
export type FrontAnswer = 'upgrade-404' | 'unavailable-503';

export const DEFAULT_SIM_OPTIONS: SimOptions = {
  deployDurationMs: 45 * SECOND,
  stopDurationMs: 8 * SECOND,
  listingDelayMs: 2 * SECOND,
  failAfterMs: 30 * SECOND,
  startStateDelayMs: 0,
  afterFailedStart: 'WANTS_TO_BE_UP',
  v2Queued: 'WIP',
  queueDelayMs: 0,
  taskDurationMs: 60 * SECOND,
  startAnswersDeploymentId: true,
  deploymentDateOffsetMs: 0,
  frontWarmupMs: 0,
  frontWarmupAnswer: 'upgrade-404',
  frontStoppedAnswer: 'unavailable-503',
};

/**
 * Flavors as the Clever Cloud API describes them (ApplicationView instance.minFlavor and flavors[]):
 * memory in MB, CPUs, and `price` with the values a public ApplicationView sample shows. The API gives
 * no unit for it: read as drops per 10 minutes at 0.0097 € a drop, XS is the documented 0.02 € an hour
 * (see shared/savings.ts for the sources, and why the unit stays a setting).
 */
export const FLAVORS = {
  pico: { name: 'pico', mem: 256, cpus: 1, price: 0.1073883162 },
  nano: { name: 'nano', mem: 512, cpus: 1, price: 0.1431844215 },
  XS: { name: 'XS', mem: 1024, cpus: 1, price: 0.3436 },
  S: { name: 'S', mem: 2048, cpus: 2, price: 0.6873 },
  M: { name: 'M', mem: 4096, cpus: 4, price: 1.7182 },
  L: { name: 'L', mem: 8192, cpus: 6, price: 3.4364 },
} as const;

export const DEFAULT_FLAVOR: SimApp['flavor'] = FLAVORS.XS;

export class SimError extends Error {
  readonly status: number;
  readonly id: number;
  constructor(status: number, id: number, message: string) {
    super(message);
    this.status = status;
    this.id = id;
  }
}

/** What an app is created with (`SimulatedCloud.addApp`). */
export interface NewAppOptions {
  id?: string;
  state?: CleverState;
  neverDeployed?: boolean;
  lastDeployment?: DeploymentState;
  flavor?: SimApp['flavor'];
  instances?: number;
  vhosts?: string[];
  deployDurationMs?: number;
  lifetime?: SimApp['lifetime'];
}

/** A new app, deployed and running unless told otherwise (its deployments are the model's to add). */
export function newSimApp(ownerId: string, name: string, options: NewAppOptions, now: number): SimApp {
  const id = options.id ?? newId('app');
  return {
    id,
    ownerId,
    name,
    state: options.state ?? (options.neverDeployed ? 'SHOULD_BE_DOWN' : 'SHOULD_BE_UP'),
    commitId: options.neverDeployed ? null : randomCommit(),
    deployments: [],
    creationDate: now - 30 * 24 * 60 * MINUTE,
    lastDeploy: 0,
    instanceType: 'node',
    flavor: options.flavor ?? { ...DEFAULT_FLAVOR },
    lifetime: options.lifetime ?? 'REGULAR',
    minInstances: options.instances ?? 1,
    maxInstances: options.instances ?? 1,
    vhosts: options.vhosts ?? [`${id.replace('_', '-')}.cleverapps.io`],
    nextOutcomes: [],
    stopNeverCompletes: false,
    deployDurationMs: options.deployDurationMs ?? null,
    accessLog: [],
    pending: [],
  };
}

export function randomCommit(): string {
  return randomUUID().replaceAll('-', '').padEnd(40, '0').slice(0, 40);
}

/** Ids as Clever Cloud writes them: a prefix and a v4 UUID (app_..., orga_..., user_...). */
export function newId(prefix: string): string {
  return `${prefix}_${randomUUID()}`;
}
