/**
 * Bad input, said for people. A problem is `{field, code, params}`: the field's dotted path as the
 * API names it (`ranges.0.start`), a code of the `validation` catalogue (shared/i18n/en/validation.ts)
 * and what the message quotes (the bad entry, the bounds). The API sends each problem with its
 * English text; the dashboard translates the code and params into the language shown, naming the
 * field as the form labels it ("Range 1 start") and writing durations in the field's unit.
 *
 * No text of the validation library reaches a person: a zod issue is read for its kind (too small,
 * wrong type, unknown key...) and its path, never for its message, unless that message is one of our
 * codes (schemas say `says('host')` where a check has a meaning of its own).
 */
import type { i18n as I18n } from 'i18next';
import type { z } from 'zod';
import { DAY, HOUR, MINUTE, SECOND } from './durations.ts';
import { validation as en } from './i18n/en/validation.ts';

type StripPlural<K> = K extends `${infer B}_one` ? B : K extends `${infer B}_other` ? B : K;
export type ProblemCode = StripPlural<keyof typeof en.problems>;
export type FieldKey = keyof typeof en.fields;
export type ProblemParams = Record<string, string | number>;

/** One problem of an input. `message` is its English text (what the API sends). */
export interface FieldProblem {
  /** Dotted path of the field, e.g. `ranges.0.start`; empty for the whole input. */
  field: string;
  message: string;
  /** Absent on a problem written as text only (an older peer's, or a refusal of the engine's). */
  code?: ProblemCode;
  params?: ProblemParams;
}

/** The message of a schema's check: one of our codes (the kind of the problem, in the catalogue). */
export const says = (code: ProblemCode): string => code;

const CODES = new Set(Object.keys(en.problems).map((key) => key.replace(/_(one|other)$/, '')));
export function isProblemCode(text: unknown): text is ProblemCode {
  return typeof text === 'string' && CODES.has(text);
}

/** A list whose entries must differ (host names, URLs): each entry given again is named once. */
export function noRepeats<T>(key: (item: T) => string = String) {
  return (items: readonly T[], ctx: z.RefinementCtx) => {
    const seen = new Set<string>();
    items.forEach((item, index) => {
      const k = key(item);
      if (seen.has(k)) {
        ctx.addIssue({ code: 'custom', path: [index], message: says('listedTwice'), params: { value: k } });
      }
      seen.add(k);
    });
  };
}

// ---- units -----------------------------------------------------------------------------------------

export type DurationUnit = 's' | 'min' | 'h' | 'd';
const UNIT_MS: Record<DurationUnit, number> = { s: SECOND, min: MINUTE, h: HOUR, d: DAY };
const INTL_UNIT: Record<DurationUnit, string> = { s: 'second', min: 'minute', h: 'hour', d: 'day' };

/** Fields holding milliseconds, with the unit their form shows them in. */
export const DURATION_FIELDS: Readonly<Record<string, DurationUnit>> = {
  gracePeriodMs: 'min',
  intervalMs: 's',
  fastIntervalMs: 's',
  failTimeoutMs: 'min',
  restartAfterMs: 's',
  releaseDelayMs: 'min',
  holdDeadlineMs: 's',
  readyDelayMs: 's',
  connectionIdleLimitMs: 'min',
  timeoutMs: 's',
};

/** Fields holding a number of days. */
const DAY_FIELDS = new Set(['historyRetentionDays']);

/**
 * A number typed by a person: a decimal point or a decimal comma ("2,5"), spaces around; null when
 * it is not a number.
 */
export function parseDecimal(text: string): number | null {
  const trimmed = text.trim();
  if (!/^[+-]?(\d+([.,]\d*)?|[.,]\d+)$/.test(trimmed)) return null;
  return Number(trimmed.replace(',', '.'));
}

function formatAmount(amount: number, unit: DurationUnit, language: string): string {
  const tiny = amount !== 0 && Math.abs(amount) < 0.01;
  return new Intl.NumberFormat(language, {
    style: 'unit',
    unit: INTL_UNIT[unit],
    unitDisplay: 'long',
    ...(tiny ? { maximumSignificantDigits: 3 } : { maximumFractionDigits: 2 }),
  }).format(amount);
}

/**
 * A duration in `unit` (what a person typed: "0.5 minutes"), or, for a bound (`exact`), in `unit`
 * when it is a whole number there and the largest unit that says it exactly otherwise ("30 days"
 * rather than "43,200 minutes", "1 minute" rather than "0.02 hours").
 */
export function formatDurationIn(ms: number, unit: DurationUnit, language: string, exact = false): string {
  if (!exact) return formatAmount(ms / UNIT_MS[unit], unit, language);
  const inUnit = ms / UNIT_MS[unit];
  if (Number.isInteger(inUnit) && inUnit <= 1000) return formatAmount(inUnit, unit, language);
  const largest = (['d', 'h', 'min', 's'] as const).find((u) => ms % UNIT_MS[u] === 0) ?? 's';
  return formatAmount(ms / UNIT_MS[largest], largest, language);
}

// ---- fields ----------------------------------------------------------------------------------------

const RANGE_PARTS: Record<string, FieldKey> = {
  days: 'rangeDays',
  start: 'rangeStart',
  end: 'rangeEnd',
  timeZone: 'rangeTimeZone',
};
const WEBHOOK_PARTS: Record<string, FieldKey> = {
  url: 'webhookUrl',
  format: 'webhookFormat',
  events: 'webhookEvents',
};

function isFieldKey(name: string): name is FieldKey {
  return Object.hasOwn(en.fields, name);
}

/** The catalogue key of a field's label, and its number in a list (Range 2), for a dotted path. */
export function fieldLabelKey(field: string): { key: FieldKey; n?: number } {
  const parts = field.split('.').filter((p) => p !== '' && p !== 'changes');
  const names = parts.filter((p) => !/^\d+$/.test(p));
  const indexAt = parts.findIndex((p) => /^\d+$/.test(p));
  const n = indexAt >= 0 ? Number(parts[indexAt]) + 1 : undefined;
  const last = names.at(-1);
  const inList = (list: string) => names.includes(list) && n !== undefined;
  const numbered = (key: FieldKey) => (n === undefined ? { key } : { key, n });
  if (inList('ranges')) {
    const part = last === 'ranges' ? undefined : last;
    return numbered(part && RANGE_PARTS[part] ? RANGE_PARTS[part] : 'range');
  }
  if (inList('webhooks') && last && WEBHOOK_PARTS[last]) return numbered(WEBHOOK_PARTS[last]);
  if (last && isFieldKey(last)) return { key: last };
  return { key: 'input' };
}

// ---- zod issues ------------------------------------------------------------------------------------

type Issue = z.core.$ZodIssue;

/** A value as a message quotes it: short, one line. */
function quoted(value: unknown): string {
  if (value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return String(value);
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  const line = text.replace(/\s+/g, ' ');
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}

/** A value for a number param: kept a number (formatted in the language later), else quoted. */
function numeric(value: unknown): string | number {
  return typeof value === 'number' || typeof value === 'bigint' ? Number(value) : quoted(value);
}

/** The code and params of one zod issue. */
function fromIssue(issue: Issue): { code: ProblemCode; params: ProblemParams } {
  const input = (issue as { input?: unknown }).input;
  const value = quoted(input);
  const custom = isProblemCode(issue.message) ? issue.message : null;
  const extra = ((issue as { params?: ProblemParams }).params ?? {}) as ProblemParams;
  // A check on a whole object or list (a superRefine) says what it is about in its params.
  const quotable = typeof input !== 'object' || input === null;
  // An id left empty (the app not chosen yet) is missing, not malformed.
  if (input === '' && (custom === null || ID_CODES.has(custom))) return { code: 'required', params: {} };
  if (custom) return { code: custom, params: { ...(quotable ? { value } : {}), ...extra } };
  switch (issue.code) {
    case 'invalid_type': {
      if (input === undefined) return { code: 'required', params: {} };
      if (issue.expected === 'int') return { code: 'notWhole', params: { value: numeric(input) } };
      if (issue.expected === 'number') {
        return typeof input === 'number' || input === ''
          ? { code: 'emptyNumber', params: {} }
          : { code: 'notNumber', params: { value } };
      }
      const kinds: Record<string, ProblemCode> = {
        string: 'notText',
        boolean: 'notBoolean',
        array: 'notList',
        object: 'notObject',
      };
      return { code: kinds[issue.expected] ?? 'wrongType', params: { value } };
    }
    case 'too_small': {
      const min = Number(issue.minimum);
      if (issue.origin === 'string')
        return min <= 1 ? { code: 'empty', params: {} } : { code: 'invalid', params: { value } };
      if (issue.origin === 'array' || issue.origin === 'set')
        return { code: 'tooFew', params: { count: min } };
      return {
        code: issue.inclusive === false ? 'notAbove' : 'tooSmall',
        params: { value: numeric(input), min },
      };
    }
    case 'too_big': {
      const max = Number(issue.maximum);
      if (issue.origin === 'string') return { code: 'textTooLong', params: { value, max } };
      if (issue.origin === 'array' || issue.origin === 'set')
        return { code: 'tooMany', params: { count: max } };
      return { code: 'tooBig', params: { value: numeric(input), max } };
    }
    case 'invalid_format':
      return { code: issue.format === 'datetime' ? 'notInstant' : 'invalid', params: { value } };
    case 'not_multiple_of':
      return { code: 'notWhole', params: { value: numeric(input) } };
    case 'unrecognized_keys':
      return { code: 'unknownField', params: { keys: issue.keys.join(', ') } };
    case 'invalid_value':
      return { code: 'notOneOf', params: { value, options: issue.values.map(String).join(', ') } };
    case 'invalid_union': {
      // A union of a number and a date-time (an instant), or of objects told apart by a field.
      const note = (issue as { note?: string }).note;
      if (note === 'No matching discriminator') return { code: 'invalid', params: { value } };
      return { code: typeof input === 'string' ? 'notInstant' : 'invalid', params: { value } };
    }
    case 'invalid_key':
    case 'invalid_element':
    case 'custom':
      return { code: 'invalid', params: { value } };
    default:
      return { code: 'invalid', params: { value } };
  }
}

const ID_CODES = new Set<ProblemCode>(['appId', 'ownerId', 'routeId', 'ruleId']);

/** Fields whose entry is never quoted back (it would land in the API's answer, maybe in a log). */
const SECRET_FIELDS = new Set(['token', 'secret']);

/** An entry as a message may quote it: a secret hidden, any URL cut to its origin (a path may hold a key). */
function unsecret(field: string, value: string): string {
  if (SECRET_FIELDS.has(field)) return '•••';
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return value;
  try {
    const url = new URL(value);
    return `${url.protocol}//${url.host}${url.pathname === '/' && !url.search ? '' : '/…'}`;
  } catch {
    return value;
  }
}

/** On a duration, too small is too short. */
const DURATION_CODES: Partial<Record<ProblemCode, ProblemCode>> = { tooSmall: 'tooShort', tooBig: 'tooLong' };

/** The fields, once each (a problem found twice, by two checks, is said once). */
function once(problems: FieldProblem[]): FieldProblem[] {
  const seen = new Set<string>();
  return problems.filter((p) => {
    const key = `${p.field}|${p.code ?? p.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * The problems of a failed parse (parse with `{ reportInput: true }` so that each quotes its entry),
 * with their text from `t` (English for the API). `prefix` is put before each path.
 */
export function problemsFromZod(error: z.ZodError, i18n: I18n, prefix = ''): FieldProblem[] {
  return once(
    error.issues.map((issue) => {
      const field = [prefix, ...issue.path.map(String)].filter(Boolean).join('.');
      const found = fromIssue(issue);
      const last = issue.path.filter((p) => typeof p === 'string').at(-1);
      if (typeof found.params.value === 'string')
        found.params.value = unsecret(String(last), found.params.value);
      const duration = typeof last === 'string' && DURATION_FIELDS[last] !== undefined;
      const code = duration ? (DURATION_CODES[found.code] ?? found.code) : found.code;
      const params = found.params;
      return { field, code, params, message: problemText(i18n, { field, code, params }) };
    }),
  );
}

// ---- text ------------------------------------------------------------------------------------------

export interface TextOptions {
  /** The unit a form shows a duration field in, by field (the route editor's grace period in hours). */
  units?: Readonly<Record<string, DurationUnit>>;
}

type Loose = (key: string, options?: Record<string, unknown>) => string;

/** A field's label as the form shows it ("Range 2 start"), in the instance's language. */
export function fieldLabel(i18n: I18n, field: string): string {
  const { key, n } = fieldLabelKey(field);
  return (i18n.t as unknown as Loose)(`validation:fields.${key}`, n === undefined ? {} : { n });
}

/** The text of a problem in the instance's language. A problem without code is its message. */
export function problemText(
  i18n: I18n,
  problem: Pick<FieldProblem, 'field' | 'code' | 'params'> & { message?: string },
  options: TextOptions = {},
): string {
  if (!problem.code) return problem.message ?? '';
  const language = i18n.language || 'en';
  const params: Record<string, unknown> = { ...(problem.params ?? {}) };
  const last =
    problem.field
      .split('.')
      .filter((p) => !/^\d+$/.test(p))
      .at(-1) ?? '';
  const unitOf = (field: string) => options.units?.[field] ?? DURATION_FIELDS[field];
  for (const key of ['value', 'min', 'max', 'other'] as const) {
    const v = params[key];
    if (typeof v !== 'number') continue;
    // `other` is the value of another field (otherField), said in that field's unit.
    const of = key === 'other' && typeof params.otherField === 'string' ? params.otherField : last;
    const unit = unitOf(of);
    if (unit) params[key] = formatDurationIn(v, unit, language, key !== 'value');
    else if (DAY_FIELDS.has(last)) params[key] = formatAmount(v, 'd', language);
    else params[key] = new Intl.NumberFormat(language, { maximumFractionDigits: 6 }).format(v);
  }
  const t = i18n.t as unknown as Loose;
  return t(`validation:problems.${problem.code}`, { ...params, field: fieldLabel(i18n, problem.field) });
}
