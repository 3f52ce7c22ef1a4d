/**
 * The desktop's settings file: routes, reaper settings and the desktop's own preferences in one
 * JSON file of the data directory (`config.json`), kept by electron-store, with a schema, defaults
 * and migrations. electron-store is `conf` plus Electron's paths, so this module works on `conf`'s
 * types and tests run it on `conf` in plain Node (same file, same behaviour).
 *
 * The file has the layout of the headless server's config.json (`routes`, `settings`), so a data
 * directory moved from one shell to the other keeps its routes.
 *
 * A file that cannot be opened (not JSON, refused by the schema, a failed migration) is never
 * overwritten: it is set aside as `config.json.corrupt-<time>`, the app starts from the defaults, and
 * the caller gets a warning to show.
 */
import { existsSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import type { Options as ConfOptions } from 'conf';
import { LANGUAGES, type Language } from '../../shared/i18n/languages.ts';
import { describeError, type Log } from '../../shared/log.ts';
import type { KeyValueBackend } from '../store/config-store.ts';

export const SETTINGS_NAME = 'config';
export const SETTINGS_FILE = `${SETTINGS_NAME}.json`;

/**
 * The desktop's own preferences (the reaper's settings live under `settings`; start at login is
 * the OS's, see login-item.ts).
 */
export interface DesktopPrefs {
  /** A notification when an app goes to sleep or wakes up (off: only Errors are announced). */
  notifySleepWake: boolean;
  /** The operator was told once that closing the window leaves the reaper running in the tray. */
  trayHintShown: boolean;
  /**
   * The language the operator chose in the dashboard's Settings, for the tray and the
   * notifications; absent: the system's.
   */
  language?: Language;
}

export interface SettingsFile {
  /** The routes, as ConfigStore writes them (it validates every entry when it reads them). */
  routes: unknown[];
  /** The reaper's settings, as ConfigStore writes them. */
  settings: Record<string, unknown>;
  desktop: DesktopPrefs;
}

export const DESKTOP_DEFAULTS: DesktopPrefs = { notifySleepWake: false, trayHintShown: false };

/** electron-store's options without the name (electron-store says `name`, conf `configName`). */
export type SettingsFileOptions = Omit<
  ConfOptions<SettingsFile>,
  'configName' | 'projectName' | 'projectSuffix'
>;

/** What this module needs of an electron-store or conf instance. */
export interface SettingsStore {
  readonly path: string;
  get<K extends keyof SettingsFile>(key: K): SettingsFile[K];
  set<K extends keyof SettingsFile>(key: K, value: SettingsFile[K]): void;
  has(key: string): boolean;
}

/**
 * Format changes, keyed by the app version that makes them; conf runs those above the version the
 * file was last written by, in order, and never on a file it has just created.
 */
export const SETTINGS_MIGRATIONS: Record<string, (store: SettingsStore) => void> = {
  // 0.1.0, the first desktop release: the desktop preferences get their block. A file written
  // before it (a headless server's config.json opened with --data-dir) has routes and settings
  // only; they are kept as they are.
  '0.1.0': (store) => {
    const current = store.has('desktop') ? store.get('desktop') : {};
    store.set('desktop', { ...DESKTOP_DEFAULTS, ...current });
  },
};

export function settingsFileOptions(cwd: string, log?: Log): SettingsFileOptions {
  return {
    cwd,
    // The file is the operator's; a store that clears it in silence would lose their routes.
    clearInvalidConfig: false,
    configFileMode: 0o600,
    defaults: { routes: [], settings: {}, desktop: DESKTOP_DEFAULTS },
    schema: {
      routes: { type: 'array', items: { type: 'object' } },
      settings: { type: 'object' },
      desktop: {
        type: 'object',
        properties: {
          notifySleepWake: { type: 'boolean' },
          trayHintShown: { type: 'boolean' },
          language: { type: 'string', enum: [...LANGUAGES] },
        },
      },
    },
    migrations: SETTINGS_MIGRATIONS as unknown as NonNullable<SettingsFileOptions['migrations']>,
    beforeEachMigration: (_store, { fromVersion, toVersion }) => {
      log?.('info', `settings file: migrating from ${fromVersion} to ${toVersion}`);
    },
  };
}

export interface OpenedSettings<S extends SettingsStore> {
  store: S;
  /** Where an unreadable file was moved, and why it could not be read; null when all went well. */
  setAside: { file: string; reason: string } | null;
}

/**
 * Open the settings file with `open` (electron-store or conf); a file that cannot be opened is set
 * aside and a fresh one started. Errors that are not about the file's content (it cannot even be
 * moved) are thrown.
 */
export function openSettings<S extends SettingsStore>(
  cwd: string,
  open: () => S,
  now: () => number = Date.now,
): OpenedSettings<S> {
  try {
    return { store: open(), setAside: null };
  } catch (error) {
    const file = join(cwd, SETTINGS_FILE);
    if (!existsSync(file)) throw error;
    const aside = `${file}.corrupt-${now()}`;
    renameSync(file, aside);
    return { store: open(), setAside: { file: aside, reason: describeError(error) } };
  }
}

/** The dashboard's and the notification's words for a file set aside. */
export function setAsideWarning(setAside: { file: string; reason: string }): string {
  return (
    `The settings file could not be read (${setAside.reason}). It was kept as ${setAside.file}, ` +
    'and the app started with the default settings and no routes.'
  );
}

/** Routes and settings for the ConfigStore, in the settings file. */
export class SettingsBackend implements KeyValueBackend {
  private readonly store: SettingsStore;
  /**
   * The file set aside at open: the ConfigStore says so and holds releases until a route or the
   * settings are saved (confirmed), which clears it here too, so a session opened later agrees.
   */
  damage: { file: string; reason: string } | null;

  constructor(store: SettingsStore, damage: { file: string; reason: string } | null = null) {
    this.store = store;
    this.damage = damage;
  }

  get(key: string): unknown {
    if (key !== 'routes' && key !== 'settings') return undefined;
    return structuredClone(this.store.get(key));
  }

  set(key: string, value: unknown): void {
    if (key === 'routes' && Array.isArray(value)) this.store.set('routes', value);
    else if (key === 'settings' && value && typeof value === 'object' && !Array.isArray(value)) {
      this.store.set('settings', value as Record<string, unknown>);
    } else {
      throw new Error(`the settings file has no '${key}' of this shape`);
    }
    this.damage = null;
  }
}

/** The desktop's preferences, defaults filled in. */
export function desktopPrefs(store: SettingsStore): DesktopPrefs {
  return { ...DESKTOP_DEFAULTS, ...store.get('desktop') };
}

/** Change some of the desktop's preferences. */
export function updateDesktopPrefs(store: SettingsStore, changes: Partial<DesktopPrefs>): DesktopPrefs {
  const next = { ...desktopPrefs(store), ...changes };
  // `language: undefined` is a change too: back to the system's language, the key left out.
  if (next.language === undefined) delete next.language;
  store.set('desktop', next);
  return next;
}
