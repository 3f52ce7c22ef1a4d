/**
 * The one way the dashboard changes data: each action calls the API and lands the answer through
 * the same door as the engine's pushed events (`receive`, with the event that tells the change), so
 * a change is applied one way whether the answer or the event comes first; the event that follows
 * carries the same value. Components call these actions and never the API's writing calls.
 * Calls whose answer is not the changed data (delete a route, connect, start the demo) apply
 * nothing here: the pushed events (routes and apps, session) bring the change.
 */
import type { AppView, ConnectInput, ReaperEvent } from '../../shared/api.ts';
import type { BulkAction, BulkResult } from '../../shared/bulk.ts';
import type { Route, RouteCreate, RouteUpdate } from '../../shared/routes.ts';
import type { Rule, RuleCreate, RuleUpdate } from '../../shared/rules.ts';
import type { Settings, SettingsUpdate } from '../../shared/settings.ts';
import type { DashboardApi } from '../api/dashboard-api.ts';
import { i18n } from '../i18n.ts';
import { errorText } from '../lib/errors.ts';

export type AppAction = 'reset' | 'wake' | 'release';

export interface ChangeActions {
  /**
   * Reset, wake or release an app; a failure is told in a toast. Resolves with the app as the
   * answer tells it (reset, wake), null after a release or a failure.
   */
  act(appId: string, action: AppAction): Promise<AppView | null>;
  keepAwake(appId: string, until: number | null): Promise<void>;
  /**
   * One action on many apps (POST /api/apps/_bulk): each app done lands as its event would; a
   * refusal of the whole request (nothing done) is thrown.
   */
  bulk(action: BulkAction, appIds: string[], until?: number | null): Promise<BulkResult>;
  /** Flip the kill switch or dry-run; a failure is told in a toast. */
  setSwitch(name: 'killSwitch' | 'dryRun', on: boolean): Promise<void>;
  /** Save settings; a refusal (with its field problems) is thrown to the form. */
  saveSettings(patch: SettingsUpdate): Promise<Settings>;
  /** Create a route; a refusal (with its field problems) is thrown to the form. */
  createRoute(fields: RouteCreate): Promise<Route>;
  /** Change a route; a refusal is thrown. */
  updateRoute(routeId: string, changes: RouteUpdate): Promise<Route>;
  deleteRoute(routeId: string): Promise<void>;
  /** Create a rule (at `position`, or at the end); a refusal is thrown to the form. */
  createRule(fields: RuleCreate): Promise<Rule>;
  /** Change (or move, with `position`) a rule; a refusal is thrown. */
  updateRule(ruleId: string, changes: RuleUpdate): Promise<Rule>;
  deleteRule(ruleId: string): Promise<void>;
  connect(input: ConnectInput): Promise<void>;
  startDemo(): Promise<void>;
}

export interface ChangeDeps {
  api: DashboardApi;
  /** Apply a change as the pushed event that tells it would be. */
  receive(event: ReaperEvent): void;
  apps(): Record<string, AppView>;
  routes(): Route[];
  rules(): Rule[];
  setBusy(appId: string, action: AppAction | 'keep-awake' | null): void;
  toast(kind: 'error' | 'info', text: string): void;
}

export function changeActions(deps: ChangeDeps): ChangeActions {
  const { api, receive } = deps;

  const saveSettings = async (patch: SettingsUpdate) => {
    const settings = await api.updateSettings(patch);
    receive({ type: 'settings', settings });
    return settings;
  };

  /** A saved route in the list, in place of its former self or added at the end. */
  const landRoute = (saved: Route) => {
    const routes = deps.routes();
    receive({
      type: 'routes',
      routes: routes.some((r) => r.id === saved.id)
        ? routes.map((r) => (r.id === saved.id ? saved : r))
        : [...routes, saved],
    });
    return saved;
  };

  /**
   * A saved rule at its place: the list is fetched again when the rule may have moved (the server
   * keeps the order); otherwise put in place of its former self, or at the end.
   */
  const landRule = async (saved: Rule, moved: boolean) => {
    const rules = deps.rules();
    if (moved) receive({ type: 'rules', rules: await api.listRules() });
    else
      receive({
        type: 'rules',
        rules: rules.some((r) => r.id === saved.id)
          ? rules.map((r) => (r.id === saved.id ? saved : r))
          : [...rules, saved],
      });
    return saved;
  };

  return {
    async act(appId, action) {
      const app = deps.apps()[appId];
      deps.setBusy(appId, action);
      try {
        if (action === 'release') {
          await api.release({ appId });
          deps.toast('info', i18n.t('apps:toasts.disabled', { name: app?.name ?? appId }));
          return null;
        }
        const answer =
          action === 'reset' ? await api.reset({ appId }) : await api.wake({ appId, source: 'dashboard' });
        receive({ type: 'app', app: answer });
        return answer;
      } catch (error) {
        deps.toast(
          'error',
          i18n.t('apps:toasts.failed', { name: app?.name ?? appId, error: errorText(error) }),
        );
        return null;
      } finally {
        deps.setBusy(appId, null);
      }
    },

    async keepAwake(appId, until) {
      deps.setBusy(appId, 'keep-awake');
      try {
        receive({ type: 'app', app: await api.keepAwake({ appId, until, source: 'dashboard' }) });
      } finally {
        deps.setBusy(appId, null);
      }
    },

    async bulk(action, appIds, until) {
      const result = await api.bulk({
        action,
        appIds,
        source: 'dashboard',
        ...(action === 'keepAwake' ? { until: until ?? null } : {}),
      });
      // A disabled app is released: the pushed 'removed' event tells it (with its toast).
      for (const o of result.outcomes) if (o.ok && o.app) receive({ type: 'app', app: o.app });
      return result;
    },

    async setSwitch(name, on) {
      try {
        await saveSettings({ [name]: on });
      } catch (error) {
        deps.toast('error', errorText(error));
      }
    },

    saveSettings,

    async createRoute(fields) {
      return landRoute(await api.createRoute(fields));
    },

    async updateRoute(routeId, changes) {
      return landRoute(await api.updateRoute({ routeId, changes }));
    },

    async deleteRoute(routeId) {
      await api.deleteRoute({ routeId });
    },

    async createRule(fields) {
      const { position } = fields;
      return landRule(await api.createRule(fields), position !== undefined && position < deps.rules().length);
    },

    async updateRule(ruleId, changes) {
      const { position } = changes;
      const at = deps.rules().findIndex((r) => r.id === ruleId);
      return landRule(await api.updateRule({ ruleId, changes }), position !== undefined && position !== at);
    },

    async deleteRule(ruleId) {
      await api.deleteRule({ ruleId });
    },

    async connect(input) {
      await api.connect(input);
    },

    async startDemo() {
      await api.startDemo();
    },
  };
}
