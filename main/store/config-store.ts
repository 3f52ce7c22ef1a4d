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
import type { Route, RouteCreate, RouteUpdate } from '../../shared/routes.ts';
import type { Rule, RuleCreate, RuleUpdate } from '../../shared/rules.ts';
import type { Settings, SettingsUpdate } from '../../shared/settings.ts';
import type { EngineConfig } from '../engine/ports.ts';
import { type KeyValueBackend, MemoryBackend, SnapshotBackend } from './config/backends.ts';
import type { BookContext, ConfigChange } from './config/book.ts';
import { releaseHeld, settingsForEngine } from './config/release-hold.ts';
import { RouteBook } from './config/route-book.ts';
import { RuleBook } from './config/rule-book.ts';
import { SettingsBook } from './config/settings-book.ts';
import type { SharedConfigBackend } from './contract.ts';

export type { ConfigChange, KeyValueBackend };
export { MemoryBackend };

export class ConfigStore implements EngineConfig {
  private readonly backend: KeyValueBackend;
  private readonly now: () => number;
  private readonly routeBook: RouteBook;
  private readonly ruleBook: RuleBook;
  private readonly settingsBook: SettingsBook;
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
    const ctx: BookContext = {
      backend,
      now,
      emit: (change) => this.emit(change),
      confirmed: () => {
        this.damage = null;
      },
    };
    this.routeBook = new RouteBook(ctx);
    this.settingsBook = new SettingsBook(ctx);
    this.ruleBook = new RuleBook(ctx);
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
    this.saving = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  /** Read the routes and settings of a shared datastore again (another instance changed them). */
  async reload(): Promise<void> {
    if (!this.shared) return;
    const shared = this.shared;
    const run = this.saving.then(async () => this.adopt(await shared.load()));
    this.saving = run.then(
      () => undefined,
      () => undefined,
    );
    await run;
  }

  /** Take stored values as they are now (written by save(), or read again), and announce changes. */
  private adopt(values: Map<string, unknown>): void {
    const snapshot = this.backend instanceof SnapshotBackend ? this.backend : null;
    const books = [
      ['routes', this.routeBook],
      ['rules', this.ruleBook],
      ['settings', this.settingsBook],
    ] as const;
    for (const [kind, book] of books) {
      if (!values.has(kind)) continue;
      const value = values.get(kind);
      snapshot?.replace(kind, value);
      if (book.adopt(value)) this.emit({ kind });
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
    for (const problem of [this.routeBook.problem(), this.settingsBook.problem(), this.ruleBook.problem()]) {
      if (problem) out.push(problem);
    }
    return out;
  }

  /** True while the file set aside at open is not confirmed or restored (its problem is shown). */
  setAsideReported(): boolean {
    return this.damage !== null;
  }

  /** True while routes may be missing: no app is released then (config/release-hold.ts). */
  releaseHeld(): boolean {
    return releaseHeld({
      setAside: this.damage !== null,
      unreadRoutes: this.routeBook.unreadCount,
      unreadRules: this.ruleBook.unreadCount,
      unreadSettings: this.settingsBook.unreadFields,
    });
  }

  /** The engine's view: the same routes, rules and settings, with no release due while held. */
  engineConfig(): EngineConfig {
    return {
      routes: () => this.routes(),
      rules: () => this.rules(),
      settings: () => settingsForEngine(this.settingsBook.current(), this.releaseHeld()),
    };
  }

  onChange(listener: (change: ConfigChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  // ---- routes (config/route-book.ts) ---------------------------------------------------------

  routes(): readonly Route[] {
    return this.routeBook.list();
  }

  route(id: string): Route {
    return this.routeBook.get(id);
  }

  createRoute(input: RouteCreate): Route {
    return this.routeBook.create(input);
  }

  updateRoute(id: string, input: RouteUpdate): Route {
    return this.routeBook.update(id, input);
  }

  deleteRoute(id: string): void {
    this.routeBook.delete(id);
  }

  /** Disable every route of an app ("Disable the reaper"); returns the routes changed. */
  disableRoutesOf(appId: string): Route[] {
    return this.routeBook.disableOf(appId);
  }

  // ---- rules (config/rule-book.ts) -----------------------------------------------------------

  rules(): readonly Rule[] {
    return this.ruleBook.list();
  }

  rule(id: string): Rule {
    return this.ruleBook.get(id);
  }

  /** A new rule, at `position` in the list (0 = first, the strongest) or at the end. */
  createRule(input: RuleCreate): Rule {
    return this.ruleBook.create(input);
  }

  /** A change to a rule (checked whole once merged); `position` moves it in the list. */
  updateRule(id: string, input: RuleUpdate): Rule {
    return this.ruleBook.update(id, input);
  }

  /** Delete a rule (an unreadable one too, by its id). */
  deleteRule(id: string): void {
    this.ruleBook.delete(id);
  }

  // ---- settings (config/settings-book.ts) ----------------------------------------------------

  settings(): Settings {
    return this.settingsBook.current();
  }

  updateSettings(input: SettingsUpdate): Settings {
    return this.settingsBook.update(input);
  }

  private emit(change: ConfigChange): void {
    for (const l of this.listeners) l(change);
  }
}
