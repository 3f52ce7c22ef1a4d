/**
 * The history across apps: filters, keyset pages (newest first), and its export as CSV (RFC 4180)
 * and JSON. Pure: the SQL is main/store/history-queries.ts, the streaming main/reports/history-export.ts.
 */
import { z } from 'zod';
import {
  ACTORS,
  type Actor,
  CAUSES,
  CONSOLE_LABELS,
  HISTORY_KINDS,
  type HistoryKind,
  REAPER_STATES,
  type ReaperState,
} from './domain.ts';
import type { By } from './people.ts';
import { says } from './validation.ts';

/** A history entry with the app's name (kept after the app is released). */
export interface HistoryRow {
  id: number;
  appId: string;
  /** The app's last known name; its id when none was ever read. */
  appName: string;
  at: number;
  kind: HistoryKind;
  from: ReaperState | null;
  to: ReaperState | null;
  actor: Actor;
  reason: string;
  /** Who asked for a manual action, and through what (issue 25); absent for automatic ones. */
  by?: By;
}

export interface HistoryPage {
  /** Newest first. */
  entries: HistoryRow[];
  /** Give it back as `cursor` for the next (older) page; null on the last page. */
  nextCursor: string | null;
}

/**
 * The error causes to filter on: a transition into Error whose reason starts with `prefix` (the
 * causes with a value in them, the deployment state or the Clever Cloud state, match on their start).
 */
export const CAUSE_FILTERS: { label: string; prefix: string }[] = [
  { label: 'did not stop in time', prefix: CAUSES.stopTimeout },
  { label: 'did not start in time', prefix: CAUSES.startTimeout },
  { label: 'failed to start', prefix: CAUSES.startFailed },
  { label: 'unsafe last deployment', prefix: CAUSES.unsafeLastDeployment('').split("'")[0]! },
  { label: 'never deployed', prefix: CAUSES.neverDeployed },
  { label: 'unexpected Clever Cloud state', prefix: CAUSES.unexpectedState('').split("'")[0]! },
];

/** A number, also written as text in a query string. */
export const int = (min: number, max: number) => z.coerce.number<unknown>().int().min(min).max(max);

/** An instant: epoch ms (a number, or digits in a query string), or an ISO 8601 date-time with offset. */
export const instant = z.union([
  int(0, 8.64e15),
  z.iso.datetime({ offset: true, message: says('notInstant') }).transform(Date.parse),
]);

const CURSOR = /^(\d{1,16})\.(\d{1,16})$/;

/** The filters of the history across apps; every one is optional, all of them must hold. */
export const historyFilterSchema = z
  .object({
    appId: z.string().min(1).max(200).optional(),
    /** Transitions into or out of this state. */
    state: z.enum(REAPER_STATES).optional(),
    /** Transitions into Error whose cause starts with this text (see CAUSE_FILTERS). */
    cause: z.string().min(1).max(300).optional(),
    actor: z.enum(ACTORS).optional(),
    kind: z.enum(HISTORY_KINDS).optional(),
    /** From this instant (included). */
    from: instant.optional(),
    /** Up to this instant (excluded). */
    to: instant.optional(),
  })
  .strict();
export type HistoryFilter = z.output<typeof historyFilterSchema>;

export const historyQuerySchema = historyFilterSchema
  .extend({
    limit: int(1, 500).default(50),
    /** The `nextCursor` of the previous page. */
    cursor: z.string().regex(CURSOR, says('cursor')).optional(),
  })
  .strict();
export type HistoryQuery = z.output<typeof historyQuerySchema>;

export function encodeCursor(row: { at: number; id: number }): string {
  return `${row.at}.${row.id}`;
}

export function decodeCursor(cursor: string): { at: number; id: number } | null {
  const m = CURSOR.exec(cursor);
  return m ? { at: Number(m[1]), id: Number(m[2]) } : null;
}

// ---- export --------------------------------------------------------------------------------------

export const EXPORT_FORMATS = ['csv', 'json'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** The CSV columns, in order: the header row names them exactly so. */
export const HISTORY_CSV_COLUMNS = [
  'id',
  'time',
  'app_id',
  'app_name',
  'kind',
  'from_state',
  'to_state',
  'from_label',
  'to_label',
  'actor',
  'reason',
  'by',
  'via',
] as const;

/**
 * A text that a spreadsheet would read as a formula (CSV injection, OWASP): one starting with = + - @,
 * a tab or a carriage return. An app's name is chosen by anyone in the organisation.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One field, quoted when RFC 4180 asks for it (a comma, a double quote, CR or LF), quotes doubled.
 * A text that would start a formula is neutralised as OWASP's CSV injection guidance says: a single
 * quote before it, and the field quoted (`-rf` becomes `"'-rf"`). Numbers are written as they are
 * (a number is never a formula, and no column of the export holds a negative one: `id` is positive,
 * times are ISO text); the quote is added to text only, so it never changes a number's value.
 */
export function csvField(value: string | number | null): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  if (FORMULA_START.test(value)) return `"'${value.replaceAll('"', '""')}"`;
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** One record, CRLF-terminated as RFC 4180 writes them. Times are ISO 8601 in UTC. */
export function csvRecord(values: readonly (string | number | null)[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}

export function historyCsvHeader(): string {
  return csvRecord(HISTORY_CSV_COLUMNS);
}

export function historyCsvLine(row: HistoryRow): string {
  return csvRecord([
    row.id,
    new Date(row.at).toISOString(),
    row.appId,
    row.appName,
    row.kind,
    row.from,
    row.to,
    row.from ? CONSOLE_LABELS[row.from] : null,
    row.to ? CONSOLE_LABELS[row.to] : row.kind === 'release' ? 'released' : null,
    row.actor,
    row.reason,
    row.by?.name ?? null,
    row.by?.via ?? null,
  ]);
}

/** A history row as the JSON export writes it: the instant also as ISO text, `by` null when automatic. */
export function historyJsonRecord(row: HistoryRow): Record<string, unknown> {
  return { ...row, by: row.by ?? null, time: new Date(row.at).toISOString() };
}

/** "clever-reaper-history-2026-01-05.csv" */
export function exportFileName(format: ExportFormat, now: number): string {
  return `clever-reaper-history-${new Date(now).toISOString().slice(0, 10)}.${format}`;
}

// ---- durations -----------------------------------------------------------------------------------

/** How long an app's last starts (or stops) took: the median and the worst of the last `count`. */
export interface DurationStats {
  count: number;
  medianMs: number | null;
  worstMs: number | null;
}

/** Starts are Waking up -> Up, stops Going to sleep -> Asleep; the last 20 of each. */
export interface TransitionDurations {
  start: DurationStats;
  stop: DurationStats;
}

export const DURATION_SAMPLE = 20;

/** Median (the mean of the two middle values for an even count) and worst of `durations`. */
export function summarizeDurations(durations: readonly number[]): DurationStats {
  if (durations.length === 0) return { count: 0, medianMs: null, worstMs: null };
  const sorted = [...durations].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { count: sorted.length, medianMs: median, worstMs: sorted.at(-1)! };
}
