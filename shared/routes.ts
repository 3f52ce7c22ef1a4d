/**
 * Routes: the rules that put Clever Cloud apps under the reaper. Several routes may point at one
 * app; the app is managed while at least one enabled route points at it, its must-be-up ranges are
 * the union and its grace period the longest (see `effectiveRouting`).
 */
import { z } from 'zod';
import { type ConnectionSettings, connectionFields } from './connection-settings.ts';
import { APP_ID_PATTERN, OWNER_ID_PATTERN } from './domain.ts';
import { HOUR, MINUTE } from './durations.ts';
import {
  CALLER_MODES,
  type FrontDoorFields,
  IGNORED_ANSWERS,
  MAX_READY_DELAY_MS,
  QUIET_AGENT_NAMES,
} from './front-door.ts';
import { parseCidr } from './net.ts';
import { type MustBeUpRange, rangeProblems } from './schedule.ts';
import { noRepeats, says } from './validation.ts';

// In domain.ts (no zod), so the dashboard's first screen can check ids without this module's schemas.
export { APP_ID_PATTERN, OWNER_ID_PATTERN };
export const HOST_PATTERN =
  /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;

export const DEFAULT_GRACE_PERIOD_MS = HOUR;
export const MIN_GRACE_PERIOD_MS = MINUTE;
export const MAX_GRACE_PERIOD_MS = 30 * 24 * HOUR;

export interface TrafficFilters {
  /** Requests whose path starts with one of these are not traffic (health checks, monitors). */
  pathPrefixes: string[];
  /** Requests from these IPs or CIDR blocks are not traffic. */
  sources: string[];
}

export interface Route extends FrontDoorFields, ConnectionSettings {
  id: string;
  appId: string;
  ownerId: string;
  /** A name for the operator; the app's name is shown when empty. */
  label: string;
  enabled: boolean;
  gracePeriodMs: number;
  ranges: MustBeUpRange[];
  /** Host names the wake proxy serves for this app. */
  hosts: string[];
  filters: TrafficFilters;
  /**
   * The group the app sleeps and wakes with (see shared/groups.ts): apps whose routes or rules name
   * the same group wake together and sleep only when every one may. Absent or empty: no group.
   */
  group?: string;
  createdAt: number;
  updatedAt: number;
}

export const GROUP_NAME_MAX = 120;

export const rangeSchema = z
  .object({
    days: z.string().max(100),
    start: z.string().max(5),
    end: z.string().max(5),
    timeZone: z.string().max(100),
  })
  .strict()
  .superRefine((range, ctx) => {
    for (const problem of rangeProblems(range)) {
      ctx.addIssue({ code: 'custom', path: [problem.field], message: problem.code, params: problem.params });
    }
  });

export const filtersSchema = z
  .object({
    pathPrefixes: z
      .array(z.string().min(1).max(200).regex(/^\//, says('pathPrefix')))
      .max(50)
      .default([]),
    sources: z
      .array(
        z
          .string()
          .max(60)
          .refine((s) => parseCidr(s) !== null, says('source')),
      )
      .max(200)
      .default([]),
  })
  .strict();

const routeFields = {
  appId: z.string().regex(APP_ID_PATTERN, says('appId')),
  ownerId: z.string().regex(OWNER_ID_PATTERN, says('ownerId')),
  label: z.string().trim().max(120),
  enabled: z.boolean(),
  gracePeriodMs: z.number().int().min(MIN_GRACE_PERIOD_MS).max(MAX_GRACE_PERIOD_MS),
  ranges: z.array(rangeSchema).max(50),
  hosts: z
    .array(z.string().trim().toLowerCase().regex(HOST_PATTERN, says('host')))
    .max(50)
    .superRefine(noRepeats()),
  filters: filtersSchema,
  group: z.string().trim().max(GROUP_NAME_MAX),
  // ---- the front door: how the wake proxy answers this route's callers (shared/front-door.ts) ----
  readyDelayMs: z.number().int().min(0).max(MAX_READY_DELAY_MS),
  callers: z.enum(CALLER_MODES),
  ignoredAnswer: z.enum(IGNORED_ANSWERS),
  quietAgents: z
    .object({
      builtIn: z.boolean(),
      wake: z
        .array(z.string().refine((name) => QUIET_AGENT_NAMES.includes(name), says('quietAgent')))
        .max(QUIET_AGENT_NAMES.length)
        .superRefine(noRepeats()),
    })
    .strict(),
  ...connectionFields,
};

/** A new route: only the app and its owner are required. */
export const routeCreateSchema = z
  .object({
    ...routeFields,
    label: routeFields.label.default(''),
    enabled: routeFields.enabled.default(true),
    gracePeriodMs: routeFields.gracePeriodMs.default(DEFAULT_GRACE_PERIOD_MS),
    ranges: routeFields.ranges.default([]),
    hosts: routeFields.hosts.default([]),
    filters: filtersSchema.default({ pathPrefixes: [], sources: [] }),
    group: routeFields.group.optional(),
    readyDelayMs: routeFields.readyDelayMs.optional(),
    callers: routeFields.callers.optional(),
    ignoredAnswer: routeFields.ignoredAnswer.optional(),
    quietAgents: routeFields.quietAgents.optional(),
    connectionsKeepAwake: routeFields.connectionsKeepAwake.optional(),
    connectionIdleLimitMs: routeFields.connectionIdleLimitMs.optional(),
  })
  .strict();
export type RouteCreate = z.input<typeof routeCreateSchema>;

/** A change to a route: any field, at least one. */
export const routeUpdateSchema = z
  .object(routeFields)
  .partial()
  .strict()
  .refine((u) => Object.keys(u).length > 0, says('nothingToChange'));
export type RouteUpdate = z.input<typeof routeUpdateSchema>;

/** What the routes say about one app. */
export interface AppRouting {
  managed: boolean;
  ownerId: string | null;
  gracePeriodMs: number;
  ranges: MustBeUpRange[];
  hosts: string[];
  filters: TrafficFilters;
  routeIds: string[];
  /** The rule that manages the app, when no route names it (see shared/rules.ts). */
  ruleId: string | null;
  /** The rule is in dry-run on its own: the app is treated as if the global dry-run were on. */
  dryRun: boolean;
  /** The group the app sleeps and wakes with; null when none. */
  group: string | null;
}

/** The routing of every app named by an enabled route. */
export function effectiveRouting(routes: readonly Route[]): Map<string, AppRouting> {
  const byApp = new Map<string, AppRouting>();
  for (const route of routes) {
    if (!route.enabled) continue;
    let r = byApp.get(route.appId);
    if (!r) {
      r = {
        managed: true,
        ownerId: route.ownerId,
        gracePeriodMs: route.gracePeriodMs,
        ranges: [],
        hosts: [],
        filters: { pathPrefixes: [], sources: [] },
        routeIds: [],
        ruleId: null,
        dryRun: false,
        group: null,
      };
      byApp.set(route.appId, r);
    }
    r.gracePeriodMs = Math.max(r.gracePeriodMs, route.gracePeriodMs);
    r.ranges.push(...route.ranges);
    r.hosts.push(...route.hosts);
    r.filters.pathPrefixes.push(...route.filters.pathPrefixes);
    r.filters.sources.push(...route.filters.sources);
    r.routeIds.push(route.id);
    if (r.group === null && route.group) r.group = route.group;
  }
  return byApp;
}
