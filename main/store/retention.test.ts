import { describe, expect, it } from 'vitest';
import { type HistoryEntry, newRecord } from '../../shared/domain.ts';
import { DAY } from '../../shared/durations.ts';
import { DEFAULT_SETTINGS, settingsUpdateSchema } from '../../shared/settings.ts';
import { ConfigStore, MemoryBackend } from './config-store.ts';
import { HistoryRetention } from './retention.ts';
import { SqliteStore } from './sqlite/sqlite-store.ts';

const NOW = Date.UTC(2026, 6, 1, 12);

async function seed(store: SqliteStore, count: number, ageDays: number) {
  const history: HistoryEntry[] = [];
  for (let n = 0; n < count; n++) {
    history.push({
      appId: 'app_old',
      at: NOW - ageDays * DAY + n,
      kind: 'transition',
      from: 'Up',
      to: 'WaitingForShutdown',
      actor: 'reaper',
      reason: 'idle',
    });
  }
  await store.commit({ history });
}

const count = (store: SqliteStore, where = '1') =>
  (store.db.prepare(`SELECT count(*) AS n FROM history WHERE ${where}`).get() as { n: number }).n;

describe('the history retention', () => {
  it('deletes the entries older than the retention and keeps the others', async () => {
    const store = new SqliteStore(':memory:');
    await store.commit({ upsert: newRecord('app_old', 'orga_acme', 'old-reports', NOW), history: [] });
    await seed(store, 50, 200);
    await seed(store, 20, 179);
    const retention = new HistoryRetention({ store, now: () => NOW, retentionDays: () => 180 });
    expect(await retention.runOnce()).toBe(50);
    expect(count(store)).toBe(20);
    expect(count(store, `at < ${NOW - 180 * DAY}`)).toBe(0);
  });

  it('deletes in small batches, letting other work run in between (never one long write)', async () => {
    const store = new SqliteStore(':memory:');
    await seed(store, 2000, 400);
    await seed(store, 10, 1);
    const seenBetween: number[] = [];
    const retention = new HistoryRetention({
      store,
      now: () => NOW,
      retentionDays: () => 180,
      batchSize: 300,
      pauseMs: 1,
    });
    const probe = setInterval(() => seenBetween.push(count(store)), 0);
    const deleted = await retention.runOnce();
    clearInterval(probe);
    expect(deleted).toBe(2000);
    expect(count(store)).toBe(10);
    // Other work ran while the old entries were going, batch by batch.
    expect(seenBetween.some((n) => n > 10 && n < 2010)).toBe(true);
  });

  it('follows the setting as it changes', async () => {
    const store = new SqliteStore(':memory:');
    await seed(store, 5, 40);
    let days = 180;
    const retention = new HistoryRetention({ store, now: () => NOW, retentionDays: () => days });
    expect(await retention.runOnce()).toBe(0);
    days = 30;
    expect(await retention.runOnce()).toBe(5);
  });

  it('stops with its store: a stopped retention runs no more', async () => {
    const store = new SqliteStore(':memory:');
    await seed(store, 5, 400);
    const retention = new HistoryRetention({
      store,
      now: () => NOW,
      retentionDays: () => 180,
      firstAfterMs: 1,
    });
    retention.start();
    await retention.stop();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(count(store)).toBe(5);
  });

  it('is a validated setting: 180 days by default, whole days from 1 to 3650', () => {
    expect(DEFAULT_SETTINGS.historyRetentionDays).toBe(180);
    const config = new ConfigStore(new MemoryBackend());
    expect(() => config.updateSettings({ historyRetentionDays: 0 })).toThrow(
      /^Keep the history for: 0 days is too small; the least is 1 day\.$/,
    );
    expect(() => config.updateSettings({ historyRetentionDays: 1.5 })).toThrow(
      /^Keep the history for: 1\.5 days is not a whole number\.$/,
    );
    expect(settingsUpdateSchema.safeParse({ historyRetentionDays: 3651 }).success).toBe(false);
    expect(config.updateSettings({ historyRetentionDays: 30 }).historyRetentionDays).toBe(30);
  });
});
