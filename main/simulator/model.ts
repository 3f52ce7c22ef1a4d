/**
 * A model of Clever Cloud's application lifecycle, for tests, benchmarks and the demo mode. It
 * follows the facts of the API notes (see docs/clever-cloud-facts.md):
 *
 * - app `state`: SHOULD_BE_UP, SHOULD_BE_DOWN, WANTS_TO_BE_UP, MODERATED, DEFAULT_OF_PAYMENT;
 * - a start (POST .../instances) creates a DEPLOY deployment; a stopped app becomes WANTS_TO_BE_UP
 *   (at once by default: `startStateDelayMs`) and SHOULD_BE_UP once the deployment is OK. The
 *   deployment is listed only a moment after the start answered (`listingDelayMs`: clever-tools
 *   `src/models/deployments.js` warns that reading a new deployment too soon fails, and polls the
 *   list instead). This holds for every start, the reaper's and the console's;
 * - after a failed or cancelled start the app stays WANTS_TO_BE_UP (`afterFailedStart`): the
 *   console reads WANTS_TO_BE_UP with the newest deployment FAIL as "start failed" (clever-client.js
 *   `esm/utils/app-status.js`); whether it stays so on the real platform is unconfirmed;
 * - deployments queue: a start while a deployment is under way is QUEUED (a v4 state, clever-client.js
 *   `deployment.types`) and begins when the one ahead ends; a slow platform may keep even a lone one
 *   QUEUED a while (`queueDelayMs`). v2 has no QUEUED (clever-client.js `deployment-transform.js`
 *   maps every v2 state but QUEUED): whether v2 lists a queued one as WIP or not at all is
 *   unconfirmed, so both are modelled (`v2Queued`);
 * - the activity also holds entries other than DEPLOY and UNDEPLOY (UPSCALE, DOWNSCALE, REPLACE,
 *   CANCEL, NONE: the OpenAPI enum), which may fail without the app being down (`addActivity`);
 * - instances have states (UP, DEPLOYING, STOPPING, TASK_IN_PROGRESS: the v2 instance enum);
 * - a task app (`instance.lifetime` TASK, read by clever-tools `create.command.js`) runs its task
 *   (TASK_RUNNING) and stops by itself; the exact states on the real platform are unconfirmed;
 * - a start of a running app (a redeploy) keeps it SHOULD_BE_UP while the deployment is WIP;
 * - a stop (DELETE .../instances) leaves the app SHOULD_BE_UP for a while, then SHOULD_BE_DOWN, and
 *   shows as an UNDEPLOY entry in the deployments;
 * - a never-deployed app answers a start with error 4014;
 * - `last_deploy` counts the app's deployments;
 * - a test may place a previous deployment at any age, in any final state (`placeDeployment`).
 *
 * Time comes from a Clock and the model is lazy: pending changes are applied when the model is read,
 * so a manual clock, a scaled clock and the system clock all work, without timers.
 */
import { randomUUID } from 'node:crypto';
import type { CleverState, DeploymentState } from '../../shared/domain.ts';
import { MINUTE } from '../../shared/durations.ts';
import type { Clock } from '../engine/ports.ts';
import {
  type AccessLogEntry,
  DEFAULT_SIM_OPTIONS,
  type DeploymentAction,
  type DeploymentOutcome,
  deploymentEvent,
  type InstanceState,
  type NewAppOptions,
  newId,
  newSimApp,
  randomCommit,
  type SimApp,
  type SimDeployment,
  SimError,
  type SimEvent,
  type SimInstance,
  type SimOptions,
  type SimOwner,
} from './sim-types.ts';

export * from './sim-types.ts';

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
  addApp(ownerId: string, name: string, options: NewAppOptions = {}): SimApp {
    if (!this.owner(ownerId)) throw new Error(`no owner ${ownerId}`);
    const now = this.clock.now();
    const app = newSimApp(ownerId, name, options, now);
    if (!options.neverDeployed) {
      const d = this.newDeployment(app, 'DEPLOY', now - 24 * 60 * MINUTE, 'initial deployment');
      d.state = options.lastDeployment ?? 'OK';
      d.listedAt = d.date;
    }
    this.apps.set(app.id, app);
    return app;
  }

  /** Delete an app (as the console or `clever delete` does): it is gone from every read at once. */
  deleteApp(appId: string): SimApp {
    const app = this.apps.get(appId);
    if (!app) throw new Error(`no app ${appId}`);
    app.pending = [];
    this.apps.delete(appId);
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

  /**
   * Deployments as v2 lists them now, newest first: only those listed yet, a QUEUED one as WIP or
   * left out (`v2Queued`). Copies: the model's own entries keep their QUEUED state.
   */
  deployments(app: SimApp): SimDeployment[] {
    this.settle(app);
    const now = this.clock.now();
    const out: SimDeployment[] = [];
    for (const d of app.deployments) {
      if (d.listedAt > now) continue;
      if (d.state !== 'QUEUED') out.push(d);
      else if (this.options.v2Queued === 'WIP') out.push({ ...d, state: 'WIP' });
    }
    return out;
  }

  /** The app's instances now, with their states (none when it is stopped). */
  instances(app: SimApp): SimInstance[] {
    this.settle(app);
    const running = app.deployments.find(
      (d) => (d.state === 'WIP' || d.state === 'TASK_RUNNING') && !this.inert.has(d.uuid),
    );
    const lastOk = app.deployments.find((d) => d.action === 'DEPLOY' && d.state === 'OK');
    const out: SimInstance[] = [];
    const add = (state: InstanceState, d: SimDeployment) => {
      for (let i = 0; i < app.minInstances; i++) {
        out.push({
          id: `${d.uuid}-${i}`,
          appId: app.id,
          state,
          deployId: d.uuid,
          instanceNumber: i,
          creationDate: d.date,
        });
      }
    };
    const replaced = running?.action === 'UNDEPLOY' || running?.state === 'TASK_RUNNING';
    if (app.state === 'SHOULD_BE_UP' && lastOk && !replaced) add('UP', lastOk);
    if (running?.state === 'TASK_RUNNING') add('TASK_IN_PROGRESS', running);
    else if (running?.action === 'DEPLOY') add('DEPLOYING', running);
    else if (running?.action === 'UNDEPLOY' && lastOk) add('STOPPING', lastOk);
    return out;
  }

  private settle(app: SimApp): void {
    const now = this.clock.now();
    if (!app.pending.length || app.pending[0]!.at > now) return;
    while (app.pending.length && app.pending[0]!.at <= now) {
      const change = app.pending.shift()!;
      // Changes a change schedules count from its own time, not from the (later) read.
      this.settlingAt = change.at;
      try {
        change.apply();
      } finally {
        this.settlingAt = null;
      }
    }
  }

  /** While a pending change is applied: its time, the model's "now" for what it schedules. */
  private settlingAt: number | null = null;

  private later(app: SimApp, delay: number, apply: () => void, uuid = ''): void {
    const at = (this.settlingAt ?? this.clock.now()) + delay;
    app.pending.push({ at, apply, uuid });
    app.pending.sort((a, b) => a.at - b.at);
    // With someone on the event socket, changes happen on time rather than when next read.
    if (this.eventListeners.size) this.settleAt(app, at);
  }

  /**
   * Settles `app` once `at` has come. A timer can fire a little before the wall clock reads its time
   * (the event loop's cached time starts it), so one that fires early waits again rather than
   * leaving the change to the next read.
   */
  private settleAt(app: SimApp, at: number): void {
    this.clock.setTimeout(
      () => {
        if (this.clock.now() < at) this.settleAt(app, at);
        else this.settle(app);
      },
      Math.max(0, at - this.clock.now()),
    );
  }

  /** The event socket's feed: deployments beginning and ending, for every app. */
  onEvent(listener: (event: SimEvent) => void): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  private emitDeployment(app: SimApp, d: SimDeployment, event: SimEvent['event']): void {
    if (!this.eventListeners.size) return;
    const e = deploymentEvent(app, d, event, this.clock.now());
    for (const l of this.eventListeners) l(e);
  }

  /** A deployment ends: its state, the app's, and the event that says so; the next queued begins. */
  private finish(app: SimApp, d: SimDeployment, state: DeploymentState, appState?: CleverState): void {
    d.state = state;
    if (appState === 'SHOULD_BE_UP' && app.state !== 'SHOULD_BE_UP')
      app.upSince = this.settlingAt ?? this.clock.now();
    if (appState) app.state = appState;
    this.emitDeployment(app, d, 'DEPLOYMENT_ACTION_END');
    const next = app.deployments.findLast((x) => x.state === 'QUEUED' && x.action === 'DEPLOY');
    if (next) this.queued.get(next.uuid)?.();
  }

  private newDeployment(app: SimApp, action: DeploymentAction, date: number, cause: string): SimDeployment {
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

  /** Begins a queued deployment: its `begin`, by uuid, until it runs. */
  private readonly queued = new Map<string, () => void>();
  /** Placed deployments (`placeDeployment`): their state never changes, and nothing queues behind them. */
  private readonly inert = new Set<string>();

  /**
   * A previous deployment, as a test places it: a DEPLOY entry dated `ageMs` before now, listed at
   * once, ended in `state` and staying so (a WIP one is left stale: clever-tools `activity` reads a
   * WIP that is not the newest as failed). A stopped app is left as that outcome leaves it
   * (`afterFailedStart` after FAIL or CANCELLED).
   */
  placeDeployment(appId: string, ageMs: number, state: DeploymentState): SimDeployment {
    const app = this.mustApp(undefined, appId);
    const d = this.newDeployment(app, 'DEPLOY', this.clock.now() - ageMs, `previous deployment ${state}`);
    d.state = state;
    this.inert.add(d.uuid);
    if ((state === 'FAIL' || state === 'CANCELLED') && app.state !== 'SHOULD_BE_UP')
      app.state = this.options.afterFailedStart;
    return d;
  }

  // ---- the API's actions -----------------------------------------------------------------------

  /**
   * POST .../instances: start a stopped app, or redeploy a running one. A deployment under way is
   * not cancelled: the new one is QUEUED behind it.
   */
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
    // A stop under way gives way to the start.
    const stopping = app.deployments.filter((d) => d.action === 'UNDEPLOY' && d.state === 'WIP');
    for (const d of stopping) d.state = 'OK';
    const ids = new Set(stopping.map((d) => d.uuid));
    app.pending = app.pending.filter((p) => !ids.has(p.uuid));

    if (outcome === 'vanish') {
      // The API answered with a deployment id, but nothing ever happens.
      return { deploymentId: randomUUID() };
    }
    const ahead = app.deployments.some(
      (d) =>
        d.action === 'DEPLOY' &&
        !this.inert.has(d.uuid) &&
        (d.state === 'WIP' || d.state === 'QUEUED' || d.state === 'TASK_RUNNING'),
    );
    const d = this.newDeployment(app, 'DEPLOY', now + this.options.deploymentDateOffsetMs, cause);
    const listed = this.options.listingDelayMs;
    d.listedAt = now + listed;
    d.state = 'QUEUED';
    const wantedAt = now + this.options.startStateDelayMs;
    if (!running) {
      const toWanted = () => {
        if (app.state === 'SHOULD_BE_DOWN') app.state = 'WANTS_TO_BE_UP';
      };
      if (this.options.startStateDelayMs <= 0) toWanted();
      else this.later(app, this.options.startStateDelayMs, toWanted, d.uuid);
    }
    const duration = app.deployDurationMs ?? this.options.deployDurationMs;
    const stopped = this.options.afterFailedStart;
    /** The deployment begins now (WIP) and ends after `runFor`. */
    const begin = (runFor: (wanted: number) => number) => {
      this.queued.delete(d.uuid);
      if (d.state !== 'QUEUED') return;
      d.state = 'WIP';
      // Begun: the app is starting, unless its state is to change later (listed before it changes).
      const at = this.settlingAt ?? this.clock.now();
      if (!running && app.state === 'SHOULD_BE_DOWN' && at >= wantedAt) app.state = 'WANTS_TO_BE_UP';
      this.emitDeployment(app, d, 'DEPLOYMENT_ACTION_BEGIN');
      const end = (after: number, fn: () => void) => this.later(app, runFor(after), fn, d.uuid);
      if (outcome === 'ok' && app.lifetime === 'TASK') {
        end(duration, () => {
          d.state = 'TASK_RUNNING';
          app.state = 'SHOULD_BE_UP';
          this.later(
            app,
            this.options.taskDurationMs,
            () => this.finish(app, d, 'OK', 'SHOULD_BE_DOWN'),
            d.uuid,
          );
        });
      } else if (outcome === 'ok') {
        end(duration, () => this.finish(app, d, 'OK', 'SHOULD_BE_UP'));
      } else if (outcome === 'fail') {
        end(this.options.failAfterMs, () => this.finish(app, d, 'FAIL', running ? undefined : stopped));
      } else {
        end(this.options.failAfterMs / 2, () =>
          this.finish(app, d, 'CANCELLED', running ? undefined : stopped),
        );
      }
    };
    if (ahead) {
      // Behind another deployment: begins when it ends (and runs its full length from then).
      this.queued.set(d.uuid, () => begin((after) => after));
    } else {
      // Alone: begins once listed (or once the slow platform gets to it); the durations count from
      // the start, as they always did here.
      const wait = Math.max(listed, this.options.queueDelayMs);
      const slow = this.options.queueDelayMs > 0;
      this.later(app, wait, () => begin((after) => (slow ? after : Math.max(after - wait, 0))), d.uuid);
    }
    return { deploymentId: this.options.startAnswersDeploymentId ? d.uuid : null };
  }

  /** DELETE .../instances: cancels the deployments under way or queued. */
  stop(ownerId: string, appId: string, cause = 'stop from the API'): void {
    const app = this.mustApp(ownerId, appId);
    if (app.state === 'SHOULD_BE_DOWN') return;
    app.pending = [];
    for (const d of app.deployments)
      if (
        (d.state === 'WIP' || d.state === 'QUEUED' || d.state === 'TASK_RUNNING') &&
        !this.inert.has(d.uuid)
      ) {
        d.state = 'CANCELLED';
        this.queued.delete(d.uuid);
      }
    const d = this.newDeployment(app, 'UNDEPLOY', this.clock.now(), cause);
    this.emitDeployment(app, d, 'DEPLOYMENT_ACTION_BEGIN');
    if (app.stopNeverCompletes) return;
    this.later(app, this.options.stopDurationMs, () => this.finish(app, d, 'OK', 'SHOULD_BE_DOWN'), d.uuid);
  }

  /**
   * An activity entry that is not a start or a stop (an autoscaler's UPSCALE, a REPLACE...), listed at
   * once; `action: null` lists it without its `action` field.
   */
  addActivity(appId: string, action: DeploymentAction | null, state: DeploymentState): SimDeployment {
    const app = this.mustApp(undefined, appId);
    const d = this.newDeployment(
      app,
      action ?? 'NONE',
      this.clock.now(),
      `activity ${action ?? 'without action'}`,
    );
    d.action = action;
    d.state = state;
    return d;
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

  /** `clever restart`: the same call as a start from the console (clever-tools restart.command.js). */
  cleverToolsRestart(appId: string): { deploymentId: string | null } {
    const app = this.mustApp(undefined, appId);
    return this.start(app.ownerId, appId, 'restart from clever-tools');
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
