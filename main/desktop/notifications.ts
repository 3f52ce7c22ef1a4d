/**
 * System notifications from the engine's events: an app that enters Error (always), an app that
 * went to sleep or woke up (when the operator asked for it). Pure logic over a NotificationPort;
 * native-notifications.ts is the Electron side.
 *
 * De-duplicated: an app is announced in Error once per stay in Error with a given cause (it is
 * announced again after it left Error and came back, or if its cause changes). Bounded: when many
 * apps fail at once (a Clever Cloud outage), the first few are announced one by one and the others
 * in one summary at the end of the burst window, so the desktop is not buried under notifications.
 */
import type { TFunction } from 'i18next';
import type { AppView, ReaperEvent } from '../../shared/api.ts';
import type { ReaperState } from '../../shared/domain.ts';
import type { Language } from '../../shared/i18n/languages.ts';
import { translator } from '../../shared/i18n/translator.ts';

export interface NotificationSpec {
  title: string;
  body: string;
  /** An app in Error: stays on screen where the platform allows it. */
  urgent: boolean;
  onClick(): void;
}

export interface NotificationPort {
  show(notification: NotificationSpec): void;
}

export interface NotifierOptions {
  port: NotificationPort;
  /** Clicked on a notification of one app. */
  showApp(appId: string): void;
  /** Clicked on a summary. */
  openDashboard(): void;
  /** Read at each event: the operator's preference for sleep and wake notifications. */
  notifySleepWake(): boolean;
  /** Real time (not the engine's clock, which runs faster in demos). */
  now?: () => number;
  /** Read at each notification: the language to write it in (English by default). */
  language?: () => Language;
}

/** The notifications' words in a language. */
export function notificationWords(language: Language = 'en'): TFunction<'notifications'> {
  return translator(language, 'notifications');
}

/** At most this many notifications of a kind are shown one by one per window... */
export const BURST_MAX = 3;
/** ...of this many milliseconds; the others are summed up in one at its end. */
export const BURST_WINDOW_MS = 30_000;

interface Held {
  appId: string;
  name: string;
  /** An Error's cause (the spec's words, never translated), or which way a sleeping app went. */
  detail: string;
}

/** One kind of notification: the first few of a window shown, the others held for a summary. */
class Burst {
  private windowStart = -Infinity;
  private shown = 0;
  private held: Held[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  private readonly now: () => number;
  private readonly show: (item: Held) => void;
  private readonly summarise: (items: Held[]) => void;

  constructor(now: () => number, show: (item: Held) => void, summarise: (items: Held[]) => void) {
    this.now = now;
    this.show = show;
    this.summarise = summarise;
  }

  add(item: Held): void {
    const now = this.now();
    if (now - this.windowStart >= BURST_WINDOW_MS) {
      this.windowStart = now;
      this.shown = 0;
    }
    if (this.shown < BURST_MAX) {
      this.shown += 1;
      this.show(item);
      return;
    }
    this.held = [...this.held.filter((h) => h.appId !== item.appId), item];
    this.timer ??= setTimeout(() => this.flush(), this.windowStart + BURST_WINDOW_MS - now);
  }

  /** An app no longer worth announcing (it left the state) is dropped from the summary. */
  drop(appId: string): void {
    this.held = this.held.filter((h) => h.appId !== appId);
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const held = this.held;
    this.held = [];
    if (held.length === 1) this.show(held[0]!);
    else if (held.length > 1) this.summarise(held);
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.held = [];
  }
}

function names(items: Held[], t: TFunction<'notifications'>): string {
  const list = items
    .slice(0, 5)
    .map((i) => i.name)
    .join(', ');
  return items.length > 5 ? t('names', { list, count: items.length - 5 }) : list;
}

export class Notifier {
  private readonly options: NotifierOptions;
  /** The cause each app in Error was announced with. */
  private readonly announced = new Map<string, string>();
  /** The last state heard of each app, to tell a sleep or a wake from any other change. */
  private readonly states = new Map<string, ReaperState>();
  private readonly alerts: Burst;
  private readonly moves: Burst;

  constructor(options: NotifierOptions) {
    this.options = options;
    const now = options.now ?? Date.now;
    const words = () => notificationWords(options.language?.());
    this.alerts = new Burst(
      now,
      (item) =>
        options.port.show({
          title: words()('error.title', { name: item.name }),
          body: item.detail,
          urgent: true,
          onClick: () => options.showApp(item.appId),
        }),
      (items) =>
        options.port.show({
          title: words()('error.summary', { count: items.length }),
          body: names(items, words()),
          urgent: true,
          onClick: () => options.openDashboard(),
        }),
    );
    this.moves = new Burst(
      now,
      (item) =>
        options.port.show({
          title:
            item.detail === 'asleep'
              ? words()('asleep', { name: item.name })
              : words()('awake', { name: item.name }),
          body: '',
          urgent: false,
          onClick: () => options.showApp(item.appId),
        }),
      (items) =>
        options.port.show({
          title: words()('moves', { count: items.length }),
          body: names(items, words()),
          urgent: false,
          onClick: () => options.openDashboard(),
        }),
    );
  }

  handle(event: ReaperEvent): void {
    switch (event.type) {
      case 'alert':
        if (this.announced.get(event.appId) === event.cause) return;
        this.announced.set(event.appId, event.cause);
        this.states.set(event.appId, 'Error');
        this.alerts.add({ appId: event.appId, name: event.name, detail: event.cause });
        return;
      case 'app':
        this.heard(event.app);
        return;
      case 'apps':
        for (const app of event.apps) this.heard(app, false);
        return;
      case 'removed':
        this.forget(event.appId);
        return;
      case 'session':
        // Another account or the demo: nothing heard so far is about its apps.
        this.announced.clear();
        this.states.clear();
        this.alerts.dispose();
        this.moves.dispose();
        return;
      default:
        return;
    }
  }

  dispose(): void {
    this.alerts.dispose();
    this.moves.dispose();
  }

  private heard(app: AppView, announce = true): void {
    const before = this.states.get(app.appId);
    this.states.set(app.appId, app.state);
    if (app.state !== 'Error' && this.announced.delete(app.appId)) this.alerts.drop(app.appId);
    if (!announce || before === app.state) return;
    if (!this.options.notifySleepWake()) return;
    if (before === 'WaitingForShutdown' && app.state === 'Down') {
      this.moves.add({ appId: app.appId, name: app.name, detail: 'asleep' });
    } else if (before === 'WaitingForUp' && app.state === 'Up') {
      this.moves.add({ appId: app.appId, name: app.name, detail: 'awake' });
    } else {
      this.moves.drop(app.appId);
    }
  }

  private forget(appId: string): void {
    this.announced.delete(appId);
    this.states.delete(appId);
    this.alerts.drop(appId);
    this.moves.drop(appId);
  }
}
