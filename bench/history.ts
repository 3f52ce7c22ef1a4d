/**
 * The history at scale: a thousand apps with 30 days of office-hours history each (or more with
 * --days), then the time of a first page, of filtered pages, of the CSV export and of the savings
 * report, and of one retention batch. Prints what it measured in this one run; not a test.
 *
 *   npx node bench/history.ts [--apps 1000] [--days 180]
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { exportHistory } from '../main/reports/history-export.ts';
import { loadSavingsReport } from '../main/reports/savings-report.ts';
import { officeHoursHistory } from '../main/simulator/demo.ts';
import { HistoryRetention } from '../main/store/retention.ts';
import { SqliteStore } from '../main/store/sqlite/sqlite-store.ts';
import { referenceSavingsReport } from '../main/testing/savings-reference.ts';
import { newRecord } from '../shared/domain.ts';
import { DAY } from '../shared/durations.ts';
import { historyQuerySchema } from '../shared/history.ts';
import { DEFAULT_SETTINGS } from '../shared/settings.ts';

const { values } = parseArgs({
  options: { apps: { type: 'string', default: '1000' }, days: { type: 'string', default: '180' } },
});
const apps = Number(values.apps);
const days = Number(values.days);
const now = Date.UTC(2026, 5, 15, 12);

const time = async <T>(label: string, fn: () => T | Promise<T>): Promise<T> => {
  const started = performance.now();
  const result = await fn();
  console.log(`${label.padEnd(48)} ${(performance.now() - started).toFixed(1).padStart(9)} ms`);
  return result;
};

const store = new SqliteStore(':memory:');
const managed = new Map<string, string>();
await time(`write ${apps} apps × ${days} days of history`, async () => {
  for (let i = 0; i < apps; i++) {
    const appId = `app_bench-${i}`;
    managed.set(appId, `app-${i}`);
    await store.commit({
      upsert: newRecord(appId, 'orga_bench', `app-${i}`, now),
      history: officeHoursHistory(appId, now, days, i + 1),
    });
  }
});
const rows = (store.db.prepare('SELECT count(*) AS n FROM history').get() as { n: number }).n;
console.log(`${rows} history entries`);

const q = (input: Record<string, unknown>) => historyQuerySchema.parse(input);
const first = await time('first page, every app (50 rows)', () => store.queryHistory(q({})));
await time('tenth page by cursor', async () => {
  let cursor = first.nextCursor ?? undefined;
  for (let n = 0; n < 9 && cursor; n++)
    cursor = (await store.queryHistory(q({ cursor }))).nextCursor ?? undefined;
});
await time('one app, first page', () => store.queryHistory(q({ appId: 'app_bench-500' })));
await time('actor = request, first page', () => store.queryHistory(q({ actor: 'request' })));
await time('state = Down over the last 7 days', () =>
  store.queryHistory(q({ state: 'Down', from: now - 7 * DAY })),
);
await time('kind = reset (none: the whole index is read)', () => store.queryHistory(q({ kind: 'reset' })));
let bytes = 0;
await time('CSV export of every entry', async () => {
  for await (const chunk of exportHistory(store, {}, 'csv')) bytes += chunk.length;
});
console.log(`CSV: ${(bytes / 1024 / 1024).toFixed(1)} MiB`);
const source = { store, timeZone: 'Europe/Paris', settings: DEFAULT_SETTINGS, managed };
await time('savings report, straightforward (every entry)', () => referenceSavingsReport({ ...source, now }));
// The longest the event loop waited while the cache was built (SQLite reads are synchronous).
const loop = monitorEventLoopDelay({ resolution: 1 });
loop.enable();
await time('savings report, cold (cache built)', () => loadSavingsReport({ ...source, now }));
loop.disable();
console.log(
  `${'  longest event-loop block while building'.padEnd(48)} ${(loop.max / 1e6).toFixed(1).padStart(9)} ms`,
);
for (let i = 0; i < 100; i++) {
  const appId = `app_bench-${i % apps}`;
  const state = i % 2 ? 'Up' : 'WaitingForShutdown';
  await store.commit({
    history: [
      { appId, at: now + i, kind: 'transition', from: null, to: state, actor: 'reaper', reason: 'bench' },
    ],
  });
}
await time('savings report, warm after 100 new entries', () =>
  loadSavingsReport({ ...source, now: now + 100 }),
);
const retention = new HistoryRetention({ store, now: () => now, retentionDays: () => days - 30, pauseMs: 0 });
const started = performance.now();
const deleted = await retention.runOnce();
console.log(
  `${`retention: ${deleted} entries in batches of 500`.padEnd(48)} ${(performance.now() - started).toFixed(1).padStart(9)} ms`,
);
await time('savings report, after retention (apps re-read)', () =>
  loadSavingsReport({ ...source, now: now + 100 }),
);
await store.close();
