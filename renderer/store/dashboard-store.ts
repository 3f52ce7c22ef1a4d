/**
 * The dashboard's state: a snapshot fetched at start (and after a reconnection or a session change),
 * then kept current by the engine's pushed events. No polling. Events are applied in batches, at most
 * every 50 ms, so a burst (a sweep over a thousand apps) costs one render.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { AppView, ReaperEvent, ReaperStatus, Snapshot } from '../../shared/api.ts';
import type { HistoryEntry } from '../../shared/domain.ts';
import { EventReplay, type Sequenced } from '../../shared/event-replay.ts';
import { parseRoute } from '../../shared/nav-route.ts';
import type { Route } from '../../shared/routes.ts';
import type { Rule } from '../../shared/rules.ts';
import type { Settings } from '../../shared/settings.ts';
import type { ConnectionState, DashboardApi } from '../api/dashboard-api.ts';
import { i18n } from '../i18n.ts';
import { causeText } from '../lib/cause-text.ts';
import { errorText } from '../lib/errors.ts';
import type { SortKey } from '../lib/sort.ts';
import { addToast, expireToast, type Toast, type ToastInput, toastGroupText } from '../lib/toasts.ts';
import { leaveOr } from '../lib/unsaved-changes.ts';
import {
  type AuditParams,
  type Filters,
  type HistoryParams,
  INITIAL_FILTERS,
  INITIAL_SORT,
  type Sort,
  stateOfRoute,
  type UrlState,
  type View,
} from '../lib/url-state.ts';
import { type AppAction, type ChangeActions, changeActions } from './change-actions.ts';
import { firstEventCheck, fromSnapshot } from './from-snapshot.ts';
import { type PickActions, type PickState, pickActions, pickInitial, savedPrefs } from './pick-actions.ts';

export type { Filters, Toast, View };
export { INITIAL_FILTERS };

/** The engine's clock, as last heard: now = serverNow + (Date.now() - localNow) * scale. */
export interface ClockBase {
  serverNow: number;
  localNow: number;
  scale: number;
}

export type { AppAction };

export interface DashboardState extends ChangeActions, PickActions, PickState {
  phase: 'loading' | 'ready' | 'failed';
  loadError: string | null;
  connection: ConnectionState;
  status: ReaperStatus | null;
  clock: ClockBase;
  apps: Record<string, AppView>;
  routes: Route[];
  /** In their order of precedence. */
  rules: Rule[];
  settings: Settings | null;
  view: View;
  filters: Filters;
  sort: Sort;
  selectedAppId: string | null;
  /** The route the editor shows: an id, 'new', or null when closed. */
  editingRoute: string | 'new' | null;
  /** The app the route editor starts with, when opened from an app. */
  newRouteFor: { appId: string; ownerId: string } | null;
  history: { appId: string; entries: HistoryEntry[]; loading: boolean; error: string | null } | null;
  toasts: Toast[];
  /** Owners Clever Cloud could not be read for, with the message and when. */
  unreachable: Record<string, { message: string; at: number }>;
  /** Actions under way, per app. */
  busy: Record<string, AppAction | 'keep-awake'>;
  /** History entries pushed since the page loaded (the History view offers to show the new ones). */
  historyEvents: number;
  /** The History view's filters (the URL holds them: #/history?app=...). */
  historyParams: HistoryParams;
  /** The Audit view's filters (the URL holds them: #/audit?who=alice&what=route). */
  auditParams: AuditParams;
  /** The Routes view's search. */
  routesSearch: string;
  /** The zone the Savings view counts its days in ('' for the viewer's; the URL holds it). */
  savingsZone: string;
  /** An account was just connected from the first-run screen: a first day in dry-run is proposed. */
  firstDay: boolean;

  start(): () => void;
  reload(): Promise<void>;
  setView(view: View): void;
  setFilters(filters: Partial<Filters>): void;
  setSort(key: SortKey): void;
  select(appId: string | null): void;
  /** Go to a place (a route of the URL: a link, a reload, Back or Forward). */
  navigate(place: Partial<UrlState>): void;
  setHistoryParams(params: HistoryParams): void;
  setAuditParams(params: AuditParams): void;
  setRoutesSearch(search: string): void;
  setSavingsZone(zone: string): void;
  proposeFirstDay(on: boolean): void;
  editRoute(route: string | 'new' | null, forApp?: { appId: string; ownerId: string }): void;
  toast(kind: Toast['kind'], text: string): void;
  dismissToast(id: number): void;
  /**
   * Run an action nobody awaits (an event handler, an effect, a pushed event): a failure the action
   * does not tell itself is told in an error toast, never dropped.
   */
  perform(task: () => Promise<unknown>): void;
}

const BATCH_MS = 50;
const TOAST_MS = 8000;

export { errorText };

export function serverNow(clock: ClockBase, localNow = Date.now()): number {
  return clock.serverNow + (localNow - clock.localNow) * clock.scale;
}

type Pushed = Sequenced<ReaperEvent>;

/**
 * `first`: the snapshot the server rendered the page's first screen with (renderer/ssr.tsx): the
 * store starts with it (its initial state is what hydration renders: zustand's server snapshot) and
 * does not ask for it again; the table's saved preferences come once started.
 */
export function createDashboardStore(api: DashboardApi, first?: Snapshot): StoreApi<DashboardState> {
  let queue: Pushed[] = [];
  /** The snapshot, then the events it does not include; and which events the state includes. */
  const replay = new EventReplay<ReaperEvent>();
  const firstEvent = firstEventCheck(first ? first.seq : null);
  if (first) replay.arrived(replay.begin(), first.seq);
  /** Alerts up to this sequence number have been shown (an event replayed after a snapshot is not). */
  let alerted = 0;
  let flushTimer: ReturnType<typeof setTimeout> | null = null;
  let toastId = 0;

  const store = createStore<DashboardState>()((set, get) => {
    const clockFrom = (now: number, scale: number): ClockBase => ({
      serverNow: now,
      localNow: Date.now(),
      scale,
    });

    const flush = () => {
      flushTimer = null;
      const events = queue;
      queue = [];
      if (events.length) apply(events);
    };

    /** Apply events in order; those the state already includes are skipped. */
    const apply = (events: Pushed[]) => {
      let reload = false;
      const s = get();
      let apps = s.apps;
      let appsCopied = false;
      const own = () => {
        if (!appsCopied) {
          apps = { ...apps };
          appsCopied = true;
        }
        return apps;
      };
      let { routes, rules, settings, clock, history, selectedAppId, unreachable, status, historyEvents } = s;
      const toasts: ToastInput[] = [];
      let show: string | null = null;
      let place: Partial<UrlState> | null = null;
      for (const { event: e, seq } of events) {
        if (!replay.fresh(seq)) continue;
        switch (e.type) {
          case 'app':
            own()[e.app.appId] = e.app;
            break;
          case 'removed':
            if (apps[e.appId]) {
              const name = apps[e.appId]!.name;
              toasts.push({
                kind: 'info',
                group: 'released',
                name,
                text: i18n.t('shell:toasts.released', { name }),
              });
            }
            delete own()[e.appId];
            if (selectedAppId === e.appId) selectedAppId = null;
            break;
          case 'apps':
            apps = Object.fromEntries(e.apps.map((a) => [a.appId, a]));
            appsCopied = true;
            break;
          case 'history':
            historyEvents++;
            if (
              history &&
              history.appId === e.entry.appId &&
              !history.entries.some((h) => sameEntry(h, e.entry))
            ) {
              history = { ...history, entries: [e.entry, ...history.entries] };
            }
            break;
          case 'alert':
            if (seq === 0 || seq > alerted) {
              alerted = Math.max(alerted, seq);
              toasts.push({
                kind: 'alert',
                group: 'alert',
                name: e.name,
                text: i18n.t('shell:toasts.alert', { name: e.name, cause: causeText(e.cause).text }),
              });
            }
            break;
          case 'routes':
            routes = e.routes;
            break;
          case 'rules':
            rules = e.rules;
            break;
          case 'settings':
            settings = e.settings;
            break;
          case 'owner-unreachable':
            unreachable = { ...unreachable, [e.ownerId]: { message: e.message, at: Date.now() } };
            break;
          case 'clock':
            clock = clockFrom(e.now, e.timeScale);
            break;
          case 'session':
            reload = true;
            break;
          case 'status':
            status = e.status;
            break;
          case 'show-app':
            show = e.appId;
            break;
          case 'navigate':
            place = stateOfRoute(parseRoute(e.route));
            break;
        }
      }
      // An unreachable owner is forgotten a minute after it was last reported (a sweep reports it again).
      for (const ownerId of Object.keys(unreachable)) {
        if (Date.now() - unreachable[ownerId]!.at > 60_000) {
          unreachable = { ...unreachable };
          delete unreachable[ownerId];
        }
      }
      set({
        apps,
        routes,
        rules,
        settings,
        clock,
        history,
        selectedAppId,
        unreachable,
        status,
        historyEvents,
      });
      for (const t of toasts) pushToast(t);
      // The desktop asked to show an app (a notification or a link was clicked).
      if (show) {
        get().setView('apps');
        get().select(show);
      }
      // The desktop asked to go to a place (a clever-reaper://open/... link).
      if (place) get().navigate(place);
      if (reload) get().perform(() => get().reload());
    };

    /** Toasts of one kind heard close together are one toast, updated in place (its timer restarted). */
    const pushToast = (input: ToastInput) => {
      const { toasts, toast } = addToast(get().toasts, input, Date.now(), toastId + 1, toastGroupText);
      if (toast.id > toastId) toastId = toast.id;
      set({ toasts });
      setTimeout(
        () => {
          const left = expireToast(get().toasts, toast.id, toast.at);
          if (left) set({ toasts: left });
        },
        toast.kind === 'alert' ? 2 * TOAST_MS : TOAST_MS,
      );
    };

    const leaveThen = (leaves: boolean, go: () => void) => leaveOr(leaves, go, (task) => get().perform(task));

    const loadHistory = async (appId: string) => {
      set({ history: { appId, entries: [], loading: true, error: null } });
      try {
        const entries = await api.history({ appId, limit: 1000 });
        const current = get().history;
        if (current?.appId !== appId) return;
        // Entries pushed while loading are kept.
        const pushed = current.entries.filter((p) => !entries.some((e) => sameEntry(e, p)));
        set({ history: { appId, entries: [...pushed, ...entries], loading: false, error: null } });
      } catch (error) {
        if (get().history?.appId === appId) {
          set({ history: { appId, entries: [], loading: false, error: errorText(error) } });
        }
      }
    };

    return {
      phase: 'loading',
      loadError: null,
      connection: api.onConnection ? 'connecting' : 'live',
      status: null,
      clock: clockFrom(Date.now(), 1),
      apps: {},
      routes: [],
      rules: [],
      settings: null,
      view: 'apps',
      filters: INITIAL_FILTERS,
      sort: INITIAL_SORT,
      selectedAppId: null,
      editingRoute: null,
      newRouteFor: null,
      history: null,
      toasts: [],
      unreachable: {},
      busy: {},
      historyEvents: 0,
      historyParams: {},
      auditParams: {},
      routesSearch: '',
      savingsZone: '',
      firstDay: false,
      ...pickInitial(!first),
      ...(first ? fromSnapshot(first) : {}),

      start() {
        const hydrated = firstEvent.pending();
        const off = api.subscribe((event, seq) => {
          // Events passed between the page's snapshot and the stream: a snapshot asked for, once.
          if (firstEvent.gap(seq)) get().perform(() => get().reload());
          const pushed = { event, seq };
          queue.push(pushed);
          replay.heard(event, seq);
          flushTimer ??= setTimeout(flush, BATCH_MS);
        });
        let wasLive = false;
        const offConnection = api.onConnection?.((connection) => {
          set({ connection });
          // Events may have been missed while disconnected: start again from a snapshot.
          if (connection === 'live') {
            if (wasLive) get().perform(() => get().reload());
            wasLive = true;
          }
        });
        if (hydrated) set(savedPrefs());
        else get().perform(() => get().reload());
        return () => {
          off();
          offConnection?.();
          if (flushTimer) clearTimeout(flushTimer);
          flushTimer = null;
          queue = [];
        };
      },

      async reload() {
        const ticket = replay.begin();
        try {
          const snap = await api.snapshot();
          // The snapshot includes the events up to its seq; the later ones received meanwhile are
          // applied again on top of it.
          const later = replay.arrived(ticket, snap.seq);
          if (!later) return;
          const state = fromSnapshot(snap);
          const apps = state.apps;
          const selectedAppId = get().selectedAppId;
          const first = get().phase !== 'ready';
          set({
            ...state,
            loadError: null,
            selectedAppId: selectedAppId && apps[selectedAppId] ? selectedAppId : null,
          });
          apply(later);
          // A link to an app this reaper does not manage (another reaper's, or released since).
          if (first && selectedAppId && !apps[selectedAppId] && !get().apps[selectedAppId]) {
            get().toast('info', i18n.t('shell:toasts.unknownApp', { appId: selectedAppId }));
          }
          const h = get().history;
          if (h && apps[h.appId]) get().perform(() => loadHistory(h.appId));
        } catch (error) {
          if (!replay.failed(ticket)) return;
          if (get().phase !== 'ready') set({ phase: 'failed', loadError: errorText(error) });
          else get().toast('error', i18n.t('shell:toasts.refreshFailed', { error: errorText(error) }));
        }
      },

      setView(view) {
        // A form with unsaved changes asks first (renderer/lib/unsaved-changes.ts).
        leaveThen(view !== get().view, () =>
          set({ view, selectedAppId: view === 'apps' ? get().selectedAppId : null }),
        );
      },

      setFilters(filters) {
        set({ filters: { ...get().filters, ...filters } });
      },

      setSort(key) {
        const { sort } = get();
        set({
          sort: sort.key === key ? { key, dir: sort.dir === 'asc' ? 'desc' : 'asc' } : { key, dir: 'asc' },
        });
      },

      select(appId) {
        set({ selectedAppId: appId });
        if (appId) get().perform(() => loadHistory(appId));
        else set({ history: null });
      },

      navigate(place) {
        // Back or Forward away from a form with unsaved changes asks first (the URL is put back while
        // asked; the answer Discard goes there).
        const s = get();
        const leaves =
          (place.view !== undefined && place.view !== s.view) ||
          (place.editingRoute !== undefined && place.editingRoute !== s.editingRoute);
        leaveThen(leaves, () => {
          const before = get().selectedAppId;
          set(place);
          const after = get().selectedAppId;
          if (after !== before) {
            if (after) get().perform(() => loadHistory(after));
            else set({ history: null });
          }
        });
      },

      setHistoryParams(historyParams) {
        set({ historyParams });
      },

      setAuditParams(auditParams) {
        set({ auditParams });
      },

      setRoutesSearch(routesSearch) {
        set({ routesSearch });
      },

      setSavingsZone(savingsZone) {
        set({ savingsZone });
      },

      proposeFirstDay(firstDay) {
        set({ firstDay });
      },

      editRoute(route, forApp) {
        leaveThen(route !== null && route !== get().editingRoute, () =>
          set({ editingRoute: route, newRouteFor: forApp ?? null, view: route ? 'routes' : get().view }),
        );
      },

      ...changeActions({
        api,
        receive: (event) => apply([{ event, seq: 0 }]),
        apps: () => get().apps,
        routes: () => get().routes,
        rules: () => get().rules,
        setBusy(appId, action) {
          const busy = { ...get().busy };
          if (action) busy[appId] = action;
          else delete busy[appId];
          set({ busy });
        },
        toast: (kind, text) => get().toast(kind, text),
      }),

      ...pickActions(set, get),

      toast(kind, text) {
        pushToast({ kind, text });
      },

      dismissToast(id) {
        set({ toasts: get().toasts.filter((t) => t.id !== id) });
      },

      perform(task) {
        task().catch((error: unknown) => get().toast('error', errorText(error)));
      },
    };
  });
  return store;
}

function sameEntry(a: HistoryEntry, b: HistoryEntry): boolean {
  if (a.id !== undefined && b.id !== undefined) return a.id === b.id;
  return a.at === b.at && a.kind === b.kind && a.reason === b.reason && a.to === b.to;
}
