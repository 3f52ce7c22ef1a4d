import { afterEach, describe, expect, it } from 'vitest';
import { HOUR, MINUTE } from '../../shared/durations.ts';
import { historyQuerySchema } from '../../shared/history.ts';
import { DEFAULT_SETTINGS, type SettingsUpdate } from '../../shared/settings.ts';
import { ManualClock } from '../engine/clocks.ts';
import { observedPort } from '../service/observed-port.ts';
import { InProcessCleverPort } from '../simulator/in-process-port.ts';
import { SimulatedCloud } from '../simulator/model.ts';
import { AppFactsRecorder } from '../store/app-facts.ts';
import { queryHistory } from '../store/sqlite/sqlite-history.ts';
import { SqliteStore } from '../store/sqlite/sqlite-store.ts';
import { harness, MONDAY_9AM } from '../testing/engine-harness.ts';
import { WOULD_STOP_PREFIX } from './savings.ts';
import { loadSavingsReport } from './savings-report.ts';

const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(stops.splice(0).map((s) => s()));
});

/** An engine whose port records the instance facts, as the runtime wires it. */
function setup(settings: SettingsUpdate = {}) {
  const clock = new ManualClock(MONDAY_9AM);
  const cloud = new SimulatedCloud(clock, { deployDurationMs: 30_000, stopDurationMs: 5_000 });
  const store = new SqliteStore(':memory:');
  const facts = new AppFactsRecorder(store);
  const port = observedPort(new InProcessCleverPort(cloud), {
    onApps: (apps) => facts.record(apps, clock.now()),
  });
  const h = harness({ clock, cloud, store, port, settings });
  stops.push(() => h.engine.stop());
  const report = () =>
    loadSavingsReport({
      store,
      now: clock.now(),
      timeZone: 'UTC',
      settings: h.config.settings(),
      managed: new Map(h.engine.list().map((r) => [r.appId, r.name])),
    });
  return { ...h, report };
}

describe('the savings of a running reaper', () => {
  it('counts the hours an idle app slept, priced from the flavor its Clever Cloud app reports', async () => {
    const h = setup();
    const app = h.manage('idle-review', { instances: 2 }, { gracePeriodMs: HOUR });
    await h.engine.start();
    const asleepAt = await h.until(() => h.state(app.id) === 'Down', 2 * HOUR);
    expect(asleepAt).not.toBeNull();
    await h.clock.advance(3 * HOUR);
    const report = await h.report();
    const figures = report.apps.find((a) => a.appId === app.id)!;
    expect(figures).toMatchObject({
      name: 'idle-review',
      flavorName: 'XS',
      flavorPrice: 0.3436,
      instances: 2,
    });
    expect(figures.windows.today.hoursAsleep).toBeCloseTo((h.clock.now() - asleepAt!) / HOUR, 6);
    expect(figures.windows.today.savedEur).toBeCloseTo(
      figures.windows.today.hoursAsleep * 2 * 0.3436 * 6 * DEFAULT_SETTINGS.eurPerDrop,
      9,
    );
    expect(report.totals.today.projectedHours).toBe(0);
  });

  it('in dry-run, projects a sleep from the "would stop" note to the request that would have woken the app', async () => {
    const h = setup({ dryRun: true });
    const app = h.manage('idle-review', {}, { gracePeriodMs: HOUR });
    await h.engine.start();
    const notedAt = await h.until(
      () => queryHistory(h.store.db, historyQuerySchema.parse({ kind: 'would-sleep' })).entries.length > 0,
      2 * HOUR,
    );
    expect(notedAt).not.toBeNull();
    const [note] = queryHistory(h.store.db, historyQuerySchema.parse({ kind: 'would-sleep' })).entries;
    // The engine's words, which the savings read: a test that fails here when they drift apart.
    expect(note!.reason.startsWith(WOULD_STOP_PREFIX)).toBe(true);
    await h.clock.advance(2 * HOUR);
    await h.engine.request(app.id, 'access-log');
    const woke = queryHistory(h.store.db, historyQuerySchema.parse({ kind: 'would-wake' })).entries;
    expect(woke).toHaveLength(1);
    expect(woke[0]).toMatchObject({ actor: 'request', appId: app.id });
    // A second request is only traffic.
    await h.clock.advance(MINUTE);
    await h.engine.request(app.id, 'access-log');
    expect(queryHistory(h.store.db, historyQuerySchema.parse({ kind: 'would-wake' })).entries).toHaveLength(
      1,
    );
    await h.clock.advance(HOUR);
    const report = await h.report();
    expect(h.state(app.id)).toBe('Up');
    expect(report.totals.today.hoursAsleep).toBe(0);
    expect(report.totals.today.projectedHours).toBeCloseTo((woke[0]!.at - note!.at) / HOUR, 6);
    expect(report.totals.today.projectedEur).toBeGreaterThan(0);
  });

  it("counts the reaper's sleeps only: a stop from the Clever Cloud console is shown apart", async () => {
    const h = setup();
    const app = h.manage('console-stopped', {}, { gracePeriodMs: 4 * HOUR });
    await h.engine.start();
    expect(await h.until(() => h.state(app.id) === 'Up', 10 * MINUTE)).not.toBeNull();
    // Someone stops it from the Clever Cloud console; the engine follows (actor outside).
    h.cloud.consoleStop(app.id);
    const stoppedAt = await h.until(() => h.state(app.id) === 'Down', 10 * MINUTE);
    expect(stoppedAt).not.toBeNull();
    await h.clock.advance(2 * HOUR);
    let report = await h.report();
    let figures = report.apps.find((a) => a.appId === app.id)!;
    expect(figures.asleepNow).toBe('outside');
    expect(figures.windows.all.hoursAsleep).toBe(0);
    expect(figures.windows.all.outsideHours).toBeGreaterThanOrEqual(2);
    expect(report.savingNow).toMatchObject({ apps: 0, eurPerHour: 0, outsideApps: 1 });
    // A request wakes it (the reaper starts it), then the reaper puts it to sleep itself: that counts.
    await h.engine.request(app.id, 'access-log');
    expect(await h.until(() => h.state(app.id) === 'Up', 10 * MINUTE)).not.toBeNull();
    const asleepAt = await h.until(() => h.state(app.id) === 'Down', 6 * HOUR);
    expect(asleepAt).not.toBeNull();
    await h.clock.advance(HOUR);
    report = await h.report();
    figures = report.apps.find((a) => a.appId === app.id)!;
    expect(figures.asleepNow).toBe('reaper');
    expect(figures.windows.all.hoursAsleep).toBeCloseTo((h.clock.now() - asleepAt!) / HOUR, 6);
    expect(report.savingNow.apps).toBe(1);
    expect(report.savingNow.eurPerHour).toBeCloseTo(figures.hourlyEur!, 9);
  });
});
