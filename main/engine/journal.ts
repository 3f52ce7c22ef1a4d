/**
 * The journal: every change of a record and its history entries, written in one transaction through
 * one door (`write`), then applied in memory and announced. A refused write is announced once (the
 * dashboard shows it) and thrown, so nothing changes in memory and no Clever Cloud call is made on an
 * unwritten decision; the first write that works again clears the announcement.
 */
import type { Actor, AppRecord, HistoryEntry, HistoryKind, ReaperState } from '../../shared/domain.ts';
import { describeError } from '../../shared/log.ts';
import type { EngineCore } from './core.ts';
import { LeaseLost, type StoreCommit } from './ports.ts';

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
}

export class Journal {
  private storageProblem: string | null = null;
  /** Per app, the write under way on a store that answers later: the next write of that app waits. */
  private readonly pending = new Map<string, Promise<unknown>>();

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
    return { appId: record.appId, at: this.core.deps.clock.now(), kind, from, to, actor, reason };
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
   * memory when the write fails (the promise rejects). On a store that answers at once, all of it is
   * done when this returns.
   *
   * Queued behind another write of the same app (a store that answers later), the patch applies to
   * the record as that write left it; a transition decided on a state the app has left meanwhile is
   * refused (StaleDecision), never applied to a state it was not decided on.
   *
   * `beforeCall`: a Clever Cloud call follows this write, so it is written even when it changes
   * nothing (a stop sent again): in team mode every call then follows a write that checked the
   * lease in its own transaction.
   */
  commit(
    record: AppRecord,
    patch: Partial<AppRecord>,
    transition?: { to: ReaperState; actor: Actor; reason: string },
    notes?: JournalNote[],
    transitionKind: HistoryKind = 'transition',
    beforeCall = false,
  ): Promise<AppRecord> {
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
    if (latest) await this.commit(latest, patch, undefined, notes);
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

  /**
   * Writes of one app one after the other. `plan` is called when the write can start (`queued`: it
   * waited for another), and says what to write and what to apply once written (null: nothing to
   * do). On a store that answers at once, with nothing queued, it all happens before this returns.
   */
  private serial(appId: string, plan: (queued: boolean) => Planned | null): Promise<void> {
    const before = this.pending.get(appId);
    const run = (queued: boolean): void | Promise<void> => {
      const planned = plan(queued);
      if (!planned) return;
      const written = this.write(planned.change, planned.ownerId);
      if (written) return written.then(planned.apply);
      planned.apply();
    };
    let done: void | Promise<void>;
    try {
      done = before ? before.then(() => run(true)) : run(false);
    } catch (error) {
      return Promise.reject(error);
    }
    if (!done) return Promise.resolve();
    const settled = done.catch(() => {});
    this.pending.set(appId, settled);
    void settled.then(() => {
      if (this.pending.get(appId) === settled) this.pending.delete(appId);
    });
    return done;
  }

  /**
   * The one door: every write of the engine goes through here (with the owner's lease, in team
   * mode). A refusal is announced once and rethrown; the first write that works clears it.
   */
  private write(change: StoreCommit, ownerId: string): void | Promise<void> {
    const guard = this.core.deps.leaseGuard?.(ownerId) ?? null;
    let answer: void | Promise<void>;
    try {
      answer = guard ? this.core.deps.store.commit(change, guard) : this.core.deps.store.commit(change);
    } catch (error) {
      this.refused(error);
      throw error;
    }
    if (answer && typeof answer.then === 'function') {
      return answer.then(
        () => this.worked(),
        (error: unknown) => {
          this.refused(error);
          throw error;
        },
      );
    }
    this.worked();
  }

  private refused(error: unknown): void {
    if (error instanceof LeaseLost) {
      // A handover between instances (team mode): the new holder acts; nothing is wrong with storage.
      this.core.deps.log?.('info', `a write was not made: ${error.message}`);
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
    }
  }
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
