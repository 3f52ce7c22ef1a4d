/**
 * What the parts of the engine share: its ports, the records in memory, the routes, the listeners
 * and whether it runs. The Engine owns one and hands it to the journal, the traffic coalescer, the
 * evaluator and the scheduler; none of them is visible outside main/engine.
 */
import { type AppRecord, assertNever, type HistoryEntry, type TrafficSource } from '../../shared/domain.ts';
import { describeError, type Log } from '../../shared/log.ts';
import type { By } from '../../shared/people.ts';
import type { LeaseGuard } from '../../shared/port-errors.ts';
import type { AppRouting } from '../../shared/routes.ts';
import { settingsFor } from '../../shared/rules.ts';
import { Schedule } from '../../shared/schedule.ts';
import type { GroupContext } from './decide-group.ts';
import { sleepBlocker, sleepDueAt } from './decide-sleep.ts';
import type { DecisionContext } from './decision.ts';
import type { CleverApp, CleverCloudPort, Clock, EngineConfig, EngineStore } from './ports.ts';

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

/** Team mode: an operator's action on an app another instance acts on, handed to that instance. */
export type HandedAction =
  | { kind: 'keepAwake'; until: number | null }
  | { kind: 'reset' }
  | { kind: 'release' };

/** Whether this event is the outcome of the action on the app. */
export function isOutcome(appId: string, action: HandedAction, e: EngineEvent): boolean {
  if (e.type === 'removed') return e.appId === appId && action.kind === 'release';
  if (e.type !== 'history' || e.entry.appId !== appId) return false;
  switch (action.kind) {
    case 'keepAwake':
      return e.entry.kind === 'keep-awake';
    case 'reset':
      return e.entry.kind === 'reset';
    case 'release':
      return e.entry.kind === 'release';
    default:
      return assertNever(action);
  }
}

/**
 * How a hand-over ended (EngineDeps.handOver): `acted`, its outcome seen here; `kept`, the datastore
 * is away and this instance keeps it until the datastore takes it (then the holder acts on it).
 */
export type HandOverAnswer = 'acted' | 'kept';

/** An operator's action handed to the instance acting on the app (EngineDeps.handOver). */
export interface HandedRequest {
  appId: string;
  ownerId: string;
  /** The app's name, for the messages. */
  name: string;
  source: TrafficSource;
  /** When it was asked (engine clock). */
  at: number;
  action: HandedAction;
  /** Who asked for it (the call's person, acting.ts), for the holder's history entry; null: nobody. */
  by: By | null;
}

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
  /**
   * Team mode: whether this instance acts on the owner's apps now (it holds the owner's lease).
   * Decisions, calls and sweeps skip the others; their records stay for the dashboard. None: all.
   */
  acts?: (ownerId: string) => boolean;
  /**
   * Team mode: asked right before each start or stop of the owner's apps, after the write that asked
   * for it: null when it may leave, or why not (the lease may have run out while this instance was
   * paused between the write and the call). A refused call stays pending on the record, and the
   * owner's holder checks it against Clever Cloud before sending it. None: every call leaves.
   */
  callRefusal?: (ownerId: string) => string | null;
  /**
   * Team mode: a request for an app whose owner another instance acts on, handed over to it (the
   * instances' bus). `asks`: whether this instance's view of the app says it sleeps.
   */
  elsewhere?: (request: {
    appId: string;
    ownerId: string;
    source: TrafficSource;
    at: number;
    asks: boolean;
    /** An operator's action instead of a request (keep awake, reset, release). */
    action?: HandedAction;
    /** Who asked for it, when a person did (a wake from the dashboard or the API). */
    by?: By;
  }) => void;
  /**
   * Team mode: an operator's action on an app whose owner another instance acts on, handed to that
   * instance; resolves `acted` once its outcome reaches this one (team/handover.ts), `kept` when the
   * datastore is away and it is kept until it comes back; rejects when no outcome comes in time after
   * it was written. None: the engine acts on every app itself.
   */
  handOver?: (request: HandedRequest) => Promise<HandOverAnswer>;
  /**
   * Team mode: a write was refused with LeaseLost (the datastore says another instance holds the
   * owner now): the lease keeper lets the owner go at once, before its next round notices.
   */
  leaseLost?: (ownerId: string) => void;
  /**
   * Whether what was logged for the app while nobody read its traffic (the reaper away: a restart, a
   * lease taken over) is still being read: no sleep meanwhile, on a stale last request. None: read.
   */
  trafficUnread?: (appId: string) => boolean;
  /** Diagnostics; never given a credential. */
  log?: Log;
}

export class EngineCore {
  records = new Map<string, AppRecord>();
  routing = new Map<string, AppRouting>();
  schedules = new Map<string, Schedule>();
  /** The members of each group, by group name (from the routing). */
  groups = new Map<string, string[]>();
  /** Apps woken with their group, and the name of the member whose request woke them. */
  readonly groupWakes = new Map<string, string>();
  /** The last application list read of each owner (what the rules match against). */
  readonly ownerApps = new Map<string, CleverApp[]>();
  readonly listeners = new Set<EngineListener>();
  /** Team mode: operators' actions handed over while the datastore was away, until their outcome is seen. */
  readonly keptActions = new Map<string, HandedAction>();
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

  /** Whether this instance acts on the owner's apps (always, outside team mode). */
  acts(ownerId: string | null): boolean {
    const acts = this.deps.acts;
    return !acts || (ownerId !== null && acts(ownerId));
  }

  /** Why a start or stop of the owner's apps may not leave now (null: it may; always, outside team mode). */
  callRefusal(ownerId: string): string | null {
    return this.deps.callRefusal?.(ownerId) ?? null;
  }

  scheduleOf(appId: string): Schedule {
    return this.schedules.get(appId) ?? this.emptySchedule;
  }

  context(appId: string): DecisionContext {
    const ctx = this.ownContext(appId, this.deps.clock.now());
    const name = ctx.routing?.group;
    if (name) ctx.group = this.groupContext(appId, name, ctx.now);
    const wokenBy = this.groupWakes.get(appId);
    if (wokenBy !== undefined) ctx.groupWakeOf = wokenBy;
    return ctx;
  }

  /** The other members of an app's group (records known), in the app's group. */
  membersOf(appId: string): AppRecord[] {
    const name = this.routing.get(appId)?.group;
    if (!name) return [];
    const out: AppRecord[] = [];
    for (const id of this.groups.get(name) ?? []) {
      const r = id === appId ? undefined : this.records.get(id);
      if (r) out.push(r);
    }
    return out;
  }

  /** An app's context without its group: what the app's own sleep conditions are judged on. */
  private ownContext(appId: string, now: number): DecisionContext {
    const routing = this.routing.get(appId);
    return {
      now,
      settings: settingsFor(this.settings, routing),
      routing,
      schedule: this.scheduleOf(appId),
      trafficUnread: this.deps.trafficUnread?.(appId) ?? false,
    };
  }

  private groupContext(appId: string, name: string, now: number): GroupContext {
    const members = this.membersOf(appId).map((r) => {
      const up = r.state === 'Up';
      const own = up ? this.ownContext(r.appId, now) : null;
      return {
        appId: r.appId,
        name: r.name,
        state: r.state,
        blocker: own ? sleepBlocker(r, own) : null,
        dueAt: own ? sleepDueAt(r, own) : null,
      };
    });
    return { name, members };
  }

  /**
   * The action kept for the app left unwritten (its time to live ran out while the datastore was
   * away, or the instance stopped): no longer shown pending, and the app's view says so at once.
   */
  forgetKept(appId: string, action: HandedAction): void {
    if (this.keptActions.get(appId) !== action) return;
    this.keptActions.delete(appId);
    const record = this.records.get(appId);
    if (record) this.emit({ type: 'app', record });
  }

  emit(event: EngineEvent): void {
    if (this.keptActions.size) {
      for (const [appId, action] of this.keptActions)
        if (isOutcome(appId, action, event)) this.keptActions.delete(appId);
    }
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
