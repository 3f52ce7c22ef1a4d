/**
 * The journal: every change of a record and its history entries, written in one transaction through
 * one door (`write`), then applied in memory and announced. A refused write is announced once (the
 * dashboard shows it) and thrown, so nothing changes in memory and no Clever Cloud call is made on an
 * unwritten decision; the first write that works again clears the announcement.
 */
import type { Actor, AppRecord, HistoryEntry, HistoryKind, ReaperState } from '../../shared/domain.ts';
import { describeError } from '../../shared/log.ts';
import { LeaseLost, type StoreCommit } from '../../shared/port-errors.ts';
import { actingNow } from './acting.ts';
import type { EngineCore } from './core.ts';

export interface JournalNote {
  kind: HistoryKind;
  actor: Actor;
  reason: string;
}

export interface JournalHooks {
  /** A record changed in memory (its due time may have moved). */
  changed(record: AppRecord): void;
  /** A record was forgotten (released). */
  forgotten(appId: string): void;
  /** Writes work again after a refusal (what was kept in memory meanwhile can be written). */
  recovered?(): void;
}

export class Journal {
  private storageProblem: string | null = null;
  /** Per app, the write under way: the next write of that app waits for it. */
  private readonly pending = new Map<string, Promise<unknown>>();
  /** Per owner, the writes asked for in this turn, sent together at its end. */
  private readonly batches = new Map<string, Batch>();

  private readonly core: EngineCore;
  private readonly hooks: JournalHooks;

  constructor(core: EngineCore, hooks: JournalHooks) {
    this.core = core;
    this.hooks = hooks;
  }

  /** The datastore's refusal, while writes fail; null when they work. */
  get storage(): string | null {
    return this.storageProblem;
  }

  entry(
    record: AppRecord,
    kind: HistoryKind,
    actor: Actor,
    reason: string,
    from: ReaperState | null,
    to: ReaperState | null,
  ): HistoryEntry {
    const at = this.core.deps.clock.now();
    // Who asked: only on what a person asked for (a reset's own evaluation is the reaper's).
    const by = actor === 'operator' ? actingNow() : null;
    return { appId: record.appId, at, kind, from, to, actor, reason, ...(by ? { by } : {}) };
  }

  /** A record enters the engine, with the entry that says why. */
  add(record: AppRecord, entry: HistoryEntry): Promise<void> {
    return this.serial(record.appId, (queued) => {
      // Queued behind another write of the app: it may have entered meanwhile.
      if (queued && this.core.records.has(record.appId)) return null;
      return {
        ownerId: record.ownerId,
        change: { upsert: record, history: [entry] },
        apply: () => {
          this.core.records.set(record.appId, record);
          this.core.emit({ type: 'app', record });
          this.core.emit({ type: 'history', entry });
          // Its due time (a new record is decided on at once).
          this.hooks.changed(record);
        },
      };
    });
  }

  /** A record is forgotten; its history stays, with the entry that says why. */
  remove(record: AppRecord, entry: HistoryEntry): Promise<void> {
    return this.serial(record.appId, () => ({
      ownerId: record.ownerId,
      change: { remove: record.appId, history: [entry] },
      apply: () => {
        this.core.records.delete(record.appId);
        this.hooks.forgotten(record.appId);
        this.core.emit({ type: 'removed', appId: record.appId });
        this.core.emit({ type: 'history', entry });
      },
    }));
  }

  /**
   * Apply a patch (and a transition) to a record: the record and its history entries are written
   * in one transaction, then the in-memory copy changes and listeners hear of it. Nothing changes in
   * memory when the write fails (the promise rejects).
   *
   * Queued behind another write of the same app, the patch applies to the record as that write left
   * it; a transition decided on a state the app has left meanwhile is refused (StaleDecision), never
   * applied to a state it was not decided on.
   *
   * `beforeCall`: a Clever Cloud call follows this write, so it is written even when it changes
   * nothing (a stop sent again): in team mode every call then follows a write that checked the
   * lease in its own transaction.
   */
  commit(record: AppRecord, patch: Partial<AppRecord>, options: CommitOptions = {}): Promise<AppRecord> {
    const { transition, notes, kind: transitionKind = 'transition', beforeCall = false } = options;
    let result = record;
    return this.serial(record.appId, (queued) => {
      let base = record;
      if (queued) {
        const latest = this.core.records.get(record.appId);
        if (!latest) return null;
        if (transition && latest.state !== record.state) throw new StaleDecision(record, latest);
        base = latest;
        result = latest;
      }
      if (!beforeCall && !transition && !notes?.length && unchanged(base, patch)) return null;
      const now = this.core.deps.clock.now();
      const next: AppRecord = { ...base, ...patch };
      const history: HistoryEntry[] = [];
      if (transition) {
        next.state = transition.to;
        next.stateSince = now;
        history.push(
          this.entry(base, transitionKind, transition.actor, transition.reason, base.state, transition.to),
        );
      }
      for (const n of notes ?? []) history.push(this.entry(base, n.kind, n.actor, n.reason, null, null));
      if (!beforeCall && history.length === 0 && sameRecord(base, next)) return null;
      return {
        ownerId: base.ownerId,
        change: { upsert: next, history },
        apply: () => {
          result = next;
          this.core.records.set(next.appId, next);
          this.core.emit({ type: 'app', record: next });
          for (const entry of history) this.core.emit({ type: 'history', entry });
          if (transition?.to === 'Error') {
            this.core.emit({
              type: 'alert',
              appId: next.appId,
              name: next.name,
              cause: next.cause ?? transition.reason,
            });
          }
          this.hooks.changed(next);
        },
      };
    }).then(() => result);
  }

  /** Commit on the record as it is now in memory (it may have changed during a call). */
  async commitLatest(appId: string, patch: Partial<AppRecord>, notes: JournalNote[]): Promise<void> {
    const latest = this.core.records.get(appId);
    if (latest) await this.commit(latest, patch, { notes });
  }

  /** Show a problem on the app (not an Error state); a refused write is only logged. Never rejects. */
  async noteProblem(appId: string, notice: string): Promise<void> {
    const record = this.core.records.get(appId);
    if (record && record.notice !== notice) {
      try {
        await this.commit(record, { notice });
      } catch (error) {
        this.core.deps.log?.('error', `cannot record a problem of ${appId}: ${describeError(error)}`);
      }
    }
  }

  /** Whether a write is queued or under way. */
  get busy(): boolean {
    return this.pending.size > 0;
  }

  /** Resolves when every write queued so far (and those they queue) has settled. */
  async idle(): Promise<void> {
    while (this.pending.size) await Promise.all(this.pending.values());
  }

  /**
   * Writes of one app one after the other. `plan` is called when the write can start (`queued`: it
   * waited for another), and says what to write and what to apply once written (null: nothing to
   * do).
   */
  private serial(appId: string, plan: (queued: boolean) => Planned | null): Promise<void> {
    const before = this.pending.get(appId);
    const run = async (queued: boolean): Promise<void> => {
      const planned = plan(queued);
      if (!planned) return;
      await this.write(planned.change, planned.ownerId);
      planned.apply();
    };
    const done = before ? before.then(() => run(true)) : run(false);
    // Settles with the write, whatever its outcome (the caller has the outcome), then forgets itself.
    const settled: Promise<void> = done
      .then(
        () => undefined,
        () => undefined,
      )
      .then(() => {
        if (this.pending.get(appId) === settled) this.pending.delete(appId);
      });
    this.pending.set(appId, settled);
    return done;
  }

  /**
   * The one door: every write of the engine goes through here (with the owner's lease, in team
   * mode). Writes asked for in the same turn of the event loop (a sweep's, an adoption's) are batched
   * per owner and
   * sent as one commit: one transaction, the guard checked once; all are written or none. A refusal
   * is announced once and rethrown to each; the first write that works clears it.
   */
  private write(change: StoreCommit, ownerId: string): Promise<void> {
    let batch = this.batches.get(ownerId);
    if (!batch) {
      const created: Batch = { changes: [], settle: [] };
      batch = created;
      this.batches.set(ownerId, created);
      // At the end of this turn of the event loop: the writes of evaluations running side by side
      // (a sweep's, eight at a time) go together.
      setImmediate(() => {
        this.batches.delete(ownerId);
        this.flush(ownerId, created);
      });
    }
    const queued = batch;
    return new Promise<void>((resolve, reject) => {
      queued.changes.push(change);
      queued.settle.push({ resolve, reject });
    });
  }

  private flush(ownerId: string, batch: Batch): void {
    const settleAll = (error?: unknown) => {
      for (const s of batch.settle) error === undefined ? s.resolve() : s.reject(error);
    };
    let answer: Promise<void>;
    try {
      const guard = this.core.deps.leaseGuard?.(ownerId) ?? null;
      const changes = batch.changes.length === 1 ? batch.changes[0]! : batch.changes;
      answer = guard ? this.core.deps.store.commit(changes, guard) : this.core.deps.store.commit(changes);
    } catch (error) {
      answer = Promise.reject(error);
    }
    answer.then(
      () => {
        this.worked();
        settleAll();
      },
      (error: unknown) => {
        this.refused(error);
        settleAll(error);
      },
    );
  }

  private refused(error: unknown): void {
    if (error instanceof LeaseLost) {
      // A handover between instances (team mode): the new holder acts; nothing is wrong with storage.
      this.core.deps.log?.('info', `a write was not made: ${error.message}`);
      this.core.deps.leaseLost?.(error.guard.ownerId);
      return;
    }
    const problem = `the datastore refused a write: ${describeError(error)}`;
    if (this.storageProblem !== problem) {
      this.storageProblem = problem;
      this.core.deps.log?.('error', problem);
      this.core.emit({ type: 'storage', problem });
    }
  }

  private worked(): void {
    if (this.storageProblem !== null) {
      this.storageProblem = null;
      this.core.emit({ type: 'storage', problem: null });
      this.hooks.recovered?.();
    }
  }
}

/** What Journal.commit writes besides the patch. */
export interface CommitOptions {
  /** A change of state, with the history entry that says who and why. */
  transition?: { to: ReaperState; actor: Actor; reason: string } | undefined;
  /** Entries that change no state (notes, calls asked). */
  notes?: readonly JournalNote[] | undefined;
  /** The kind of the transition's entry (default 'transition'; 'reset' for a reset). */
  kind?: HistoryKind | undefined;
  /** A Clever Cloud call follows: written even when it changes nothing (see commit). */
  beforeCall?: boolean | undefined;
}

interface Batch {
  changes: StoreCommit[];
  settle: { resolve: () => void; reject: (error: unknown) => void }[];
}

interface Planned {
  /** The owner whose lease fences the write (team mode). */
  ownerId: string;
  change: StoreCommit;
  apply: () => void;
}

/** A transition decided on a state the app left while an earlier write of it was under way. */
export class StaleDecision extends Error {
  constructor(decidedOn: AppRecord, now: AppRecord) {
    super(
      `${decidedOn.appId} went from ${decidedOn.state} to ${now.state} while this decision was written: decided again at its next run`,
    );
    this.name = 'StaleDecision';
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
