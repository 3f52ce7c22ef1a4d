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
 *
 * The Engine composes its parts and holds the operator's actions: the scheduling loop
 * (scheduler.ts), traffic coalescing (traffic.ts), one app's evaluation (evaluator.ts), the requests
 * (requests.ts) and the journal, the one door for writes (journal.ts).
 */
import { type AppRecord, newRecord, type ReaperState, type TrafficSource } from '../../shared/domain.ts';
import { describeError } from '../../shared/log.ts';
import type { AppRouting } from '../../shared/routes.ts';
import type { ListedApp, Rule } from '../../shared/rules.ts';
import type { Schedule } from '../../shared/schedule.ts';
import { EngineCore, type EngineDeps, type EngineListener, type HandedAction } from './core.ts';
import { type DecisionContext, RESET_PATCH, releaseDecision } from './decide.ts';
import { firstAnswerNote } from './decide-wake.ts';
import { Evaluator } from './evaluator.ts';
import { handOver, handOverAfter, type ObservedChange, observed, reloadOwners } from './handover.ts';
import { Journal } from './journal.ts';
import type { CleverApp } from './ports.ts';
import { Requests } from './requests.ts';
import { groupOf, HostIndex, listedApps, resolveRoutingInto } from './routing.ts';
import { RuleOwners } from './rule-owners.ts';
import { Scheduler } from './scheduler.ts';
import { TrafficCoalescer } from './traffic.ts';
import { waitForState } from './wait-for.ts';

export type { EngineDeps, EngineEvent, EngineListener, HandedAction, HandedRequest } from './core.ts';

export class Engine {
  private readonly deps: EngineDeps;
  private readonly core: EngineCore;
  private readonly journal: Journal;
  private readonly traffic: TrafficCoalescer;
  private readonly evaluator: Evaluator;
  private readonly scheduler: Scheduler;
  private readonly ruleOwners: RuleOwners;
  private readonly requests: Requests;
  /** What a record written or read again sets off: its due times, or its timers dropped. */
  private readonly watch: { changed: (record: AppRecord) => void; forgotten: (appId: string) => void };
  /** The rules last resolved (a change of them sweeps at once). */
  private rulesSeen: readonly Rule[] | null = null;
  /** The sweep interval last seen (a change re-arms the waiting sweep). */
  private intervalSeen: number | null = null;
  /** The adoption a change of the routes or rules started (its writes settle on their own). */
  private adopting: Promise<void> = Promise.resolve();
  private readonly hosts = new HostIndex();
  private firstSweepDone: () => void = () => {};
  /** Resolves when the first sweep after start() has read every owner (names and states known). */
  firstSweep: Promise<void> = new Promise((resolve) => {
    this.firstSweepDone = resolve;
  });

  constructor(deps: EngineDeps) {
    this.deps = deps;
    this.core = new EngineCore(deps);
    const changed = (record: AppRecord) => this.changed(record);
    this.watch = { changed, forgotten: (appId) => this.forgotten(appId) };
    this.journal = new Journal(this.core, {
      ...this.watch,
      recovered: () => {
        this.requests
          .flushKept()
          .catch((error: unknown) => this.deps.log?.('error', `kept traffic: ${String(error)}`));
      },
    });
    this.ruleOwners = new RuleOwners(this.core);
    this.traffic = new TrafficCoalescer(this.core, changed);
    this.evaluator = new Evaluator(this.core, this.journal, this.traffic, changed);
    this.requests = new Requests(this.core, this.journal, this.traffic, this.evaluator);
    this.scheduler = new Scheduler(this.core, this.journal, this.evaluator, {
      adopt: () => this.adoptRoutedApps(),
      extraOwners: () => this.ruleOwners.wanted(),
      listed: (lists) => this.listed(lists),
      swept: () => this.firstSweepDone(),
    });
  }

  // ---- lifecycle -------------------------------------------------------------------------------

  /** Load the datastore, follow the routes, and start both paces (the first sweep runs at once). */
  async start(): Promise<void> {
    if (this.core.running) return;
    this.core.running = true;
    this.core.abort = new AbortController();
    let records: AppRecord[];
    try {
      records = await this.deps.store.loadRecords();
    } catch (error) {
      this.core.running = false;
      throw error;
    }
    this.core.records = new Map(records.map((r) => [r.appId, r]));
    if (!this.core.running) return;
    this.configChanged();
    this.scheduler.start();
    // Resolved with the routed apps adopted (their records written and in memory).
    await this.adopting;
  }

  /** Resolves once the apps the last change of routes or rules put under the reaper are adopted. */
  adopted(): Promise<void> {
    return this.adopting;
  }

  /**
   * Resolves when every write queued and every evaluation under way (with the calls it makes) has
   * settled, those they lead to included: what tests wait on before they look.
   */
  async idle(): Promise<void> {
    for (;;) {
      await this.adopting;
      const busy = this.evaluator.underWay();
      if (busy.length === 0 && !this.journal.busy) return;
      await Promise.allSettled(busy);
      await this.journal.idle();
    }
  }

  /** Stop both paces and every timer; wait for evaluations under way to end (their calls aborted). */
  async stop(): Promise<void> {
    if (!this.core.running) return;
    this.core.running = false;
    const sweeping = this.scheduler.stop();
    this.traffic.stop();
    this.requests.stop();
    this.core.abort.abort();
    await Promise.allSettled([...this.evaluator.underWay(), sweeping]);
  }

  get isRunning(): boolean {
    return this.core.running;
  }

  on(listener: EngineListener): () => void {
    this.core.listeners.add(listener);
    return () => this.core.listeners.delete(listener);
  }

  // ---- team mode (leases per owner) ----------------------------------------------------------

  /**
   * Read these owners' records again from the datastore: owners just taken over (before they are
   * acted on: what the previous holder asked for is found pending), or owners another instance acts
   * on (what the dashboard shows of them).
   */
  reloadOwners(ownerIds: readonly string[]): Promise<void> {
    return reloadOwners(this.core, ownerIds, this.watch);
  }

  /** The owners the rules look at, known now (team mode registers their leases: rule-owners.ts). */
  ruleOwnerIds(): string[] {
    return this.ruleOwners.known();
  }

  /** Team mode: what another instance wrote, as stored now (handover.ts: `observed`). */
  observed(change: ObservedChange): void {
    observed(this.core, change, this.watch);
  }

  /**
   * These owners are acted on from now on: their routed apps adopted, each of their apps read and
   * decided on at once.
   */
  async actOn(ownerIds: readonly string[]): Promise<void> {
    if (!this.core.running) return;
    await this.adoptRoutedApps();
    const owners = new Set(ownerIds);
    const evaluations: Promise<void>[] = [];
    for (const record of this.core.records.values()) {
      if (owners.has(record.ownerId)) evaluations.push(this.evaluator.evaluate(record.appId));
    }
    await Promise.all(evaluations);
  }

  /** Resolves when the evaluations under way have ended (before a lease is given back). */
  async settled(): Promise<void> {
    await Promise.allSettled(this.evaluator.underWay());
  }

  private forgotten(appId: string): void {
    this.core.groupWakes.delete(appId);
    this.scheduler.forget(appId);
  }

  // ---- reads -----------------------------------------------------------------------------------

  list(): AppRecord[] {
    return [...this.core.records.values()];
  }

  get(appId: string): AppRecord | undefined {
    return this.core.records.get(appId);
  }

  routingOf(appId: string): AppRouting | undefined {
    return this.core.routing.get(appId);
  }

  scheduleOf(appId: string): Schedule {
    return this.core.scheduleOf(appId);
  }

  /** The time an app is next looked at outside the paces (its sleep time, when Up). */
  dueAt(appId: string): number | null {
    return this.scheduler.dueAt(appId);
  }

  /** The datastore's refusal while writes fail (shown by the dashboard); null when they work. */
  get storage(): string | null {
    return this.journal.storage;
  }

  // ---- routes ----------------------------------------------------------------------------------

  /**
   * Routes or settings changed: put newly routed apps under the reaper (WaitingForInit), re-point
   * owners, and recompute every due time. Apps no longer routed are released by their next run.
   */
  configChanged(): void {
    // Adoption's writes settle on their own (a refusal is announced by the journal).
    this.adopting = this.resolve();
    for (const record of this.core.records.values()) this.scheduler.refreshDue(record);
    const interval = this.core.settings.intervalMs;
    if (this.intervalSeen !== null && interval !== this.intervalSeen) this.scheduler.rearmSweep();
    this.intervalSeen = interval;
    // Rules changed: a sweep now reads the lists they match against (their apps are managed at once).
    const rules = this.deps.config.rules();
    if (rules !== this.rulesSeen) {
      const first = this.rulesSeen === null;
      this.rulesSeen = rules;
      if (!first && this.core.running) {
        this.scheduler
          .runSweep()
          .catch((e: unknown) => this.deps.log?.('warn', `a sweep failed: ${String(e)}`));
      }
    }
  }

  /** The apps of the application lists last read (what the rules matched at the last sweep). */
  listedApps(): ListedApp[] {
    return listedApps(this.core);
  }

  /** The application list of an owner as last read by a sweep, if it was. */
  listedAppsOf(ownerId: string): readonly CleverApp[] | undefined {
    return this.core.ownerApps.get(ownerId);
  }

  /** What the decisions of the app are made on now (its routing, schedule, settings and group). */
  decisionContext(appId: string): DecisionContext {
    return this.core.context(appId);
  }

  /** The app's group now: its members and why it holds the app awake; null when it has none. */
  groupOf(appId: string): ReturnType<typeof groupOf> {
    return groupOf(this.core, appId);
  }

  /** The app a wake-proxy host name routes to (routes and rules, enabled ones). */
  appForHost(host: string): string | undefined {
    return this.hosts.appFor(this.core.routing, host);
  }

  /**
   * The routing of every app from the routes, the rules and the lists last read; then adoption
   * (resolves when its writes have settled; each new record gets its due time as it enters).
   */
  private resolve(): Promise<void> {
    resolveRoutingInto(this.core);
    return this.adoptRoutedApps();
  }

  /** A sweep read these owners' application lists: the rules match against them from now on. */
  private async listed(lists: ReadonlyMap<string, ReadonlyMap<string, CleverApp>>): Promise<void> {
    for (const [ownerId, apps] of lists) this.core.ownerApps.set(ownerId, [...apps.values()]);
    if (!this.deps.config.rules().some((r) => r.enabled)) return;
    const before = this.core.routing;
    await this.resolve();
    for (const record of this.core.records.values()) {
      if (before.get(record.appId) !== this.core.routing.get(record.appId)) this.scheduler.refreshDue(record);
    }
  }

  /** A record changed: its due time, and its group's (a member's traffic moves the group's sleep). */
  private changed(record: AppRecord): void {
    this.scheduler.refreshDue(record);
    if (
      record.state !== 'Down' &&
      record.state !== 'WaitingForShutdown' &&
      record.state !== 'WaitingForInit'
    ) {
      this.core.groupWakes.delete(record.appId);
    }
    for (const member of this.core.membersOf(record.appId)) this.scheduler.refreshDue(member);
  }

  /**
   * Records for newly routed apps, owners re-pointed; resolves when every write has settled. A write
   * that fails is announced by the journal and tried again next sweep.
   */
  private async adoptRoutedApps(): Promise<void> {
    const now = this.deps.clock.now();
    const writes: Promise<unknown>[] = [];
    for (const [appId, r] of this.core.routing) {
      // Team mode: another instance adopts the apps of the owners it acts on.
      if (!this.core.acts(r.ownerId)) continue;
      const record = this.core.records.get(appId);
      // A refused write is announced by the journal; the app is adopted at the next sweep.
      if (!record) {
        const name = r.ruleId ? (this.listedName(r.ownerId, appId) ?? appId) : appId;
        const fresh = newRecord(appId, r.ownerId ?? '', name, now);
        const reason = r.ruleId
          ? `put under the reaper by rule ${this.ruleLabel(r.ruleId)}`
          : 'put under the reaper by a route';
        const entry = this.journal.entry(fresh, 'transition', 'operator', reason, null, fresh.state);
        writes.push(this.journal.add(fresh, entry));
      } else if (r.ownerId && r.ownerId !== record.ownerId) {
        writes.push(this.journal.commit(record, { ownerId: r.ownerId }));
      }
    }
    await Promise.allSettled(writes);
  }

  private listedName(ownerId: string | null, appId: string): string | undefined {
    return ownerId ? this.core.ownerApps.get(ownerId)?.find((a) => a.id === appId)?.name : undefined;
  }

  private ruleLabel(ruleId: string): string {
    const rule = this.deps.config.rules().find((r) => r.id === ruleId);
    return rule ? `'${rule.label || rule.pattern}'` : ruleId;
  }

  // ---- operator and traffic --------------------------------------------------------------------

  /**
   * A request for the app, from any source: it counts as traffic, and asks for the app when it
   * sleeps (or is going to sleep, or not yet read). `asks` is false for traffic that only keeps an
   * app awake (a request seen in the access log of an Up app).
   */
  request(
    appId: string,
    source: TrafficSource,
    at = this.deps.clock.now(),
    handed = false,
  ): Promise<AppRecord | undefined> {
    return this.requests.request(appId, source, at, handed);
  }

  /**
   * Whether the app is asked for: its wake written, or a request that asks for it being written
   * (the access logs count a wake once).
   */
  wakeAsked(appId: string): boolean {
    return this.requests.wakeAsked(appId);
  }

  /** Team mode: the action handed over while the datastore was away, kept here until its outcome. */
  keptAction(appId: string): HandedAction['kind'] | null {
    return this.core.keptActions.get(appId)?.kind ?? null;
  }

  /** Team mode: the action kept for the app lapsed unwritten (EngineCore's `forgetKept`). */
  handOverLapsed(appId: string, action: HandedAction): void {
    this.core.forgetKept(appId, action);
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
    /** Team mode: an action handed over from another instance (never handed on again). */
    handed = false,
  ): Promise<AppRecord> {
    const record = this.mustGet(appId);
    const action: HandedAction = { kind: 'keepAwake', until };
    const elsewhere = handOver(this.core, record, source, action);
    if (elsewhere) return elsewhere.then(() => this.mustGet(appId));
    const reason =
      until === null ? 'keep awake cancelled' : `kept awake until ${new Date(until).toISOString()}`;
    try {
      await this.journal.commit(
        record,
        { keepAwakeUntil: until },
        { notes: [{ kind: 'keep-awake', actor: 'operator', reason }] },
      );
    } catch (error) {
      const later = this.later(error, record, source, action, handed);
      if (later) return later.then(() => this.mustGet(appId));
      throw error;
    }
    if (until !== null) await this.request(appId, source);
    return this.mustGet(appId);
  }

  /** The wake proxy saw the app answer a wake's first request: the wait its visitor had (history). */
  async firstAnswer(appId: string, waitMs: number, afterUpMs: number): Promise<void> {
    const record = this.core.records.get(appId);
    if (record) await this.journal.commit(record, {}, { notes: [firstAnswerNote(waitMs, afterUpMs)] });
  }

  /** Reset an app (in Error, or any state): back to WaitingForInit, read again from Clever Cloud. */
  async reset(appId: string, handed = false): Promise<AppRecord> {
    const record = this.mustGet(appId);
    const elsewhere = handOver(this.core, record, 'dashboard', { kind: 'reset' });
    if (elsewhere) return elsewhere.then(() => this.mustGet(appId));
    try {
      await this.journal.commit(record, RESET_PATCH, {
        transition: { to: 'WaitingForInit', actor: 'operator', reason: 'reset from the console' },
        kind: 'reset',
      });
    } catch (error) {
      const later = this.later(error, record, 'dashboard', { kind: 'reset' }, handed);
      if (later) return later.then(() => this.mustGet(appId));
      throw error;
    }
    await this.evaluator.evaluate(appId);
    return this.mustGet(appId);
  }

  /**
   * "Disable the reaper": release the app at once (its routes must already be disabled, or the next
   * routes change puts it back under the reaper).
   */
  async releaseNow(appId: string, handed = false): Promise<void> {
    const record = this.core.records.get(appId);
    if (!record) return;
    const elsewhere = handOver(this.core, record, 'dashboard', { kind: 'release' });
    if (elsewhere) return elsewhere;
    try {
      await this.evaluator.exclusive(appId, () =>
        this.evaluator.release(record, releaseDecision(record), 'operator'),
      );
    } catch (error) {
      const later = this.later(error, record, 'dashboard', { kind: 'release' }, handed);
      if (later) return later;
      throw error;
    }
  }

  /**
   * Something happened to an app on Clever Cloud (an event of the platform's event socket): read it
   * and decide now, without waiting for a pace.
   */
  nudge(appId: string): void {
    if (!this.core.running || !this.core.records.has(appId)) return;
    this.evaluator
      .evaluate(appId)
      .catch((error: unknown) =>
        this.deps.log?.(
          'warn',
          `reading ${appId} after a Clever Cloud event failed: ${describeError(error)}`,
        ),
      );
  }

  /** Read every app now (after the machine wakes from sleep, or when asked). */
  async reconcileNow(): Promise<void> {
    await this.scheduler.runSweep();
  }

  /** Resolves when the app reaches one of `states`, or rejects after `timeoutMs` of engine time. */
  waitFor(appId: string, states: readonly ReaperState[], timeoutMs: number): Promise<AppRecord> {
    const current = this.core.records.get(appId);
    return waitForState((l) => this.on(l), this.deps.clock, appId, current, states, timeoutMs);
  }

  /** An action whose write was refused, handed over (handover.ts: `handOverAfter`), or null. */
  private later(e: unknown, r: AppRecord, s: TrafficSource, a: HandedAction, handed: boolean) {
    return handOverAfter(this.core, e, r, s, a, { handed, storageFine: this.journal.storage === null });
  }

  private mustGet(appId: string): AppRecord {
    const record = this.core.records.get(appId);
    if (!record) throw new UnknownAppError(appId);
    return record;
  }
}

export class UnknownAppError extends Error {
  constructor(appId: string) {
    super(`no managed app ${appId}`);
    this.name = 'UnknownAppError';
  }
}
