/**
 * The scheduling loop: two paces (every app every `intervalMs`; apps in transit and apps a request
 * asked for every `fastIntervalMs`), plus one timer for the earliest per-app due time (the end of a
 * grace period, the start of a must-be-up range, a fail timeout). Each pace is a chain of timeouts
 * armed when the previous run ends, so a slow Clever Cloud never stacks ticks.
 */
import { type AppRecord, isInTransit } from '../../shared/domain.ts';
import { SECOND } from '../../shared/durations.ts';
import { describeError } from '../../shared/log.ts';
import type { EngineCore } from './core.ts';
import { nextDueAt } from './decide.ts';
import { DueQueue } from './due-queue.ts';
import type { Evaluator } from './evaluator.ts';
import type { Journal } from './journal.ts';
import type { CleverApp, TimerHandle } from './ports.ts';

/** Clever Cloud calls run at once, across apps and owners. */
const CONCURRENCY = 8;
/** No loop runs again sooner than this after its previous run ended. */
const FLOOR_MS = SECOND;

export interface SchedulerHooks {
  /** Before each sweep: put newly routed apps under the reaper (resolves once they are written). */
  adopt(): Promise<void>;
  /** Owners to read besides those of managed apps (the rules' owners). */
  extraOwners(): Promise<string[]>;
  /** The application lists the sweep read, before its decisions: the rules match against them. */
  listed(lists: ReadonlyMap<string, ReadonlyMap<string, CleverApp>>): Promise<void>;
  /** After each sweep (the first one resolves `firstSweep`). */
  swept(): void;
}

export class Scheduler {
  private due = new DueQueue();
  private dueTimer: { handle: TimerHandle; at: number } | null = null;
  private sweepTimer: TimerHandle | null = null;
  private fastTimer: TimerHandle | null = null;
  private sweeping: Promise<void> | null = null;

  private readonly core: EngineCore;
  private readonly journal: Journal;
  private readonly evaluator: Evaluator;
  private readonly hooks: SchedulerHooks;

  constructor(core: EngineCore, journal: Journal, evaluator: Evaluator, hooks: SchedulerHooks) {
    this.core = core;
    this.journal = journal;
    this.evaluator = evaluator;
    this.hooks = hooks;
  }

  /** Start both paces: the first sweep runs at once. */
  start(): void {
    this.armSweep(0);
    this.armFast(this.nextTick(this.core.settings.fastIntervalMs, this.core.deps.clock.now()));
  }

  /** Clear every timer; the sweep under way, if any (to wait for). */
  stop(): Promise<void> | null {
    for (const t of [this.sweepTimer, this.fastTimer, this.dueTimer?.handle]) {
      if (t) this.core.deps.clock.clearTimeout(t);
    }
    this.sweepTimer = this.fastTimer = this.dueTimer = null;
    return this.sweeping;
  }

  /** The interval changed: the waiting sweep is armed again on the new one (a running one re-arms itself). */
  rearmSweep(): void {
    if (!this.core.running || !this.sweepTimer || this.sweeping) return;
    this.core.deps.clock.clearTimeout(this.sweepTimer);
    this.armSweep(this.nextTick(this.core.settings.intervalMs, this.core.deps.clock.now()));
  }

  /** The time an app is next looked at outside the paces. */
  dueAt(appId: string): number | null {
    return this.due.get(appId);
  }

  refreshDue(record: AppRecord): void {
    const at = nextDueAt(record, this.core.context(record.appId));
    this.due.set(record.appId, at !== null && at > this.core.deps.clock.now() ? at : null);
    this.armDue();
  }

  forget(appId: string): void {
    this.due.set(appId, null);
  }

  /** Every app: one application list per owner, then a decision per app. */
  async runSweep(): Promise<void> {
    if (this.sweeping) return this.sweeping;
    const started = performance.now();
    const run = (async () => {
      await this.hooks.adopt();
      const owners = groupByOwner(this.acted(this.core.records.values()));
      for (const ownerId of await this.hooks.extraOwners()) {
        if (!owners.has(ownerId) && this.core.acts(ownerId)) owners.set(ownerId, []);
      }
      // First every list (the rules match against them and adopt new apps), then the decisions.
      const lists = new Map<string, Map<string, CleverApp>>();
      await mapLimit([...owners], CONCURRENCY, async ([ownerId, appIds]) => {
        const apps = await this.readOwner(ownerId, appIds, true);
        if (apps) lists.set(ownerId, apps);
      });
      if (!this.core.running) return;
      await this.hooks.listed(lists);
      const managed = groupByOwner(this.acted(this.core.records.values()));
      await mapLimit([...lists], CONCURRENCY, ([ownerId, apps]) =>
        this.decideListed(managed.get(ownerId) ?? [], apps),
      );
    })();
    this.sweeping = run;
    try {
      await run;
    } finally {
      this.sweeping = null;
      this.hooks.swept();
      this.core.emitTick('sweep', started, this.core.records.size);
    }
  }

  /**
   * Both paces tick at multiples of their interval on the engine's clock (hh:mm:00, :30; every 5 s),
   * whenever the engine started: a restarted engine looks at its apps at the same moments as before.
   * A run that takes longer than the interval skips the ticks it overlapped instead of stacking them.
   */
  private nextTick(interval: number, earliest: number): number {
    const now = this.core.deps.clock.now();
    const at = Math.max(earliest, now);
    return Math.ceil((at + 1) / interval) * interval - now;
  }

  private armSweep(delay: number): void {
    if (!this.core.running) return;
    this.sweepTimer = this.core.deps.clock.setTimeout(() => {
      this.background('a sweep', this.runSweep(), () => {
        const now = this.core.deps.clock.now();
        this.armSweep(this.nextTick(this.core.settings.intervalMs, now + FLOOR_MS));
      });
    }, delay);
  }

  private armFast(delay: number): void {
    if (!this.core.running) return;
    this.fastTimer = this.core.deps.clock.setTimeout(() => {
      this.background('a fast tick', this.runFast(), () => {
        const now = this.core.deps.clock.now();
        this.armFast(this.nextTick(this.core.settings.fastIntervalMs, now + FLOOR_MS));
      });
    }, delay);
  }

  /**
   * Work a timer started, that nobody awaits: a failure is logged, saying what failed, and the loop
   * goes on (`then` runs either way, as a `finally` would).
   */
  private background(what: string, work: Promise<void>, then: () => void = () => {}): void {
    work.then(then, (error: unknown) => {
      this.core.deps.log?.('error', `${what} failed: ${describeError(error, { stack: true })}`);
      then();
    });
  }

  /** Keep one timer armed for the earliest due time (a timer that fires early just re-arms). */
  private armDue(): void {
    if (!this.core.running) return;
    const at = this.due.peek();
    if (this.dueTimer && at !== null && this.dueTimer.at <= at) return;
    if (this.dueTimer) this.core.deps.clock.clearTimeout(this.dueTimer.handle);
    this.dueTimer = null;
    if (at === null) return;
    const handle = this.core.deps.clock.setTimeout(
      () => {
        this.dueTimer = null;
        this.background('a due check', this.runDue());
      },
      Math.max(0, at - this.core.deps.clock.now()),
    );
    this.dueTimer = { handle, at };
  }

  private async runDue(): Promise<void> {
    const started = performance.now();
    const appIds = this.due.popDue(this.core.deps.clock.now());
    this.armDue();
    if (appIds.length) await this.evaluateFresh(appIds);
    this.core.emitTick('due', started, appIds.length);
  }

  /** Apps in transit, apps a request asked for, apps with a call to confirm. */
  private async runFast(): Promise<void> {
    const started = performance.now();
    const targets = this.acted(this.core.records.values()).filter(
      (r) => isInTransit(r.state) || r.wakeRequestedAt !== null || r.pendingCall !== null,
    );
    await this.evaluateFresh(targets.map((r) => r.appId));
    this.core.emitTick('fast', started, targets.length);
  }

  /** Evaluate these apps on a fresh read: one get per app, or one list when an owner has several. */
  private async evaluateFresh(appIds: string[]): Promise<void> {
    const { records } = this.core;
    const owners = groupByOwner(
      this.acted(appIds.map((id) => records.get(id)).filter((r) => r !== undefined)),
    );
    await mapLimit([...owners], CONCURRENCY, async ([ownerId, ids]) => {
      if (ids.length === 1) {
        await this.evaluator.evaluate(ids[0]!);
        return;
      }
      const apps = await this.readOwner(ownerId, ids, false);
      if (apps) await this.decideListed(ids, apps);
    });
  }

  /**
   * Decide on these apps of one owner from its application list. Most call nothing: decided and
   * written at once, their writes in one batch (one commit); the others are evaluated, a few at a
   * time (their Clever Cloud calls).
   */
  private async decideListed(appIds: readonly string[], apps: ReadonlyMap<string, CleverApp>): Promise<void> {
    const settled = await Promise.all(
      appIds.map((appId) => this.evaluator.settledAtOnce(appId, apps.get(appId) ?? null)),
    );
    const rest = appIds.filter((_, i) => !settled[i]);
    await mapLimit(rest, CONCURRENCY, (appId) => this.evaluator.evaluate(appId, apps.get(appId) ?? null));
  }

  /** The records of the owners this instance acts on (all, outside team mode). */
  private acted(records: Iterable<AppRecord>): AppRecord[] {
    return [...records].filter((r) => this.core.acts(r.ownerId));
  }

  private async readOwner(
    ownerId: string,
    appIds: string[],
    sweep: boolean,
  ): Promise<Map<string, CleverApp> | null> {
    try {
      const apps = await this.core.deps.clever.listApplications(ownerId, { signal: this.core.abort.signal });
      return new Map(apps.map((a) => [a.id, a]));
    } catch (error) {
      if (!this.core.running) return null;
      const message = describeError(error);
      this.core.deps.log?.('warn', `cannot list the applications of ${ownerId}: ${message}`);
      if (sweep) this.core.emit({ type: 'owner-unreachable', ownerId, message });
      // Never rejects (a refused write is logged); written together, in one batch.
      await Promise.all(
        appIds.map((appId) => this.journal.noteProblem(appId, `Clever Cloud could not be read: ${message}`)),
      );
      return null;
    }
  }
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
