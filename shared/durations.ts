/** Durations in milliseconds, and how the dashboard writes them. */
export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

export type DurationUnit = 'days' | 'hours' | 'minutes' | 'seconds';

/**
 * A duration as its two largest non-zero units, exact to the second ("1 h 30 min" is
 * [{1, hours}, {30, minutes}]); zero is [{0, seconds}]. The words are the caller's.
 */
export function durationParts(ms: number): {
  sign: '' | '-';
  parts: { count: number; unit: DurationUnit }[];
} {
  let rest = Math.round(Math.abs(ms) / SECOND);
  const days = Math.floor(rest / 86400);
  rest -= days * 86400;
  const hours = Math.floor(rest / 3600);
  rest -= hours * 3600;
  const minutes = Math.floor(rest / 60);
  const seconds = rest - minutes * 60;
  const parts: { count: number; unit: DurationUnit }[] = [];
  if (days) parts.push({ count: days, unit: 'days' });
  if (hours) parts.push({ count: hours, unit: 'hours' });
  if (minutes) parts.push({ count: minutes, unit: 'minutes' });
  if (seconds || parts.length === 0) parts.push({ count: seconds, unit: 'seconds' });
  return { sign: ms < 0 ? '-' : '', parts: parts.slice(0, 2) };
}

const SHORT: Record<DurationUnit, string> = { days: 'd', hours: 'h', minutes: 'min', seconds: 's' };

/** "1 h", "15 min", "30 s", "1 h 30 min": short and exact to the second (English: the API, the logs). */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms)) return '—';
  const { sign, parts } = durationParts(ms);
  return sign + parts.map((p) => `${p.count} ${SHORT[p.unit]}`).join(' ');
}
