/**
 * A model of Clever Cloud's application lifecycle, for tests, benchmarks and the demo mode. It
 * follows the facts of the API notes (see the README's "Clever Cloud facts" section):
 *
 * - app `state`: SHOULD_BE_UP, SHOULD_BE_DOWN, WANTS_TO_BE_UP, MODERATED, DEFAULT_OF_PAYMENT;
 * - a start (POST .../instances) creates a DEPLOY deployment; the app stays SHOULD_BE_DOWN until the
 *   deployment begins, is WANTS_TO_BE_UP while it runs (WIP), and SHOULD_BE_UP once it is OK;
 *   the deployment is listed only a moment after the start answered (clever-tools polls for it);
 * - a start of a running app (a redeploy) keeps it SHOULD_BE_UP while the deployment is WIP;
 * - a stop (DELETE .../instances) leaves the app SHOULD_BE_UP for a while, then SHOULD_BE_DOWN, and
 *   shows as an UNDEPLOY entry in the deployments;
 * - a never-deployed app answers a start with error 4014;
 * - `last_deploy` counts the app's deployments.
 *
 * Time comes from a Clock and the model is lazy: pending changes are applied when the model is read,
 * so a manual clock, a scaled clock and the system clock all work, without timers.
 */
import { randomUUID } from 'node:crypto';
import type { CleverState, DeploymentState } from '../../shared/domain.ts';
import { MINUTE, SECOND } from '../../shared/durations.ts';
import type { Clock } from '../engine/ports.ts';

export type DeploymentOutcome = 'ok' | 'fail' | 'cancel' | 'vanish';

export interface SimOwner {
  id: string;
  name: string;
}

export interface SimDeployment {
  /** Per-app sequence number (v2 `id`). */
  id: number;
  uuid: string;
  date: number;
  state: DeploymentState;
  action: 'DEPLOY' | 'UNDEPLOY';
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
  minInstances: number;
  maxInstances: number;
  vhosts: string[];
  /** Faults and behaviours injected per app. */
  nextOutcomes: DeploymentOutcome[];
  stopNeverCompletes: boolean;
  deployDurationMs: number | null;
  accessLog: AccessLogEntry[];
  /** Pending changes, applied when their time comes. */
  pending: { at: number; apply: () => void }[];
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
}

export const DEFAULT_SIM_OPTIONS: SimOptions = {
  deployDurationMs: 45 * SECOND,
  stopDurationMs: 8 * SECOND,
  listingDelayMs: 2 * SECOND,
  failAfterMs: 30 * SECOND,
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

/** Ids as Clever Cloud writes them: a prefix and a v4 UUID (app_..., orga_..., user_...). */
export function newId(prefix: string): string {
  return `${prefix}_${randomUUID()}`;
}

export class SimulatedCloud {
  readonly clock: Clock;
  readonly options: SimOptions;
  readonly user: SimOwner;
  readonly organisations: SimOwner[] = [];
  readonly apps = new Map<string, SimApp>();
  private logSeq = 0;
  private listeners = new Set<(entry: AccessLogEntry) => void>();
  private eventListeners = new Set<(event: SimEvent) => void>();

  constructor(clock: Clock, options: Partial<SimOptions> = {}, user?: SimOwner) {
    this.clock = clock;
    this.options = { ...DEFAULT_SIM_OPTIONS, ...options };
    this.user = user ?? { id: newId('user'), name: 'Demo User' };
  }

  // ---- set up ----------------------------------------------------------------------------------

  addOrganisation(name: string, id = newId('orga')): SimOwner {
    const owner = { id, name };
    this.organisations.push(owner);
    return owner;
  }

  owner(ownerId: string): SimOwner | undefined {
    if (ownerId === this.user.id) return this.user;
    return this.organisations.find((o) => o.id === ownerId);
  }

  /** An app, deployed and running unless told otherwise. */
  addApp(
    ownerId: string,
    name: string,
    options: {
      id?: string;
      state?: CleverState;
      neverDeployed?: boolean;
      lastDeployment?: DeploymentState;
      flavor?: SimApp['flavor'];
      instances?: number;
      vhosts?: string[];
      deployDurationMs?: number;
    } = {},
  ): SimApp {
    if (!this.owner(ownerId)) throw new Error(`no owner ${ownerId}`);
    const now = this.clock.now();
    const id = options.id ?? newId('app');
    const app: SimApp = {
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
      minInstances: options.instances ?? 1,
      maxInstances: options.instances ?? 1,
      vhosts: options.vhosts ?? [`${id.replace('_', '-')}.cleverapps.io`],
      nextOutcomes: [],
      stopNeverCompletes: false,
      deployDurationMs: options.deployDurationMs ?? null,
      accessLog: [],
      pending: [],
    };
    if (!options.neverDeployed) {
      const d = this.newDeployment(app, 'DEPLOY', now - 24 * 60 * MINUTE, 'initial deployment');
      d.state = options.lastDeployment ?? 'OK';
      d.listedAt = d.date;
    }
    this.apps.set(id, app);
    return app;
  }

  // ---- reads (every read applies the changes whose time has come) -------------------------------

  app(ownerId: string, appId: string): SimApp | undefined {
    const app = this.apps.get(appId);
    if (!app || app.ownerId !== ownerId) return undefined;
    this.settle(app);
    return app;
  }

  appsOf(ownerId: string): SimApp[] {
    const out: SimApp[] = [];
    for (const app of this.apps.values()) {
      if (app.ownerId !== ownerId) continue;
      this.settle(app);
      out.push(app);
    }
    return out;
  }

  /** Deployments visible now, newest first. */
  deployments(app: SimApp): SimDeployment[] {
    this.settle(app);
    const now = this.clock.now();
    return app.deployments.filter((d) => d.listedAt <= now);
  }

  private settle(app: SimApp): void {
    const now = this.clock.now();
    if (!app.pending.length || app.pending[0]!.at > now) return;
    while (app.pending.length && app.pending[0]!.at <= now) app.pending.shift()!.apply();
  }

  private later(app: SimApp, delay: number, apply: () => void): void {
    app.pending.push({ at: this.clock.now() + delay, apply });
    app.pending.sort((a, b) => a.at - b.at);
    // With someone on the event socket, changes happen on time rather than when next read.
    if (this.eventListeners.size) this.clock.setTimeout(() => this.settle(app), delay);
  }

  /** The event socket's feed: deployments beginning and ending, for every app. */
  onEvent(listener: (event: SimEvent) => void): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  private emitDeployment(app: SimApp, d: SimDeployment, event: SimEvent['event']): void {
    if (!this.eventListeners.size) return;
    const e: SimEvent = {
      event,
      date: this.clock.now(),
      data: {
        id: app.id,
        appId: app.id,
        ownerId: app.ownerId,
        uuid: d.uuid,
        state: d.state,
        action: d.action,
        commit: d.commit,
        cause: d.cause,
      },
    };
    for (const l of this.eventListeners) l(e);
  }

  /** A deployment ends: its state, the app's, and the event that says so. */
  private finish(app: SimApp, d: SimDeployment, state: DeploymentState, appState?: CleverState): void {
    d.state = state;
    if (appState) app.state = appState;
    this.emitDeployment(app, d, 'DEPLOYMENT_ACTION_END');
  }

  private newDeployment(
    app: SimApp,
    action: 'DEPLOY' | 'UNDEPLOY',
    date: number,
    cause: string,
  ): SimDeployment {
    const d: SimDeployment = {
      id: app.deployments.length + 1,
      uuid: randomUUID(),
      date,
      state: 'WIP',
      action,
      commit: app.commitId ?? '',
      cause,
      instances: app.minInstances,
      author: { id: this.user.id, name: this.user.name },
      listedAt: date,
    };
    app.deployments.unshift(d);
    if (action === 'DEPLOY') app.lastDeploy++;
    return d;
  }

  // ---- the API's actions -----------------------------------------------------------------------

  /** POST .../instances: start a stopped app, or redeploy a running one. */
  start(ownerId: string, appId: string, cause = 'redeploy from the API'): { deploymentId: string | null } {
    const app = this.mustApp(ownerId, appId);
    if (!app.commitId) {
      throw new SimError(400, 4014, 'The application has never been deployed. You must push a commit first.');
    }
    if (app.state === 'MODERATED' || app.state === 'DEFAULT_OF_PAYMENT') {
      // How the real API answers here is not documented; 4003 is the simulator's own id.
      throw new SimError(403, 4003, `The application cannot be deployed (${app.state.toLowerCase()}).`);
    }
    const outcome = app.nextOutcomes.shift() ?? 'ok';
    const now = this.clock.now();
    const running = app.state === 'SHOULD_BE_UP';
    // Pending stops and starts of this app give way to the new deployment.
    app.pending = [];
    for (const d of app.deployments)
      if (d.state === 'WIP') d.state = d.action === 'UNDEPLOY' ? 'OK' : 'CANCELLED';

    if (outcome === 'vanish') {
      // The API answered with a deployment id, but nothing ever happens.
      return { deploymentId: randomUUID() };
    }
    const d = this.newDeployment(app, 'DEPLOY', now, cause);
    d.listedAt = now + this.options.listingDelayMs;
    const duration = app.deployDurationMs ?? this.options.deployDurationMs;
    this.later(app, this.options.listingDelayMs, () => {
      if (!running) app.state = 'WANTS_TO_BE_UP';
      this.emitDeployment(app, d, 'DEPLOYMENT_ACTION_BEGIN');
    });
    const listed = this.options.listingDelayMs;
    if (outcome === 'ok') {
      this.later(app, Math.max(duration, listed), () => this.finish(app, d, 'OK', 'SHOULD_BE_UP'));
    } else if (outcome === 'fail') {
      const after = Math.max(this.options.failAfterMs, listed);
      this.later(app, after, () => this.finish(app, d, 'FAIL', running ? undefined : 'SHOULD_BE_DOWN'));
    } else {
      const after = Math.max(this.options.failAfterMs / 2, listed);
      this.later(app, after, () => this.finish(app, d, 'CANCELLED', running ? undefined : 'SHOULD_BE_DOWN'));
    }
    return { deploymentId: d.uuid };
  }

  /** DELETE .../instances. */
  stop(ownerId: string, appId: string, cause = 'stop from the API'): void {
    const app = this.mustApp(ownerId, appId);
    if (app.state === 'SHOULD_BE_DOWN') return;
    app.pending = [];
    for (const d of app.deployments) if (d.state === 'WIP') d.state = 'CANCELLED';
    const d = this.newDeployment(app, 'UNDEPLOY', this.clock.now(), cause);
    this.emitDeployment(app, d, 'DEPLOYMENT_ACTION_BEGIN');
    if (app.stopNeverCompletes) return;
    this.later(app, this.options.stopDurationMs, () => this.finish(app, d, 'OK', 'SHOULD_BE_DOWN'));
  }

  // ---- what happens outside the reaper ---------------------------------------------------------

  /** Stopped from the console or clever-tools. */
  consoleStop(appId: string): void {
    const app = this.mustApp(undefined, appId);
    this.stop(app.ownerId, appId, 'stop from the console');
  }

  /** Started (or restarted) from the console or clever-tools. */
  consoleStart(appId: string): { deploymentId: string | null } {
    const app = this.mustApp(undefined, appId);
    return this.start(app.ownerId, appId, 'start from the console');
  }

  /** A git push: a new commit, deployed. */
  gitPush(appId: string): { deploymentId: string | null } {
    const app = this.mustApp(undefined, appId);
    app.commitId = randomCommit();
    return this.start(app.ownerId, appId, 'git push');
  }

  setState(appId: string, state: CleverState): void {
    const app = this.mustApp(undefined, appId);
    app.pending = [];
    app.state = state;
  }

  /** The next deployments of the app end this way (one entry per start). */
  injectOutcomes(appId: string, ...outcomes: DeploymentOutcome[]): void {
    this.mustApp(undefined, appId).nextOutcomes.push(...outcomes);
  }

  setStopNeverCompletes(appId: string, never = true): void {
    this.mustApp(undefined, appId).stopNeverCompletes = never;
  }

  // ---- traffic ---------------------------------------------------------------------------------

  /** A request served by the app (or by Clever Cloud's front for it), as the access log shows it. */
  recordRequest(
    appId: string,
    request: {
      path?: string;
      sourceIp?: string;
      method?: string;
      host?: string;
      statusCode?: number;
      /** A connection without an HTTP request (no `http` section in its entry). */
      noHttp?: boolean;
    } = {},
  ): AccessLogEntry {
    const app = this.mustApp(undefined, appId);
    this.settle(app);
    const entry: AccessLogEntry = {
      seq: ++this.logSeq,
      id: randomUUID(),
      date: this.clock.now(),
      appId,
      ownerId: app.ownerId,
      path: request.path ?? '/',
      host: request.host ?? app.vhosts[0] ?? 'app.cleverapps.io',
      method: request.method ?? 'GET',
      sourceIp: request.sourceIp ?? '203.0.113.10',
      statusCode: request.statusCode ?? (app.state === 'SHOULD_BE_UP' ? 200 : 503),
      ...(request.noHttp ? { noHttp: true } : {}),
    };
    app.accessLog.push(entry);
    if (app.accessLog.length > 10_000) app.accessLog.splice(0, app.accessLog.length - 10_000);
    for (const l of this.listeners) l(entry);
    return entry;
  }

  onAccessLog(listener: (entry: AccessLogEntry) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private mustApp(ownerId: string | undefined, appId: string): SimApp {
    const app = this.apps.get(appId);
    if (!app || (ownerId !== undefined && app.ownerId !== ownerId)) {
      throw new SimError(404, 4004, 'Application not found');
    }
    this.settle(app);
    return app;
  }
}

function randomCommit(): string {
  return randomUUID().replaceAll('-', '').padEnd(40, '0').slice(0, 40);
}
