/**
 * The route editor's draft: the form's text fields for a route, the route fields sent from them, and
 * the problems of a refusal by field (pure).
 */
import { ApiError } from '../../shared/api-errors.ts';
import {
  type ConnectionSettings,
  DEFAULT_CONNECTION_IDLE_LIMIT_MS,
  DEFAULT_CONNECTIONS_KEEP_AWAKE,
} from '../../shared/connection-settings.ts';
import { HOUR, MINUTE, SECOND } from '../../shared/durations.ts';
import { InputError } from '../../shared/errors.ts';
import {
  DEFAULT_FRONT_DOOR,
  type FrontDoor,
  type FrontDoorFields,
  frontDoorOf,
} from '../../shared/front-door.ts';
import { DEFAULT_GRACE_PERIOD_MS, type Route, type RouteCreate } from '../../shared/routes.ts';
import type { MustBeUpRange } from '../../shared/schedule.ts';
import { type FieldProblem, parseDecimal } from '../../shared/validation.ts';
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
  /** How the wake proxy answers this route's callers (shared/front-door.ts); the ready delay in s. */
  front: Omit<FrontDoor, 'readyDelayMs'> & { readyDelay: string };
  /** The route carried front-door fields when opened (they are then always sent). */
  frontSaved: boolean;
  /** Open connections keep the app awake (shared/connection-settings.ts); the idle limit in min. */
  connections: { keepAwake: boolean; idleLimit: string };
  /** The route carried connection fields when opened (they are then always sent). */
  connectionsSaved: boolean;
}

/** Problems by field ('form' for those of no field), said in the language shown when rendered. */
export type Problems = Record<string, FieldProblem[]>;

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
    ...frontDraftOf(route),
    connections: {
      keepAwake: route?.connectionsKeepAwake ?? DEFAULT_CONNECTIONS_KEEP_AWAKE,
      idleLimit: msTo(route?.connectionIdleLimitMs ?? DEFAULT_CONNECTION_IDLE_LIMIT_MS, MINUTE),
    },
    connectionsSaved:
      route !== null &&
      (route.connectionsKeepAwake !== undefined || route.connectionIdleLimitMs !== undefined),
  };
}

function frontDraftOf(route: Route | null): Pick<Draft, 'front' | 'frontSaved'> {
  const { readyDelayMs, ...rest } = frontDoorOf(route ?? undefined);
  const saved =
    route !== null &&
    (route.readyDelayMs !== undefined ||
      route.callers !== undefined ||
      route.ignoredAnswer !== undefined ||
      route.quietAgents !== undefined);
  return { front: { ...rest, readyDelay: msTo(readyDelayMs, SECOND) }, frontSaved: saved };
}

/** The front-door fields to send: none while they are the defaults of a route that never had any. */
function frontFieldsOf(draft: Draft): FrontDoorFields {
  const { readyDelay, ...rest } = draft.front;
  const fields: FrontDoor = { ...rest, readyDelayMs: typedMs(readyDelay, SECOND) };
  const d = DEFAULT_FRONT_DOOR;
  const defaults =
    fields.readyDelayMs === d.readyDelayMs &&
    fields.callers === d.callers &&
    fields.ignoredAnswer === d.ignoredAnswer &&
    fields.quietAgents.builtIn === d.quietAgents.builtIn &&
    fields.quietAgents.wake.length === 0;
  if (!draft.frontSaved && defaults) return {};
  return fields;
}

/** The connection fields to send: none while they are the defaults of a route that never had any. */
function connectionFieldsOf(draft: Draft): ConnectionSettings {
  const { keepAwake, idleLimit } = draft.connections;
  const idleLimitMs = typedMs(idleLimit, MINUTE);
  const defaults =
    keepAwake === DEFAULT_CONNECTIONS_KEEP_AWAKE && idleLimitMs === DEFAULT_CONNECTION_IDLE_LIMIT_MS;
  if (!draft.connectionsSaved && defaults) return {};
  // Off, the idle limit is not shown: it is not sent either.
  return keepAwake
    ? { connectionsKeepAwake: true, connectionIdleLimitMs: idleLimitMs }
    : { connectionsKeepAwake: false };
}

/** A duration typed in `unit`, in ms (a decimal comma is a decimal point); NaN when it is not a number. */
function typedMs(text: string, unit: number): number {
  const n = parseDecimal(text);
  return n === null ? Number.NaN : Math.round(n * unit);
}

/** The grace period typed, in ms (a decimal comma is a decimal point); NaN when it is not a number. */
export function graceMs(draft: Pick<Draft, 'grace' | 'graceUnit'>): number {
  return typedMs(draft.grace, UNITS[draft.graceUnit]);
}

/** What is wrong with a number as typed for `field`, before its bounds are checked. */
function typedProblems(field: string, text: string): FieldProblem[] {
  if (text.trim() === '') return [{ field, code: 'emptyNumber', message: '' }];
  if (parseDecimal(text) === null)
    return [{ field, code: 'notNumber', params: { value: text.trim() }, message: '' }];
  return [];
}

/** What is wrong with the grace period as typed, before its bounds are checked. */
export function graceProblems(draft: Pick<Draft, 'grace'>): FieldProblem[] {
  return typedProblems('gracePeriodMs', draft.grace);
}

/**
 * What is wrong with the numbers of a draft as typed (the grace period, the ready delay, and the idle
 * limit when open connections keep the app awake), before their bounds are checked.
 */
export function typedDraftProblems(draft: Draft): FieldProblem[] {
  return [
    ...graceProblems(draft),
    ...typedProblems('readyDelayMs', draft.front.readyDelay),
    ...(draft.connections.keepAwake
      ? typedProblems('connectionIdleLimitMs', draft.connections.idleLimit)
      : []),
  ];
}

/** The route fields a draft stands for (checked by the shared schema before sending). */
export function fieldsOf(draft: Draft) {
  return {
    appId: draft.appId,
    ownerId: draft.ownerId,
    label: draft.label,
    enabled: draft.enabled,
    gracePeriodMs: graceMs(draft),
    ranges: draft.ranges,
    hosts: list(draft.hosts),
    filters: { pathPrefixes: list(draft.pathPrefixes), sources: list(draft.sources) },
    group: draft.group,
    ...frontFieldsOf(draft),
    ...connectionFieldsOf(draft),
  } satisfies RouteCreate;
}

/** The problems of a refusal, by field; null when it has none (a failure that is not bad input). */
export function problemsFrom(error: unknown): Problems | null {
  const problems = error instanceof ApiError || error instanceof InputError ? error.problems : null;
  if (!problems || problems.length === 0) return null;
  const out: Problems = {};
  for (const p of problems) {
    const field = p.field || 'form';
    out[field] = [...(out[field] ?? []), p];
  }
  return out;
}

/**
 * The grace period an app gets from its enabled routes, as the engine combines them (the longest
 * wins, see effectiveRouting in shared/routes.ts): `draftMs` is the route being edited (null when it
 * is disabled or its grace period is not a number yet), `others` the app's other routes. `from` is
 * the other route that sets it, null when the edited one does (a tie goes to the edited one). Null
 * when no route of the app is enabled.
 */
export function combinedGrace(
  draftMs: number | null,
  others: readonly Route[],
): { ms: number; from: Route | null } | null {
  let best: { ms: number; from: Route | null } | null =
    draftMs !== null && Number.isFinite(draftMs) ? { ms: draftMs, from: null } : null;
  for (const r of others) {
    if (r.enabled && (best === null || r.gracePeriodMs > best.ms)) best = { ms: r.gracePeriodMs, from: r };
  }
  return best;
}
