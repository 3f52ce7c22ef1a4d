/** How the dashboard writes times, durations and sources. Times are on the engine's clock. */
import type { HistoryKind, TrafficSource } from '../../shared/domain.ts';
import { DAY, formatDuration, HOUR, MINUTE, SECOND } from '../../shared/durations.ts';

export { formatDuration };

const timeFormat = new Intl.DateTimeFormat(undefined, {
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});
const dayTimeFormat = new Intl.DateTimeFormat(undefined, {
  weekday: 'short',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});
const fullFormat = new Intl.DateTimeFormat(undefined, {
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

/** "14:32" today (or within 12 hours), "Tue 09:00" further away. */
export function clockTime(t: number, now: number): string {
  return Math.abs(t - now) < 12 * HOUR ? timeFormat.format(t) : dayTimeFormat.format(t);
}

/** "Mon 5 Jan, 14:32:10": for history entries and tooltips. */
export function fullTime(t: number): string {
  return fullFormat.format(t);
}

/** A short, coarse duration: "12 s", "4 min", "3 h 10 min", "2 d 4 h". */
export function shortDuration(ms: number): string {
  const abs = Math.abs(ms);
  if (abs < MINUTE) return `${Math.max(0, Math.round(abs / SECOND))} s`;
  if (abs < HOUR) return `${Math.floor(abs / MINUTE)} min`;
  if (abs < DAY) {
    const h = Math.floor(abs / HOUR);
    const m = Math.floor((abs - h * HOUR) / MINUTE);
    return m ? `${h} h ${m} min` : `${h} h`;
  }
  const d = Math.floor(abs / DAY);
  const h = Math.floor((abs - d * DAY) / HOUR);
  return h ? `${d} d ${h} h` : `${d} d`;
}

/** "in 3 min", "now". */
export function until(t: number, now: number): string {
  return t - now < SECOND ? 'now' : `in ${shortDuration(t - now)}`;
}

/** "3 min ago", "just now". */
export function ago(t: number, now: number): string {
  return now - t < 5 * SECOND ? 'just now' : `${shortDuration(now - t)} ago`;
}

export const SOURCE_LABELS: Record<TrafficSource, string> = {
  'access-log': 'access log',
  'wake-proxy': 'wake proxy',
  dashboard: 'dashboard',
  tray: 'tray',
  'admin-api': 'admin API',
  link: 'link',
};

/** Milliseconds as a number of `unit`s for a form field (trailing zeros dropped). */
export function msTo(ms: number, unit: number): string {
  return String(Math.round((ms / unit) * 1000) / 1000);
}

/** What a history entry that is not a plain transition says it is. */
export const KIND_LABELS: Record<HistoryKind, string> = {
  transition: '',
  'stop-asked': 'stop sent',
  'start-asked': 'start sent',
  'restart-asked': 'start sent again',
  'would-sleep': 'would sleep (dry-run)',
  'would-wake': 'would wake (dry-run)',
  release: 'released',
  reset: 'reset',
  'call-failed': 'call failed',
  'keep-awake': 'keep awake',
};
