/**
 * The ReaperApi over the engine, its routes and settings, its datastore and Clever Cloud: what both
 * transports (HTTP + SSE in main/server, IPC in the desktop shell) call. Transport-agnostic: every
 * input arrives raw and is parsed here with the shared schemas, every error is typed (InputError
 * names the field, NotFoundError, ConflictError, UnavailableError, TimeoutError).
 *
 * The service holds the session, numbers and pushes the events; the calls themselves live in
 * calls/, grouped by subject and typed by the contract.
 */
import {
  apiFromInvoke,
  CALL_SCHEMAS,
  type CallName,
  type CallOutput,
  type ParsedInput,
  type ReaperApi,
  type ReaperEvent,
  type ReaperListener,
  type ReaperStatus,
  type SessionMode,
} from '../../shared/api.ts';
import { UnavailableError } from '../../shared/api-errors.ts';
import { assertNever } from '../../shared/domain.ts';
import { InputError, NotFoundError, parseInput } from '../../shared/errors.ts';
import { describeError, type Log } from '../../shared/log.ts';
import { CleverCallError } from '../../shared/port-errors.ts';
import { UnknownAppError } from '../engine/engine.ts';
import { AppViews } from './app-views.ts';
import { accountCalls } from './calls/account-calls.ts';
import { appCalls } from './calls/app-calls.ts';
import { bulkCalls } from './calls/bulk-calls.ts';
import { type CallContext, type Handlers, needSession } from './calls/context.ts';
import { type HistoryFile, historyFile, reportCalls } from './calls/report-calls.ts';
import { routeCalls } from './calls/route-calls.ts';
import { ruleCalls } from './calls/rule-calls.ts';
import { settingsCalls } from './calls/settings-calls.ts';
import type { CredentialsManager } from './credentials.ts';
import type { Operations } from './operations.ts';
import { RIVAL_WINDOW_MS, RivalDetector } from './rival-detector.ts';
import type { Session, SessionFactory } from './session.ts';
import { SharedCredentialsStatus } from './shared-credentials.ts';

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

export class ReaperService {
  private readonly deps: ReaperServiceDeps;
  private session: Session | null = null;
  private unwire: (() => void)[] = [];
  private readonly listeners = new Set<ReaperListener>();
  private readonly appViews = new AppViews();
  private switching: Promise<void> = Promise.resolve();
  private appsPushQueued = false;
  /** The sequence number of the last event emitted. */
  private seq = 0;
  private closed = false;
  /** Signs of another engine acting on the same apps (outside stops and starts, repeated). */
  private rivals = new RivalDetector();
  private readonly handlers: Handlers;
  private readonly sharedCredentials: SharedCredentialsStatus;

  constructor(deps: ReaperServiceDeps) {
    this.deps = deps;
    this.sharedCredentials = new SharedCredentialsStatus(deps.log);
    const self = this;
    const ctx: CallContext = {
      get session() {
        return self.session;
      },
      get seq() {
        return self.seq;
      },
      sessions: deps.sessions,
      credentials: deps.credentials,
      need: () => needSession(this.session),
      status: () => this.status(),
      view: (s, record) => this.appViews.view(s, record),
      views: (s) => this.appViews.all(s),
      rememberOwners: (owners) => {
        if (this.appViews.setOwners(owners)) this.queueAppsPush();
      },
      switchTo: (open) => this.switchTo(open),
      operations: () => {
        const ops = this.deps.operations;
        if (!ops) throw new UnavailableError('team alerts are not available in this shell');
        return ops;
      },
    };
    this.handlers = {
      ...accountCalls(ctx),
      ...appCalls(ctx),
      ...bulkCalls(ctx, (name, input) => this.call(name, input)),
      ...routeCalls(ctx),
      ...ruleCalls(ctx),
      ...settingsCalls(ctx),
      ...reportCalls(ctx),
    };
  }

  /** Open the first session: the demo, or the account whose credentials are found (if any). */
  async start(): Promise<void> {
    if (this.deps.initial === 'demo') {
      await this.switchTo(() => this.deps.sessions.demo());
      return;
    }
    const clever = await this.deps.credentials.open().catch((error: unknown) => {
      this.deps.log?.('warn', `the Clever Cloud credentials cannot be used: ${describeError(error)}`);
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

  /**
   * Read Clever Cloud again now and act on what changed (the desktop, when the computer wakes from
   * sleep: apps may have been stopped or started meanwhile). Nothing to do without a session.
   */
  async reconcile(): Promise<void> {
    await this.session?.engine.reconcileNow();
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
      if ((name === 'updateRoute' || name === 'updateRule') && error instanceof InputError) {
        throw new InputError(
          error.problems.map((p) => ({ ...p, field: p.field.replace(/^changes\.?/, '') })),
        );
      }
      throw error;
    }
    const handler = this.handlers[name] as (input: ParsedInput<K>) => Promise<CallOutput<K>>;
    try {
      const output = await handler(input);
      // A call that changed routes or rules answers once their apps are adopted (written, listed).
      await this.session?.engine.adopted();
      return output;
    } catch (error) {
      throw translate(error);
    }
  }

  /** The median of the app's last 20 starts (the waking page's "usually ready in about ..."). */
  async expectedWakeMs(appId: string): Promise<number | null> {
    const s = this.session;
    return s ? await s.expectedWakeMs(appId) : null;
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
  historyExport(raw: unknown): HistoryFile {
    return historyFile(raw, () => needSession(this.session));
  }

  /** The ReaperApi served in-process (tests, and a shell that needs no transport). */
  api(): ReaperApi {
    return apiFromInvoke(
      (name, input) => this.call(name, input),
      (listener) => this.subscribe(listener),
    );
  }

  // ---- the session and its events --------------------------------------------------------------

  private async status(): Promise<ReaperStatus> {
    const s = this.session;
    // The shell's notice of a settings file set aside is the account's config problem once a session
    // reads that file: say it once.
    const notices = s?.config.setAsideReported() ? [] : (this.deps.notices?.() ?? []);
    return {
      now: s ? s.clock.now() : Date.now(),
      timeScale: s ? s.timeScale : 1,
      mode: this.mode,
      scenario: s?.scenario ?? null,
      // An account's, as every instance of a team server shows it (shared-credentials.ts).
      credentials: await this.sharedCredentials.status(
        await this.deps.credentials.status(),
        s?.mode === 'account' ? s.store : null,
      ),
      version: this.deps.version,
      wakeProxy: { url: s?.traffic.proxyStatus().url ?? null },
      problems: [
        ...notices,
        ...(s
          ? [
              s.problem,
              ...s.config.problems(), // a settings file read in part or set aside, until fixed
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
    this.status().then(
      (status) => this.emit({ type: 'status', status }),
      (error: unknown) => this.deps.log?.('warn', `the status could not be read: ${describeError(error)}`),
    );
  }

  private emit(event: ReaperEvent): void {
    const seq = ++this.seq;
    for (const listener of this.listeners) {
      try {
        listener(event, seq);
      } catch (error) {
        this.deps.log?.('error', `a listener failed: ${describeError(error)}`);
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
      if (s) this.emit({ type: 'apps', apps: this.appViews.all(s) });
    }, 0);
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
          if (this.session === session && this.appViews.setOwners(owners)) this.queueAppsPush();
        })
        .catch((error: unknown) =>
          this.deps.log?.('warn', `cannot list the owners: ${describeError(error)}`),
        );
    });
    // The caller hears the failure from `run`; the next switch waits for this one, failed or not.
    this.switching = run.catch((error: unknown) =>
      this.deps.log?.(
        'warn',
        `switching the session failed (the next switch goes on): ${describeError(error)}`,
      ),
    );
    return run;
  }

  private async closeSession(): Promise<void> {
    for (const off of this.unwire) off();
    this.unwire = [];
    const s = this.session;
    this.session = null;
    this.appViews.clear();
    if (s) await s.close();
  }

  private wire(s: Session): void {
    this.rivals = new RivalDetector();
    const since = s.clock.now() - RIVAL_WINDOW_MS;
    const rivals = this.rivals;
    s.store.historySince(since).then(
      (entries) => {
        for (const entry of entries) rivals.note(entry);
      },
      (error: unknown) =>
        this.deps.log?.('warn', `the recent history could not be read: ${describeError(error)}`),
    );
    this.unwire.push(
      s.engine.on((e) => {
        switch (e.type) {
          case 'app':
            this.emit({ type: 'app', app: this.appViews.view(s, e.record) });
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
          default:
            assertNever(e);
        }
      }),
      s.config.onChange((change) => {
        if (change.kind === 'routes') this.emit({ type: 'routes', routes: [...s.config.routes()] });
        else if (change.kind === 'rules') this.emit({ type: 'rules', rules: [...s.config.rules()] });
        else this.emit({ type: 'settings', settings: s.config.settings() });
        this.queueAppsPush();
        this.pushStatus(); // a settings file's problem clears once fixed or confirmed
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
