/**
 * The desktop's two modes: its own engine (local), or a console of a team server. It stands where
 * the service stood for the window's calls, the tray and the notifications (ServicePort and the IPC
 * call backend), and answers them from the local service or from the team server (RemoteService).
 *
 * "Connect to a team server" checks the address (https, or http on loopback only) and the admin token
 * against the server before anything is kept or stopped; then keeps both with the OS keychain (as a
 * pasted Clever Cloud token is kept), turns the local engine off and follows the server. "Use this
 * computer" (local) is one call: the server forgotten, the local engine started again. At the next
 * start the app opens in the mode it was left in. Listeners hear a `session` event at each switch,
 * so the window and the tray start again from a snapshot of the new side.
 */
import { userInfo } from 'node:os';
import type { CallName, ReaperListener, ReaperStatus } from '../../shared/api.ts';
import { ApiError } from '../../shared/api-errors.ts';
import { describeError, type Log } from '../../shared/log.ts';
import type { Role } from '../../shared/people.ts';
import { type ConsoleState, checkServerUrl, TOKEN_MAX } from '../../shared/team-console.ts';
import { actingAs } from '../engine/acting.ts';
import type { SecretStore } from '../service/real-credentials.ts';
import { checkTeamServer, RemoteService, type RemoteServiceOptions, teamIdentity } from './remote-service.ts';

/** The OS user's name ("you" when the OS does not say). */
function localUserName(): string {
  try {
    return userInfo().username || 'you';
  } catch {
    return 'you';
  }
}

/** The local engine, as the desktop runs it (the ReaperService from startRuntime). */
export interface LocalBackend {
  call(name: CallName, raw: unknown): Promise<unknown>;
  subscribe(listener: ReaperListener): () => void;
  reconcile(): Promise<void>;
  close(): Promise<void>;
}

export interface ConsoleModeOptions {
  startLocal(): Promise<LocalBackend>;
  /** Where the team server's address and token are kept (the OS keychain). */
  store: SecretStore & { readonly unavailable?: string | null };
  fetch?: typeof fetch;
  log?: Log;
  /** Who the local engine's manual actions are written as in its history (the OS user's name). */
  localUser?: string;
  /** Tests: the stream's timings. */
  remote?: Pick<RemoteServiceOptions, 'retryMs' | 'maxRetryMs' | 'silenceMs' | 'callTimeoutMs'>;
}

type Current =
  | { kind: 'local'; local: LocalBackend; off: () => void }
  | {
      kind: 'team';
      remote: RemoteService;
      url: string;
      host: string;
      /** Who the token is on the server (its name and role), once it said. */
      who: { name: string; role: Role } | null;
      off: () => void;
    };

interface Kept {
  url: string;
  token: string;
}

export class ConsoleMode {
  private readonly options: ConsoleModeOptions;
  private current: Current | null = null;
  private readonly listeners = new Set<ReaperListener>();
  private readonly stateListeners = new Set<(state: ConsoleState) => void>();
  private switching: Promise<unknown> = Promise.resolve();
  private closed = false;

  constructor(options: ConsoleModeOptions) {
    this.options = options;
  }

  /** Open the mode the app was left in: the team server kept, else the local engine. */
  async start(): Promise<void> {
    const kept = this.kept();
    if (kept) {
      const checked = checkServerUrl(kept.url);
      if ('url' in checked) {
        this.follow(checked.url, checked.host, kept.token);
        return;
      }
    }
    await this.openLocal();
  }

  /** The mode now, for the dashboard's header and the tray. */
  state(): ConsoleState {
    const c = this.current;
    if (c?.kind === 'team')
      return { mode: 'team', url: c.url, host: c.host, connection: c.remote.connection, who: c.who };
    return { mode: 'local' };
  }

  onState(listener: (state: ConsoleState) => void): () => void {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  /** The local engine, while it runs (the --admin-port API and the resume after sleep need it). */
  get local(): LocalBackend | null {
    return this.current?.kind === 'local' ? this.current.local : null;
  }

  /**
   * A call of the window (`via` desktop) or of the tray: the local engine writes its manual actions
   * as the local user's, through that; a team server is told the same (its audit and history).
   */
  call(name: CallName, raw: unknown, via: 'desktop' | 'tray' = 'desktop'): Promise<unknown> {
    const c = this.current;
    if (!c) return Promise.reject(new ApiError('unavailable', 'the reaper is switching modes: try again'));
    if (c.kind === 'team') return c.remote.call(name, raw, via);
    const by = { name: this.options.localUser ?? localUserName(), via };
    return actingAs(by, () => c.local.call(name, raw));
  }

  subscribe(listener: ReaperListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async reconcile(): Promise<void> {
    await this.local?.reconcile();
  }

  /** Connect to a team server: checked first, then kept, then the local engine is turned off. */
  connect(raw: unknown): Promise<ConsoleState> {
    return this.serially(async () => {
      const input = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
      const url = typeof input.url === 'string' ? input.url : '';
      const token = typeof input.token === 'string' ? input.token.trim() : '';
      const checked = checkServerUrl(url);
      if ('problem' in checked) throw invalid('url', checked.problem);
      if (!token) throw invalid('token', "Enter the team server's admin token");
      if (token.length > TOKEN_MAX || /\s/.test(token)) throw invalid('token', 'This is not an admin token');
      const problem = await checkTeamServer(checked.url, token, this.options.fetch);
      if (problem) throw invalid(/token/.test(problem) ? 'token' : 'url', problem);
      try {
        this.options.store.save(JSON.stringify({ url: checked.url, token } satisfies Kept));
      } catch (error) {
        // No keychain: followed for this run only, never written in plain text.
        this.options.log?.('warn', `the team server is not kept: ${describeError(error)}`);
      }
      await this.leave();
      this.options.log?.('info', `team mode: following ${checked.url}`);
      this.follow(checked.url, checked.host, token);
      return this.state();
    });
  }

  /** Back to this computer's engine, the team server forgotten. */
  switchToLocal(): Promise<ConsoleState> {
    return this.serially(async () => {
      if (this.current?.kind === 'local') return this.state();
      this.options.store.save(null);
      await this.leave();
      this.options.log?.('info', 'local mode: the engine of this computer runs again');
      await this.openLocal();
      return this.state();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.switching.catch(() => undefined);
    await this.leave();
    this.listeners.clear();
    this.stateListeners.clear();
  }

  // ---- internals -------------------------------------------------------------------------------

  private serially<T>(run: () => Promise<T>): Promise<T> {
    const next = this.switching.then(run, run);
    this.switching = next.catch(() => undefined);
    return next;
  }

  private kept(): Kept | null {
    try {
      const text = this.options.store.load();
      if (!text) return null;
      const value = JSON.parse(text) as Partial<Kept>;
      return typeof value.url === 'string' && typeof value.token === 'string'
        ? { url: value.url, token: value.token }
        : null;
    } catch (error) {
      this.options.log?.('warn', `the team server kept cannot be read: ${describeError(error)}`);
      return null;
    }
  }

  private async openLocal(): Promise<void> {
    const local = await this.options.startLocal();
    if (this.closed) {
      await local.close();
      return;
    }
    const off = local.subscribe((event, seq) => this.emit(event, seq));
    this.current = { kind: 'local', local, off };
    await this.announce();
  }

  private follow(url: string, host: string, token: string): void {
    const remote = new RemoteService({
      url,
      token,
      fetch: this.options.fetch,
      log: this.options.log,
      ...this.options.remote,
    });
    const offEvents = remote.subscribe((event, seq) => this.emit(event, seq));
    const offState = remote.onConnection(() => this.stateChanged());
    const current: Current = {
      kind: 'team',
      remote,
      url,
      host,
      who: null,
      off: () => {
        offEvents();
        offState();
      },
    };
    this.current = current;
    remote.start();
    // Who the token is (its name and role): the header and the tray say it, a viewer's tray is
    // read-only. Not known (an older server, a refusal): null, the server still refuses what it must.
    teamIdentity(url, token, this.options.fetch)
      .then((who) => {
        if (this.current !== current || !who) return;
        current.who = who;
        this.stateChanged();
      })
      .catch((error: unknown) =>
        this.options.log?.('warn', `asking ${host} who this token is: ${describeError(error)}`),
      );
    // Not awaited: the switch is done once the stream is opened; the status follows when the
    // server answers (announce logs a failed call itself, this a listener that threw).
    this.announce().catch((error: unknown) =>
      this.options.log?.(
        'error',
        `announcing team mode on ${host}: ${describeError(error, { stack: true })}`,
      ),
    );
  }

  /** Stop what runs now: the local engine (its datastore closed), or the stream of the server. */
  private async leave(): Promise<void> {
    const c = this.current;
    this.current = null;
    if (!c) return;
    c.off();
    if (c.kind === 'local') await c.local.close();
    else await c.remote.close();
  }

  /** The mode changed: listeners start again from a snapshot; the header and tray redraw. */
  private async announce(): Promise<void> {
    this.stateChanged();
    try {
      const status = (await this.call('status', {})) as ReaperStatus;
      this.emit({ type: 'session', status }, 0);
    } catch (error) {
      this.options.log?.('warn', `the status after a switch: ${describeError(error)}`);
    }
  }

  private stateChanged(): void {
    const state = this.state();
    for (const l of [...this.stateListeners]) l(state);
  }

  private emit(...args: Parameters<ReaperListener>): void {
    for (const l of [...this.listeners]) {
      try {
        l(...args);
      } catch (error) {
        this.options.log?.('error', `a listener of the reaper failed: ${describeError(error)}`);
      }
    }
  }
}

function invalid(field: 'url' | 'token', message: string): ApiError {
  return new ApiError('invalid-input', message, [{ field, message }]);
}
