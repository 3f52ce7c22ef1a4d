/**
 * The reaper's metrics, fed by the engine's events (transitions, errors, ticks), the Clever Cloud
 * client's calls (`onCall`, or the demo's in-process port) and the webhook deliveries; scraped at
 * GET /metrics with the admin token. Counters live as long as the process, across sessions.
 *
 * Durations of wakes and stops are in seconds of the engine's clock (which runs faster in a demo
 * started with --time-scale); tick and call durations are real time.
 */

import type { AppRecord } from '../../shared/domain.ts';
import { CONSOLE_LABELS, type HistoryEntry, REAPER_STATES, type ReaperState } from '../../shared/domain.ts';
import type { CallRecord } from '../clever/client.ts';
import type { EngineEvent } from '../engine/engine.ts';
import type { AppConnections } from '../traffic/connections.ts';
import { Registry } from './registry.ts';

/** What the metrics need of an engine. */
export interface WatchedEngine {
  on(listener: (event: EngineEvent) => void): () => void;
  list(): AppRecord[];
}

const TRANSIT: Partial<Record<ReaperState, { done: ReaperState }>> = {
  WaitingForUp: { done: 'Up' },
  WaitingForShutdown: { done: 'Down' },
};

export class ReaperMetrics {
  readonly registry = new Registry();
  private engine: WatchedEngine | null = null;
  /** When each app entered WaitingForUp / WaitingForShutdown (engine clock), and from where. */
  private entered = new Map<string, { state: ReaperState; at: number }>();

  private readonly apps = this.registry.gauge(
    'clever_reaper_apps',
    'Managed apps per reaper state (console label in `label`).',
    ['state', 'label'],
  );
  private readonly transitions = this.registry.counter(
    'clever_reaper_transitions_total',
    'State transitions of managed apps ("released" when the reaper let go of one).',
    ['from', 'to', 'actor'],
  );
  private readonly errors = this.registry.counter(
    'clever_reaper_errors_total',
    'Apps that entered Error, by cause.',
    ['cause'],
  );
  private readonly actions = this.registry.counter(
    'clever_reaper_actions_total',
    'History entries that are not transitions: stops and starts sent, failed calls, dry-run notes...',
    ['kind', 'actor'],
  );
  private readonly calls = this.registry.counter(
    'clever_reaper_clever_calls_total',
    'Clever Cloud API calls, by endpoint and outcome (ok, or the kind of failure).',
    ['endpoint', 'outcome'],
  );
  private readonly callSeconds = this.registry.histogram(
    'clever_reaper_clever_call_duration_seconds',
    'Clever Cloud API call durations, retries included.',
    ['endpoint'],
    [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  );
  private readonly tickSeconds = this.registry.histogram(
    'clever_reaper_job_tick_duration_seconds',
    'How long each run of the job took: sweep (every app), fast (apps in transit), due (per-app timers).',
    ['pace'],
    [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30],
  );
  private readonly tickApps = this.registry.gauge(
    'clever_reaper_job_tick_apps',
    'Apps looked at by the last run of each pace.',
    ['pace'],
  );
  private readonly wakeSeconds = this.registry.histogram(
    'clever_reaper_wake_duration_seconds',
    'Starts: from Waking up to Up, engine clock.',
    [],
    [5, 10, 20, 30, 45, 60, 90, 120, 180, 300, 600, 900],
  );
  private readonly stopSeconds = this.registry.histogram(
    'clever_reaper_stop_duration_seconds',
    'Stops: from Going to sleep to Asleep, engine clock.',
    [],
    [1, 2, 5, 10, 20, 30, 60, 120, 300, 900],
  );
  private readonly storage = this.registry.gauge(
    'clever_reaper_storage_problem',
    '1 while the datastore refuses writes (full disk, unwritable file), else 0.',
  );
  private readonly webhooks = this.registry.counter(
    'clever_reaper_webhook_deliveries_total',
    'Team alert webhook deliveries: delivered, retried (an attempt failed), failed (given up), dropped.',
    ['outcome'],
  );
  private readonly accessLogWakes = this.registry.counter(
    'clever_reaper_access_log_wakes_total',
    'Wakes an access-log entry triggered while its app was Asleep (whether requests to a stopped app ' +
      'reach its access logs is unconfirmed: this counts the ones seen).',
  );
  private readonly openConnections = this.registry.gauge(
    'clever_reaper_open_connections',
    'Connections open through the wake proxy per app (WebSockets and other upgrades, requests and ' +
      'streams in flight); `in_use` says whether they keep the app awake (not ignored, not silent past ' +
      "the route's idle limit).",
    ['app', 'in_use'],
  );
  private connections: () => ReadonlyMap<string, AppConnections> = () => new Map();
  private readonly info = this.registry.gauge(
    'clever_reaper_info',
    'Always 1: the version running and the session mode.',
    ['version', 'mode'],
  );
  private mode = 'disconnected';
  private readonly version: string;

  constructor(version: string) {
    this.version = version;
    this.storage.set({}, 0);
    this.accessLogWakes.inc({}, 0); // 0 until one is seen: "none seen" is an answer too
    this.registry.onCollect(() => {
      const counts = new Map<ReaperState, number>(REAPER_STATES.map((s) => [s, 0]));
      for (const r of this.engine?.list() ?? []) counts.set(r.state, (counts.get(r.state) ?? 0) + 1);
      this.apps.reset([...counts].map(([state, n]) => [{ state, label: CONSOLE_LABELS[state] }, n]));
      this.info.reset([[{ version: this.version, mode: this.mode }, 1]]);
      const open: [Record<string, string>, number][] = [];
      for (const [app, c] of this.connections()) {
        open.push([{ app, in_use: 'true' }, c.inUse], [{ app, in_use: 'false' }, c.open - c.inUse]);
      }
      this.openConnections.reset(open);
    });
  }

  /** Follow a session's engine until the returned function is called (the session closes). */
  watch(
    engine: WatchedEngine,
    mode: string,
    connections: () => ReadonlyMap<string, AppConnections> = () => new Map(),
  ): () => void {
    this.engine = engine;
    this.connections = connections;
    this.mode = mode;
    this.entered = new Map();
    const off = engine.on((e) => this.onEngineEvent(e));
    return () => {
      off();
      if (this.engine === engine) {
        this.engine = null;
        this.connections = () => new Map();
        this.mode = 'disconnected';
      }
    };
  }

  /** For CleverClient's `onCall`. */
  readonly onCall = (call: CallRecord): void => {
    this.calls.inc({ endpoint: call.endpoint, outcome: call.outcome });
    this.callSeconds.observe({ endpoint: call.endpoint }, call.durationMs / 1000);
  };

  /** For SessionTraffic's `onAccessLogWake`. */
  readonly onAccessLogWake = (): void => {
    this.accessLogWakes.inc({});
  };

  readonly onWebhook = (outcome: 'delivered' | 'retried' | 'failed' | 'dropped'): void => {
    this.webhooks.inc({ outcome });
  };

  expose(): string {
    return this.registry.expose();
  }

  private onEngineEvent(e: EngineEvent): void {
    switch (e.type) {
      case 'history':
        this.onHistory(e.entry);
        break;
      case 'alert':
        this.errors.inc({ cause: e.cause });
        break;
      case 'tick':
        this.tickSeconds.observe({ pace: e.pace }, e.durationMs / 1000);
        this.tickApps.set({ pace: e.pace }, e.apps);
        break;
      case 'storage':
        this.storage.set({}, e.problem === null ? 0 : 1);
        break;
      case 'app':
      case 'removed':
      case 'owner-unreachable':
        break;
    }
  }

  private onHistory(h: HistoryEntry): void {
    const changesState = h.kind === 'transition' || h.kind === 'reset' || h.kind === 'release';
    if (!changesState) {
      this.actions.inc({ kind: h.kind, actor: h.actor });
      return;
    }
    this.transitions.inc({ from: h.from ?? 'none', to: h.to ?? 'released', actor: h.actor });
    const before = this.entered.get(h.appId);
    if (before && h.from === before.state && h.to === TRANSIT[before.state]?.done) {
      const seconds = (h.at - before.at) / 1000;
      (before.state === 'WaitingForUp' ? this.wakeSeconds : this.stopSeconds).observe({}, seconds);
    }
    if (h.to && TRANSIT[h.to]) this.entered.set(h.appId, { state: h.to, at: h.at });
    else this.entered.delete(h.appId);
  }
}
