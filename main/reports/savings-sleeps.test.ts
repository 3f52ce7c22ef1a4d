/**
 * Whose sleep an app is in (only the reaper's count), and the calendar of the report in a zone:
 * generated awkward histories (a sleep across midnight, a month end and a year end in the zone, one
 * still running now, a Clever Cloud console stop then a reaper start, simultaneous and out-of-order
 * entries), and days of 23 and 25 hours.
 */
import { describe, expect, it } from 'vitest';
import { HOUR, MINUTE, SECOND } from '../../shared/durations.ts';
import { pricingOf } from '../../shared/savings.ts';
import { DEFAULT_SETTINGS } from '../../shared/settings.ts';
import { type AppInput, buildSavingsReport, overlapMs } from './savings.ts';
import { calendarPeriods, lastDays } from './savings-calendar.ts';
import { type Change, sleepsOf } from './savings-sleeps.ts';

let nextId = 1;
const change = (at: number, to: Change['to'], actor: Change['actor'], kind: Change['kind'] = 'transition') =>
  ({ at, id: nextId++, kind, to, actor, reason: '' }) satisfies Change;

/** The reaper puts an up app to sleep at `at` (Going to sleep, then Asleep 5 s later). */
const reaperSleep = (at: number) => [
  change(at, 'WaitingForShutdown', 'reaper'),
  change(at + 5 * SECOND, 'Down', 'reaper'),
];
/** A request wakes it at `at` (Waking up, then Up 40 s later). */
const wake = (at: number) => [
  change(at, 'WaitingForUp', 'request'),
  change(at + 40 * SECOND, 'Up', 'reaper'),
];
/** Stopped from the Clever Cloud console: seen Asleep from Up. */
const consoleStop = (at: number) => [change(at, 'Down', 'outside')];

/** A seeded shuffle: the same awkward order at every run. */
function shuffled<T>(list: readonly T[], seed: number): T[] {
  const out = [...list];
  let s = seed;
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 48271) % 2147483647;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

const ms = (list: readonly { start: number; end: number }[]) => list.reduce((a, i) => a + i.end - i.start, 0);

describe('whose sleep it is', () => {
  const T0 = Date.UTC(2026, 5, 1, 8);

  it('counts a sleep the reaper put the app in, and not one from the Clever Cloud console', () => {
    const changes = [
      change(T0, 'WaitingForInit', 'operator'),
      change(T0 + SECOND, 'Up', 'reaper'),
      ...reaperSleep(T0 + HOUR),
      ...wake(T0 + 3 * HOUR),
      ...consoleStop(T0 + 5 * HOUR),
      // A request wakes the app the console stopped: the reaper starts it, the sleep was not its.
      ...wake(T0 + 9 * HOUR),
    ];
    const s = sleepsOf(null, changes, 0, T0 + 10 * HOUR);
    expect(s.reaper).toEqual([{ start: T0 + HOUR + 5 * SECOND, end: T0 + 3 * HOUR }]);
    expect(s.outside).toEqual([{ start: T0 + 5 * HOUR, end: T0 + 9 * HOUR }]);
    expect(s.atEnd).toBeNull();
  });

  it('does not count an app found asleep when put under the reaper', () => {
    const changes = [change(T0, 'WaitingForInit', 'operator'), change(T0 + SECOND, 'Down', 'reaper')];
    const s = sleepsOf(null, changes, 0, T0 + HOUR);
    expect(s.reaper).toEqual([]);
    expect(ms(s.outside)).toBe(HOUR - SECOND);
    expect(s.atEnd).toBe('outside');
  });

  it('keeps the cause through a start that did not bring the app up, and a reset read as asleep', () => {
    const changes = [
      change(T0, 'Up', 'reaper'),
      ...reaperSleep(T0 + HOUR),
      // A start whose deployment was cancelled, then a reset and a reading: still the reaper's sleep.
      change(T0 + 2 * HOUR, 'WaitingForUp', 'request'),
      change(T0 + 2 * HOUR + MINUTE, 'Down', 'reaper'),
      change(T0 + 3 * HOUR, 'WaitingForInit', 'operator', 'reset'),
      change(T0 + 3 * HOUR + SECOND, 'Down', 'reaper'),
    ];
    const s = sleepsOf(null, changes, 0, T0 + 4 * HOUR);
    expect(s.outside).toEqual([]);
    expect(ms(s.reaper)).toBe(4 * HOUR - (HOUR + 5 * SECOND) - MINUTE - SECOND);
    expect(s.atEnd).toBe('reaper');
  });

  it('ends a sleep at a release: a released app saves nothing', () => {
    const changes = [
      change(T0, 'Up', 'reaper'),
      ...reaperSleep(T0 + HOUR),
      change(T0 + 2 * HOUR, null, 'reaper', 'release'),
    ];
    const s = sleepsOf(null, changes, 0, T0 + 5 * HOUR);
    expect(ms(s.reaper)).toBe(HOUR - 5 * SECOND);
    expect(s.atEnd).toBeNull();
  });

  it('reads simultaneous entries in id order, and out-of-order ones in time order', () => {
    // Going to sleep and Asleep in the same millisecond, then the list given backwards.
    const same = [
      change(T0, 'Up', 'reaper'),
      change(T0 + HOUR, 'WaitingForShutdown', 'reaper'),
      change(T0 + HOUR, 'Down', 'reaper'),
    ];
    const s = sleepsOf(null, [...same].reverse(), 0, T0 + 3 * HOUR);
    expect(s.reaper).toEqual([{ start: T0 + HOUR, end: T0 + 3 * HOUR }]);
    expect(s.atEnd).toBe('reaper');
  });

  it('gives the same split for generated histories, in any order they come', () => {
    for (let seed = 1; seed <= 40; seed++) {
      let s = seed * 7919;
      const rand = (max: number) => {
        s = (s * 48271) % 2147483647;
        return s % max;
      };
      let at = T0;
      let reaperMs = 0;
      let outsideMs = 0;
      const changes: Change[] = [change(at, 'Up', 'reaper')];
      for (let k = 0; k < 12; k++) {
        at += (1 + rand(300)) * MINUTE;
        const length = (1 + rand(600)) * MINUTE;
        const kind = rand(4);
        if (kind === 0 || kind === 1) {
          changes.push(...reaperSleep(at));
          if (kind === 1) {
            // A start that was cancelled in the middle of it: Waking up is awake, the rest is the reaper's.
            changes.push(
              change(at + length / 2, 'WaitingForUp', 'request'),
              change(at + length / 2 + MINUTE, 'Down', 'reaper'),
            );
            reaperMs -= MINUTE;
          }
          changes.push(...wake(at + length));
          reaperMs += length - 5 * SECOND;
        } else if (kind === 2) {
          changes.push(...consoleStop(at), ...wake(at + length));
          outsideMs += length;
        } else {
          // Simultaneous: the reaper's stop seen in the same millisecond as it was asked.
          changes.push(
            change(at, 'WaitingForShutdown', 'reaper'),
            change(at, 'Down', 'reaper'),
            ...wake(at + length),
          );
          reaperMs += length;
        }
        at += length + 40 * SECOND;
      }
      const end = at + HOUR;
      for (const order of [changes, shuffled(changes, seed)]) {
        const got = sleepsOf(null, order, 0, end);
        expect({ seed, reaper: ms(got.reaper), outside: ms(got.outside) }).toEqual({
          seed,
          reaper: reaperMs,
          outside: outsideMs,
        });
      }
    }
  });
});

describe('the calendar in a zone', () => {
  it('has a day of 23 hours when the clocks go forward, and one of 25 when they go back', () => {
    // Paris: Sunday 29 March 2026 (02:00 → 03:00) and Sunday 25 October 2026 (03:00 → 02:00).
    const spring = lastDays(Date.UTC(2026, 2, 30, 10), 'Europe/Paris', 2)[0]!;
    expect(spring.day).toBe('2026-03-29');
    expect(spring.end - spring.start).toBe(23 * HOUR);
    const autumn = lastDays(Date.UTC(2026, 9, 26, 10), 'Europe/Paris', 2)[0]!;
    expect(autumn.day).toBe('2026-10-25');
    expect(autumn.end - autumn.start).toBe(25 * HOUR);
    // New York, on its own dates (8 March and 1 November 2026).
    const ny = lastDays(Date.UTC(2026, 10, 2, 18), 'America/New_York', 2)[0]!;
    expect([ny.day, ny.end - ny.start]).toEqual(['2026-11-01', 25 * HOUR]);
  });

  it('starts the month and the year at their local midnight', () => {
    const now = Date.UTC(2026, 0, 1, 2); // 1 January 2026, 03:00 in Paris, still 31 December in New York
    expect(calendarPeriods(now, 'Europe/Paris')).toMatchObject({
      month: { start: Date.UTC(2025, 11, 31, 23) },
      year: { start: Date.UTC(2025, 11, 31, 23) },
    });
    expect(calendarPeriods(now, 'America/New_York')).toMatchObject({
      today: { start: Date.UTC(2025, 11, 31, 5) },
      month: { start: Date.UTC(2025, 11, 1, 5) },
      year: { start: Date.UTC(2025, 0, 1, 5) },
    });
  });
});

describe('the report in a zone', () => {
  const app = (fields: Partial<AppInput>): AppInput => ({
    appId: 'app_a',
    name: 'a',
    managed: true,
    flavorName: 'XS',
    flavorPrice: 0.3436,
    instances: 1,
    asleep: [],
    projected: [],
    ...fields,
  });
  const report = (now: number, timeZone: string, apps: AppInput[]) =>
    buildSavingsReport({
      now,
      timeZone,
      since: now - 400 * 24 * HOUR,
      apps,
      pricing: pricingOf(DEFAULT_SETTINGS),
    });

  it("cuts a sleep across the year end at the zone's midnight, and counts one still running now", () => {
    // Asleep from 22:00 on 31 December to now, 1 January 2026, 06:00 (Paris, UTC+1): 2 h last year.
    const now = Date.UTC(2026, 0, 1, 5);
    const sleep = { start: Date.UTC(2025, 11, 31, 21), end: now };
    const paris = report(now, 'Europe/Paris', [app({ asleep: [sleep], asleepNow: 'reaper' })]);
    expect(paris.totals.today.hoursAsleep).toBeCloseTo(6, 9);
    expect(paris.totals.month.hoursAsleep).toBeCloseTo(6, 9);
    expect(paris.totals.year.hoursAsleep).toBeCloseTo(6, 9);
    expect(paris.totals.all.hoursAsleep).toBeCloseTo(8, 9);
    expect(paris.daily.at(-2)!.figures.hoursAsleep).toBeCloseTo(2, 9);
    // In Tokyo (UTC+9) it is 14:00 on 1 January: the whole sleep is this year, 8 h of it today.
    const tokyo = report(now, 'Asia/Tokyo', [app({ asleep: [sleep], asleepNow: 'reaper' })]);
    expect(tokyo.totals.year.hoursAsleep).toBeCloseTo(8, 9);
    expect(tokyo.totals.today.hoursAsleep).toBeCloseTo(8, 9);
    // In New York it is midnight exactly: the year (and the day) begin now, all 8 h are last year's.
    const ny = report(now, 'America/New_York', [app({ asleep: [sleep], asleepNow: 'reaper' })]);
    expect(ny.windows.year).toEqual({ start: now, end: now });
    expect(ny.totals.year.hoursAsleep).toBe(0);
    expect(ny.totals.all.hoursAsleep).toBeCloseTo(8, 9);
    expect(ny.daily.at(-2)).toMatchObject({ day: '2025-12-31' });
    expect(ny.daily.at(-2)!.figures.hoursAsleep).toBeCloseTo(8, 9);
  });

  it('cuts a sleep across a month end, on a day of 25 hours', () => {
    // Asleep from Saturday 31 October 2026, 20:00 Paris (UTC+1 since the 25th), to 1 November, 10:00.
    const now = Date.UTC(2026, 10, 1, 9);
    const sleep = { start: Date.UTC(2026, 9, 31, 19), end: now };
    const r = report(now, 'Europe/Paris', [app({ asleep: [sleep] })]);
    expect(r.totals.month.hoursAsleep).toBeCloseTo(10, 9);
    expect(r.totals.year.hoursAsleep).toBeCloseTo(14, 9);
    const lastMonth = r.daily.find((d) => d.day === '2026-10-25')!;
    expect(lastMonth.end - lastMonth.start).toBe(25 * HOUR);
  });

  it("sums the saving per hour of the apps asleep now because of the reaper, apart from the console's", () => {
    const now = Date.UTC(2026, 5, 1, 12);
    const r = report(now, 'UTC', [
      app({ appId: 'app_1', instances: 2, asleep: [{ start: now - HOUR, end: now }], asleepNow: 'reaper' }),
      app({
        appId: 'app_2',
        asleep: [{ start: now - 2 * HOUR, end: now }],
        asleepNow: 'reaper',
        flavorPrice: null,
      }),
      app({ appId: 'app_3', outside: [{ start: now - 3 * HOUR, end: now }], asleepNow: 'outside' }),
      app({ appId: 'app_4' }),
    ]);
    const xs = 0.3436 * 6 * DEFAULT_SETTINGS.eurPerDrop;
    expect(r.savingNow.eurPerHour).toBeCloseTo(2 * xs, 9);
    expect(r.savingNow).toMatchObject({ apps: 2, unpriced: 1, outsideApps: 1 });
    expect(r.totals.today).toMatchObject({ outsideHours: 3 });
    expect(r.totals.today.hoursAsleep).toBeCloseTo(3, 9);
    // The console's hours are never money.
    expect(r.totals.today.savedEur).toBeCloseTo(2 * xs, 9);
    expect(overlapMs([{ start: now - 3 * HOUR, end: now }], r.windows.today.start, now)).toBe(3 * HOUR);
  });
});
