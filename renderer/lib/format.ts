/**
 * How the dashboard writes times, durations, numbers, money and sources, in the current language
 * (renderer/i18n.ts; Intl takes the browser's regional tag of that language when it has one, en-GB or
 * fr-CA): formatters are made per locale and time zone on first use and kept, so switching the
 * language changes what the next call writes. Times are on the engine's clock.
 *
 * Times are written in the viewer's time zone (the browser's, or `setViewerTimeZone`); each function
 * that writes a time also takes a zone, for a time written as another zone (a must-be-up range's).
 */
import { isPersonalSpace } from '../../shared/console-links.ts';
import {
  HISTORY_KINDS,
  type HistoryKind,
  type ReaperState,
  TRAFFIC_SOURCES,
  type TrafficSource,
} from '../../shared/domain.ts';
import { DAY, durationParts, HOUR, MINUTE, SECOND } from '../../shared/durations.ts';
import { localeFor } from '../../shared/i18n/languages.ts';
import { currentLanguage, i18n } from '../i18n.ts';

let viewerZone: string | null = null;

/** The viewer's time zone: the one set (tests, a preference), else the browser's. */
export function viewerTimeZone(): string {
  return viewerZone ?? browserTimeZone();
}

/**
 * The browser's zone, read again at most once a minute: reading it makes an Intl.DateTimeFormat,
 * and the table asks for it per cell (it was a tenth of the first render with 1,000 apps).
 */
function browserTimeZone(): string {
  const now = Date.now();
  if (!browserZone || now - browserZone.at > MINUTE) {
    browserZone = { zone: Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC', at: now };
  }
  return browserZone.zone;
}
let browserZone: { zone: string; at: number } | null = null;

/** Write times in `zone` from now on (null: the browser's zone again). */
export function setViewerTimeZone(zone: string | null): void {
  viewerZone = zone;
}

const DATE_STYLES = {
  time: { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' },
  dayTime: { weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' },
  full: {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  },
  date: {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  },
  hour: { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' },
  day: { weekday: 'short', day: 'numeric' },
} satisfies Record<string, Intl.DateTimeFormatOptions>;
type DateStyle = keyof typeof DATE_STYLES;

const dateFormats = new Map<string, Intl.DateTimeFormat>();
const numberFormats = new Map<string, Intl.NumberFormat>();
const collators = new Map<string, Intl.Collator>();

/**
 * The locale Intl writes with: the browser's or system's preferred tag of the current language when
 * it has one ("en-GB", "fr-CA": their own date order and separators), else the language itself.
 */
export function intlLocale(): string {
  if (fixedLocale) return fixedLocale;
  const language = currentLanguage();
  const languages = globalThis.navigator?.languages ?? [];
  // Kept while the language and the browser's list (the same array until it changes) are.
  if (lastLocale?.language === language && lastLocale.languages === languages) return lastLocale.locale;
  const locale = localeFor(language, languages);
  lastLocale = { language, languages, locale };
  return locale;
}
let lastLocale: { language: string; languages: readonly string[]; locale: string } | null = null;
let fixedLocale: string | null = null;

/**
 * Write with `locale` from now on (null: the current language's, as above): the server's render of the
 * first screen and the page's hydration of it write with the same one (renderer/ssr.tsx, boot.tsx).
 */
export function setIntlLocale(locale: string | null): void {
  fixedLocale = locale;
}

/** The collator of the current language: take it once for a whole sort. */
export function nameCollator(): Intl.Collator {
  const locale = intlLocale();
  let collator = collators.get(locale);
  if (!collator) {
    collator = new Intl.Collator(locale);
    collators.set(locale, collator);
  }
  return collator;
}

/** Compares names as the current language sorts them. */
export function compareNames(a: string, b: string): number {
  return nameCollator().compare(a, b);
}

function dateFormat(style: DateStyle, timeZone: string): Intl.DateTimeFormat {
  const language = intlLocale();
  const key = `${language}|${timeZone}|${style}`;
  let format = dateFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(language, { ...DATE_STYLES[style], timeZone });
    dateFormats.set(key, format);
  }
  return format;
}

function numberFormat(name: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const language = intlLocale();
  const key = `${language}|${name}`;
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(language, options);
    numberFormats.set(key, format);
  }
  return format;
}

/** "14:32" today (or within 12 hours), "Tue 09:00" ("mar. 09:00") further away. */
export function clockTime(t: number, now: number, timeZone = viewerTimeZone()): string {
  return dateFormat(Math.abs(t - now) < 12 * HOUR ? 'time' : 'dayTime', timeZone).format(t);
}

/** "Mon, 5 Jan, 14:32:10" ("lun. 5 janv., 14:32:10"): for history entries and tooltips. */
export function fullTime(t: number, timeZone = viewerTimeZone()): string {
  return dateFormat('full', timeZone).format(t);
}

/** An ISO timestamp as the engine writes it in a reason or a note (`toISOString`). */
const ISO_TIMESTAMP = /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?Z\b/g;

/**
 * A text from the engine with its ISO timestamps said in the viewer's time zone and language
 * ("grace period ends at 2026-12-01T18:31:49.054Z" at 19:31 in Paris reads "… ends at Tue 1 Dec,
 * 19:31:49"); the recorded text keeps them as written.
 */
export function localTimestamps(text: string, timeZone = viewerTimeZone()): string {
  return text.replace(ISO_TIMESTAMP, (iso) => fullTime(Date.parse(iso), timeZone));
}

/** "14:00" on a time axis. */
export function hourLabel(t: number, timeZone = viewerTimeZone()): string {
  return dateFormat('hour', timeZone).format(t);
}

/** "Tue 5" ("mar. 5") on a time axis. */
export function dayLabel(t: number, timeZone = viewerTimeZone()): string {
  return dateFormat('day', timeZone).format(t);
}

/** Does `timeZone` write the time `t` as the viewer's zone does? (Europe/Paris and Europe/Berlin do.) */
export function sameClock(t: number, timeZone: string): boolean {
  const viewer = viewerTimeZone();
  return (
    timeZone === viewer || dateFormat('date', timeZone).format(t) === dateFormat('date', viewer).format(t)
  );
}

/** The same day in `timeZone` as in the viewer's? */
function sameDay(t: number, timeZone: string): boolean {
  return dateFormat('day', timeZone).format(t) === dateFormat('day', viewerTimeZone()).format(t);
}

/**
 * A time of a must-be-up range: "08:00" when its zone writes it as the viewer's does, else with the
 * range's own reading, "08:00 (09:00 Europe/Paris)".
 */
export function clockTimeIn(t: number, now: number, timeZone: string | null): string {
  const mine = clockTime(t, now);
  if (!timeZone || sameClock(t, timeZone)) return mine;
  // The zone's day is said when it is not the viewer's (the time alone would read as the same day).
  const zoneTime = sameDay(t, timeZone)
    ? clockTime(t, now, timeZone)
    : dateFormat('dayTime', timeZone).format(t);
  return i18n.t('common:time.inZone', { time: mine, zoneTime, zone: timeZone });
}

/**
 * A date and time of a must-be-up range: "Mon, Jan 5, 08:00" in the viewer's zone, with the range's
 * own reading when its zone writes it otherwise, "Mon, Jan 5, 08:00 (09:00 Europe/Paris)".
 */
export function dateTimeIn(t: number, timeZone: string | null): string {
  const mine = dateFormat('date', viewerTimeZone()).format(t);
  if (!timeZone || sameClock(t, timeZone)) return mine;
  const zoneTime = sameDay(t, timeZone) ? hourLabel(t, timeZone) : dateFormat('dayTime', timeZone).format(t);
  return i18n.t('common:time.inZone', { time: mine, zoneTime, zone: timeZone });
}

const units = (n: number, unit: 'seconds' | 'minutes' | 'hours' | 'days') =>
  i18n.t(`common:units.${unit}`, { count: n });
const pair = (first: string, second: string) => i18n.t('common:units.pair', { first, second });

/** A short, coarse duration: "12 s", "4 min", "3 h 10 min", "2 d 4 h" ("2 j 4 h"). */
export function shortDuration(ms: number): string {
  const abs = Math.abs(ms);
  if (abs < MINUTE) return units(Math.max(0, Math.round(abs / SECOND)), 'seconds');
  if (abs < HOUR) return units(Math.floor(abs / MINUTE), 'minutes');
  if (abs < DAY) {
    const h = Math.floor(abs / HOUR);
    const m = Math.floor((abs - h * HOUR) / MINUTE);
    return m ? pair(units(h, 'hours'), units(m, 'minutes')) : units(h, 'hours');
  }
  const d = Math.floor(abs / DAY);
  const h = Math.floor((abs - d * DAY) / HOUR);
  return h ? pair(units(d, 'days'), units(h, 'hours')) : units(d, 'days');
}

/**
 * "1 h", "15 min", "30 s", "1 h 30 min": short and exact to the second, the two largest units (as
 * shared/durations.ts formatDuration writes it in English, for the API and the logs).
 */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms)) return '—';
  const { sign, parts } = durationParts(ms);
  const [first, second] = parts.map((p) => units(p.count, p.unit));
  return sign + (second ? pair(first!, second) : first!);
}

/** "in 3 min" ("dans 3 min"), "now". */
export function until(t: number, now: number): string {
  return t - now < SECOND
    ? i18n.t('common:time.now')
    : i18n.t('common:time.in', { duration: shortDuration(t - now) });
}

/** "3 min ago" ("il y a 3 min"), "just now". */
export function ago(t: number, now: number): string {
  return now - t < 5 * SECOND
    ? i18n.t('common:time.justNow')
    : i18n.t('common:time.ago', { duration: shortDuration(now - t) });
}

/** A number as the language writes it: "1,234.5" / "1 234,5". */
export function formatNumber(n: number, maximumFractionDigits = 2): string {
  return numberFormat(`number${maximumFractionDigits}`, { maximumFractionDigits }).format(n);
}

/** Euros: "€12.50" / "12,50 €"; amounts under 0.10 with up to 4 decimals; null is "—". */
export function formatMoney(eur: number | null): string {
  if (eur === null) return '—';
  const small = Math.abs(eur) > 0 && Math.abs(eur) < 0.1;
  return numberFormat(small ? 'eur4' : 'eur2', {
    style: 'currency',
    currency: 'EUR',
    maximumFractionDigits: small ? 4 : 2,
  }).format(eur);
}

/** An owner's name: the personal space in the dashboard's language, an organisation by its name. */
export function ownerLabel(owner: { ownerId: string; ownerName?: string | undefined }): string {
  if (isPersonalSpace(owner.ownerId)) return i18n.t('common:personalSpace');
  return owner.ownerName || owner.ownerId;
}

/** A Clever Reaper state as the dashboard shows it ("Asleep", "En veille"). */
export function stateLabel(state: ReaperState): string {
  return i18n.t(`common:states.${state}`);
}

/** Where a request came from ("access log", "journal d’accès"). */
export function sourceLabel(source: TrafficSource): string {
  return i18n.t(`common:sources.${source}`);
}

/** What a history entry that is not a plain transition says it is; '' for a transition. */
export function kindLabel(kind: HistoryKind): string {
  return kind === 'transition' ? '' : i18n.t(`common:historyKinds.${kind}`);
}

/** Keys read at access time, in the current language (for the records other code indexes). */
function translated<K extends string>(keys: readonly K[], label: (key: K) => string): Record<K, string> {
  const out = {} as Record<K, string>;
  for (const key of keys) Object.defineProperty(out, key, { enumerable: true, get: () => label(key) });
  return out;
}

export const SOURCE_LABELS: Record<TrafficSource, string> = translated(TRAFFIC_SOURCES, sourceLabel);

/** Milliseconds as a number of `unit`s for a form field (trailing zeros dropped). */
export function msTo(ms: number, unit: number): string {
  return String(Math.round((ms / unit) * 1000) / 1000);
}

/** What a history entry that is not a plain transition says it is (read in the current language). */
export const KIND_LABELS: Record<HistoryKind, string> = translated(HISTORY_KINDS, kindLabel);
