/**
 * Requests for apps, from every source (wake proxy, access logs, dashboard...): each counts as
 * traffic and asks for an app that sleeps, with the members of its group. Requests of one app are
 * written one after the other, each decided on the record the one before wrote, so that
 * simultaneous requests for a sleeping app ask for it once.
 */
import type { AppRecord, TrafficSource } from '../../shared/domain.ts';
import { settingsFor } from '../../shared/rules.ts';
import type { EngineCore } from './core.ts';
import { membersToWake } from './decide-group.ts';
import { wouldWakeNotes } from './decide-wake.ts';
import type { Evaluator } from './evaluator.ts';
import type { Journal } from './journal.ts';
import type { TrafficCoalescer } from './traffic.ts';

export class Requests {
  private readonly core: EngineCore;
  private readonly journal: Journal;
  private readonly traffic: TrafficCoalescer;
  private readonly evaluator: Evaluator;
  /** Per app, the request being written: the next one waits for it. */
  private readonly requesting = new Map<string, Promise<void>>();
  /** Apps a request asks for while its write is under way. */
  private readonly asking = new Set<string>();

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
  async request(appId: string, source: TrafficSource, at: number): Promise<AppRecord | undefined> {
    // Requests of one app one after the other: each decided on the record the one before wrote
    // (simultaneous requests for a sleeping app ask for it once).
    const prior = this.requesting.get(appId);
    const written = prior
      ? prior.then(() => this.writeRequest(appId, source, at))
      : this.writeRequest(appId, source, at);
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
  ): Promise<{ record: AppRecord; next: AppRecord | null; asks: boolean } | undefined> {
    const record = this.core.records.get(appId);
    if (!record) return undefined;
    const asks =
      record.state === 'Down' || record.state === 'WaitingForShutdown' || record.state === 'WaitingForInit';
    // Team mode: the instance holding the owner's lease acts on its requests; handed over to it.
    if (!this.core.acts(record.ownerId)) {
      this.core.deps.elsewhere?.({ appId, ownerId: record.ownerId, source, at, asks });
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
    } finally {
      if (asks) this.asking.delete(appId);
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
          this.core.deps.elsewhere?.({ appId: m.appId, ownerId: m.ownerId, source, at, asks: true });
          return;
        }
        this.core.groupWakes.set(m.appId, record.name);
        try {
          await this.journal.commit(m, { wakeRequestedAt: at, lastRequestSource: source });
        } catch {
          return; // announced by the journal (a lease lost meanwhile: the new holder acts)
        }
        await this.evaluator.evaluate(m.appId);
      }),
    );
  }
}
