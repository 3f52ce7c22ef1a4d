/**
 * The History view's filters: the form's fields, the URL's parameters (#/history?app=...), and the
 * API's filter, one from the other; and the one rule the form checks itself: From before To.
 */
import type { HistoryFilter } from '../../shared/history.ts';
import type { HistoryParams } from './url-state.ts';

export interface Form {
  appId: string;
  state: string;
  cause: string;
  actor: string;
  kind: string;
  from: string;
  to: string;
}

export const EMPTY_FORM: Form = { appId: '', state: '', cause: '', actor: '', kind: '', from: '', to: '' };

/** The form of the filters the URL holds. */
export function formOf(params: HistoryParams): Form {
  const { app, ...rest } = params;
  return { ...EMPTY_FORM, ...rest, appId: app ?? '' };
}

export function paramsOf(form: Form): HistoryParams {
  const { appId, ...rest } = form;
  const params: HistoryParams = { app: appId, ...rest };
  for (const key of Object.keys(params) as (keyof HistoryParams)[]) if (!params[key]) delete params[key];
  return params;
}

export function isEmpty(form: Form): boolean {
  return Object.values(form).every((v) => !v);
}

/** A local date-time of a datetime-local field as an instant, or null when blank or unreadable. */
function instantOf(text: string): number | null {
  if (!text) return null;
  const t = new Date(text).getTime();
  return Number.isNaN(t) ? null : t;
}

/** The form as the API's filter: empty fields left out, local date-times as instants. */
export function toFilter(form: Form): HistoryFilter {
  const filter: Record<string, unknown> = {};
  for (const key of ['appId', 'state', 'cause', 'actor', 'kind'] as const)
    if (form[key]) filter[key] = form[key];
  for (const key of ['from', 'to'] as const) {
    const t = instantOf(form[key]);
    if (t !== null) filter[key] = t;
  }
  return filter as HistoryFilter;
}

/** A From after its To: the two instants, to say at the field; null when the range is fine. */
export function rangeProblem(form: Form): { from: number; to: number } | null {
  const from = instantOf(form.from);
  const to = instantOf(form.to);
  return from !== null && to !== null && from > to ? { from, to } : null;
}
