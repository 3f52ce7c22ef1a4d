/**
 * The calendar of the savings report in a chosen IANA zone: local days, months and years, as
 * instants. Days are calendar days, 23 or 25 hours long on the days the clocks change; a month or a
 * year starts at its first local midnight (zonedInstant handles a midnight that does not exist).
 */
import { zonedInstant } from '../../shared/schedule.ts';

export interface Interval {
  start: number;
  end: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The local calendar date of `t` in `timeZone`. */
export function localDate(t: number, timeZone: string): { year: number; month: number; day: number } {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    formatters.set(timeZone, f);
  }
  const parts = f.formatToParts(t);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return { year: get('year'), month: get('month'), day: get('day') };
}

/** The instant of local midnight starting a calendar date (month and day may overflow, as Date.UTC's). */
function midnight(year: number, month: number, day: number, timeZone: string): number {
  const d = new Date(Date.UTC(year, month - 1, day));
  return zonedInstant(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate(), 0, timeZone);
}

/**
 * The last `count` local days in `timeZone`, oldest first, today last (ending at `now`), each with its
 * date as YYYY-MM-DD.
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
    const start = midnight(today.year, today.month, today.day - k, timeZone);
    const end = k === 0 ? now : midnight(today.year, today.month, today.day - k + 1, timeZone);
    out.push({ day: date.toISOString().slice(0, 10), start, end });
  }
  return out;
}

/** Today, this month and this year in `timeZone`, each from its first local midnight to `now`. */
export function calendarPeriods(now: number, timeZone: string): Record<'today' | 'month' | 'year', Interval> {
  const { year, month, day } = localDate(now, timeZone);
  return {
    today: { start: midnight(year, month, day, timeZone), end: now },
    month: { start: midnight(year, month, 1, timeZone), end: now },
    year: { start: midnight(year, 1, 1, timeZone), end: now },
  };
}
