import { describe, expect, it } from 'vitest';
import { DAY, HOUR, MINUTE } from '../../shared/durations.ts';
import { hourlyPriceEur, pricingOf } from '../../shared/savings.ts';
import { DEFAULT_SETTINGS } from '../../shared/settings.ts';
import {
  type AppInput,
  appHourlyEur,
  buildSavingsReport,
  overlapMs,
  projectedIntervals,
  WOULD_STOP_PREFIX,
} from './savings.ts';
import { lastDays } from './savings-calendar.ts';
import { asleepIntervals, type Change } from './savings-sleeps.ts';

/** Monday 5 January 2026, 15:00 in Paris (14:00 UTC). */
const NOW = Date.UTC(2026, 0, 5, 14);
const MIDNIGHT_PARIS = Date.UTC(2026, 0, 4, 23);

const t = (kind: Change['kind'], at: number, to: Change['to'] = null, reason = ''): Change => ({
  at,
  kind,
  to,
  reason,
});

describe('the price of a flavor', () => {
  it('reads the API price as drops per 10 minutes by default: XS (0.3436) is 0.02 € an hour', () => {
    expect(hourlyPriceEur(0.3436, 'drops-per-10-min', 0.0097)).toBeCloseTo(0.0199975, 7);
    // pico and nano: exactly their list prices per 30 days (4.50 € and 6.00 €).
    expect(hourlyPriceEur(0.1073883162, 'drops-per-10-min', 0.0097) * 720).toBeCloseTo(4.5, 6);
    expect(hourlyPriceEur(0.1431844215, 'drops-per-10-min', 0.0097) * 720).toBeCloseTo(6, 6);
  });

  it('takes the price as euros per hour when the setting says so', () => {
    expect(hourlyPriceEur(0.3436, 'eur-per-hour', 0.0097)).toBe(0.3436);
  });

  it('multiplies by the instance count, and knows nothing without a price or a count', () => {
    const pricing = pricingOf(DEFAULT_SETTINGS);
    expect(appHourlyEur({ flavorPrice: 0.3436, instances: 2 }, pricing)).toBeCloseTo(0.039995, 6);
    expect(appHourlyEur({ flavorPrice: null, instances: 2 }, pricing)).toBeNull();
    expect(appHourlyEur({ flavorPrice: 0.3436, instances: null }, pricing)).toBeNull();
  });
});

describe('the time an app was asleep', () => {
  it('counts Down only: Going to sleep and Waking up are awake', () => {
    const from = NOW - 10 * HOUR;
    const changes = [
      t('transition', from + HOUR, 'WaitingForShutdown'),
      t('transition', from + HOUR + MINUTE, 'Down'),
      t('transition', from + 5 * HOUR, 'WaitingForUp'),
      t('transition', from + 5 * HOUR + 2 * MINUTE, 'Up'),
    ];
    const asleep = asleepIntervals('Up', changes, from, NOW);
    expect(asleep).toEqual([{ start: from + HOUR + MINUTE, end: from + 5 * HOUR }]);
    expect(overlapMs(asleep, from, NOW)).toBe(4 * HOUR - MINUTE);
  });

  it('counts from the window start an app already asleep, and up to now an app still asleep', () => {
    const from = NOW - 2 * HOUR;
    expect(asleepIntervals('Down', [], from, NOW)).toEqual([{ start: from, end: NOW }]);
  });

  it('stops counting at a release, and a reset out of Down', () => {
    const from = NOW - 4 * HOUR;
    expect(asleepIntervals('Down', [t('release', from + HOUR)], from, NOW)).toEqual([
      { start: from, end: from + HOUR },
    ]);
    expect(asleepIntervals('Down', [t('reset', from + 2 * HOUR, 'WaitingForInit')], from, NOW)).toEqual([
      { start: from, end: from + 2 * HOUR },
    ]);
  });

  it('ignores dry-run notes: they change no state', () => {
    const from = NOW - HOUR;
    expect(
      asleepIntervals('Up', [t('would-sleep', from + MINUTE, null, `${WOULD_STOP_PREFIX}; idle`)], from, NOW),
    ).toEqual([]);
  });
});

describe('dry-run: the sleeps the reaper would have done', () => {
  const stop = (at: number) => t('would-sleep', at, null, `${WOULD_STOP_PREFIX}; no traffic for 1 h`);

  it('runs from a "would stop" note to the next request that would have woken the app', () => {
    const projected = projectedIntervals([stop(NOW - 5 * HOUR), t('would-wake', NOW - 2 * HOUR)], NOW);
    expect(projected).toEqual([{ start: NOW - 5 * HOUR, end: NOW - 2 * HOUR }]);
  });

  it('runs up to now when nothing woke the app, or to the next must-be-up range', () => {
    expect(projectedIntervals([stop(NOW - 3 * HOUR)], NOW)).toEqual([{ start: NOW - 3 * HOUR, end: NOW }]);
    expect(projectedIntervals([stop(NOW - 3 * HOUR)], NOW, () => NOW - HOUR)).toEqual([
      { start: NOW - 3 * HOUR, end: NOW - HOUR },
    ]);
  });

  it('does not count the sleeps the reaper would not have done (a failed last deployment)', () => {
    const refused = t(
      'would-sleep',
      NOW - 3 * HOUR,
      null,
      "dry-run: would not stop it: the last deployment of the app is 'FAIL'",
    );
    expect(projectedIntervals([refused], NOW)).toEqual([]);
  });

  it('ends at any later change of the app (a real stop once dry-run is off)', () => {
    const changes = [stop(NOW - 3 * HOUR), t('transition', NOW - 2 * HOUR, 'WaitingForShutdown')];
    expect(projectedIntervals(changes, NOW)).toEqual([{ start: NOW - 3 * HOUR, end: NOW - 2 * HOUR }]);
  });
});

describe('the report', () => {
  const app = (fields: Partial<AppInput>): AppInput => ({
    appId: 'app_review',
    name: 'idle-review',
    managed: true,
    flavorName: 'XS',
    flavorPrice: 0.3436,
    instances: 1,
    asleep: [],
    projected: [],
    ...fields,
  });

  it('splits today at local midnight, and sums this month, this year and all time in the zone', () => {
    // Asleep from 20:00 Paris yesterday to 09:00 today (13 h: 4 h yesterday, 9 h today), 10 days ago
    // (last year in Paris: 26 December 2025) and on the 2nd (this month).
    const asleep = [
      { start: MIDNIGHT_PARIS - 4 * HOUR, end: MIDNIGHT_PARIS + 9 * HOUR },
      { start: NOW - 10 * DAY, end: NOW - 10 * DAY + 5 * HOUR },
      { start: MIDNIGHT_PARIS - 2 * DAY, end: MIDNIGHT_PARIS - 2 * DAY + 2 * HOUR },
    ];
    const since = NOW - 40 * DAY;
    const report = buildSavingsReport({
      now: NOW,
      timeZone: 'Europe/Paris',
      since,
      apps: [app({ asleep, instances: 2 })],
      pricing: pricingOf(DEFAULT_SETTINGS),
    });
    expect(report.windows.today).toEqual({ start: MIDNIGHT_PARIS, end: NOW });
    // 1 January 2026, 00:00 in Paris is 31 December 2025, 23:00 UTC.
    expect(report.windows.month).toEqual({ start: Date.UTC(2025, 11, 31, 23), end: NOW });
    expect(report.windows.year).toEqual({ start: Date.UTC(2025, 11, 31, 23), end: NOW });
    expect(report.windows.all).toEqual({ start: since, end: NOW });
    expect(report.totals.today.hoursAsleep).toBeCloseTo(9, 9);
    expect(report.totals.month.hoursAsleep).toBeCloseTo(15, 9);
    expect(report.totals.year.hoursAsleep).toBeCloseTo(15, 9);
    expect(report.totals.all.hoursAsleep).toBeCloseTo(20, 9);
    // 20 h × 2 instances × 0.3436 drops/10 min × 6 × 0.0097 €.
    expect(report.totals.all.savedEur).toBeCloseTo(20 * 2 * 0.3436 * 6 * 0.0097, 9);
    expect(report.daily).toHaveLength(30);
    expect(report.daily.at(-1)).toMatchObject({ day: '2026-01-05', start: MIDNIGHT_PARIS, end: NOW });
    expect(report.daily.at(-2)!.figures.hoursAsleep).toBeCloseTo(4, 9);
    expect(report.daily.at(-1)!.figures.hoursAsleep).toBeCloseTo(9, 9);
  });

  it('reports projected dry-run figures apart from the real ones', () => {
    const report = buildSavingsReport({
      now: NOW,
      timeZone: 'UTC',
      apps: [app({ projected: [{ start: NOW - 3 * HOUR, end: NOW }] })],
      pricing: pricingOf(DEFAULT_SETTINGS),
    });
    expect(report.totals.today).toMatchObject({ hoursAsleep: 0, savedEur: 0 });
    expect(report.totals.today.projectedHours).toBeCloseTo(3, 9);
    expect(report.totals.today.projectedEur).toBeCloseTo(3 * 0.3436 * 6 * 0.0097, 9);
  });

  it('keeps hours for an app without a known price, and leaves money out for it', () => {
    const report = buildSavingsReport({
      now: NOW,
      timeZone: 'UTC',
      apps: [
        app({ asleep: [{ start: NOW - 2 * HOUR, end: NOW }] }),
        app({
          appId: 'app_x',
          name: 'unpriced',
          flavorPrice: null,
          asleep: [{ start: NOW - HOUR, end: NOW }],
        }),
      ],
      pricing: pricingOf(DEFAULT_SETTINGS),
    });
    expect(report.totals.today.hoursAsleep).toBeCloseTo(3, 9);
    expect(report.totals.today.savedEur).toBeCloseTo(2 * 0.3436 * 6 * 0.0097, 9);
    expect(report.unpriced).toBe(1);
    expect(report.apps.find((a) => a.appId === 'app_x')!.windows.today.savedEur).toBeNull();
  });

  it('counts days in the zone: the day the clocks go forward has 23 hours', () => {
    const afterDst = Date.UTC(2026, 2, 29, 22); // Monday 30 March 2026, 00:00 in Paris (CEST)
    const days = lastDays(afterDst + 6 * HOUR, 'Europe/Paris', 2);
    expect(days[0]!.day).toBe('2026-03-29');
    expect(days[0]!.end - days[0]!.start).toBe(23 * HOUR);
  });
});
