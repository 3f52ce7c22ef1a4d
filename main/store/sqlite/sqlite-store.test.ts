import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { type HistoryEntry, newRecord } from '../../../shared/domain.ts';
import { MIGRATIONS, migrate } from './sqlite-schema.ts';
import { SqliteStore } from './sqlite-store.ts';

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
  it('creates its file and folder, migrates to the latest schema, and reopens without migrating again', async () => {
    const file = dbFile();
    const first = new SqliteStore(file);
    expect(await first.schemaVersion()).toBe(MIGRATIONS.length);
    await first.close();
    const again = new SqliteStore(file);
    expect(await again.schemaVersion()).toBe(MIGRATIONS.length);
    await again.close();
  });

  it('keeps every field of a record, clocks included, across a reopen', async () => {
    const file = dbFile();
    const store = new SqliteStore(file);
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
    await store.commit({ upsert: record, history: [entry('app_1')] });
    await store.close();
    const reopened = new SqliteStore(file);
    expect(await reopened.loadRecords()).toEqual([record]);
    expect(await reopened.historyOf('app_1')).toEqual([{ ...entry('app_1'), id: 1 }]);
    await reopened.close();
  });

  it('writes a record and its history entries in one transaction: a failing entry leaves nothing behind', async () => {
    const store = new SqliteStore(dbFile());
    const record = newRecord('app_1', 'orga_1', 'staging', T);
    const broken = { ...entry('app_1'), actor: null } as unknown as HistoryEntry;
    await expect(store.commit({ upsert: record, history: [entry('app_1'), broken] })).rejects.toThrow(
      /NOT NULL/,
    );
    expect(await store.loadRecords()).toEqual([]);
    expect(await store.historyOf('app_1')).toEqual([]);
    await store.close();
  });

  it('removes a released app but keeps its history', async () => {
    const store = new SqliteStore(dbFile());
    await store.commit({ upsert: newRecord('app_1', 'orga_1', 'staging', T), history: [entry('app_1')] });
    await store.commit({
      remove: 'app_1',
      history: [entry('app_1', { kind: 'release', at: T + 1, to: null })],
    });
    expect(await store.loadRecords()).toEqual([]);
    expect((await store.historyOf('app_1')).map((e) => e.kind)).toEqual(['release', 'transition']);
    await store.close();
  });

  it('refuses a datastore written by a newer version instead of corrupting it', async () => {
    const file = dbFile();
    await new SqliteStore(file).close();
    const raw = new DatabaseSync(file);
    raw.exec(`PRAGMA user_version = ${MIGRATIONS.length + 1}`);
    raw.close();
    expect(() => new SqliteStore(file)).toThrow(/written by a newer Clever Reaper/);
  });

  it('runs each migration in its own transaction: a failing one leaves the schema at the previous version', async () => {
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
