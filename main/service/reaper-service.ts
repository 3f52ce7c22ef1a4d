/**
 * The ReaperApi over the engine, its routes and settings, its datastore and Clever Cloud: what both
 * transports (HTTP + SSE in main/server, IPC in the desktop shell) call. Transport-agnostic: every
 * input arrives raw and is parsed here with the shared schemas, every error is typed (InputError
 * names the field, NotFoundError, ConflictError, UnavailableError, TimeoutError).
 */
import {
  type AppDetail,
  type AppView,
  apiFromInvoke,
  CALL_SCHEMAS,
  type CallName,
  type CallOutput,
  type CallOutputs,
  type Owner,
  type ParsedInput,
  type ReaperApi,
  type ReaperEvent,
  type ReaperListener,
  type ReaperStatus,
  type SessionMode,
} from '../../shared/api.ts';
import { ConflictError, TimeoutError, UnavailableError } from '../../shared/api-errors.ts';
import { matchesFilter, toAppView } from '../../shared/app-view.ts';
import type { AppRecord } from '../../shared/domain.ts';
import { DAY, MINUTE } from '../../shared/durations.ts';
import { InputError, NotFoundError, parseInput } from '../../shared/errors.ts';
import {
  EXPORT_FORMATS,
  type ExportFormat,
  exportFileName,
  historyFilterSchema,
} from '../../shared/history.ts';
import { nextTransitions } from '../../shared/schedule.ts';
import { DEFAULT_SETTINGS } from '../../shared/settings.ts';
import { sleepDueAt } from '../engine/decide.ts';
import { UnknownAppError } from '../engine/engine.ts';
import { CleverCallError } from '../engine/ports.ts';
import { expectedWakeMs, transitionDurationsOf } from '../reports/durations.ts';
import { EXPORT_CONTENT_TYPES, exportHistory } from '../reports/history-export.ts';
import { savingsPricesFor } from '../reports/savings-prices.ts';
import { loadSavingsReport } from '../reports/savings-report.ts';
import { queryHistory } from '../store/history-queries.ts';
import type { CredentialsManager } from './credentials.ts';
import type { Operations } from './operations.ts';
import { RIVAL_WINDOW_MS, RivalDetector } from './rival-detector.ts';
import type { Log, Session, SessionFactory } from './session.ts';

export interface ReaperServiceDeps {
  sessions: SessionFactory;
  credentials: CredentialsManager;
  /** What to open at start: the demo, or the account of the credentials found (none: first run). */
  initial: 'demo' | 'account';
  version: string;
  /** Metrics and team alerts (see operations.ts); without them, the webhook calls are unavailable. */
  operations?: Pick<Operations, 'metrics' | 'webhooks' | 'close'>;
  log?: Log;
  /** Warnings of the shell (a settings file set aside...), shown with the problems of the status. */
  notices?: () => string[];
}

type Handlers = { [K in CallName]: (input: ParsedInput<K>) => Promise<CallOutputs[K]> };

/** The longest "keep awake until". */
const MAX_KEEP_AWAKE_MS = 30 * DAY;

export class ReaperService {
  private readonly deps: ReaperServiceDeps;
  private session: Session | null = null;
  private unwire: (() => void)[] = [];
  private readonly listeners = new Set<ReaperListener>();
  private owners = new Map<string, string>();
  private switching: Promise<void> = Promise.resolve();
  private appsPushQueued = false;
  /** The sequence number of the last event emitted. */
  private seq = 0;
  private closed = false;
  /** Signs of another engine acting on the same apps (outside stops and starts, repeated). */
  private rivals = new RivalDetector();

  constructor(deps: ReaperServiceDeps) {
    this.deps = deps;
  }

  /** Open the first session: the demo, or the account whose credentials are found (if any). */
  async start(): Promise<void> {
    if (this.deps.initial === 'demo') {
      await this.switchTo(() => this.deps.sessions.demo());
      return;
    }
    const clever = await this.deps.credentials.open().catch((error: unknown) => {
      this.deps.log?.('warn', `the Clever Cloud credentials cannot be used: ${describe(error)}`);
      return null;
    });
    if (clever) await this.switchTo(() => this.deps.sessions.account(clever));
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.switching;
    await this.closeSession();
    this.deps.operations?.close();
    this.listeners.clear();
  }

  get mode(): SessionMode {
    return this.session?.mode ?? 'disconnected';
  }

  /** The session running, for the shells (tray status, notifications) and tests. */
  get current(): Session | null {
    return this.session;
  }

  /** The engine's clock now, and how fast it runs (the event stream's heartbeat). */
  clock(): { now: number; timeScale: number } {
    const s = this.session;
    return { now: s ? s.clock.now() : Date.now(), timeScale: s ? s.timeScale : 1 };
  }

  subscribe(listener: ReaperListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Parse the raw input of a call with its schema, and run it. */
  async call<K extends CallName>(name: K, raw: unknown): Promise<CallOutput<K>> {
    if (!Object.hasOwn(CALL_SCHEMAS, name)) throw new NotFoundError(`call ${String(name)}`);
    let input: ParsedInput<K>;
    try {
      input = parseInput(CALL_SCHEMAS[name], raw ?? {}) as ParsedInput<K>;
    } catch (error) {
      // The changes of a route are named as the route editor and the PATCH body name them.
      if (name === 'updateRoute' && error instanceof InputError) {
        throw new InputError(
          error.problems.map((p) => ({ ...p, field: p.field.replace(/^changes\.?/, '') })),
        );
      }
      throw error;
    }
    const handler = this.handlers[name] as (input: ParsedInput<K>) => Promise<CallOutput<K>>;
    try {
      return await handler(input);
    } catch (error) {
      throw translate(error);
    }
  }

  /** The median of the app's last 20 starts (the waking page's "usually ready in about ..."). */
  expectedWakeMs(appId: string): number | null {
    const s = this.session;
    return s ? expectedWakeMs(s.store, appId) : null;
  }

  /** The metrics in the Prometheus text format (GET /metrics). */
  metricsText(): string {
    const ops = this.deps.operations;
    if (!ops) throw new NotFoundError('metrics');
    return ops.metrics.expose();
  }

  /**
   * The filtered history as a file, produced a page at a time: the transport streams `chunks`
   * (GET /api/history?format=csv). The input is checked before anything is produced.
   */
  historyExport(raw: unknown): { filename: string; contentType: string; chunks: Iterable<string> } {
    const { format, ...rest } = (raw ?? {}) as Record<string, unknown>;
    if (!EXPORT_FORMATS.includes(format as ExportFormat)) {
      throw new InputError([{ field: 'format', message: 'csv or json' }]);
    }
    const filter = parseInput(historyFilterSchema, rest);
    const s = this.need();
    const f = format as ExportFormat;
    return {
      filename: exportFileName(f, s.clock.now()),
      contentType: EXPORT_CONTENT_TYPES[f],
      chunks: exportHistory(s.store.db, filter, f),
    };
  }

  /** The ReaperApi served in-process (tests, and a shell that needs no transport). */
  api(): ReaperApi {
    return apiFromInvoke(
      (name, input) => this.call(name, input),
      (listener) => this.subscribe(listener),
    );
  }

  // ---- the calls -------------------------------------------------------------------------------

  private readonly handlers: Handlers = {
    snapshot: async () => {
      const status = await this.status();
      // Everything below in one synchronous step, so that `seq` says exactly what it includes.
      const s = this.session;
      return {
        seq: this.seq,
        status,
        apps: s ? this.views(s) : [],
        routes: s ? [...s.config.routes()] : [],
        settings: s ? s.config.settings() : DEFAULT_SETTINGS,
      };
    },

    status: () => this.status(),

    listApps: async (filter) => {
      const s = this.need();
      return this.views(s).filter((v) => matchesFilter(v, filter));
    },

    getApp: async ({ appId }) => {
      const s = this.need();
      const record = this.record(s, appId);
      const routing = s.engine.routingOf(appId);
      const ranges = routing?.ranges ?? [];
      const detail: AppDetail = {
        app: this.view(s, record),
        routes: s.config.routes().filter((r) => r.appId === appId),
        ranges,
        nextTransitions: ranges.length ? nextTransitions(ranges, s.clock.now(), 6) : [],
        traffic: s.traffic.appTraffic(appId),
        durations: transitionDurationsOf(s.store, appId),
      };
      return detail;
    },

    history: async ({ appId, limit, since }) => {
      const s = this.need();
      const entries = s.store.historyOf(appId, limit);
      if (entries.length === 0 && !s.engine.get(appId)) throw new NotFoundError(`app ${appId}`);
      return since === undefined ? entries : entries.filter((e) => e.at >= since);
    },

    reset: async ({ appId }) => {
      const s = this.need();
      this.record(s, appId);
      return this.view(s, await s.engine.reset(appId));
    },

    wake: async ({ appId, source, wait, timeoutMs }) => {
      const s = this.need();
      const before = this.record(s, appId);
      if (before.state === 'Error') {
        throw new ConflictError(`the app is in Error (${before.cause}): reset it once the problem is fixed`);
      }
      s.traffic.stats.counted(appId, source);
      await s.engine.wake(appId, source);
      if (!wait) return this.view(s, this.record(s, appId));
      const limit = timeoutMs ?? s.config.settings().failTimeoutMs + MINUTE;
      let reached: AppRecord;
      try {
        reached = await s.engine.waitFor(appId, ['Up', 'Error'], limit);
      } catch (error) {
        if (!s.engine.get(appId)) throw new ConflictError('the app was released while waking up');
        throw new TimeoutError(describe(error));
      }
      if (reached.state === 'Error') throw new ConflictError(`the app went to Error: ${reached.cause}`);
      return this.view(s, reached);
    },

    keepAwake: async ({ appId, until, source }) => {
      const s = this.need();
      this.record(s, appId);
      const now = s.clock.now();
      if (until !== null && until <= now) {
        throw new InputError([{ field: 'until', message: 'this time is already past' }]);
      }
      if (until !== null && until > now + MAX_KEEP_AWAKE_MS) {
        throw new InputError([{ field: 'until', message: 'at most 30 days from now' }]);
      }
      return this.view(s, await s.engine.keepAwake(appId, until, source));
    },

    release: async ({ appId }) => {
      const s = this.need();
      this.record(s, appId);
      const disabledRoutes = s.config.disableRoutesOf(appId);
      await s.engine.releaseNow(appId);
      return { appId, disabledRoutes };
    },

    listRoutes: async ({ appId }) => {
      const s = this.need();
      return s.config.routes().filter((r) => appId === undefined || r.appId === appId);
    },

    getRoute: async ({ routeId }) => this.need().config.route(routeId),

    createRoute: async (input) => {
      const s = this.need();
      await this.checkApp(s, input.ownerId, input.appId);
      return s.config.createRoute(input);
    },

    updateRoute: async ({ routeId, changes }) => {
      const s = this.need();
      const current = s.config.route(routeId);
      if (changes.appId !== undefined || changes.ownerId !== undefined) {
        await this.checkApp(s, changes.ownerId ?? current.ownerId, changes.appId ?? current.appId);
      }
      return s.config.updateRoute(routeId, changes);
    },

    deleteRoute: async ({ routeId }) => {
      this.need().config.deleteRoute(routeId);
      return { deleted: routeId };
    },

    getSettings: async () => this.need().config.settings(),

    updateSettings: async (patch) => this.need().config.updateSettings(patch),

    listOwners: async () => {
      const s = this.need();
      const owners = await s.clever.listOwners();
      this.rememberOwners(owners);
      return owners.map((o) => ({ id: o.id, name: o.name }));
    },

    listOwnerApps: async ({ ownerId }) => {
      const s = this.need();
      let apps: Awaited<ReturnType<typeof s.clever.listApplications>>;
      try {
        apps = await s.clever.listApplications(ownerId);
      } catch (error) {
        if (error instanceof CleverCallError && (error.kind === 'not-found' || error.kind === 'forbidden')) {
          throw new NotFoundError(`owner ${ownerId}`);
        }
        throw error;
      }
      const routes = s.config.routes();
      return apps
        .map((a) => ({
          id: a.id,
          name: a.name,
          ownerId,
          cleverState: String(a.state),
          routeIds: routes.filter((r) => r.appId === a.id).map((r) => r.id),
        }))
        .sort((a, b) => a.name.localeCompare(b.name));
    },

    credentials: () => this.deps.credentials.status(),

    connect: async (input) => {
      const clever = await this.deps.credentials.connect(input);
      await this.switchTo(() => this.deps.sessions.account(clever));
      return this.status();
    },

    startDemo: async () => {
      if (this.session?.mode !== 'demo') await this.switchTo(() => this.deps.sessions.demo());
      return this.status();
    },

    historyQuery: async (query) => queryHistory(this.need().store.db, query),

    routeTransitions: async ({ routeId, count }) => {
      const s = this.need();
      const route = s.config.route(routeId);
      return route.enabled ? nextTransitions(route.ranges, s.clock.now(), count) : [];
    },

    previewRanges: async ({ ranges, count }) =>
      nextTransitions(ranges, this.session?.clock.now() ?? Date.now(), count),

    savings: async ({ timeZone }) => {
      const s = this.need();
      const prices = await savingsPricesFor(s.clever, s.engine.list());
      return loadSavingsReport({
        ...(prices ? { prices } : {}),
        store: s.store,
        now: s.clock.now(),
        timeZone: timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone,
        settings: s.config.settings(),
        managed: new Map(s.engine.list().map((r) => [r.appId, r.name])),
        nextMustBeUpAfter: (appId, t) => s.engine.scheduleOf(appId).nextStartAfter(t),
      });
    },

    webhookStatus: async () => this.operations().webhooks.status(),

    testWebhook: async ({ url, format }) =>
      this.operations().webhooks.test({ url, format }, this.session?.clock.now() ?? Date.now()),
  };

  private operations(): NonNullable<ReaperServiceDeps['operations']> {
    const ops = this.deps.operations;
    if (!ops) throw new UnavailableError('team alerts are not available in this shell');
    return ops;
  }

  // ---- helpers ---------------------------------------------------------------------------------

  private async status(): Promise<ReaperStatus> {
    const s = this.session;
    const notices = this.deps.notices?.() ?? [];
    return {
      now: s ? s.clock.now() : Date.now(),
      timeScale: s ? s.timeScale : 1,
      mode: this.mode,
      scenario: s?.scenario ?? null,
      credentials: await this.deps.credentials.status(),
      version: this.deps.version,
      wakeProxy: { url: s?.traffic.proxyStatus().url ?? null },
      problems: [
        ...notices,
        ...(s
          ? [
              s.problem,
              s.engine.storage,
              s.traffic.proxyStatus().problem,
              this.rivals.problem(s.clock.now(), (id) => s.engine.get(id)?.name ?? id),
            ].filter((p): p is string => p !== null)
          : []),
      ],
    };
  }

  /** Tell the dashboards that the status changed (a problem came or went, the wake proxy moved). */
  private pushStatus(): void {
    void this.status().then((status) => this.emit({ type: 'status', status }));
  }

  /** The session, or "connect an account first". */
  private need(): Session {
    if (!this.session) {
      throw new UnavailableError('no Clever Cloud account is connected: connect one, or try the demo');
    }
    return this.session;
  }

  private record(s: Session, appId: string): AppRecord {
    const record = s.engine.get(appId);
    if (!record) throw new NotFoundError(`app ${appId}`);
    return record;
  }

  /** A route must point at an app Clever Cloud knows, under that owner. */
  private async checkApp(s: Session, ownerId: string, appId: string): Promise<void> {
    let app: Awaited<ReturnType<typeof s.clever.getApplication>>;
    try {
      app = await s.clever.getApplication(ownerId, appId);
    } catch (error) {
      if (error instanceof CleverCallError && (error.kind === 'not-found' || error.kind === 'forbidden')) {
        app = null;
      } else {
        throw new UnavailableError(`the app cannot be checked on Clever Cloud: ${describe(error)}`);
      }
    }
    if (!app) {
      throw new InputError([
        { field: 'appId', message: `Clever Cloud knows no app ${appId} owned by ${ownerId}` },
      ]);
    }
  }

  view(s: Session, record: AppRecord): AppView {
    const now = s.clock.now();
    const ctx = {
      now,
      settings: s.config.settings(),
      routing: s.engine.routingOf(record.appId),
      schedule: s.engine.scheduleOf(record.appId),
    };
    return toAppView(record, {
      ...ctx,
      ownerName: this.owners.get(record.ownerId) ?? null,
      sleepDueAt: record.state === 'Up' ? sleepDueAt(record, ctx) : null,
    });
  }

  private views(s: Session): AppView[] {
    return s.engine.list().map((r) => this.view(s, r));
  }

  private emit(event: ReaperEvent): void {
    const seq = ++this.seq;
    for (const listener of this.listeners) {
      try {
        listener(event, seq);
      } catch (error) {
        this.deps.log?.('error', `a listener failed: ${describe(error)}`);
      }
    }
  }

  /** Every view again, once, after a burst of changes (routes, settings, owners). */
  private queueAppsPush(): void {
    if (this.appsPushQueued) return;
    this.appsPushQueued = true;
    setTimeout(() => {
      this.appsPushQueued = false;
      const s = this.session;
      if (s) this.emit({ type: 'apps', apps: this.views(s) });
    }, 0);
  }

  private rememberOwners(owners: readonly Owner[]): void {
    const next = new Map(owners.map((o) => [o.id, o.name]));
    const changed = next.size !== this.owners.size || [...next].some(([id, n]) => this.owners.get(id) !== n);
    this.owners = next;
    if (changed) this.queueAppsPush();
  }

  /** Replace the session (one switch at a time); listeners hear 'session' and fetch the snapshot. */
  private switchTo(open: () => Promise<Session>): Promise<void> {
    const run = this.switching.then(async () => {
      if (this.closed) return;
      await this.closeSession();
      const session = await open();
      this.session = session;
      this.wire(session);
      this.emit({ type: 'session', status: await this.status() });
      void session.clever
        .listOwners()
        .then((owners) => {
          if (this.session === session) this.rememberOwners(owners);
        })
        .catch((error: unknown) => this.deps.log?.('warn', `cannot list the owners: ${describe(error)}`));
    });
    this.switching = run.catch(() => undefined);
    return run;
  }

  private async closeSession(): Promise<void> {
    for (const off of this.unwire) off();
    this.unwire = [];
    const s = this.session;
    this.session = null;
    this.owners = new Map();
    if (s) await s.close();
  }

  private wire(s: Session): void {
    this.rivals = new RivalDetector();
    for (const entry of s.store.historySince(s.clock.now() - RIVAL_WINDOW_MS)) this.rivals.note(entry);
    this.unwire.push(
      s.engine.on((e) => {
        switch (e.type) {
          case 'app':
            this.emit({ type: 'app', app: this.view(s, e.record) });
            break;
          case 'history': {
            this.emit(e);
            const before = this.rivals.suspects(s.clock.now()).length;
            this.rivals.note(e.entry);
            if (this.rivals.suspects(s.clock.now()).length !== before) {
              this.deps.log?.(
                'warn',
                this.rivals.problem(s.clock.now(), (id) => s.engine.get(id)?.name ?? id) ?? '',
              );
              this.pushStatus();
            }
            break;
          }
          case 'removed':
          case 'alert':
          case 'owner-unreachable':
            this.emit(e);
            break;
          case 'storage':
            this.pushStatus();
            break;
          case 'tick':
            break;
        }
      }),
      s.config.onChange((change) => {
        if (change.kind === 'routes') this.emit({ type: 'routes', routes: [...s.config.routes()] });
        else this.emit({ type: 'settings', settings: s.config.settings() });
        this.queueAppsPush();
      }),
      s.traffic.onProxyChange(() => this.pushStatus()),
    );
  }
}

/** Errors of the layers below, as the contract names them. */
function translate(error: unknown): unknown {
  if (error instanceof UnknownAppError) return new NotFoundError(error.message.replace(/^no managed /, ''));
  if (error instanceof CleverCallError) {
    return new UnavailableError(`Clever Cloud could not be reached or refused the call: ${error.message}`);
  }
  return error;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
