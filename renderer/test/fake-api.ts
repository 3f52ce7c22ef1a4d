/**
 * An in-memory ReaperApi for component tests: canned answers that a test can override, every call
 * recorded, and `emit` to push an event as the engine would.
 */
import {
  type AppView,
  apiFromInvoke,
  type CallName,
  type CallOutputs,
  NO_CREDENTIALS,
  type ReaperEvent,
  type ReaperListener,
  type ReaperStatus,
} from '../../shared/api.ts';
import type { HistoryEntry, ReaperState } from '../../shared/domain.ts';
import { CONSOLE_LABELS } from '../../shared/domain.ts';
import { HOUR, MINUTE } from '../../shared/durations.ts';
import type { Route } from '../../shared/routes.ts';
import type { Rule } from '../../shared/rules.ts';
import { DEFAULT_SETTINGS, type Settings } from '../../shared/settings.ts';
import type { DashboardApi } from '../api/dashboard-api.ts';

export const NOW = Date.UTC(2026, 0, 5, 9, 0, 0);

export function appView(name: string, state: ReaperState, fields: Partial<AppView> = {}): AppView {
  return {
    appId: `app_${name}`,
    name,
    ownerId: 'orga_acme',
    ownerName: 'Acme Staging',
    state,
    label: CONSOLE_LABELS[state],
    stateSince: NOW - 10 * MINUTE,
    cleverState: state === 'Down' ? 'SHOULD_BE_DOWN' : 'SHOULD_BE_UP',
    cause: null,
    notice: null,
    lastRequestAt: null,
    lastRequestSource: null,
    sleepsAt: state === 'Up' ? NOW + 20 * MINUTE : null,
    sleepNote: null,
    handedOver: null,
    mustBeUpUntil: null,
    nextMustBeUpAt: null,
    keepAwakeUntil: null,
    wakeRequestedAt: null,
    pendingCall: null,
    managed: true,
    releaseAt: null,
    gracePeriodMs: HOUR,
    routeIds: [`route_${name}`],
    hasRanges: false,
    ruleId: null,
    group: null,
    ...fields,
  };
}

export function routeOf(app: AppView, fields: Partial<Route> = {}): Route {
  return {
    id: `route_${app.name}`,
    appId: app.appId,
    ownerId: app.ownerId,
    label: '',
    enabled: true,
    gracePeriodMs: HOUR,
    ranges: [],
    hosts: [],
    filters: { pathPrefixes: [], sources: [] },
    createdAt: NOW,
    updatedAt: NOW,
    ...fields,
  };
}

export interface FakeApi extends DashboardApi {
  calls: { name: CallName; input: unknown }[];
  emit(event: ReaperEvent): void;
  /** Replace the answer of a call. */
  answer<K extends CallName>(name: K, fn: (input: never) => Promise<CallOutputs[K]> | CallOutputs[K]): void;
}

export function fakeApi(
  options: {
    apps?: AppView[];
    routes?: Route[];
    settings?: Partial<Settings>;
    status?: Partial<ReaperStatus>;
    history?: HistoryEntry[];
    rules?: Rule[];
  } = {},
): FakeApi {
  const apps = options.apps ?? [];
  const routes = options.routes ?? apps.map((a) => routeOf(a));
  const settings = { ...DEFAULT_SETTINGS, ...options.settings };
  const status: ReaperStatus = {
    now: NOW,
    timeScale: 1,
    mode: 'demo',
    scenario: 'demo',
    wakeProxy: { url: null },
    problems: [],
    credentials: NO_CREDENTIALS,
    version: 'test',
    ...options.status,
  };
  const listeners = new Set<ReaperListener>();
  let seq = 0;
  const calls: FakeApi['calls'] = [];
  const byId = (appId: string) => apps.find((a) => a.appId === appId)!;
  const answers: Partial<Record<CallName, (input: never) => unknown>> = {
    snapshot: () => ({ seq, status, apps, routes, rules: options.rules ?? [], settings }),
    status: () => status,
    listApps: () => apps,
    getApp: ({ appId }: { appId: string }) => ({
      app: byId(appId),
      routes: routes.filter((r) => r.appId === appId),
      ranges: [],
      nextTransitions: [],
      traffic: {
        counted: 0,
        bySource: {},
        ignored: {},
        lastIgnoredAt: null,
        accessLog: null,
        connections: { open: 0, inUse: 0 },
      },
      wakeSources: {
        proxy: { hosts: [], listening: false },
        accessLogs: true,
        ranges: false,
        manual: true,
        accessLogWakes: 0,
        warning: null,
      },
      durations: {
        start: { count: 3, medianMs: 45_000, worstMs: 70_000 },
        stop: { count: 0, medianMs: null, worstMs: null },
      },
      group: null,
    }),
    history: () => options.history ?? [],
    reset: ({ appId }: { appId: string }) => byId(appId),
    wake: ({ appId }: { appId: string }) => byId(appId),
    keepAwake: ({ appId, until }: { appId: string; until: number | null }) => ({
      ...byId(appId),
      keepAwakeUntil: until,
    }),
    release: ({ appId }: { appId: string }) => ({ appId, disabledRoutes: [] }),
    // As the service does: an app in Error cannot be woken, the others are done.
    bulk: ({ action, appIds }: { action: string; appIds: string[] }) => {
      const outcomes = appIds.map((appId) =>
        action === 'wake' && byId(appId).state === 'Error'
          ? { appId, ok: false, reason: 'the app is in Error: reset it once the problem is fixed' }
          : { appId, ok: true, app: action === 'release' ? null : byId(appId) },
      );
      const succeeded = outcomes.filter((o) => o.ok).length;
      return { action, outcomes, succeeded, refused: outcomes.length - succeeded };
    },
    listRoutes: () => routes,
    listOwners: () => [{ id: 'orga_acme', name: 'Acme Staging' }],
    listOwnerApps: () => [
      ...apps.map((a) => ({
        id: a.appId,
        name: a.name,
        ownerId: a.ownerId,
        cleverState: 'SHOULD_BE_UP',
        routeIds: a.routeIds,
      })),
      {
        id: 'app_wiki',
        name: 'internal-wiki',
        ownerId: 'orga_acme',
        cleverState: 'SHOULD_BE_UP',
        routeIds: [],
      },
    ],
    createRoute: (input: Partial<Route>) => ({
      ...routeOf(appView('new', 'WaitingForInit')),
      ...input,
      id: 'route_new',
    }),
    updateRoute: ({ routeId, changes }: { routeId: string; changes: Partial<Route> }) => ({
      ...routes.find((r) => r.id === routeId)!,
      ...changes,
    }),
    deleteRoute: ({ routeId }: { routeId: string }) => ({ deleted: routeId }),
    getSettings: () => settings,
    updateSettings: (patch: Partial<Settings>) => ({ ...settings, ...patch }),
    credentials: () => status.credentials,
    startDemo: () => ({ ...status, mode: 'demo' }),
    historyQuery: () => ({
      entries: (options.history ?? []).map((h, i) => ({
        ...h,
        id: h.id ?? i + 1,
        appName: apps.find((a) => a.appId === h.appId)?.name ?? h.appId,
      })),
      nextCursor: null,
    }),
    webhookStatus: () => [],
  };
  const api = apiFromInvoke(
    async (name, input) => {
      calls.push({ name, input });
      const fn = answers[name];
      if (!fn) throw new Error(`the fake API has no answer for ${name}`);
      return fn(input as never);
    },
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  );
  return {
    ...api,
    calls,
    emit(event) {
      seq++;
      for (const l of listeners) l(event, seq);
    },
    answer(name, fn) {
      answers[name] = fn as (input: never) => unknown;
    },
  };
}
