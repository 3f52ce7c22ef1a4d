/**
 * Routes, rules and settings: validated, kept in a key-value file (electron-store on the desktop, conf in
 * Node, a Map in tests), and announced to listeners (the engine) when they change. Every change is
 * validated in full before anything is written: nothing is half-applied.
 *
 * What was stored but cannot be read is never lost: a route or a setting that does not validate is
 * kept in the file as it is (written back by every later write), not used, and named in `problems()`
 * with its reason. While routes may be missing (a route that does not validate, or a settings file
 * that could not be read at all and was set aside), the engine releases no app (`engineConfig()`):
 * an app whose route was lost is held, not let go, until the operator restores the file, fixes or
 * deletes the route, or confirms by saving routes or settings again.
 */
import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { InputError, NotFoundError, parseInput } from '../../shared/errors.ts';
import {
  type Route,
  type RouteCreate,
  type RouteUpdate,
  routeCreateSchema,
  routeUpdateSchema,
} from '../../shared/routes.ts';
import {
  type Rule,
  type RuleCreate,
  type RuleUpdate,
  ruleCreateSchema,
  ruleProblems,
  ruleUpdateSchema,
} from '../../shared/rules.ts';
import {
  type Settings,
  type SettingsUpdate,
  settingsProblems,
  settingsUpdateSchema,
} from '../../shared/settings.ts';
import type { EngineConfig } from '../engine/ports.ts';
import {
  NOT_A_LIST,
  readRoutes,
  readSettings,
  type UnreadRoute,
  type UnreadSetting,
  unreadRoutesProblem,
  unreadSettingsProblem,
} from './config-read.ts';
import type { SharedConfigBackend } from './contract.ts';
import { RULES_NOT_A_LIST, readRules, type UnreadRule, unreadRulesProblem } from './rules-read.ts';

/** The few calls the store needs from electron-store / conf. */
export interface KeyValueBackend {
  get(key: string): unknown;
  set(key: string, value: unknown): void;
  /** A file that could not be read at open and was set aside (the store then starts empty). */
  readonly damage?: { file: string; reason: string } | null;
}

export class MemoryBackend implements KeyValueBackend {
  private data = new Map<string, unknown>();
  get(key: string): unknown {
    return structuredClone(this.data.get(key));
  }
  set(key: string, value: unknown): void {
    this.data.set(key, structuredClone(value));
  }
}

/** What a shared backend's values are seen through: read at open, changed only by save(). */
class SnapshotBackend implements KeyValueBackend {
  private readonly values: Map<string, unknown>;
  constructor(values: Map<string, unknown>) {
    this.values = values;
  }
  get(key: string): unknown {
    return structuredClone(this.values.get(key));
  }
  set(): void {
    throw new Error('routes and settings in a shared datastore change through ConfigStore.save()');
  }
  replace(key: string, value: unknown): void {
    this.values.set(key, structuredClone(value));
  }
}

export type ConfigChange = { kind: 'routes' } | { kind: 'rules' } | { kind: 'settings' };

export class ConfigStore implements EngineConfig {
  private readonly backend: KeyValueBackend;
  private readonly now: () => number;
  private cachedRoutes: Route[];
  private cachedSettings: Settings;
  /** In their order of precedence; kept beside the routes (key 'rules'), moved with them. */
  private cachedRules: Rule[];
  /** Stored rules that do not validate: written back as they are, until fixed or deleted. */
  private unreadRules: UnreadRule[];
  /** Stored routes that do not validate: written back as they are, until fixed or deleted. */
  private unreadRoutes: UnreadRoute[];
  /** Stored settings that do not validate, by field: written back until set again. */
  private unreadSettings: Map<string, UnreadSetting>;
  /** The file set aside at open, until the operator saves routes or settings (confirms). */
  private damage: { file: string; reason: string } | null;
  private listeners = new Set<(change: ConfigChange) => void>();
  /** Set when the routes and settings live in a shared datastore (ConfigStore.open). */
  private shared: SharedConfigBackend | null = null;
  /** Changes through save(), one at a time: each starts from what the one before wrote. */
  private saving: Promise<unknown> = Promise.resolve();

  constructor(backend: KeyValueBackend, now: () => number = Date.now) {
    this.backend = backend;
    this.now = now;
    const routes = readRoutes(backend.get('routes'));
    const settings = readSettings(backend.get('settings'));
    const rules = readRules(backend.get('rules'));
    this.cachedRules = rules.rules;
    this.unreadRules = rules.unread;
    this.cachedRoutes = routes.routes;
    this.unreadRoutes = routes.unread;
    this.cachedSettings = settings.settings;
    this.unreadSettings = new Map(settings.unread.map((u) => [u.field, u]));
    this.damage = backend.damage ?? null;
  }

  /** Routes and settings kept in a datastore (contract.ts): read now, each change written by save(). */
  static async open(shared: SharedConfigBackend, now: () => number = Date.now): Promise<ConfigStore> {
    const store = new ConfigStore(new SnapshotBackend(await shared.load()), now);
    store.shared = shared;
    return store;
  }

  /**
   * Make a change (`change` calls the write methods on the store it is given) and resolve with its
   * result once it is written. On a key-value file it is the write methods themselves; on a shared
   * datastore the change is made on a draft (what could not be read is kept, as by a write here),
   * validated in full, written, and only then applied and announced: a failed write changes nothing.
   */
  save<T>(change: (config: ConfigStore) => T): Promise<T> {
    const shared = this.shared;
    if (!shared) return new Promise<T>((resolve) => resolve(change(this)));
    const run = this.saving.then(async () => {
      const staged = new Map<string, unknown>();
      const draft = new ConfigStore(
        {
          get: (key) => (staged.has(key) ? structuredClone(staged.get(key)) : this.backend.get(key)),
          set: (key, value) => staged.set(key, structuredClone(value)),
        },
        this.now,
      );
      const result = change(draft);
      for (const [key, value] of staged) await shared.set(key, value);
      this.adopt(staged);
      return result;
    });
    this.saving = run.catch(() => {});
    return run;
  }

  /** Read the routes and settings of a shared datastore again (another instance changed them). */
  async reload(): Promise<void> {
    if (!this.shared) return;
    const shared = this.shared;
    const run = this.saving.then(async () => this.adopt(await shared.load()));
    this.saving = run.catch(() => {});
    await run;
  }

  /** Take stored values as they are now (written by save(), or read again), and announce changes. */
  private adopt(values: Map<string, unknown>): void {
    const snapshot = this.backend instanceof SnapshotBackend ? this.backend : null;
    if (values.has('routes')) {
      const value = values.get('routes');
      snapshot?.replace('routes', value);
      const { routes, unread } = readRoutes(value);
      const changed = !isDeepStrictEqual([routes, unread], [this.cachedRoutes, this.unreadRoutes]);
      this.cachedRoutes = routes;
      this.unreadRoutes = unread;
      if (changed) this.emit({ kind: 'routes' });
    }
    if (values.has('rules')) {
      const value = values.get('rules');
      snapshot?.replace('rules', value);
      const { rules, unread } = readRules(value);
      const changed = !isDeepStrictEqual([rules, unread], [this.cachedRules, this.unreadRules]);
      this.cachedRules = rules;
      this.unreadRules = unread;
      if (changed) this.emit({ kind: 'rules' });
    }
    if (values.has('settings')) {
      const value = values.get('settings');
      snapshot?.replace('settings', value);
      const { settings, unread } = readSettings(value);
      const unreadSettings = new Map(unread.map((u) => [u.field, u]));
      const changed = !isDeepStrictEqual(
        [settings, unreadSettings],
        [this.cachedSettings, this.unreadSettings],
      );
      this.cachedSettings = settings;
      this.unreadSettings = unreadSettings;
      if (changed) this.emit({ kind: 'settings' });
    }
  }

  /** What could not be read, for the dashboard's banner and the log; empty when all is well. */
  problems(): string[] {
    const out: string[] = [];
    if (this.damage) {
      out.push(
        `The settings file could not be read (${this.damage.reason}). It was kept as ${this.damage.file}, ` +
          'and the reaper started with the default settings and no routes. No app is released until ' +
          'you restore the file (stop the reaper, put it back, start again) or confirm by saving a route or the settings.',
      );
    }
    const routes = unreadRoutesProblem(this.unreadRoutes);
    if (routes) out.push(routes);
    const settings = unreadSettingsProblem([...this.unreadSettings.values()]);
    if (settings) out.push(settings);
    const rules = unreadRulesProblem(this.unreadRules);
    if (rules) out.push(rules);
    return out;
  }

  /** True while the file set aside at open is not confirmed or restored (its problem is shown). */
  setAsideReported(): boolean {
    return this.damage !== null;
  }

  /** True while routes may be missing: no app is released then. */
  releaseHeld(): boolean {
    return (
      this.damage !== null ||
      this.unreadRoutes.length > 0 ||
      this.unreadRules.length > 0 ||
      this.unreadSettings.has('releaseDelayMs')
    );
  }

  /**
   * The engine's view: the same routes and settings, with no release ever due while releaseHeld()
   * (the engine leaves a release pending while its delay has not passed; an infinite one never does).
   */
  engineConfig(): EngineConfig {
    return {
      routes: () => this.routes(),
      rules: () => this.rules(),
      settings: () =>
        this.releaseHeld()
          ? { ...this.cachedSettings, releaseDelayMs: Number.POSITIVE_INFINITY }
          : this.cachedSettings,
    };
  }

  routes(): readonly Route[] {
    return this.cachedRoutes;
  }

  route(id: string): Route {
    const route = this.cachedRoutes.find((r) => r.id === id);
    if (!route) throw new NotFoundError(`route ${id}`);
    return route;
  }

  settings(): Settings {
    return this.cachedSettings;
  }

  onChange(listener: (change: ConfigChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  createRoute(input: RouteCreate): Route {
    const fields = parseInput(routeCreateSchema, input);
    const now = this.now();
    const route: Route = { id: `route_${randomUUID()}`, ...fields, createdAt: now, updatedAt: now };
    this.writeRoutes([...this.cachedRoutes, route]);
    return route;
  }

  updateRoute(id: string, input: RouteUpdate): Route {
    const current = this.route(id);
    const fields = parseInput(routeUpdateSchema, input);
    const route: Route = { ...current, ...fields, updatedAt: this.now() };
    this.writeRoutes(this.cachedRoutes.map((r) => (r.id === id ? route : r)));
    return route;
  }

  deleteRoute(id: string): void {
    const unread = this.unreadRoutes.find((u) => u.id === id);
    if (unread) {
      this.writeRoutes(
        this.cachedRoutes,
        this.unreadRoutes.filter((u) => u !== unread),
      );
      return;
    }
    this.route(id);
    this.writeRoutes(this.cachedRoutes.filter((r) => r.id !== id));
  }

  /** Disable every route of an app ("Disable the reaper"); returns the routes changed. */
  disableRoutesOf(appId: string): Route[] {
    const now = this.now();
    const changed: Route[] = [];
    const next = this.cachedRoutes.map((r) => {
      if (r.appId !== appId || !r.enabled) return r;
      const updated = { ...r, enabled: false, updatedAt: now };
      changed.push(updated);
      return updated;
    });
    if (changed.length) this.writeRoutes(next);
    return changed;
  }

  rules(): readonly Rule[] {
    return this.cachedRules;
  }

  rule(id: string): Rule {
    const rule = this.cachedRules.find((r) => r.id === id);
    if (!rule) throw new NotFoundError(`rule ${id}`);
    return rule;
  }

  /** A new rule, at `position` in the list (0 = first, the strongest) or at the end. */
  createRule(input: RuleCreate): Rule {
    const { position, ...fields } = parseInput(ruleCreateSchema, input);
    const now = this.now();
    const rule: Rule = { id: `rule_${randomUUID()}`, ...fields, createdAt: now, updatedAt: now };
    this.writeRules(placed(this.cachedRules, rule, position));
    return rule;
  }

  /** A change to a rule (checked whole once merged); `position` moves it in the list. */
  updateRule(id: string, input: RuleUpdate): Rule {
    const current = this.rule(id);
    const { position, ...fields } = parseInput(ruleUpdateSchema, input);
    const rule: Rule = { ...current, ...fields, updatedAt: this.now() };
    const { id: _id, createdAt: _c, updatedAt: _u, ...whole } = rule;
    const problems = ruleProblems(whole);
    if (problems.length) throw new InputError(problems);
    const others = this.cachedRules.filter((r) => r.id !== id);
    const at = position ?? this.cachedRules.findIndex((r) => r.id === id);
    this.writeRules(placed(others, rule, at));
    return rule;
  }

  /** Delete a rule (an unreadable one too, by its id). */
  deleteRule(id: string): void {
    const unread = this.unreadRules.find((u) => u.id === id);
    if (unread) {
      this.writeRules(
        this.cachedRules,
        this.unreadRules.filter((u) => u !== unread),
      );
      return;
    }
    this.rule(id);
    this.writeRules(this.cachedRules.filter((r) => r.id !== id));
  }

  updateSettings(input: SettingsUpdate): Settings {
    const patch = parseInput(settingsUpdateSchema, input);
    const next = { ...this.cachedSettings, ...patch };
    const problems = settingsProblems(next);
    if (problems.length) throw new InputError(problems);
    // What could not be read stays in the file, unless this change sets it (settings that were not
    // even an object are replaced whole: the backends set such a file aside, so only a Map gets here).
    const unread = new Map(
      [...this.unreadSettings].filter(([field]) => field !== '' && !Object.hasOwn(patch, field)),
    );
    this.backend.set('settings', {
      ...next,
      ...Object.fromEntries([...unread.values()].map((u) => [u.field, u.value])),
    });
    this.cachedSettings = next;
    this.unreadSettings = unread;
    this.damage = null;
    this.emit({ kind: 'settings' });
    return next;
  }

  private writeRoutes(routes: Route[], unread: UnreadRoute[] = this.unreadRoutes): void {
    const hostOwners = new Map<string, string>();
    for (const r of routes) {
      for (const host of r.hosts) {
        const other = hostOwners.get(host);
        if (other && other !== r.appId) {
          throw InputError.of('hosts', 'hostTaken', { value: host, other });
        }
        hostOwners.set(host, r.appId);
      }
    }
    // A stored value that was not even a list is kept whole only while nothing replaces it.
    const kept = unread.flatMap((u) => (u.reason === NOT_A_LIST ? [] : [u.raw]));
    this.backend.set('routes', [...routes, ...kept]);
    this.cachedRoutes = routes;
    this.unreadRoutes = unread.filter((u) => u.reason !== NOT_A_LIST);
    this.damage = null;
    this.emit({ kind: 'routes' });
  }

  private writeRules(rules: Rule[], unread: UnreadRule[] = this.unreadRules): void {
    // A stored value that was not even a list is kept whole only while nothing replaces it.
    const kept = unread.flatMap((u) => (u.reason === RULES_NOT_A_LIST ? [] : [u.raw]));
    this.backend.set('rules', [...rules, ...kept]);
    this.cachedRules = rules;
    this.unreadRules = unread.filter((u) => u.reason !== RULES_NOT_A_LIST);
    this.emit({ kind: 'rules' });
  }

  private emit(change: ConfigChange): void {
    for (const l of this.listeners) l(change);
  }
}

/** `rule` put at index `at` of `list` (clamped; undefined: at the end). */
function placed(list: readonly Rule[], rule: Rule, at: number | undefined): Rule[] {
  const i = Math.min(at ?? list.length, list.length);
  return [...list.slice(0, i), rule, ...list.slice(i)];
}
