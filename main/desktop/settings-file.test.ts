/**
 * The settings file on `conf`, the library electron-store is built on (same file, schema, defaults
 * and migrations; electron-store itself needs Electron to load).
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Conf from 'conf';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigStore } from '../store/config-store.ts';
import {
  DESKTOP_DEFAULTS,
  desktopPrefs,
  openSettings,
  SETTINGS_FILE,
  SettingsBackend,
  type SettingsFile,
  setAsideWarning,
  settingsFileOptions,
  updateDesktopPrefs,
} from './settings-file.ts';

let dir: string;
let migrations: string[];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'reaper-settings-'));
  migrations = [];
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function open(version = '0.1.0') {
  return openSettings(
    dir,
    () =>
      new Conf<SettingsFile>({
        ...settingsFileOptions(dir, (_level, message) => migrations.push(message)),
        configName: 'config',
        projectVersion: version,
      }),
    () => 1_700_000_000_000,
  );
}

const file = () => join(dir, SETTINGS_FILE);
const onDisk = () => JSON.parse(readFileSync(file(), 'utf8')) as Record<string, unknown>;

const ROUTE = {
  id: 'route_1',
  appId: 'app_0a1b2c3d',
  ownerId: 'orga_x',
  enabled: true,
  gracePeriodMs: 3_600_000,
  ranges: [],
  hosts: [],
  filters: { pathPrefixes: [], sources: [] },
  createdAt: 1,
  updatedAt: 2,
};

describe('the settings file', () => {
  it('starts from the defaults on a first run, without running any migration', () => {
    const { store, setAside } = open();
    expect(setAside).toBeNull();
    expect(store.get('routes')).toEqual([]);
    expect(desktopPrefs(store)).toEqual({ notifySleepWake: false, trayHintShown: false });
    updateDesktopPrefs(store, { notifySleepWake: true });
    expect(desktopPrefs(open().store).notifySleepWake).toBe(true);
    expect(migrations).toEqual([]);
    expect(existsSync(file())).toBe(true);
  });

  it('keeps the routes and settings the ConfigStore writes, across a restart', () => {
    const first = new ConfigStore(new SettingsBackend(open().store));
    first.updateSettings({ killSwitch: true, failTimeoutMs: 20 * 60_000 });
    const again = new ConfigStore(new SettingsBackend(open().store));
    expect(again.settings()).toMatchObject({ killSwitch: true, failTimeoutMs: 20 * 60_000 });
  });

  it('migrates a file written before the desktop format (a headless config.json): routes and settings kept', () => {
    writeFileSync(file(), JSON.stringify({ routes: [ROUTE], settings: { dryRun: true } }));
    const { store, setAside } = open();
    expect(setAside).toBeNull();
    expect(migrations).toEqual(['settings file: migrating from 0.0.0 to 0.1.0']);
    const config = new ConfigStore(new SettingsBackend(store));
    expect(config.routes().map((r) => r.appId)).toEqual(['app_0a1b2c3d']);
    expect(config.settings().dryRun).toBe(true);
    expect(onDisk().desktop).toEqual(DESKTOP_DEFAULTS);
  });

  it('runs a migration once: the version it reached is recorded in the file', () => {
    writeFileSync(file(), JSON.stringify({ routes: [], settings: {} }));
    open();
    open();
    expect(migrations).toHaveLength(1);
  });

  it('leaves a file written by a newer version as it is', () => {
    writeFileSync(
      file(),
      JSON.stringify({
        routes: [],
        settings: { dryRun: true },
        desktop: { notifySleepWake: true, trayHintShown: true },
        __internal__: { migrations: { version: '9.0.0' } },
      }),
    );
    const { store } = open();
    expect(migrations).toEqual([]);
    expect(desktopPrefs(store)).toEqual({ notifySleepWake: true, trayHintShown: true });
  });

  it('sets a file that is not JSON aside, starts from the defaults and says where the file went', () => {
    writeFileSync(file(), '{"routes": [ {"id": "route_1", ');
    const { store, setAside } = open();
    expect(setAside?.file).toBe(`${file()}.corrupt-1700000000000`);
    expect(readFileSync(setAside!.file, 'utf8')).toBe('{"routes": [ {"id": "route_1", ');
    expect(store.get('routes')).toEqual([]);
    const warning = setAsideWarning(setAside!);
    expect(warning).toContain('is not valid JSON');
    expect(warning).toContain('config.json.corrupt-1700000000000');
    expect(warning).toContain('default settings and no routes');
  });

  it('holds every release of the account while the set-aside file is not confirmed, and saving a route confirms it', () => {
    writeFileSync(file(), '{"routes": [ {"id": "route_1", ');
    const { store, setAside } = open();
    const backend = new SettingsBackend(store, setAside);
    const config = new ConfigStore(backend);
    expect(config.releaseHeld()).toBe(true);
    expect(config.problems()[0]).toMatch(/could not be read .*No app is released until/);
    config.createRoute({ appId: ROUTE.appId, ownerId: ROUTE.ownerId, gracePeriodMs: ROUTE.gracePeriodMs });
    expect(config.releaseHeld()).toBe(false);
    // A session opened later on the same file agrees: confirmed.
    expect(new ConfigStore(backend).releaseHeld()).toBe(false);
  });

  it('sets a file the schema refuses aside too (a hand edit that made routes a string)', () => {
    writeFileSync(file(), JSON.stringify({ routes: 'oops', settings: {}, desktop: DESKTOP_DEFAULTS }));
    const { store, setAside } = open();
    expect(setAside?.reason).toMatch(/routes/);
    expect(store.get('routes')).toEqual([]);
    expect(readdirSync(dir).filter((f) => f.includes('.corrupt-'))).toHaveLength(1);
  });

  it('refuses to write a key the file does not have', () => {
    const backend = new SettingsBackend(open().store);
    expect(() => backend.set('tokens', ['secret'])).toThrow(/no 'tokens'/);
    expect(onDisk()).not.toHaveProperty('tokens');
  });
});
