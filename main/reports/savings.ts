/**
 * The savings arithmetic, pure: when each app was asleep (or, in dry-run, would have been), clipped to
 * the windows and days of the report, and what that is worth. Loading from the datastore is
 * savings-report.ts; the rules (what counts as asleep, the price unit) are shared/savings.ts.
 */
import { HOUR } from '../../shared/durations.ts';
import {
  type AppSavings,
  hourlyPriceEur,
  type PriceSource,
  SAVINGS_WINDOWS,
  type SavingNow,
  type SavingsDay,
  type SavingsFigures,
  type SavingsPricing,
  type SavingsReport,
  type SavingsWindow,
} from '../../shared/savings.ts';
import { calendarPeriods, type Interval, lastDays } from './savings-calendar.ts';
import type { Change, SleepCause } from './savings-sleeps.ts';

/**
 * A "would sleep" note of dry-run records the sleep the reaper would have done, or why it would not
 * (a failed last deployment, someone deploying). Only the first kind is a projected sleep. The text
 * is the engine's (decide.ts); a test runs the engine in dry-run to keep the two in step.
 */
export const WOULD_STOP_PREFIX = 'dry-run: would stop the app';

/**
 * Dry-run: the sleeps the reaper would have done, from each "would stop the app" note to what would
 * have woken the app: the next request (a "would wake" note), the next must-be-up range
 * (`nextMustBeUpAfter`), or any later change of the app in the history; at most `to`.
 */
export function projectedIntervals(
  changes: readonly Change[],
  to: number,
  nextMustBeUpAfter: (t: number) => number | null = () => null,
): Interval[] {
  const out: Interval[] = [];
  for (let i = 0; i < changes.length; i++) {
    const c = changes[i]!;
    if (c.kind !== 'would-sleep' || !c.reason.startsWith(WOULD_STOP_PREFIX) || c.at >= to) continue;
    let end = to;
    const next = changes.slice(i + 1).find((n) => n.at >= c.at);
    if (next) end = Math.min(end, next.at);
    const range = nextMustBeUpAfter(c.at);
    if (range !== null) end = Math.min(end, range);
    if (end > c.at) out.push({ start: c.at, end });
  }
  return merge(out);
}

/** Sorted, overlapping intervals joined. */
export function merge(intervals: readonly Interval[]): Interval[] {
  const sorted = [...intervals].sort((a, b) => a.start - b.start);
  const out: Interval[] = [];
  for (const i of sorted) {
    const last = out.at(-1);
    if (last && i.start <= last.end) last.end = Math.max(last.end, i.end);
    else out.push({ ...i });
  }
  return out;
}

/** Milliseconds of `intervals` inside [start, end). */
export function overlapMs(intervals: readonly Interval[], start: number, end: number): number {
  let total = 0;
  for (const i of intervals) {
    const s = Math.max(i.start, start);
    const e = Math.min(i.end, end);
    if (e > s) total += e - s;
  }
  return total;
}

/** Today, this month and this year in the zone, and all time (from the oldest entry kept), to now. */
export function savingsWindows(
  now: number,
  timeZone: string,
  since: number | null,
): Record<SavingsWindow, Interval> {
  return { ...calendarPeriods(now, timeZone), all: { start: Math.min(since ?? now, now), end: now } };
}

/** One app as the report needs it: what it is, and its intervals asleep (and projected, in dry-run). */
export type AppInput = Pick<
  AppSavings,
  'appId' | 'name' | 'managed' | 'flavorName' | 'flavorPrice' | 'instances'
> & {
  /** Asleep because the reaper put it to sleep (savings-sleeps.ts). */
  asleep: Interval[];
  /** Asleep because it was stopped outside the reaper: not counted. */
  outside?: Interval[];
  /** Whose sleep the app is in now, if it is asleep. */
  asleepNow?: SleepCause | null;
  projected: Interval[];
  /** Euros per hour of one instance from the price system; absent or null: the fallback applies. */
  systemHourlyEur?: number | null;
};

function figures(
  asleepMs: number,
  projectedMs: number,
  outsideMs: number,
  hourlyEur: number | null,
): SavingsFigures {
  const hoursAsleep = asleepMs / HOUR;
  const projectedHours = projectedMs / HOUR;
  return {
    hoursAsleep,
    savedEur: hourlyEur === null ? null : hoursAsleep * hourlyEur,
    projectedHours,
    projectedEur: hourlyEur === null ? null : projectedHours * hourlyEur,
    outsideHours: outsideMs / HOUR,
  };
}

function sum(list: readonly SavingsFigures[]): SavingsFigures {
  const total = (pick: (f: SavingsFigures) => number | null) => {
    const known = list.map(pick).filter((v): v is number => v !== null);
    return known.length ? known.reduce((a, b) => a + b, 0) : null;
  };
  return {
    hoursAsleep: list.reduce((a, f) => a + f.hoursAsleep, 0),
    savedEur: total((f) => f.savedEur),
    projectedHours: list.reduce((a, f) => a + f.projectedHours, 0),
    projectedEur: total((f) => f.projectedEur),
    outsideHours: list.reduce((a, f) => a + f.outsideHours, 0),
  };
}

/** Euros per hour for all the app's instances, or null when its price or count is not known. */
export function appHourlyEur(
  app: Pick<AppInput, 'flavorPrice' | 'instances' | 'systemHourlyEur'>,
  pricing: Pick<SavingsPricing, 'unit' | 'eurPerDrop'>,
): number | null {
  return appPrice(app, pricing).hourlyEur;
}

/** The app's euros per hour and where they come from: the price system first, the flavor price else. */
export function appPrice(
  app: Pick<AppInput, 'flavorPrice' | 'instances' | 'systemHourlyEur'>,
  pricing: Pick<SavingsPricing, 'unit' | 'eurPerDrop'>,
): { hourlyEur: number | null; source: PriceSource | null } {
  if (app.instances === null) return { hourlyEur: null, source: null };
  if (app.systemHourlyEur != null) {
    return { hourlyEur: app.instances * app.systemHourlyEur, source: 'price-system' };
  }
  if (app.flavorPrice === null) return { hourlyEur: null, source: null };
  return {
    hourlyEur: app.instances * hourlyPriceEur(app.flavorPrice, pricing.unit, pricing.eurPerDrop),
    source: 'flavor-price',
  };
}

/** The report's price source: one of the two when every priced app has it, mixed, or none. */
function reportSource(apps: readonly AppSavings[]): NonNullable<SavingsPricing['source']> {
  const sources = new Set(apps.map((a) => a.priceSource).filter((s): s is PriceSource => s != null));
  if (sources.size === 0) return 'none';
  if (sources.size === 2) return 'mixed';
  return [...sources][0]!;
}

/** What the apps asleep now because of the reaper save an hour. */
function savingNow(apps: readonly AppSavings[]): SavingNow {
  const reaper = apps.filter((a) => a.asleepNow === 'reaper');
  return {
    eurPerHour: reaper.reduce((sum, a) => sum + (a.hourlyEur ?? 0), 0),
    apps: reaper.length,
    unpriced: reaper.filter((a) => a.hourlyEur === null).length,
    outsideApps: apps.filter((a) => a.asleepNow === 'outside').length,
  };
}

/**
 * The report: per app and in total, for today, this month, this year and all time in the zone, per
 * day for the chart, and what the reaper saves an hour right now. `since` is when the history kept
 * starts (the oldest entry; null when there is none).
 */
export function buildSavingsReport(input: {
  now: number;
  timeZone: string;
  since?: number | null;
  apps: readonly AppInput[];
  pricing: SavingsPricing;
}): SavingsReport {
  const { now, timeZone, pricing } = input;
  const windows = savingsWindows(now, timeZone, input.since ?? null);
  const days = lastDays(now, timeZone, 30);
  const apps: AppSavings[] = [];
  const perDay: SavingsFigures[][] = days.map(() => []);
  for (const app of input.apps) {
    const { hourlyEur, source: priceSource } = appPrice(app, pricing);
    const of = (w: Interval) =>
      figures(
        overlapMs(app.asleep, w.start, w.end),
        overlapMs(app.projected, w.start, w.end),
        overlapMs(app.outside ?? [], w.start, w.end),
        hourlyEur,
      );
    const appWindows = Object.fromEntries(SAVINGS_WINDOWS.map((w) => [w, of(windows[w])])) as Record<
      SavingsWindow,
      SavingsFigures
    >;
    days.forEach((d, i) => {
      perDay[i]!.push(of(d));
    });
    apps.push({
      appId: app.appId,
      name: app.name,
      managed: app.managed,
      flavorName: app.flavorName,
      flavorPrice: app.flavorPrice,
      instances: app.instances,
      hourlyEur,
      priceSource,
      windows: appWindows,
      asleepNow: app.asleepNow ?? null,
    });
  }
  // The most saved first (all time, dry-run projections included), then by name.
  const weight = (a: AppSavings) => a.windows.all.hoursAsleep + a.windows.all.projectedHours;
  apps.sort((a, b) => weight(b) - weight(a) || a.name.localeCompare(b.name));
  const totals = Object.fromEntries(
    SAVINGS_WINDOWS.map((w) => [w, sum(apps.map((a) => a.windows[w]))]),
  ) as Record<SavingsWindow, SavingsFigures>;
  const daily: SavingsDay[] = days.map((d, i) => ({ ...d, figures: sum(perDay[i]!) }));
  return {
    now,
    timeZone,
    windows,
    savingNow: savingNow(apps),
    totals,
    daily,
    apps,
    pricing: {
      ...pricing,
      source: reportSource(apps),
      priceSystemProblem: pricing.priceSystemProblem ?? null,
    },
    unpriced: apps.filter((a) => a.hourlyEur === null).length,
  };
}
