/**
 * The Audit view's filters: the form's fields, the URL's parameters (#/audit?who=alice&what=route),
 * and the API's query (GET /api/audit, filtered in the server's datastore), one from the other; and
 * what the form checks itself before asking (the server checks again): a person's name, From before
 * To. Days are the viewer's: From is the start of its day, To the end of its day.
 */
import { AUDIT_WHATS, type AuditFilter, PERSON_NAME_PATTERN, VIAS, type Via } from '../../shared/people.ts';
import type { AuditParams } from './url-state.ts';

export interface AuditForm {
  what: string;
  who: string;
  target: string;
  via: string;
  /** A day, as a date field gives it (2026-12-01), or ''. */
  from: string;
  to: string;
}

export const EMPTY_AUDIT_FORM: AuditForm = { what: '', who: '', target: '', via: '', from: '', to: '' };

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

export function auditFormOf(params: AuditParams): AuditForm {
  return { ...EMPTY_AUDIT_FORM, ...params };
}

export function auditParamsOf(form: AuditForm): AuditParams {
  const params: AuditParams = { ...form };
  for (const key of Object.keys(params) as (keyof AuditParams)[])
    if (!params[key]?.trim()) delete params[key];
  if (params.who) params.who = params.who.trim().toLowerCase();
  return params;
}

/** The start of a day in the viewer's zone (epoch ms), or null when the text is not a day. */
function dayStart(text: string, daysLater = 0): number | null {
  const m = DAY.exec(text);
  if (!m) return null;
  const at = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]) + daysLater).getTime();
  return Number.isNaN(at) ? null : at;
}

/** What is wrong with the form, field by field (the form says it and does not ask the server). */
export interface AuditProblems {
  who?: 'name';
  from?: 'day' | 'reversed';
  to?: 'day';
}

export function auditProblems(form: AuditForm): AuditProblems {
  const problems: AuditProblems = {};
  const who = form.who.trim().toLowerCase();
  if (who && !PERSON_NAME_PATTERN.test(who)) problems.who = 'name';
  if (form.from && dayStart(form.from) === null) problems.from = 'day';
  if (form.to && dayStart(form.to) === null) problems.to = 'day';
  const from = dayStart(form.from);
  const to = dayStart(form.to);
  if (from !== null && to !== null && from > to) problems.from = 'reversed';
  return problems;
}

/** The API's filter of the form (the parts the URL may hold wrong are left out, never guessed). */
export function auditFilterOf(form: AuditForm): AuditFilter {
  const filter: AuditFilter = {};
  if ((AUDIT_WHATS as readonly string[]).includes(form.what)) filter.what = form.what;
  const who = form.who.trim().toLowerCase();
  if (who && PERSON_NAME_PATTERN.test(who)) filter.by = who;
  if (form.target.trim()) filter.target = form.target.trim();
  if ((VIAS as readonly string[]).includes(form.via)) filter.via = form.via as Via;
  const from = dayStart(form.from);
  if (from !== null) filter.from = from;
  // To the end of its day: the start of the next one, less a millisecond (a day of DST too).
  const next = dayStart(form.to, 1);
  if (next !== null) filter.to = next - 1;
  return filter;
}
