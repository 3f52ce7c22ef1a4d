/**
 * The savings arithmetic, pure: when each app was asleep (or, in dry-run, would have been), clipped to
 * the windows and days of the report, and what that is worth. Loading from the datastore is
 * savings-report.ts; the rules (what counts as asleep, the price unit) are shared/savings.ts.
 */
import type { ReaperState } from '../../shared/domain.ts';
import { DAY, HOUR } from '../../shared/durations.ts';
import {
  type AppSavings,
  hourlyPriceEur,
  type PriceSource,
  SAVINGS_WINDOWS,
  type SavingsDay,
  type SavingsFigures,
  type SavingsPricing,
  type SavingsReport,
  type SavingsWindow,
} from '../../shared/savings.ts';
import { zonedInstant } from '../../shared/schedule.ts';

export interface Interval {
  start: number;
  end: number;
}

/** A state change or a dry-run note of one app, as the history has it. */
export interface Change {
  at: number;
  kind: 'transition' | 'reset' | 'release' | 'would-sleep' | 'would-wake';
  /** The state after a transition or a reset; null after a release and on notes. */
  to: ReaperState | null;
  reason: string;
}

/**
 * A "would sleep" note of dry-run records the sleep the reaper would have done, or why it would not
 * (a failed last deployment, someone deploying). Only the first kind is a projected sleep. The text
 * is the engine's (decide.ts); a test runs the engine in dry-run to keep the two in step.
 */
export const WOULD_STOP_PREFIX = 'dry-run: would stop the app';

const isStateChange = (c: Change) => c.kind === 'transition' || c.kind === 'reset' || c.kind === 'release';

/**
 * When the app was Asleep (Down) within [from, to): `initial` is its state at `from` (null when it was
 * not managed), `changes` its state changes after, oldest first.
 */
export function asleepIntervals(
  initial: ReaperState | null,
  changes: readonly Change[],
  from: number,
  to: number,
): Interval[] {
  const out: Interval[] = [];
  let state = initial;
  let since = from;
  for (const c of changes) {
    if (!isStateChange(c) || c.at < from) continue;
    if (c.at >= to) break;
    if (state === 'Down' && c.at > since) out.push({ start: since, end: c.at });
    state = c.to;
    since = c.at;
  }
  if (state === 'Down' && to > since) out.push({ start: since, end: to });
  return out;
}

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

/** The local calendar date of `t` in `timeZone`. */
export function localDate(t: number, timeZone: string): { year: number; month: number; day: number } {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(t);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return { year: get('year'), month: get('month'), day: get('day') };
}

/**
 * The last `count` local days in `timeZone`, oldest first, today last (ending at `now`). Days are
 * calendar days: 23 or 25 hours long on the days the clocks change.
 */
export function lastDays(
  now: number,
  timeZone: string,
  count: number,
): { day: string; start: number; end: number }[] {
  const today = localDate(now, timeZone);
  const out: { day: string; start: number; end: number }[] = [];
  for (let k = count - 1; k >= 0; k--) {
    const date = new Date(Date.UTC(today.year, today.month - 1, today.day - k));
    const next = new Date(Date.UTC(today.year, today.month - 1, today.day - k + 1));
    const start = zonedInstant(date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate(), 0, timeZone);
    const end =
      k === 0
        ? now
        : zonedInstant(next.getUTCFullYear(), next.getUTCMonth() + 1, next.getUTCDate(), 0, timeZone);
    out.push({ day: date.toISOString().slice(0, 10), start, end });
  }
  return out;
}

/** Today since local midnight, and the last 7 and 30 days, each ending now. */
export function savingsWindows(now: number, timeZone: string): Record<SavingsWindow, Interval> {
  const today = lastDays(now, timeZone, 1)[0]!;
  return {
    today: { start: today.start, end: now },
    days7: { start: now - 7 * DAY, end: now },
    days30: { start: now - 30 * DAY, end: now },
  };
}

/** One app as the report needs it: what it is, and its intervals asleep (and projected, in dry-run). */
export type AppInput = Pick<
  AppSavings,
  'appId' | 'name' | 'managed' | 'flavorName' | 'flavorPrice' | 'instances'
> & {
  asleep: Interval[];
  projected: Interval[];
  /** Euros per hour of one instance from the price system; absent or null: the fallback applies. */
  systemHourlyEur?: number | null;
};

function figures(asleepMs: number, projectedMs: number, hourlyEur: number | null): SavingsFigures {
  const hoursAsleep = asleepMs / HOUR;
  const projectedHours = projectedMs / HOUR;
  return {
    hoursAsleep,
    savedEur: hourlyEur === null ? null : hoursAsleep * hourlyEur,
    projectedHours,
    projectedEur: hourlyEur === null ? null : projectedHours * hourlyEur,
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

/** The report: per app and in total, for today, 7 and 30 days, and per day for the chart. */
export function buildSavingsReport(input: {
  now: number;
  timeZone: string;
  apps: readonly AppInput[];
  pricing: SavingsPricing;
}): SavingsReport {
  const { now, timeZone, pricing } = input;
  const windows = savingsWindows(now, timeZone);
  const days = lastDays(now, timeZone, 30);
  const apps: AppSavings[] = [];
  const perDay: SavingsFigures[][] = days.map(() => []);
  for (const app of input.apps) {
    const { hourlyEur, source: priceSource } = appPrice(app, pricing);
    const of = (w: Interval) =>
      figures(overlapMs(app.asleep, w.start, w.end), overlapMs(app.projected, w.start, w.end), hourlyEur);
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
    });
  }
  apps.sort(
    (a, b) =>
      b.windows.days30.hoursAsleep +
        b.windows.days30.projectedHours -
        (a.windows.days30.hoursAsleep + a.windows.days30.projectedHours) || a.name.localeCompare(b.name),
  );
  const totals = Object.fromEntries(
    SAVINGS_WINDOWS.map((w) => [w, sum(apps.map((a) => a.windows[w]))]),
  ) as Record<SavingsWindow, SavingsFigures>;
  const daily: SavingsDay[] = days.map((d, i) => ({ ...d, figures: sum(perDay[i]!) }));
  return {
    now,
    timeZone,
    windows,
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
