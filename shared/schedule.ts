/**
 * Must-be-up ranges: weekdays, a start and an end time, and an IANA time zone per range.
 *
 * - Weekdays are read in the range's own zone: `Mon-Fri`, `Sun-Thu` (a week may start on Sunday),
 *   `Fri-Mon` (wraps), single days, and comma-separated lists of these.
 * - An end before (or equal to, with `24:00`) the start crosses midnight: the range belongs to the
 *   day it starts on. `Mon-Fri 22:00-06:00` is up from Friday 22:00 to Saturday 06:00.
 * - DST: a start or end that falls in a spring-forward gap moves forward by the gap (02:30 becomes
 *   03:30 in Europe/Paris); one that falls twice in a fall-back hour takes the first occurrence.
 *
 * Pure: only `Intl`, which every JavaScript runtime has.
 */
import { DAY } from './durations.ts';

export interface MustBeUpRange {
  days: string;
  start: string;
  end: string;
  timeZone: string;
}

/** A half-open interval [start, end) of epoch milliseconds. */
export interface Interval {
  start: number;
  end: number;
}

export const WEEKDAY_NAMES = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;

/** The set of weekdays (0 = Sunday) named by `text`, or what is wrong (the part that is no weekday). */
export function parseDays(
  text: string,
): { days: number[] } | { error: 'daysMissing' } | { error: 'days'; part: string } {
  const trimmed = text.trim();
  if (!trimmed) return { error: 'daysMissing' };
  const days = new Set<number>();
  for (const rawPart of trimmed.split(',')) {
    const part = rawPart.trim();
    const [fromName, toName, extra] = part.split('-').map((s) => s.trim());
    const from = dayIndex(fromName);
    const to = toName === undefined ? from : dayIndex(toName);
    if (extra !== undefined || from < 0 || to < 0) return { error: 'days', part };
    for (let d = from; ; d = (d + 1) % 7) {
      days.add(d);
      if (d === to) break;
    }
  }
  return { days: [...days].sort((a, b) => a - b) };
}

function dayIndex(name: string | undefined): number {
  if (!name) return -1;
  const wanted = name.slice(0, 3).toLowerCase();
  if (name.length !== 3 && !/^(mon|tues|wednes|thurs|fri|satur|sun)day$/i.test(name)) return -1;
  return WEEKDAY_NAMES.findIndex((n) => n.toLowerCase() === wanted);
}

/** Minutes since midnight for `HH:MM` (00:00 to 24:00), or null. */
export function parseTime(text: string): number | null {
  const m = /^([01]\d|2[0-4]):([0-5]\d)$/.exec(text.trim());
  if (!m) return null;
  const minutes = Number(m[1]) * 60 + Number(m[2]);
  return minutes > 24 * 60 ? null : minutes;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

export function isValidTimeZone(timeZone: string): boolean {
  if (!timeZone || typeof timeZone !== 'string') return false;
  try {
    formatter(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** A problem of one part of a range: the part, and a code of the `validation` catalogue with its params. */
export interface RangeProblem {
  field: 'days' | 'start' | 'end' | 'timeZone';
  code: 'daysMissing' | 'days' | 'startTime' | 'endTime' | 'emptyRange' | 'timeZone';
  params: Record<string, string>;
}

/** Every problem of a range, once each, on the part it is about; empty when valid. */
export function rangeProblems(range: MustBeUpRange): RangeProblem[] {
  const problems: RangeProblem[] = [];
  const days = parseDays(range.days);
  if ('error' in days) {
    problems.push(
      days.error === 'days'
        ? { field: 'days', code: 'days', params: { value: days.part } }
        : { field: 'days', code: 'daysMissing', params: {} },
    );
  }
  const start = parseTime(range.start);
  const end = parseTime(range.end);
  if (start === null || start === 24 * 60)
    problems.push({ field: 'start', code: 'startTime', params: { value: range.start } });
  if (end === null) problems.push({ field: 'end', code: 'endTime', params: { value: range.end } });
  if (start !== null && end !== null && start === end) {
    problems.push({ field: 'end', code: 'emptyRange', params: { start: range.start, end: range.end } });
  }
  if (!isValidTimeZone(range.timeZone))
    problems.push({ field: 'timeZone', code: 'timeZone', params: { value: range.timeZone } });
  return problems;
}

interface CivilTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

function civil(t: number, timeZone: string): CivilTime {
  const out: Record<string, number> = {};
  for (const p of formatter(timeZone).formatToParts(t)) {
    if (p.type !== 'literal') out[p.type] = Number(p.value);
  }
  return {
    year: out.year ?? 0,
    month: out.month ?? 1,
    day: out.day ?? 1,
    hour: out.hour ?? 0,
    minute: out.minute ?? 0,
    second: out.second ?? 0,
  };
}

/** UTC offset of `timeZone` at instant `t`, in ms (east positive). */
export function offsetAt(t: number, timeZone: string): number {
  const c = civil(t, timeZone);
  const asUtc = Date.UTC(c.year, c.month - 1, c.day, c.hour, c.minute, c.second);
  return asUtc - Math.floor(t / 1000) * 1000;
}

/** The instant of a wall-clock time in `timeZone` (see the DST rules at the top of this file). */
export function zonedInstant(
  year: number,
  month: number,
  day: number,
  minutes: number,
  timeZone: string,
): number {
  const wall = Date.UTC(year, month - 1, day, 0, minutes);
  const before = offsetAt(wall - DAY, timeZone);
  const after = offsetAt(wall + DAY, timeZone);
  const candidates = [wall - before, wall - after].filter((t) => t + offsetAt(t, timeZone) === wall);
  if (candidates.length > 0) return Math.min(...candidates);
  return wall - before; // in a gap: the wall time read with the offset before the change
}

/** The local calendar date (in `timeZone`) of instant `t`, as a UTC-midnight day number. */
function localDayNumber(t: number, timeZone: string): number {
  const c = civil(t, timeZone);
  return Date.UTC(c.year, c.month - 1, c.day) / DAY;
}

/** The occurrences of one range that start on local days [fromDay, toDay]. */
function rangeOccurrences(range: MustBeUpRange, fromDay: number, toDay: number): Interval[] {
  const parsed = parseDays(range.days);
  const start = parseTime(range.start);
  const end = parseTime(range.end);
  if ('error' in parsed || start === null || end === null || !isValidTimeZone(range.timeZone)) return [];
  const days = new Set(parsed.days);
  const overnight = end <= start;
  const out: Interval[] = [];
  for (let dayNumber = fromDay; dayNumber <= toDay; dayNumber++) {
    const date = new Date(dayNumber * DAY);
    if (!days.has(date.getUTCDay())) continue;
    const y = date.getUTCFullYear();
    const m = date.getUTCMonth() + 1;
    const d = date.getUTCDate();
    const startAt = zonedInstant(y, m, d, start, range.timeZone);
    const endDate = new Date((dayNumber + (overnight ? 1 : 0)) * DAY);
    const endAt = zonedInstant(
      endDate.getUTCFullYear(),
      endDate.getUTCMonth() + 1,
      endDate.getUTCDate(),
      end,
      range.timeZone,
    );
    if (endAt > startAt) out.push({ start: startAt, end: endAt });
  }
  return out;
}

/** Union of all occurrences of `ranges` that overlap [from, to), merged and sorted. */
export function occurrences(ranges: readonly MustBeUpRange[], from: number, to: number): Interval[] {
  const all: Interval[] = [];
  for (const range of ranges) {
    const fromDay = localDayNumber(from, isValidTimeZone(range.timeZone) ? range.timeZone : 'UTC') - 2;
    const toDay = localDayNumber(to, isValidTimeZone(range.timeZone) ? range.timeZone : 'UTC') + 1;
    for (const o of rangeOccurrences(range, fromDay, toDay)) {
      if (o.end > from && o.start < to) all.push(o);
    }
  }
  all.sort((a, b) => a.start - b.start);
  const merged: Interval[] = [];
  for (const o of all) {
    const last = merged.at(-1);
    if (last && o.start <= last.end) last.end = Math.max(last.end, o.end);
    else merged.push({ ...o });
  }
  return merged;
}

/**
 * A schedule for one app: the union of its routes' ranges, with the occurrences of a window around
 * the last time asked cached, so the job can ask for thousands of apps per tick.
 */
export class Schedule {
  readonly ranges: readonly MustBeUpRange[];
  private window: { from: number; to: number; intervals: Interval[] } | null = null;

  constructor(ranges: readonly MustBeUpRange[]) {
    this.ranges = ranges;
  }

  get empty(): boolean {
    return this.ranges.length === 0;
  }

  private intervals(t: number): Interval[] {
    if (this.empty) return [];
    if (!this.window || t < this.window.from || t > this.window.to) {
      // A window of 9 days holds the occurrence around t and the next start of any weekly range.
      const from = t - DAY;
      const to = t + 8 * DAY;
      this.window = { from, to, intervals: occurrences(this.ranges, from - 2 * DAY, to + 2 * DAY) };
    }
    return this.window.intervals;
  }

  /** The (merged) must-be-up interval containing `t`, or null. */
  activeAt(t: number): Interval | null {
    for (const i of this.intervals(t)) {
      if (i.start <= t && t < i.end) return i;
      if (i.start > t) break;
    }
    return null;
  }

  /** The next time after `t` at which the app must come up, or null within a week. */
  nextStartAfter(t: number): number | null {
    for (const i of this.intervals(t)) if (i.start > t) return i.start;
    return null;
  }
}

export interface ScheduleTransition {
  at: number;
  up: boolean;
}

/** How far ahead the transitions are searched. */
export const TRANSITION_HORIZON = 35 * DAY;

/**
 * The next `count` transitions (up at a range start, down at its end) after `from`, within 5 weeks.
 * Only what lies inside the horizon is known: the end of an interval that reaches past it is where
 * the search stopped, not a down (a range that never ends, `Mon-Sun 00:00-24:00`, has no next down).
 * An empty list for valid ranges means the app is up throughout (see ALWAYS_UP_TEXT): a weekly
 * schedule that lets the app sleep does so within every week.
 */
export function nextTransitions(
  ranges: readonly MustBeUpRange[],
  from: number,
  count: number,
): ScheduleTransition[] {
  const out: ScheduleTransition[] = [];
  const horizon = from + TRANSITION_HORIZON;
  for (const i of occurrences(ranges, from, horizon)) {
    if (i.start > from && i.start < horizon) out.push({ at: i.start, up: true });
    if (i.end < horizon) out.push({ at: i.end, up: false });
  }
  return out.slice(0, count);
}

/** What a preview says when valid ranges have no next transition. */
export const ALWAYS_UP_TEXT = 'Always up: these ranges never let the app sleep.';

/** "Mon 08:00 CET": a time as the range's zone writes it, in `language` (English by default). */
export function formatZoned(t: number, timeZone: string, language = 'en-GB'): string {
  return new Intl.DateTimeFormat(language === 'en' ? 'en-GB' : language, {
    timeZone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'short',
  }).format(t);
}
