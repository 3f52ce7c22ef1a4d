/**
 * What the dashboard (and the admin API) shows of one managed app: a pure function of the engine's
 * record, its routing, the settings and the time. The table needs nothing else.
 *
 * Times are epoch milliseconds on the engine's clock (which runs faster in demos and end-to-end tests:
 * the dashboard reads "now" from the server, see ReaperStatus.now and timeScale).
 */
import {
  type AppRecord,
  CONSOLE_LABELS,
  type PendingCall,
  type ReaperState,
  type TrafficSource,
} from './domain.ts';
import type { AppRouting } from './routes.ts';
import type { Schedule } from './schedule.ts';
import type { Settings } from './settings.ts';

export interface AppView {
  appId: string;
  name: string;
  ownerId: string;
  /** The owner's name (organisation or personal space); its id when not known yet. */
  ownerName: string;
  state: ReaperState;
  /** The console label of the state: Initializing, Up, Going to sleep, Asleep, Waking up, Error. */
  label: string;
  /** When the app entered its current state. */
  stateSince: number;
  /** The last Clever Cloud state seen (SHOULD_BE_UP, ...), null before the first read. */
  cleverState: string | null;
  /** Why the app is in Error, in the words of the lifecycle spec; null in any other state. */
  cause: string | null;
  /** The last problem met while talking to Clever Cloud for this app (not an Error). */
  notice: string | null;
  lastRequestAt: number | null;
  lastRequestSource: TrafficSource | null;
  /**
   * An Up app: when it is put to sleep unless traffic comes (or, in dry-run, when the sleep is
   * recorded). Null in other states and while the kill switch is on.
   */
  sleepsAt: number | null;
  /** Why an Up app will not be stopped at `sleepsAt` (or at all): the kill switch, or dry-run. */
  sleepNote: 'kill switch on' | 'dry-run' | null;
  /** Inside a must-be-up range now: when that range ends. */
  mustBeUpUntil: number | null;
  /** The next start of a must-be-up range (within a week), when the app has ranges. */
  nextMustBeUpAt: number | null;
  /** "Keep awake until ...": no sleep before this time. */
  keepAwakeUntil: number | null;
  /** A request asked for the app and the start has not been sent yet. */
  wakeRequestedAt: number | null;
  pendingCall: PendingCall;
  /** An enabled route manages the app. */
  managed: boolean;
  /** No enabled route manages the app any more: it is released at this time. */
  releaseAt: number | null;
  /** The longest grace period of its enabled routes; null when none. */
  gracePeriodMs: number | null;
  /** The enabled routes that manage the app. */
  routeIds: string[];
  /** Its routes have must-be-up ranges. */
  hasRanges: boolean;
  /** The rule that manages it, when no route names it. */
  ruleId: string | null;
  /** The group it sleeps and wakes with; null when none. */
  group: string | null;
  /**
   * Team mode: an operator's action on it (keep awake, reset, release) handed over while the
   * datastore was away, kept by this instance until the datastore takes it: what it says. Null: none.
   */
  handedOver: string | null;
}

export interface AppViewContext {
  now: number;
  settings: Settings;
  routing: AppRouting | undefined;
  schedule: Schedule;
  ownerName: string | null;
  /** When the engine puts this app to sleep if nothing changes (the engine's own computation). */
  sleepDueAt: number | null;
  /** Team mode: the kind of the operator's action kept here while the datastore is away (null: none). */
  handedOver?: 'keepAwake' | 'reset' | 'release' | null;
}

/** What an action handed over while the datastore is away says (the view's `handedOver`, a 202's). */
export function handedOverNote(kind: 'keepAwake' | 'reset' | 'release'): string {
  const what = kind === 'keepAwake' ? 'keep awake' : kind;
  return `${what} handed over: will run when the datastore is back`;
}

export function toAppView(record: AppRecord, ctx: AppViewContext): AppView {
  const { now, settings, routing, schedule } = ctx;
  const managed = routing?.managed === true;
  const active = managed && !schedule.empty ? schedule.activeAt(now) : null;
  const up = record.state === 'Up' && managed;
  return {
    appId: record.appId,
    name: record.name,
    ownerId: record.ownerId,
    ownerName: ctx.ownerName ?? record.ownerId,
    state: record.state,
    label: CONSOLE_LABELS[record.state],
    stateSince: record.stateSince,
    cleverState: record.cleverState,
    cause: record.state === 'Error' ? (record.cause ?? 'unknown cause') : null,
    notice: record.notice,
    lastRequestAt: record.lastRequestAt,
    lastRequestSource: record.lastRequestSource,
    sleepsAt: up && !settings.killSwitch ? ctx.sleepDueAt : null,
    sleepNote: up ? (settings.killSwitch ? 'kill switch on' : settings.dryRun ? 'dry-run' : null) : null,
    mustBeUpUntil: active ? active.end : null,
    nextMustBeUpAt: managed && !schedule.empty ? schedule.nextStartAfter(now) : null,
    keepAwakeUntil:
      record.keepAwakeUntil !== null && record.keepAwakeUntil > now ? record.keepAwakeUntil : null,
    wakeRequestedAt: record.wakeRequestedAt,
    pendingCall: record.pendingCall,
    managed,
    releaseAt: record.releaseNoticedAt === null ? null : record.releaseNoticedAt + settings.releaseDelayMs,
    gracePeriodMs: managed ? (routing?.gracePeriodMs ?? null) : null,
    routeIds: routing?.routeIds ?? [],
    hasRanges: !schedule.empty,
    ruleId: routing?.ruleId ?? null,
    group: routing?.group ?? null,
    handedOver: ctx.handedOver ? handedOverNote(ctx.handedOver) : null,
  };
}

/** The filters of the apps table, and of GET /api/apps. */
export interface AppFilter {
  /** Matches the name, the app id or the owner's name, case-insensitive. */
  search?: string;
  state?: ReaperState;
  ownerId?: string;
  errorsOnly?: boolean;
}

export function matchesFilter(view: AppView, filter: AppFilter): boolean {
  if (filter.state && view.state !== filter.state) return false;
  if (filter.ownerId && view.ownerId !== filter.ownerId) return false;
  if (filter.errorsOnly && view.state !== 'Error') return false;
  const search = filter.search?.trim().toLowerCase();
  if (search) {
    const hay = `${view.name}\n${view.appId}\n${view.ownerName}`.toLowerCase();
    if (!hay.includes(search)) return false;
  }
  return true;
}

/** How many apps are in each state. */
export function countByState(views: Iterable<AppView>): Record<ReaperState, number> {
  const counts: Record<ReaperState, number> = {
    WaitingForInit: 0,
    Up: 0,
    WaitingForShutdown: 0,
    Down: 0,
    WaitingForUp: 0,
    Error: 0,
  };
  for (const v of views) counts[v.state]++;
  return counts;
}
