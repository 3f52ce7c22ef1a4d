/**
 * The history at scale: a thousand apps with 30 days of office-hours history each (or more with
 * --days), then the time of a first page, of filtered pages, of the CSV export and of the savings
 * report, and of one retention batch. Prints what it measured in this one run; not a test.
 *
 *   npx node bench/history.ts [--apps 1000] [--days 180]
 */
import { parseArgs } from 'node:util';
import { exportHistory } from '../main/reports/history-export.ts';
import { loadSavingsReport } from '../main/reports/savings-report.ts';
import { officeHoursHistory } from '../main/simulator/demo.ts';
import { Datastore } from '../main/store/datastore.ts';
import { queryHistory } from '../main/store/history-queries.ts';
import { HistoryRetention } from '../main/store/retention.ts';
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

const time = <T>(label: string, fn: () => T): T => {
  const started = performance.now();
  const result = fn();
  console.log(`${label.padEnd(48)} ${(performance.now() - started).toFixed(1).padStart(9)} ms`);
  return result;
};

const store = new Datastore(':memory:');
const managed = new Map<string, string>();
time(`write ${apps} apps × ${days} days of history`, () => {
  for (let i = 0; i < apps; i++) {
    const appId = `app_bench-${i}`;
    managed.set(appId, `app-${i}`);
    store.commit({
      upsert: newRecord(appId, 'orga_bench', `app-${i}`, now),
      history: officeHoursHistory(appId, now, days, i + 1),
    });
  }
});
const rows = (store.db.prepare('SELECT count(*) AS n FROM history').get() as { n: number }).n;
console.log(`${rows} history entries`);

const q = (input: Record<string, unknown>) => historyQuerySchema.parse(input);
const first = time('first page, every app (50 rows)', () => queryHistory(store.db, q({})));
time('tenth page by cursor', () => {
  let cursor = first.nextCursor ?? undefined;
  for (let n = 0; n < 9 && cursor; n++)
    cursor = queryHistory(store.db, q({ cursor })).nextCursor ?? undefined;
});
time('one app, first page', () => queryHistory(store.db, q({ appId: 'app_bench-500' })));
time('actor = request, first page', () => queryHistory(store.db, q({ actor: 'request' })));
time('state = Down over the last 7 days', () =>
  queryHistory(store.db, q({ state: 'Down', from: now - 7 * DAY })),
);
time('kind = reset (none: the whole index is read)', () => queryHistory(store.db, q({ kind: 'reset' })));
let bytes = 0;
time('CSV export of every entry', () => {
  for (const chunk of exportHistory(store.db, {}, 'csv')) bytes += chunk.length;
});
console.log(`CSV: ${(bytes / 1024 / 1024).toFixed(1)} MiB`);
time('savings report, 30 days', () =>
  loadSavingsReport({ store, now, timeZone: 'Europe/Paris', settings: DEFAULT_SETTINGS, managed }),
);
const retention = new HistoryRetention({ store, now: () => now, retentionDays: () => days - 30, pauseMs: 0 });
const started = performance.now();
const deleted = await retention.runOnce();
console.log(
  `${`retention: ${deleted} entries in batches of 500`.padEnd(48)} ${(performance.now() - started).toFixed(1).padStart(9)} ms`,
);
store.close();
