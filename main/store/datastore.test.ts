import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { type HistoryEntry, newRecord } from '../../shared/domain.ts';
import { Datastore, MIGRATIONS, migrate } from './datastore.ts';

const dirs: string[] = [];
function dbFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'reaper-store-'));
  dirs.push(dir);
  return join(dir, 'nested', 'reaper.db');
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const T = Date.UTC(2026, 0, 5, 9);
const entry = (appId: string, overrides: Partial<HistoryEntry> = {}): HistoryEntry => ({
  appId,
  at: T,
  kind: 'transition',
  from: 'Up',
  to: 'WaitingForShutdown',
  actor: 'reaper',
  reason: 'no traffic for 1 h',
  ...overrides,
});

describe('the datastore', () => {
  it('creates its file and folder, migrates to the latest schema, and reopens without migrating again', () => {
    const file = dbFile();
    const first = new Datastore(file);
    expect(first.schemaVersion).toBe(MIGRATIONS.length);
    first.close();
    const again = new Datastore(file);
    expect(again.schemaVersion).toBe(MIGRATIONS.length);
    again.close();
  });

  it('keeps every field of a record, clocks included, across a reopen', () => {
    const file = dbFile();
    const store = new Datastore(file);
    const record = {
      ...newRecord('app_1', 'orga_1', 'staging', T),
      state: 'WaitingForUp' as const,
      firstStartAskedAt: T + 1,
      lastStartAskedAt: T + 60_001,
      deploymentId: 'dep-1',
      pendingCall: 'start' as const,
      lastRequestAt: T - 5,
      lastRequestSource: 'wake-proxy' as const,
      keepAwakeUntil: T + 99,
      cleverState: 'SHOULD_BE_DOWN',
      lastDeployNumber: 12,
      notice: 'a notice',
    };
    store.commit({ upsert: record, history: [entry('app_1')] });
    store.close();
    const reopened = new Datastore(file);
    expect(reopened.loadRecords()).toEqual([record]);
    expect(reopened.historyOf('app_1')).toEqual([{ ...entry('app_1'), id: 1 }]);
    reopened.close();
  });

  it('writes a record and its history entries in one transaction: a failing entry leaves nothing behind', () => {
    const store = new Datastore(dbFile());
    const record = newRecord('app_1', 'orga_1', 'staging', T);
    const broken = { ...entry('app_1'), actor: null } as unknown as HistoryEntry;
    expect(() => store.commit({ upsert: record, history: [entry('app_1'), broken] })).toThrow(/NOT NULL/);
    expect(store.loadRecords()).toEqual([]);
    expect(store.historyOf('app_1')).toEqual([]);
    store.close();
  });

  it('removes a released app but keeps its history', () => {
    const store = new Datastore(dbFile());
    store.commit({ upsert: newRecord('app_1', 'orga_1', 'staging', T), history: [entry('app_1')] });
    store.commit({ remove: 'app_1', history: [entry('app_1', { kind: 'release', at: T + 1, to: null })] });
    expect(store.loadRecords()).toEqual([]);
    expect(store.historyOf('app_1').map((e) => e.kind)).toEqual(['release', 'transition']);
    store.close();
  });

  it('refuses a datastore written by a newer version instead of corrupting it', () => {
    const file = dbFile();
    new Datastore(file).close();
    const raw = new DatabaseSync(file);
    raw.exec(`PRAGMA user_version = ${MIGRATIONS.length + 1}`);
    raw.close();
    expect(() => new Datastore(file)).toThrow(/written by a newer Clever Reaper/);
  });

  it('runs each migration in its own transaction: a failing one leaves the schema at the previous version', () => {
    const db = new DatabaseSync(':memory:');
    const failing = [
      ...MIGRATIONS,
      (d: DatabaseSync) => {
        d.exec('CREATE TABLE half_done (x INTEGER)');
        throw new Error('boom');
      },
    ];
    expect(() => migrate(db, failing)).toThrow('boom');
    const version = (db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version;
    expect(version).toBe(MIGRATIONS.length);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'half_done'").all()).toEqual([]);
    db.close();
  });
});
