/**
 * The reaper job. Two paces (every app every `intervalMs`; apps in transit and apps a request asked
 * for every `fastIntervalMs`), plus a timer per app for the moments that cannot wait for a pace (the
 * end of a grace period, the start of a must-be-up range, a fail timeout). A wake does not wait for
 * either: it is evaluated at once.
 *
 * Guarantees: never two evaluations of one app at once (a second request is queued behind the first);
 * a slow Clever Cloud never stacks ticks (each loop is a chain of timeouts armed when the previous
 * run ends); a state change and its history entry are written together before the Clever Cloud call
 * they ask for; nothing is decided without a fresh read of Clever Cloud.
 */
import {
  type Actor,
  type AppRecord,
  CAUSES,
  type HistoryEntry,
  type HistoryKind,
  isInTransit,
  newRecord,
  type ReaperState,
  type TrafficSource,
} from '../../shared/domain.ts';
import { SECOND } from '../../shared/durations.ts';
import { type AppRouting, effectiveRouting } from '../../shared/routes.ts';
import { Schedule } from '../../shared/schedule.ts';
import {
  type Call,
  type Decision,
  type DecisionContext,
  decide,
  nextDueAt,
  type Observation,
  releaseDecision,
} from './decide.ts';
import { DueQueue } from './due-queue.ts';
import {
  type CleverApp,
  CleverCallError,
  type CleverCloudPort,
  type Clock,
  type EngineConfig,
  type EngineStore,
  isNeverDeployed,
  type TimerHandle,
} from './ports.ts';

export type EngineEvent =
  | { type: 'app'; record: AppRecord }
  | { type: 'removed'; appId: string }
  | { type: 'history'; entry: HistoryEntry }
  /** An app entered Error: the shells turn this into a notification, the tray turns red. */
  | { type: 'alert'; appId: string; name: string; cause: string }
  | { type: 'tick'; pace: 'sweep' | 'fast' | 'due'; at: number; durationMs: number; apps: number }
  | { type: 'owner-unreachable'; ownerId: string; message: string }
  /** The datastore refused a write (full disk, unwritable file); null once writes work again. */
  | { type: 'storage'; problem: string | null };

export type EngineListener = (event: EngineEvent) => void;

export interface EngineDeps {
  clock: Clock;
  clever: CleverCloudPort;
  store: EngineStore;
  config: EngineConfig;
  /** Diagnostics; never given a credential. */
  log?: (level: 'info' | 'warn' | 'error', message: string) => void;
}

/** Deployments read per app when a decision needs them: the newest few are enough. */
const DEPLOYMENT_PAGE = 10;
/** Clever Cloud calls run at once, across apps and owners. */
const CONCURRENCY = 8;
/** No loop runs again sooner than this after its previous run ended. */
const FLOOR_MS = SECOND;
/** Steady traffic on an awake app updates its last request in the datastore at most this often. */
const TRAFFIC_WRITE_MS = SECOND;

export class Engine {
  private readonly deps: EngineDeps;
  private records = new Map<string, AppRecord>();
  private routing = new Map<string, AppRouting>();
  private schedules = new Map<string, Schedule>();
  private readonly emptySchedule = new Schedule([]);
  private listeners = new Set<EngineListener>();

  private busy = new Map<string, Promise<void>>();
  /** The latest request time of apps with steady traffic, not yet applied to their record. */
  private pendingTraffic = new Map<string, number>();
  private trafficTimer: TimerHandle | null = null;
  private requestWrittenAt = new Map<string, number>();
  private again = new Set<string>();
  private due = new DueQueue();
  private dueTimer: { handle: TimerHandle; at: number } | null = null;
  private sweepTimer: TimerHandle | null = null;
  private fastTimer: TimerHandle | null = null;
  private running = false;
  private abort = new AbortController();
  private sweeping: Promise<void> | null = null;
  private storageProblem: string | null = null;
  private firstSweepDone: () => void = () => {};
  /** Resolves when the first sweep after start() has read every owner (names and states known). */
  firstSweep: Promise<void> = new Promise((resolve) => {
    this.firstSweepDone = resolve;
  });

  constructor(deps: EngineDeps) {
    this.deps = deps;
  }

  // ---- lifecycle -------------------------------------------------------------------------------

  /** Load the datastore, follow the routes, and start both paces (the first sweep runs at once). */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.abort = new AbortController();
    this.records = new Map(this.deps.store.loadRecords().map((r) => [r.appId, r]));
    this.configChanged();
    this.armSweep(0);
    this.armFast(this.nextTick(this.settings.fastIntervalMs, this.deps.clock.now()));
  }

  /** Stop both paces and every timer; wait for evaluations under way to end (their calls aborted). */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    for (const t of [this.sweepTimer, this.fastTimer, this.dueTimer?.handle, this.trafficTimer]) {
      if (t) this.deps.clock.clearTimeout(t);
    }
    this.sweepTimer = this.fastTimer = this.dueTimer = this.trafficTimer = null;
    this.abort.abort();
    await Promise.allSettled([...this.busy.values(), this.sweeping]);
  }

  get isRunning(): boolean {
    return this.running;
  }

  on(listener: EngineListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  // ---- reads -----------------------------------------------------------------------------------

  list(): AppRecord[] {
    return [...this.records.values()];
  }

  get(appId: string): AppRecord | undefined {
    return this.records.get(appId);
  }

  routingOf(appId: string): AppRouting | undefined {
    return this.routing.get(appId);
  }

  scheduleOf(appId: string): Schedule {
    return this.schedules.get(appId) ?? this.emptySchedule;
  }

  /** The time an app is next looked at outside the paces (its sleep time, when Up). */
  dueAt(appId: string): number | null {
    return this.due.get(appId);
  }

  private get settings() {
    return this.deps.config.settings();
  }

  private context(appId: string): DecisionContext {
    return {
      now: this.deps.clock.now(),
      settings: this.settings,
      routing: this.routing.get(appId),
      schedule: this.scheduleOf(appId),
    };
  }

  // ---- routes ----------------------------------------------------------------------------------

  /**
   * Routes or settings changed: put newly routed apps under the reaper (WaitingForInit), re-point
   * owners, and recompute every due time. Apps no longer routed are released by their next run.
   */
  configChanged(): void {
    this.routing = effectiveRouting(this.deps.config.routes());
    this.schedules = new Map();
    for (const [appId, r] of this.routing)
      if (r.ranges.length) this.schedules.set(appId, new Schedule(r.ranges));
    this.adoptRoutedApps();
    for (const record of this.records.values()) this.refreshDue(record);
  }

  /** Records for newly routed apps, owners re-pointed. A write that fails is tried again next sweep. */
  private adoptRoutedApps(): void {
    const now = this.deps.clock.now();
    for (const [appId, r] of this.routing) {
      const record = this.records.get(appId);
      try {
        if (!record) {
          const fresh = newRecord(appId, r.ownerId ?? '', appId, now);
          const reason = 'put under the reaper by a route';
          const entry = this.historyEntry(fresh, 'transition', 'operator', reason, null, fresh.state);
          this.write({ upsert: fresh, history: [entry] });
          this.records.set(appId, fresh);
          this.emit({ type: 'app', record: fresh });
          this.emit({ type: 'history', entry });
        } else if (r.ownerId && r.ownerId !== record.ownerId) {
          this.commit(record, { ownerId: r.ownerId });
        }
      } catch {
        // Announced by write(); the app is adopted at the next sweep.
      }
    }
  }

  // ---- operator and traffic --------------------------------------------------------------------

  /**
   * A request for the app, from any source: it counts as traffic, and asks for the app when it
   * sleeps (or is going to sleep, or not yet read). `asks` is false for traffic that only keeps an
   * app awake (a request seen in the access log of an Up app).
   */
  async request(
    appId: string,
    source: TrafficSource,
    at = this.deps.clock.now(),
  ): Promise<AppRecord | undefined> {
    const record = this.records.get(appId);
    if (!record) return undefined;
    const asks =
      record.state === 'Down' || record.state === 'WaitingForShutdown' || record.state === 'WaitingForInit';
    if (!asks && record.lastRequestAt !== null && at <= record.lastRequestAt) return record;
    const written = this.requestWrittenAt.get(appId);
    if (
      !asks &&
      written !== undefined &&
      at - written < TRAFFIC_WRITE_MS &&
      source === record.lastRequestSource
    ) {
      // Steady traffic on an awake app: noted here (the wake proxy's hot path), applied to the record
      // within a second or before the app's next decision, written with its next change.
      const pending = this.pendingTraffic.get(appId);
      if (pending === undefined || at > pending) this.pendingTraffic.set(appId, at);
      this.armTrafficFlush();
      return record;
    }
    this.requestWrittenAt.set(appId, at);
    const patch: Partial<AppRecord> = {};
    if (record.lastRequestAt === null || at > record.lastRequestAt) {
      patch.lastRequestAt = at;
      patch.lastRequestSource = source;
    }
    if (asks && record.wakeRequestedAt === null) {
      patch.wakeRequestedAt = at;
      patch.lastRequestSource = source;
    }
    // Dry-run: the first request after a sleep was recorded is the wake that sleep would have needed
    // (the savings count a projected sleep up to it).
    const wouldWake =
      this.settings.dryRun &&
      record.state === 'Up' &&
      record.dryRunSleepNotedAt !== null &&
      at >= record.dryRunSleepNotedAt &&
      (record.lastRequestAt === null || record.lastRequestAt < record.dryRunSleepNotedAt);
    const next = this.commit(
      record,
      patch,
      undefined,
      wouldWake
        ? [
            {
              kind: 'would-wake',
              actor: 'request',
              reason: `dry-run: a request (${source}) would have woken the app`,
            },
          ]
        : undefined,
    );
    if (asks) await this.evaluate(appId);
    return this.records.get(appId) ?? next;
  }

  /** Apply the steady traffic noted for an app to its record (in memory); the record as it is then. */
  private applyTraffic(appId: string): AppRecord | undefined {
    const at = this.pendingTraffic.get(appId);
    const record = this.records.get(appId);
    if (at === undefined) return record;
    this.pendingTraffic.delete(appId);
    if (!record || (record.lastRequestAt !== null && at <= record.lastRequestAt)) return record;
    const next = { ...record, lastRequestAt: at };
    this.records.set(appId, next);
    this.refreshDue(next);
    return next;
  }

  private armTrafficFlush(): void {
    if (this.trafficTimer || !this.running) return;
    this.trafficTimer = this.deps.clock.setTimeout(() => {
      this.trafficTimer = null;
      for (const appId of [...this.pendingTraffic.keys()]) this.applyTraffic(appId);
    }, TRAFFIC_WRITE_MS);
  }

  /** Wake an app explicitly (dashboard, tray, admin API, link). */
  wake(appId: string, source: TrafficSource): Promise<AppRecord | undefined> {
    return this.request(appId, source);
  }

  /** "Keep awake until ...": no sleep before `until` (null cancels); a sleeping app is woken. */
  async keepAwake(
    appId: string,
    until: number | null,
    source: TrafficSource = 'dashboard',
  ): Promise<AppRecord> {
    const record = this.mustGet(appId);
    const reason =
      until === null ? 'keep awake cancelled' : `kept awake until ${new Date(until).toISOString()}`;
    this.commit(record, { keepAwakeUntil: until }, undefined, [
      { kind: 'keep-awake', actor: 'operator', reason },
    ]);
    if (until !== null) await this.request(appId, source);
    return this.mustGet(appId);
  }

  /** Reset an app (in Error, or any state): back to WaitingForInit, read again from Clever Cloud. */
  async reset(appId: string): Promise<AppRecord> {
    const record = this.mustGet(appId);
    this.commit(
      record,
      {
        notice: null,
        cause: null,
        pendingCall: null,
        stopAskedAt: null,
        firstStartAskedAt: null,
        lastStartAskedAt: null,
        deploymentId: null,
        cameUpAt: null,
        cleverState: null,
        lastDeployNumber: null,
        redeploySeenAt: null,
        dryRunSleepNotedAt: null,
      },
      { to: 'WaitingForInit', actor: 'operator', reason: 'reset from the console' },
      undefined,
      'reset',
    );
    await this.evaluate(appId);
    return this.mustGet(appId);
  }

  /**
   * "Disable the reaper": release the app at once (its routes must already be disabled, or the next
   * routes change puts it back under the reaper).
   */
  async releaseNow(appId: string): Promise<void> {
    const record = this.records.get(appId);
    if (!record) return;
    await this.exclusive(appId, () => this.release(record, releaseDecision(record), 'operator'));
  }

  /**
   * Something happened to an app on Clever Cloud (an event of the platform's event socket): read it
   * and decide now, without waiting for a pace.
   */
  nudge(appId: string): void {
    if (this.running && this.records.has(appId)) void this.evaluate(appId);
  }

  /** Read every app now (after the machine wakes from sleep, or when asked). */
  async reconcileNow(): Promise<void> {
    await this.runSweep();
  }

  /** Resolves when the app reaches one of `states`, or rejects after `timeoutMs` of engine time. */
  waitFor(appId: string, states: readonly ReaperState[], timeoutMs: number): Promise<AppRecord> {
    const current = this.records.get(appId);
    if (current && states.includes(current.state)) return Promise.resolve(current);
    return new Promise((resolve, reject) => {
      const timer = this.deps.clock.setTimeout(() => {
        off();
        reject(
          new Error(`the app did not reach ${states.join(' or ')} within ${Math.round(timeoutMs / 1000)} s`),
        );
      }, timeoutMs);
      const off = this.on((e) => {
        if (e.type === 'app' && e.record.appId === appId && states.includes(e.record.state)) {
          off();
          this.deps.clock.clearTimeout(timer);
          resolve(e.record);
        } else if (e.type === 'removed' && e.appId === appId) {
          off();
          this.deps.clock.clearTimeout(timer);
          reject(new Error('the app was released'));
        }
      });
    });
  }

  // ---- the paces -------------------------------------------------------------------------------

  /**
   * Both paces tick at multiples of their interval on the engine's clock (hh:mm:00, :30; every 5 s),
   * whenever the engine started: a restarted engine looks at its apps at the same moments as before.
   * A run that takes longer than the interval skips the ticks it overlapped instead of stacking them.
   */
  private nextTick(interval: number, earliest: number): number {
    const now = this.deps.clock.now();
    const at = Math.max(earliest, now);
    return Math.ceil((at + 1) / interval) * interval - now;
  }

  private armSweep(delay: number): void {
    if (!this.running) return;
    this.sweepTimer = this.deps.clock.setTimeout(() => {
      void this.runSweep().finally(() => {
        const now = this.deps.clock.now();
        this.armSweep(this.nextTick(this.settings.intervalMs, now + FLOOR_MS));
      });
    }, delay);
  }

  private armFast(delay: number): void {
    if (!this.running) return;
    this.fastTimer = this.deps.clock.setTimeout(() => {
      void this.runFast().finally(() => {
        const now = this.deps.clock.now();
        this.armFast(this.nextTick(this.settings.fastIntervalMs, now + FLOOR_MS));
      });
    }, delay);
  }

  /** Every app: one application list per owner, then a decision per app. */
  private async runSweep(): Promise<void> {
    if (this.sweeping) return this.sweeping;
    const started = performance.now();
    const run = (async () => {
      this.adoptRoutedApps();
      const owners = groupByOwner(this.records.values());
      await mapLimit([...owners], CONCURRENCY, async ([ownerId, appIds]) => {
        const apps = await this.readOwner(ownerId, appIds, true);
        if (!apps) return;
        // Most apps need nothing on a sweep: decided at once, without the machinery of an evaluation.
        const rest = appIds.filter((appId) => !this.settledAtOnce(appId, apps.get(appId) ?? null));
        await mapLimit(rest, CONCURRENCY, (appId) => this.evaluate(appId, apps.get(appId) ?? null));
      });
    })();
    this.sweeping = run;
    try {
      await run;
    } finally {
      this.sweeping = null;
      this.firstSweepDone();
      this.emitTick('sweep', started, this.records.size);
    }
  }

  /** Apps in transit, apps a request asked for, apps with a call to confirm. */
  private async runFast(): Promise<void> {
    const started = performance.now();
    const targets = [...this.records.values()].filter(
      (r) => isInTransit(r.state) || r.wakeRequestedAt !== null || r.pendingCall !== null,
    );
    await this.evaluateFresh(targets.map((r) => r.appId));
    this.emitTick('fast', started, targets.length);
  }

  /** Evaluate these apps on a fresh read: one get per app, or one list when an owner has several. */
  private async evaluateFresh(appIds: string[]): Promise<void> {
    const owners = groupByOwner(appIds.map((id) => this.records.get(id)).filter((r) => r !== undefined));
    await mapLimit([...owners], CONCURRENCY, async ([ownerId, ids]) => {
      if (ids.length === 1) {
        await this.evaluate(ids[0]!);
        return;
      }
      const apps = await this.readOwner(ownerId, ids, false);
      if (apps) await mapLimit(ids, CONCURRENCY, (appId) => this.evaluate(appId, apps.get(appId) ?? null));
    });
  }

  private async readOwner(
    ownerId: string,
    appIds: string[],
    sweep: boolean,
  ): Promise<Map<string, CleverApp> | null> {
    try {
      const apps = await this.deps.clever.listApplications(ownerId, { signal: this.abort.signal });
      return new Map(apps.map((a) => [a.id, a]));
    } catch (error) {
      if (!this.running) return null;
      const message = describe(error);
      this.deps.log?.('warn', `cannot list the applications of ${ownerId}: ${message}`);
      if (sweep) this.emit({ type: 'owner-unreachable', ownerId, message });
      for (const appId of appIds) this.noteProblem(appId, `Clever Cloud could not be read: ${message}`);
      return null;
    }
  }

  // ---- per-app timers --------------------------------------------------------------------------

  private refreshDue(record: AppRecord): void {
    const at = nextDueAt(record, this.context(record.appId));
    this.due.set(record.appId, at !== null && at > this.deps.clock.now() ? at : null);
    this.armDue();
  }

  /** Keep one timer armed for the earliest due time (a timer that fires early just re-arms). */
  private armDue(): void {
    if (!this.running) return;
    const at = this.due.peek();
    if (this.dueTimer && at !== null && this.dueTimer.at <= at) return;
    if (this.dueTimer) this.deps.clock.clearTimeout(this.dueTimer.handle);
    this.dueTimer = null;
    if (at === null) return;
    const handle = this.deps.clock.setTimeout(
      () => {
        this.dueTimer = null;
        void this.runDue();
      },
      Math.max(0, at - this.deps.clock.now()),
    );
    this.dueTimer = { handle, at };
  }

  private async runDue(): Promise<void> {
    const started = performance.now();
    const appIds = this.due.popDue(this.deps.clock.now());
    this.armDue();
    if (appIds.length) await this.evaluateFresh(appIds);
    this.emitTick('due', started, appIds.length);
  }

  // ---- one app ---------------------------------------------------------------------------------

  /** Run `fn` as the only evaluation of `appId`; a second caller waits for the first, then runs. */
  private async exclusive(appId: string, fn: () => Promise<void>): Promise<void> {
    while (this.busy.has(appId)) await this.busy.get(appId);
    const run = fn().finally(() => this.busy.delete(appId));
    this.busy.set(appId, run);
    await run;
  }

  /**
   * The sweep's fast path: when the decision on this observation is only to note what was seen (no
   * transition, no call, no history, no deployments to read), apply it here, synchronously. False
   * when the app needs a full evaluation (or is being evaluated).
   */
  private settledAtOnce(appId: string, app: CleverApp | null): boolean {
    const record = this.applyTraffic(appId);
    if (!record || this.busy.has(appId)) return false;
    const decision = decide(record, { app }, this.context(appId));
    if (decision.type !== 'act' || decision.transition || decision.call || decision.notes) return false;
    try {
      this.commit(record, decision.patch);
      return true;
    } catch {
      return false; // the evaluation reports it
    }
  }

  /**
   * Decide for one app on a fresh observation (read now when not given) and carry the decision out.
   * If the app is being evaluated already, it is evaluated again (on a fresh read) right after.
   */
  private async evaluate(appId: string, app?: CleverApp | null): Promise<void> {
    if (this.busy.has(appId)) {
      this.again.add(appId);
      return this.busy.get(appId);
    }
    await this.exclusive(appId, () => this.evaluateNow(appId, app));
    if (this.again.delete(appId) && this.running) await this.evaluate(appId);
  }

  private async evaluateNow(appId: string, given: CleverApp | null | undefined): Promise<void> {
    const signal = this.abort.signal;
    let record = this.records.get(appId);
    if (!record || !this.running) return;
    try {
      const obs: Observation = {
        app:
          given !== undefined
            ? given
            : await this.deps.clever.getApplication(record.ownerId, appId, { signal }),
      };
      // A transition without a call is followed by another decision on the same observation
      // (WaitingForInit -> Down -> start when a request is waiting), a few steps at most.
      for (let step = 0; step < 4 && this.running; step++) {
        record = this.applyTraffic(appId);
        if (!record) return;
        let decision: Decision = decide(record, obs, this.context(appId));
        if (decision.type === 'need-deployments') {
          obs.deployments = await this.deps.clever.listDeployments(record.ownerId, appId, {
            limit: DEPLOYMENT_PAGE,
            signal,
          });
          decision = decide(record, obs, this.context(appId));
          if (decision.type === 'need-deployments')
            throw new Error('a decision asked twice for the deployments');
        }
        if (decision.type === 'release') {
          await this.release(record, decision, 'reaper');
          return;
        }
        const next = this.commit(record, decision.patch, decision.transition, decision.notes);
        if (decision.call) {
          await this.perform(next, decision.call, decision.transition?.actor ?? 'reaper');
          return;
        }
        if (!decision.transition) return;
      }
    } catch (error) {
      if (!this.running || (error instanceof CleverCallError && error.kind === 'aborted')) return;
      this.noteProblem(appId, `Clever Cloud could not be read: ${describe(error)}`);
    } finally {
      const latest = this.records.get(appId);
      if (latest) this.refreshDue(latest);
    }
  }

  /** Carry out a stop or a start decided (and written) before. */
  private async perform(record: AppRecord, call: Call, actor: Actor): Promise<void> {
    const { clever, log } = this.deps;
    const signal = this.abort.signal;
    try {
      if (call === 'stop') {
        await clever.stopApplication(record.ownerId, record.appId, { signal });
        this.commitLatest(record.appId, { pendingCall: null, notice: null }, [
          { kind: 'stop-asked', actor, reason: 'Clever Cloud accepted the stop (DELETE instances)' },
        ]);
      } else {
        const { deploymentId } = await clever.startApplication(record.ownerId, record.appId, { signal });
        const patch: Partial<AppRecord> = { pendingCall: null, notice: null };
        if (deploymentId) patch.deploymentId = deploymentId;
        const reason = `Clever Cloud accepted the start${deploymentId ? `, deployment ${deploymentId}` : ''}`;
        const kind: HistoryKind = call === 'restart' ? 'restart-asked' : 'start-asked';
        this.commitLatest(record.appId, patch, [
          { kind, actor, reason: call === 'restart' ? `${reason} (sent again)` : reason },
        ]);
      }
    } catch (error) {
      if (!this.running && error instanceof CleverCallError && error.kind === 'aborted') return;
      const latest = this.records.get(record.appId);
      if (!latest) return;
      if (isNeverDeployed(error)) {
        // "An app that was never deployed cannot be started: ... the app goes to Error at once."
        this.commit(
          latest,
          { cause: CAUSES.neverDeployed, pendingCall: null, notice: null, wakeRequestedAt: null },
          { to: 'Error', actor: 'reaper', reason: `${CAUSES.neverDeployed} (${describe(error)})` },
        );
        return;
      }
      // The call may or may not have been carried out: pendingCall stays, and the next run checks
      // Clever Cloud before sending it again.
      const message = describe(error);
      log?.('warn', `${call} of ${record.appId} failed: ${message}`);
      this.commit(
        latest,
        { notice: `the ${call === 'stop' ? 'stop' : 'start'} call failed: ${message}` },
        undefined,
        [{ kind: 'call-failed', actor: 'reaper', reason: `${call} failed: ${message}` }],
      );
    }
  }

  private async release(
    record: AppRecord,
    decision: Extract<Decision, { type: 'release' }>,
    actor: Actor,
  ): Promise<void> {
    if (decision.start) {
      try {
        await this.deps.clever.startApplication(record.ownerId, record.appId, { signal: this.abort.signal });
      } catch (error) {
        if (!isNeverDeployed(error)) {
          // Not released yet: a sleeping app is never forgotten without its start. Tried again next run.
          this.noteProblem(record.appId, `the release could not start the app: ${describe(error)}`);
          return;
        }
      }
    }
    const entry = this.historyEntry(record, 'release', actor, decision.reason, record.state, null);
    this.write({ remove: record.appId, history: [entry] });
    this.records.delete(record.appId);
    this.due.set(record.appId, null);
    this.emit({ type: 'removed', appId: record.appId });
    this.emit({ type: 'history', entry });
  }

  // ---- writing ---------------------------------------------------------------------------------

  private historyEntry(
    record: AppRecord,
    kind: HistoryKind,
    actor: Actor,
    reason: string,
    from: ReaperState | null,
    to: ReaperState | null,
  ): HistoryEntry {
    return { appId: record.appId, at: this.deps.clock.now(), kind, from, to, actor, reason };
  }

  /**
   * Apply a patch (and a transition) to a record: the record and its history entries are written
   * in one transaction, then the in-memory copy changes and listeners hear of it. Nothing changes in
   * memory when the write fails.
   */
  private commit(
    record: AppRecord,
    patch: Partial<AppRecord>,
    transition?: { to: ReaperState; actor: Actor; reason: string },
    notes?: { kind: HistoryKind; actor: Actor; reason: string }[],
    transitionKind: HistoryKind = 'transition',
  ): AppRecord {
    if (!transition && !notes?.length && unchanged(record, patch)) return record;
    const now = this.deps.clock.now();
    const next: AppRecord = { ...record, ...patch };
    const history: HistoryEntry[] = [];
    if (transition) {
      next.state = transition.to;
      next.stateSince = now;
      history.push(
        this.historyEntry(
          record,
          transitionKind,
          transition.actor,
          transition.reason,
          record.state,
          transition.to,
        ),
      );
    }
    for (const n of notes ?? [])
      history.push(this.historyEntry(record, n.kind, n.actor, n.reason, null, null));
    if (history.length === 0 && sameRecord(record, next)) return record;
    this.write({ upsert: next, history });
    this.records.set(next.appId, next);
    this.emit({ type: 'app', record: next });
    for (const entry of history) this.emit({ type: 'history', entry });
    if (transition?.to === 'Error') {
      this.emit({
        type: 'alert',
        appId: next.appId,
        name: next.name,
        cause: next.cause ?? transition.reason,
      });
    }
    this.refreshDue(next);
    return next;
  }

  /**
   * Every write goes through here: a refused write is announced once (the dashboard shows it), and
   * thrown, so nothing changes in memory and no Clever Cloud call is made on an unwritten decision.
   */
  private write(change: Parameters<EngineStore['commit']>[0]): void {
    try {
      this.deps.store.commit(change);
    } catch (error) {
      const problem = `the datastore refused a write: ${describe(error)}`;
      if (this.storageProblem !== problem) {
        this.storageProblem = problem;
        this.deps.log?.('error', problem);
        this.emit({ type: 'storage', problem });
      }
      throw error;
    }
    if (this.storageProblem !== null) {
      this.storageProblem = null;
      this.emit({ type: 'storage', problem: null });
    }
  }

  get storage(): string | null {
    return this.storageProblem;
  }

  private commitLatest(
    appId: string,
    patch: Partial<AppRecord>,
    notes: { kind: HistoryKind; actor: Actor; reason: string }[],
  ) {
    const latest = this.records.get(appId);
    if (latest) this.commit(latest, patch, undefined, notes);
  }

  private noteProblem(appId: string, notice: string): void {
    const record = this.records.get(appId);
    if (record && record.notice !== notice) {
      try {
        this.commit(record, { notice });
      } catch (error) {
        this.deps.log?.('error', `cannot record a problem of ${appId}: ${describe(error)}`);
      }
    }
  }

  private mustGet(appId: string): AppRecord {
    const record = this.records.get(appId);
    if (!record) throw new UnknownAppError(appId);
    return record;
  }

  private emit(event: EngineEvent): void {
    for (const l of this.listeners) {
      try {
        l(event);
      } catch (error) {
        this.deps.log?.('error', `an engine listener failed: ${describe(error)}`);
      }
    }
  }

  /** `startedAt` from performance.now(): tick durations are real time, whatever the clock. */
  private emitTick(pace: 'sweep' | 'fast' | 'due', startedAt: number, apps: number): void {
    const durationMs = performance.now() - startedAt;
    this.emit({ type: 'tick', pace, at: this.deps.clock.now(), durationMs, apps });
  }
}

export class UnknownAppError extends Error {
  constructor(appId: string) {
    super(`no managed app ${appId}`);
    this.name = 'UnknownAppError';
  }
}

/** Does the patch leave the record as it is (the common case of a sweep)? */
function unchanged(record: AppRecord, patch: Partial<AppRecord>): boolean {
  for (const key in patch) if (patch[key as keyof AppRecord] !== record[key as keyof AppRecord]) return false;
  return true;
}

function sameRecord(a: AppRecord, b: AppRecord): boolean {
  for (const key of Object.keys(b) as (keyof AppRecord)[]) if (a[key] !== b[key]) return false;
  return true;
}

function groupByOwner(records: Iterable<AppRecord>): Map<string, string[]> {
  const owners = new Map<string, string[]>();
  for (const r of records) {
    const list = owners.get(r.ownerId);
    if (list) list.push(r.appId);
    else owners.set(r.ownerId, [r.appId]);
  }
  return owners;
}

/** Run `fn` over `items`, at most `limit` at once. */
export async function mapLimit<T>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++]!;
      await fn(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
