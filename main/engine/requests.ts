/**
 * Requests for apps, from every source (wake proxy, access logs, dashboard...): each counts as
 * traffic and asks for an app that sleeps, with the members of its group. Requests of one app are
 * written one after the other, each decided on the record the one before wrote, so that
 * simultaneous requests for a sleeping app ask for it once.
 *
 * A request is never dropped for a refused write:
 * - team mode, the lease lost under it (LeaseLost: another instance took the owner over while this
 *   one stalled), or the datastore away: handed over (EngineDeps.elsewhere), a durable intent that
 *   the owner's holder acts on once it is written (team/team-sync.ts keeps it until then);
 * - traffic that only keeps an app awake, the datastore away: kept in memory (the idle clock moves),
 *   at most `KEPT_MAX` apps, and written once writes work again (`flushKept`).
 */
import type { AppRecord, TrafficSource } from '../../shared/domain.ts';
import { SECOND } from '../../shared/durations.ts';
import { describeError } from '../../shared/log.ts';
import type { By } from '../../shared/people.ts';
import { LeaseLost } from '../../shared/port-errors.ts';
import { settingsFor } from '../../shared/rules.ts';
import { actingNow } from './acting.ts';
import type { EngineCore } from './core.ts';
import { membersToWake } from './decide-group.ts';
import { wouldWakeNotes } from './decide-wake.ts';
import type { Evaluator } from './evaluator.ts';
import type { Journal } from './journal.ts';
import type { TimerHandle } from './ports.ts';
import type { TrafficCoalescer } from './traffic.ts';

/** While traffic is kept in memory, its write is tried again this often (engine time). */
const KEPT_RETRY_MS = 5 * SECOND;

/** At most this many apps' traffic is kept in memory while the datastore is away (the others counted). */
export const KEPT_MAX = 10_000;

export class Requests {
  private readonly core: EngineCore;
  private readonly journal: Journal;
  private readonly traffic: TrafficCoalescer;
  private readonly evaluator: Evaluator;
  /** Per app, the request being written: the next one waits for it. */
  private readonly requesting = new Map<string, Promise<void>>();
  /** Apps a request asks for while its write is under way. */
  private readonly asking = new Set<string>();
  /** Traffic not written (the datastore away): per app, the latest request; written when it is back. */
  private readonly kept = new Map<string, number>();
  /** Requests kept in memory, and those beyond KEPT_MAX apps not kept, since the last flush. */
  keptCount = 0;
  droppedCount = 0;
  private flushing: Promise<void> | null = null;
  private retry: TimerHandle | null = null;

  constructor(core: EngineCore, journal: Journal, traffic: TrafficCoalescer, evaluator: Evaluator) {
    this.core = core;
    this.journal = journal;
    this.traffic = traffic;
    this.evaluator = evaluator;
  }

  /**
   * A request for the app, from any source: it counts as traffic, and asks for the app when it
   * sleeps (or is going to sleep, or not yet read). `asks` is false for traffic that only keeps an
   * app awake (a request seen in the access log of an Up app).
   */
  async request(
    appId: string,
    source: TrafficSource,
    at: number,
    /** Handed over from another instance: a refusal leaves it in the datastore (never handed on again). */
    handed = false,
  ): Promise<AppRecord | undefined> {
    // Requests of one app one after the other: each decided on the record the one before wrote
    // (simultaneous requests for a sleeping app ask for it once).
    const prior = this.requesting.get(appId);
    const written = prior
      ? prior.then(() => this.writeRequest(appId, source, at, handed))
      : this.writeRequest(appId, source, at, handed);
    const settled: Promise<void> = written
      .then(
        () => undefined,
        () => undefined,
      )
      .then(() => {
        if (this.requesting.get(appId) === settled) this.requesting.delete(appId);
      });
    this.requesting.set(appId, settled);
    const outcome = await written;
    if (!outcome) return undefined;
    const { next, asks } = outcome;
    if (!asks || next === null) return outcome.record;
    await Promise.all([this.evaluator.evaluate(appId), this.wakeGroup(next, source, at)]);
    return this.core.records.get(appId) ?? next;
  }

  /**
   * Whether the app is asked for: its wake written, or a request that asks for it being written
   * (the access logs count a wake once).
   */
  wakeAsked(appId: string): boolean {
    return this.core.records.get(appId)?.wakeRequestedAt != null || this.asking.has(appId);
  }

  /** The write of a request (see request); `next` null when it was handed over or needs no write. */
  private async writeRequest(
    appId: string,
    source: TrafficSource,
    at: number,
    handed: boolean,
  ): Promise<{ record: AppRecord; next: AppRecord | null; asks: boolean } | undefined> {
    const record = this.core.records.get(appId);
    if (!record) return undefined;
    const asks =
      record.state === 'Down' || record.state === 'WaitingForShutdown' || record.state === 'WaitingForInit';
    // Team mode: the instance holding the owner's lease acts on its requests; handed over to it.
    if (!this.core.acts(record.ownerId)) {
      this.core.deps.elsewhere?.({ appId, ownerId: record.ownerId, source, at, asks, ...askedBy() });
      return { record, next: null, asks: false };
    }
    if (!asks && record.lastRequestAt !== null && at <= record.lastRequestAt) {
      return { record, next: null, asks: false };
    }
    // Steady traffic on an awake app: noted (the wake proxy's hot path), applied to the record within
    // a second or before the app's next decision, written with its next change.
    if (!asks && this.traffic.noted(record, at, source)) return { record, next: null, asks: false };
    this.traffic.written(appId, at);
    const patch: Partial<AppRecord> = {};
    if (record.lastRequestAt === null || at > record.lastRequestAt) {
      patch.lastRequestAt = at;
      patch.lastRequestSource = source;
    }
    if (asks && record.wakeRequestedAt === null) {
      patch.wakeRequestedAt = at;
      patch.lastRequestSource = source;
    }
    const dryRun = settingsFor(this.core.settings, this.core.routing.get(appId)).dryRun;
    if (asks) this.asking.add(appId);
    try {
      const next = await this.journal.commit(record, patch, {
        notes: wouldWakeNotes(record, dryRun, at, source),
      });
      return { record: next, next, asks };
    } catch (error) {
      if (!handed && this.keptAfter(error, record, source, at, asks)) {
        return { record, next: null, asks: false };
      }
      throw error;
    } finally {
      if (asks) this.asking.delete(appId);
    }
  }

  /**
   * A request whose write was refused: handed over (team mode) or kept in memory (traffic); false
   * when neither applies (solo mode, a wake: the caller hears the refusal).
   */
  private keptAfter(
    error: unknown,
    record: AppRecord,
    source: TrafficSource,
    at: number,
    asks: boolean,
  ): boolean {
    const lost = error instanceof LeaseLost;
    const elsewhere = this.core.deps.elsewhere;
    if (elsewhere && (lost || asks)) {
      elsewhere({ appId: record.appId, ownerId: record.ownerId, source, at, asks, ...askedBy() });
      return true;
    }
    if (lost || asks) return false;
    this.keep(record.appId, at);
    return true;
  }

  /** Traffic of an awake app not written: its idle clock moves in memory; written once writes work. */
  private keep(appId: string, at: number): void {
    const before = this.kept.get(appId);
    if (before === undefined && this.kept.size >= KEPT_MAX) {
      this.droppedCount++;
      return;
    }
    this.keptCount++;
    if (before === undefined || at > before) this.kept.set(appId, at);
    this.traffic.keep(appId, at);
    this.armRetry();
  }

  /** Try the kept traffic's write again in a while (a write that works flushes it sooner). */
  private armRetry(): void {
    if (this.retry || !this.core.running) return;
    this.retry = this.core.deps.clock.setTimeout(() => {
      this.retry = null;
      this.flushKept().then(
        () => {
          if (this.kept.size) this.armRetry();
        },
        (error: unknown) => this.core.deps.log?.('error', `kept traffic: ${describeError(error)}`),
      );
    }, KEPT_RETRY_MS);
  }

  /** The engine stops: no more retries (what is kept is lost with the process, said in the log). */
  stop(): void {
    if (this.retry) this.core.deps.clock.clearTimeout(this.retry);
    this.retry = null;
    if (this.kept.size) {
      this.core.deps.log?.(
        'warn',
        `the traffic of ${this.kept.size} apps seen while the datastore was away was not written before the stop`,
      );
    }
  }

  /** Whether traffic waits to be written (the datastore was away). */
  get keeping(): boolean {
    return this.kept.size > 0;
  }

  /**
   * Write the traffic kept while the datastore was away (called once a write works again, and on
   * the engine's retries). Those still refused stay kept. Never rejects.
   */
  flushKept(): Promise<void> {
    if (this.kept.size === 0) return Promise.resolve();
    this.flushing ??= this.flushNow().finally(() => {
      this.flushing = null;
    });
    return this.flushing;
  }

  private async flushNow(): Promise<void> {
    const kept = [...this.kept];
    const counts = { kept: this.keptCount, dropped: this.droppedCount };
    this.kept.clear();
    this.keptCount = 0;
    this.droppedCount = 0;
    const failed: string[] = [];
    await Promise.all(
      kept.map(async ([appId, at]) => {
        const latest = this.traffic.apply(appId);
        // Released, or another instance acts on it now (its own traffic is its own).
        if (!latest || !this.core.acts(latest.ownerId)) return;
        const lastRequestAt = Math.max(at, latest.lastRequestAt ?? at);
        try {
          // Written even when memory already has it: memory moved without a write.
          await this.journal.commit(latest, { lastRequestAt }, { beforeCall: true });
        } catch (error) {
          if (error instanceof LeaseLost) return;
          failed.push(describeError(error));
          const again = this.kept.get(appId);
          if (again === undefined || at > again) this.kept.set(appId, at);
        }
      }),
    );
    const written = kept.length - failed.length;
    if (written > 0) {
      this.core.deps.log?.(
        'info',
        `traffic seen while the datastore was away is written: ${counts.kept} requests of ${written} apps kept in memory${counts.dropped ? `, ${counts.dropped} requests of further apps not kept (over ${KEPT_MAX} apps)` : ''}`,
      );
    }
  }

  /**
   * A request asked for a member of a group: the other members that sleep are asked for too (the
   * history of each says "woken with its group (request for ...)"). Members in Error stay alone.
   * Team mode: a member whose owner another instance acts on is handed over to it, as any wake.
   */
  private async wakeGroup(record: AppRecord, source: TrafficSource, at: number): Promise<void> {
    const members = membersToWake(record.appId, this.core.membersOf(record.appId));
    await Promise.all(
      members.map(async (m) => {
        if (!this.core.acts(m.ownerId)) {
          this.core.deps.elsewhere?.({
            appId: m.appId,
            ownerId: m.ownerId,
            source,
            at,
            asks: true,
            ...askedBy(),
          });
          return;
        }
        this.core.groupWakes.set(m.appId, record.name);
        try {
          await this.journal.commit(m, { wakeRequestedAt: at, lastRequestSource: source });
        } catch (error) {
          // Announced by the journal; team mode: handed over (a lease lost, the datastore away).
          this.keptAfter(error, m, source, at, true);
          return;
        }
        await this.evaluator.evaluate(m.appId);
      }),
    );
  }
}

/** Who asks, when a person does (a wake from the dashboard or the API), for a request handed over. */
function askedBy(): { by?: By } {
  const by = actingNow();
  return by ? { by } : {};
}
