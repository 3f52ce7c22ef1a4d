/**
 * The route editor's draft: the form's text fields for a route, the route fields sent from them, and
 * the problems of a refusal by field (pure).
 */
import { ApiError } from '../../shared/api-errors.ts';
import { HOUR, MINUTE } from '../../shared/durations.ts';
import { InputError } from '../../shared/errors.ts';
import { DEFAULT_GRACE_PERIOD_MS, type Route, type RouteCreate } from '../../shared/routes.ts';
import type { MustBeUpRange } from '../../shared/schedule.ts';
import { msTo } from './format.ts';

export type Unit = 'min' | 'h';
export const UNITS: Record<Unit, number> = { min: MINUTE, h: HOUR };

export interface Draft {
  ownerId: string;
  appId: string;
  label: string;
  enabled: boolean;
  grace: string;
  graceUnit: Unit;
  ranges: MustBeUpRange[];
  hosts: string;
  pathPrefixes: string;
  sources: string;
  /** The group the app sleeps and wakes with; '' for none. */
  group: string;
}

/** Problems by field ('form' for those of no field). */
export type Problems = Record<string, string[]>;

export const localZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

const list = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);

export function draftOf(route: Route | null, forApp: { appId: string; ownerId: string } | null): Draft {
  const grace = route?.gracePeriodMs ?? DEFAULT_GRACE_PERIOD_MS;
  const unit: Unit = grace % HOUR === 0 ? 'h' : 'min';
  return {
    ownerId: route?.ownerId ?? forApp?.ownerId ?? '',
    appId: route?.appId ?? forApp?.appId ?? '',
    label: route?.label ?? '',
    enabled: route?.enabled ?? true,
    grace: msTo(grace, UNITS[unit]),
    graceUnit: unit,
    ranges: route?.ranges.map((r) => ({ ...r })) ?? [],
    hosts: route?.hosts.join(', ') ?? '',
    pathPrefixes: route?.filters.pathPrefixes.join(', ') ?? '',
    sources: route?.filters.sources.join(', ') ?? '',
    group: route?.group ?? '',
  };
}

/** The route fields a draft stands for (checked by the shared schema before sending). */
export function fieldsOf(draft: Draft) {
  const graceNumber = Number(draft.grace);
  return {
    appId: draft.appId,
    ownerId: draft.ownerId,
    label: draft.label,
    enabled: draft.enabled,
    gracePeriodMs: draft.grace.trim() === '' ? Number.NaN : Math.round(graceNumber * UNITS[draft.graceUnit]),
    ranges: draft.ranges,
    hosts: list(draft.hosts),
    filters: { pathPrefixes: list(draft.pathPrefixes), sources: list(draft.sources) },
    group: draft.group,
  } satisfies RouteCreate;
}

export function problemsFrom(error: unknown): Problems | null {
  const problems = error instanceof ApiError || error instanceof InputError ? error.problems : null;
  if (!problems || problems.length === 0) return null;
  const out: Problems = {};
  for (const p of problems) {
    const field = p.field || 'form';
    out[field] = [...(out[field] ?? []), p.message];
  }
  return out;
}
