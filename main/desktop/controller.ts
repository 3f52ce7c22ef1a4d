/**
 * The desktop shell's behaviour, between the service and Electron: the engine's events go to the
 * window (push channel), the notifications and the tray; the tray's actions, the links and the
 * OS's resume come back as service calls. Every Electron object is behind a small port, so this is
 * tested in Node with fakes (index.ts gives the real ones).
 */
import type { CallName, CallOutput, ReaperEvent, ReaperListener, SessionMode } from '../../shared/api.ts';
import { assertNever } from '../../shared/domain.ts';
import { EventReplay } from '../../shared/event-replay.ts';
import { type Language, pickLanguage } from '../../shared/i18n/languages.ts';
import { describeError, type Log } from '../../shared/log.ts';
import type { ConsoleState } from '../../shared/team-console.ts';
import type { EventPipe } from './ipc.ts';
import type { LoginItem } from './login-item.ts';
import { type NotificationPort, Notifier, notificationWords } from './notifications.ts';
import { parseLink } from './protocol.ts';
import type { DesktopPrefs } from './settings-file.ts';
import { type TrayAction, type TrayPort, type TrayView, trayMenu } from './tray-menu.ts';
import { type TrayApp, type TrayInput, trayStatus, trayTooltip } from './tray-status.ts';

export interface ServicePort {
  call<K extends CallName>(name: K, raw: unknown): Promise<CallOutput<K>>;
  subscribe(listener: ReaperListener): () => void;
  /** Read every app now (after the OS slept). */
  reconcile(): Promise<void>;
}

export interface WindowPort {
  /** Show the dashboard: create the window if it is closed, raise and focus it. */
  open(): void;
}

export interface PrefsPort {
  get(): DesktopPrefs;
  update(changes: Partial<DesktopPrefs>): DesktopPrefs;
}

export interface ControllerDeps {
  service: ServicePort;
  window: WindowPort;
  tray: TrayPort;
  /** The window's push channel (the engine's events reach it directly; the shell adds "show this app"). */
  pipe: Pick<EventPipe, 'push'>;
  notifications: NotificationPort;
  prefs: PrefsPort;
  login: LoginItem;
  /** Quit the app (the shell stops the service cleanly). */
  quit(): void;
  log?: Log;
  /** Real time between an event and the tray's redraw (events come in bursts). */
  trayDelayMs?: number;
  /** The console's mode (console-mode.ts): the tray names the team server and says when it is lost. */
  console?: { state(): ConsoleState; onState(listener: (state: ConsoleState) => void): () => void };
  /**
   * The system's preferred languages, most preferred first (Electron's
   * `app.getPreferredSystemLanguages()`): the tray and the notifications follow them unless the
   * operator chose a language in the dashboard (`prefs.language`).
   */
  systemLanguages?: () => readonly string[];
}

/** A tray action that can fail, with the words of its notification and of the log. */
interface Attempt {
  key: 'reset' | 'wake' | 'killSwitch' | 'dryRun' | 'startAtLogin' | 'stopStartAtLogin';
  log: string;
}

/** The tray is redrawn at most this often by default. */
export const TRAY_DELAY_MS = 250;

export class DesktopController {
  private readonly deps: ControllerDeps;
  private readonly notifier: Notifier;
  private readonly apps = new Map<string, TrayApp>();
  private switches: TrayInput['switches'] = null;
  private mode: SessionMode = 'disconnected';
  private unsubscribe: (() => void) | null = null;
  private offConsole: (() => void) | null = null;
  private team: TrayInput['team'] = null;
  private trayTimer: ReturnType<typeof setTimeout> | null = null;
  private drawn = '';
  /** The snapshot, then the events heard meanwhile that it does not include. */
  private readonly replay = new EventReplay<ReaperEvent>();
  /** Quitting: the window closing now is not the operator leaving the reaper in the tray. */
  private stopped = false;
  /** Notices already announced (each once per run). */
  private readonly noticed = new Set<string>();

  constructor(deps: ControllerDeps) {
    this.deps = deps;
    this.notifier = new Notifier({
      port: deps.notifications,
      showApp: (appId) => this.showApp(appId),
      openDashboard: () => deps.window.open(),
      notifySleepWake: () => deps.prefs.get().notifySleepWake,
      language: () => this.language(),
    });
  }

  /** The language of the tray and the notifications: the operator's choice, else the system's. */
  language(): Language {
    return pickLanguage(this.deps.systemLanguages?.() ?? [], this.deps.prefs.get().language);
  }

  /**
   * The operator chose a language in the dashboard (null: follow the system's): kept in the
   * preferences, the tray redrawn in it, the next notifications written in it.
   */
  setLanguage(choice: Language | null): Language {
    this.deps.prefs.update({ language: choice ?? undefined });
    this.drawTray();
    return this.language();
  }

  /** Listen to the service, and draw the tray from a first snapshot. */
  async start(): Promise<void> {
    this.unsubscribe = this.deps.service.subscribe((event, seq) => this.heard(event, seq));
    if (this.deps.console) {
      const follow = (state: ConsoleState) => {
        this.team =
          state.mode === 'team'
            ? { host: state.host, connection: state.connection, who: state.who ?? null }
            : null;
        this.drawTray();
      };
      this.offConsole = this.deps.console.onState(follow);
      this.team = null;
      const state = this.deps.console.state();
      if (state.mode === 'team')
        this.team = { host: state.host, connection: state.connection, who: state.who ?? null };
    }
    await this.refresh();
  }

  stop(): void {
    this.stopped = true;
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.offConsole?.();
    this.offConsole = null;
    this.notifier.dispose();
    if (this.trayTimer) clearTimeout(this.trayTimer);
    this.trayTimer = null;
  }

  /** The tray as it is now drawn (tests). */
  get view(): TrayView {
    return this.compute();
  }

  // ---- what the operator does ----------------------------------------------------------------

  /** Show an app in the dashboard (a notification, a link, the tray). */
  showApp(appId: string): void {
    this.deps.window.open();
    this.deps.pipe.push({ type: 'show-app', appId }, 0);
  }

  /** Run a tray menu item's action. */
  async run(action: TrayAction): Promise<void> {
    const { service, window } = this.deps;
    switch (action.kind) {
      case 'open-dashboard':
        window.open();
        return;
      case 'show-app':
        this.showApp(action.appId);
        return;
      case 'reset':
        await this.attempt(action.appId, { key: 'reset', log: 'reset' }, () =>
          service.call('reset', { appId: action.appId }),
        );
        return;
      case 'wake':
        await this.attempt(action.appId, { key: 'wake', log: 'wake' }, () =>
          service.call('wake', { appId: action.appId, source: 'tray' }),
        );
        return;
      case 'kill-switch':
        await this.attempt(null, { key: 'killSwitch', log: 'change the kill switch' }, () =>
          service.call('updateSettings', { killSwitch: action.on }),
        );
        return;
      case 'dry-run':
        await this.attempt(null, { key: 'dryRun', log: 'change dry-run' }, () =>
          service.call('updateSettings', { dryRun: action.on }),
        );
        return;
      case 'start-at-login':
        try {
          this.deps.login.setEnabled(action.on);
        } catch (error) {
          this.report(
            null,
            action.on
              ? { key: 'startAtLogin', log: 'start at login' }
              : { key: 'stopStartAtLogin', log: 'stop starting at login' },
            error,
          );
        }
        this.drawTray();
        return;
      case 'notify-sleep-wake':
        this.deps.prefs.update({ notifySleepWake: action.on });
        this.drawTray();
        return;
      case 'quit':
        this.deps.quit();
        return;
      default:
        assertNever(action);
    }
  }

  /** A clever-reaper:// link: open shows the app (or a place); wake wakes it, then shows it. */
  async openLink(link: string): Promise<void> {
    const parsed = parseLink(link);
    if (!parsed) {
      this.deps.log?.('warn', `a link that is not one of Clever Reaper's was refused: ${link.slice(0, 200)}`);
      const t = notificationWords(this.language());
      this.deps.notifications.show({
        title: t('link.title'),
        body: t('link.body'),
        urgent: false,
        onClick: () => this.deps.window.open(),
      });
      this.deps.window.open();
      return;
    }
    if (parsed.action === 'navigate') {
      this.deps.window.open();
      this.deps.pipe.push({ type: 'navigate', route: parsed.route }, 0);
      return;
    }
    if (parsed.action === 'wake') {
      await this.attempt(parsed.appId, { key: 'wake', log: 'wake' }, () =>
        this.deps.service.call('wake', { appId: parsed.appId, source: 'link' }),
      );
    }
    this.showApp(parsed.appId);
  }

  /** The OS woke up: the world moved on while the engine slept, read every app at once. */
  async resumed(): Promise<void> {
    this.deps.log?.('info', 'resumed from sleep: every app is read again now');
    try {
      await this.deps.service.reconcile();
    } catch (error) {
      this.deps.log?.('warn', `the evaluation after a resume failed: ${describeError(error)}`);
    }
  }

  /** The window was closed: the reaper keeps running; say so the first time. */
  windowClosed(): void {
    if (this.stopped || this.deps.prefs.get().trayHintShown) return;
    this.deps.prefs.update({ trayHintShown: true });
    const t = notificationWords(this.language());
    this.deps.notifications.show({
      title: t('stillRunning.title'),
      body: t('stillRunning.body'),
      urgent: false,
      onClick: () => this.deps.window.open(),
    });
  }

  // ---- what the engine says ------------------------------------------------------------------

  private heard(event: ReaperEvent, seq: number): void {
    this.notifier.handle(event);
    this.replay.heard(event, seq);
    this.apply(event);
  }

  private apply(event: ReaperEvent): void {
    switch (event.type) {
      case 'app':
        this.apps.set(event.app.appId, trayApp(event.app));
        break;
      case 'apps':
        this.apps.clear();
        for (const app of event.apps) this.apps.set(app.appId, trayApp(app));
        break;
      case 'removed':
        this.apps.delete(event.appId);
        break;
      case 'settings':
        this.switches = {
          killSwitch: event.settings.killSwitch,
          dryRun: event.settings.dryRun,
          killSwitchOn: event.settings.killSwitchOn ?? null,
        };
        break;
      case 'session':
        // refresh() logs a failed read itself; this is for a fault outside it.
        this.refresh().catch((error: unknown) =>
          this.deps.log?.('error', `the tray's refresh failed: ${describeError(error, { stack: true })}`),
        );
        return;
      case 'status':
        this.notifyProblems(event.status.problems);
        return;
      default:
        return;
    }
    this.scheduleTray();
  }

  /** A notification for each problem of the status not told yet (a settings file set aside...). */
  private notifyProblems(problems: readonly string[]): void {
    for (const problem of problems) {
      if (this.noticed.has(problem)) continue;
      this.noticed.add(problem);
      this.deps.notifications.show({
        title: 'Clever Reaper',
        body: problem,
        urgent: true,
        onClick: () => this.deps.window.open(),
      });
    }
  }

  /** Everything again from a snapshot (at start, and when the session changes). */
  private async refresh(): Promise<void> {
    const ticket = this.replay.begin();
    try {
      const snap = await this.deps.service.call('snapshot', {});
      const later = this.replay.arrived(ticket, snap.seq);
      if (!later) return;
      this.mode = snap.status.mode;
      this.apps.clear();
      for (const app of snap.apps) this.apps.set(app.appId, trayApp(app));
      this.switches =
        snap.status.mode === 'disconnected'
          ? null
          : {
              killSwitch: snap.settings.killSwitch,
              dryRun: snap.settings.dryRun,
              killSwitchOn: snap.settings.killSwitchOn ?? null,
            };
      for (const p of later) this.apply(p.event);
      this.notifyProblems(snap.status.problems);
      this.drawTray();
    } catch (error) {
      this.replay.failed(ticket);
      this.deps.log?.('error', `the tray could not read the reaper's state: ${describeError(error)}`);
    }
  }

  private scheduleTray(): void {
    if (this.trayTimer) return;
    this.trayTimer = setTimeout(() => {
      this.trayTimer = null;
      this.drawTray();
    }, this.deps.trayDelayMs ?? TRAY_DELAY_MS);
  }

  private compute(): TrayView {
    const input = {
      mode: this.mode,
      apps: [...this.apps.values()],
      switches: this.switches,
      team: this.team,
      language: this.language(),
    };
    const status = trayStatus(input);
    const login = this.deps.login;
    return {
      status,
      tooltip: trayTooltip(input),
      menu: trayMenu({
        ...input,
        status,
        preferences: {
          startAtLogin: login.supported ? login.isEnabled() : null,
          notifySleepWake: this.deps.prefs.get().notifySleepWake,
        },
      }),
    };
  }

  /** Draw the tray when what it shows changed (a menu rebuilt while open closes it on some desktops). */
  private drawTray(): void {
    const view = this.compute();
    const key = JSON.stringify(view);
    if (key === this.drawn) return;
    this.drawn = key;
    this.deps.tray.render(view);
  }

  private async attempt(appId: string | null, what: Attempt, call: () => Promise<unknown>): Promise<void> {
    try {
      await call();
    } catch (error) {
      this.report(appId, what, error);
    }
  }

  /** A tray action that failed: the tray has no other place to say it than a notification. */
  private report(appId: string | null, what: Attempt, error: unknown): void {
    const name = appId ? (this.apps.get(appId)?.name ?? appId) : null;
    this.deps.log?.('warn', `${what.log}${name ? ` ${name}` : ''}: ${describeError(error)}`);
    const t = notificationWords(this.language());
    this.deps.notifications.show({
      title:
        what.key === 'reset' || what.key === 'wake'
          ? t(`failed.${what.key}`, { name: name ?? '' })
          : t(`failed.${what.key}`),
      body: describeError(error),
      urgent: false,
      onClick: () => (appId ? this.showApp(appId) : this.deps.window.open()),
    });
  }
}

function trayApp(app: {
  appId: string;
  name: string;
  state: TrayApp['state'];
  cause: string | null;
}): TrayApp {
  return { appId: app.appId, name: app.name, state: app.state, cause: app.cause };
}
