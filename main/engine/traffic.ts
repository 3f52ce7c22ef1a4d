/**
 * Traffic coalescing: steady traffic on an awake app (the wake proxy's hot path) is noted here and
 * applied to the record within a second, or before the app's next decision, then written with its
 * next change; the datastore sees at most one request write per app and second.
 */
import type { AppRecord, TrafficSource } from '../../shared/domain.ts';
import { SECOND } from '../../shared/durations.ts';
import type { EngineCore } from './core.ts';
import type { TimerHandle } from './ports.ts';

/** Steady traffic on an awake app updates its last request in the datastore at most this often. */
const TRAFFIC_WRITE_MS = SECOND;

export class TrafficCoalescer {
  /** The latest request time of apps with steady traffic, not yet applied to their record. */
  private pending = new Map<string, number>();
  private timer: TimerHandle | null = null;
  private writtenAt = new Map<string, number>();

  private readonly core: EngineCore;
  /** A record changed in memory (its due time may have moved). */
  private readonly changed: (record: AppRecord) => void;

  constructor(core: EngineCore, changed: (record: AppRecord) => void) {
    this.core = core;
    this.changed = changed;
  }

  /**
   * A request that does not ask for the app: true when it is noted for later (the same source wrote
   * less than a second ago), false when it is to be written now.
   */
  noted(record: AppRecord, at: number, source: TrafficSource): boolean {
    const written = this.writtenAt.get(record.appId);
    if (written === undefined || at - written >= TRAFFIC_WRITE_MS || source !== record.lastRequestSource)
      return false;
    const pending = this.pending.get(record.appId);
    if (pending === undefined || at > pending) this.pending.set(record.appId, at);
    this.armFlush();
    return true;
  }

  /**
   * Traffic whose write was refused (the datastore away): applied to the record in memory within a
   * second, as steady traffic is, so that the app's idle clock moves (requests.ts writes it later).
   */
  keep(appId: string, at: number): void {
    const pending = this.pending.get(appId);
    if (pending === undefined || at > pending) this.pending.set(appId, at);
    this.armFlush();
  }

  /** A request of the app is being written now. */
  written(appId: string, at: number): void {
    this.writtenAt.set(appId, at);
  }

  /** Apply the steady traffic noted for an app to its record (in memory); the record as it is then. */
  apply(appId: string): AppRecord | undefined {
    const at = this.pending.get(appId);
    const record = this.core.records.get(appId);
    if (at === undefined) return record;
    this.pending.delete(appId);
    if (!record || (record.lastRequestAt !== null && at <= record.lastRequestAt)) return record;
    const next = { ...record, lastRequestAt: at };
    this.core.records.set(appId, next);
    this.changed(next);
    return next;
  }

  stop(): void {
    if (this.timer) this.core.deps.clock.clearTimeout(this.timer);
    this.timer = null;
  }

  private armFlush(): void {
    if (this.timer || !this.core.running) return;
    this.timer = this.core.deps.clock.setTimeout(() => {
      this.timer = null;
      for (const appId of [...this.pending.keys()]) this.apply(appId);
    }, TRAFFIC_WRITE_MS);
  }
}
