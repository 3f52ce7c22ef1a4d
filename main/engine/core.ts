/**
 * What the parts of the engine share: its ports, the records in memory, the routes, the listeners
 * and whether it runs. The Engine owns one and hands it to the journal, the traffic coalescer, the
 * evaluator and the scheduler; none of them is visible outside main/engine.
 */
import type { AppRecord, HistoryEntry } from '../../shared/domain.ts';
import { describeError, type Log } from '../../shared/log.ts';
import type { AppRouting } from '../../shared/routes.ts';
import { Schedule } from '../../shared/schedule.ts';
import type { DecisionContext } from './decide.ts';
import type { CleverCloudPort, Clock, EngineConfig, EngineStore, LeaseGuard } from './ports.ts';

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
  /**
   * Team mode: the lease this instance holds on an owner, checked by the datastore in the same
   * transaction as each write of that owner's apps (none: writes are not fenced).
   */
  leaseGuard?: (ownerId: string) => LeaseGuard | null;
  /** Diagnostics; never given a credential. */
  log?: Log;
}

export class EngineCore {
  records = new Map<string, AppRecord>();
  routing = new Map<string, AppRouting>();
  schedules = new Map<string, Schedule>();
  readonly listeners = new Set<EngineListener>();
  running = false;
  /** Aborted by stop(): the Clever Cloud calls under way end at once. */
  abort = new AbortController();
  private readonly emptySchedule = new Schedule([]);

  readonly deps: EngineDeps;

  constructor(deps: EngineDeps) {
    this.deps = deps;
  }

  get settings() {
    return this.deps.config.settings();
  }

  scheduleOf(appId: string): Schedule {
    return this.schedules.get(appId) ?? this.emptySchedule;
  }

  context(appId: string): DecisionContext {
    return {
      now: this.deps.clock.now(),
      settings: this.settings,
      routing: this.routing.get(appId),
      schedule: this.scheduleOf(appId),
    };
  }

  emit(event: EngineEvent): void {
    for (const l of this.listeners) {
      try {
        l(event);
      } catch (error) {
        this.deps.log?.('error', `an engine listener failed: ${describeError(error)}`);
      }
    }
  }

  /** `startedAt` from performance.now(): tick durations are real time, whatever the clock. */
  emitTick(pace: 'sweep' | 'fast' | 'due', startedAt: number, apps: number): void {
    const durationMs = performance.now() - startedAt;
    this.emit({ type: 'tick', pace, at: this.deps.clock.now(), durationMs, apps });
  }
}
