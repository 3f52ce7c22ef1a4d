/**
 * The journal: every change of a record and its history entries, written in one transaction through
 * one door (`write`), then applied in memory and announced. A refused write is announced once (the
 * dashboard shows it) and thrown, so nothing changes in memory and no Clever Cloud call is made on an
 * unwritten decision; the first write that works again clears the announcement.
 */
import type { Actor, AppRecord, HistoryEntry, HistoryKind, ReaperState } from '../../shared/domain.ts';
import { describeError } from '../../shared/log.ts';
import type { EngineCore } from './core.ts';
import type { EngineStore } from './ports.ts';

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
  add(record: AppRecord, entry: HistoryEntry): void {
    this.write({ upsert: record, history: [entry] });
    this.core.records.set(record.appId, record);
    this.core.emit({ type: 'app', record });
    this.core.emit({ type: 'history', entry });
  }

  /** A record is forgotten; its history stays, with the entry that says why. */
  remove(record: AppRecord, entry: HistoryEntry): void {
    this.write({ remove: record.appId, history: [entry] });
    this.core.records.delete(record.appId);
    this.hooks.forgotten(record.appId);
    this.core.emit({ type: 'removed', appId: record.appId });
    this.core.emit({ type: 'history', entry });
  }

  /**
   * Apply a patch (and a transition) to a record: the record and its history entries are written
   * in one transaction, then the in-memory copy changes and listeners hear of it. Nothing changes in
   * memory when the write fails.
   */
  commit(
    record: AppRecord,
    patch: Partial<AppRecord>,
    transition?: { to: ReaperState; actor: Actor; reason: string },
    notes?: JournalNote[],
    transitionKind: HistoryKind = 'transition',
  ): AppRecord {
    if (!transition && !notes?.length && unchanged(record, patch)) return record;
    const now = this.core.deps.clock.now();
    const next: AppRecord = { ...record, ...patch };
    const history: HistoryEntry[] = [];
    if (transition) {
      next.state = transition.to;
      next.stateSince = now;
      history.push(
        this.entry(record, transitionKind, transition.actor, transition.reason, record.state, transition.to),
      );
    }
    for (const n of notes ?? []) history.push(this.entry(record, n.kind, n.actor, n.reason, null, null));
    if (history.length === 0 && sameRecord(record, next)) return record;
    this.write({ upsert: next, history });
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
    return next;
  }

  /** Commit on the record as it is now in memory (it may have changed during a call). */
  commitLatest(appId: string, patch: Partial<AppRecord>, notes: JournalNote[]): void {
    const latest = this.core.records.get(appId);
    if (latest) this.commit(latest, patch, undefined, notes);
  }

  /** Show a problem on the app (not an Error state); a refused write is only logged. */
  noteProblem(appId: string, notice: string): void {
    const record = this.core.records.get(appId);
    if (record && record.notice !== notice) {
      try {
        this.commit(record, { notice });
      } catch (error) {
        this.core.deps.log?.('error', `cannot record a problem of ${appId}: ${describeError(error)}`);
      }
    }
  }

  /** The one door: every write of the engine goes through here. */
  private write(change: Parameters<EngineStore['commit']>[0]): void {
    try {
      this.core.deps.store.commit(change);
    } catch (error) {
      const problem = `the datastore refused a write: ${describeError(error)}`;
      if (this.storageProblem !== problem) {
        this.storageProblem = problem;
        this.core.deps.log?.('error', problem);
        this.core.emit({ type: 'storage', problem });
      }
      throw error;
    }
    if (this.storageProblem !== null) {
      this.storageProblem = null;
      this.core.emit({ type: 'storage', problem: null });
    }
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
