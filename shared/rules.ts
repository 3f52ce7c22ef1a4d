/**
 * Rules: apps put under the reaper without a route each. A rule names an owner (or every owner) and
 * a name pattern (a glob, see glob.ts), and carries the route template every matching app gets:
 * grace period, must-be-up ranges, filters, wake-proxy host names with placeholders
 * (`{name}.review.example.com`), a group template (`pr-{2}`), and a dry-run of its own.
 *
 * Precedence, from strongest: an explicit route (enabled or not: a disabled route keeps the app out
 * of the rules, which is how "Disable the reaper" holds for a rule-managed app); then the rules in
 * the order of their list, the first enabled rule that matches taking the app.
 *
 * Rules resolve into routing at each sweep, from the application lists the sweep reads (see
 * `resolveRouting`): an app created on Clever Cloud is managed from the next sweep, an app gone from
 * its owner's list is no longer matched, so released (and forgotten; its history stays).
 */
import { z } from 'zod';
import { type FieldProblem, inputProblems } from './errors.ts';
import {
  fillTemplate,
  globMatch,
  MAX_PATTERN_LENGTH,
  MAX_WILDCARDS,
  unknownPlaceholders,
  wildcardCount,
} from './glob.ts';
import {
  type AppRouting,
  DEFAULT_GRACE_PERIOD_MS,
  effectiveRouting,
  filtersSchema,
  GROUP_NAME_MAX,
  HOST_PATTERN,
  MAX_GRACE_PERIOD_MS,
  MIN_GRACE_PERIOD_MS,
  OWNER_ID_PATTERN,
  type Route,
  rangeSchema,
  type TrafficFilters,
} from './routes.ts';
import type { MustBeUpRange } from './schedule.ts';
import type { Settings } from './settings.ts';
import { noRepeats, says } from './validation.ts';

export const RULE_ID_PATTERN = /^rule_[A-Za-z0-9-]{1,100}$/;

export interface Rule {
  id: string;
  /** A name for the operator; the pattern is shown when empty. */
  label: string;
  enabled: boolean;
  /** The owner whose apps the rule looks at; null: every owner the credentials can see. */
  ownerId: string | null;
  /** A glob on the app's name: `*` any run of characters, `?` one; case-sensitive. */
  pattern: string;
  /** Apps of this rule are treated as in dry-run, whatever the global setting. */
  dryRun: boolean;
  gracePeriodMs: number;
  ranges: MustBeUpRange[];
  /** Host name templates: `{name}` and `{1}`.. (the wildcards' captures), each made DNS-safe. */
  hosts: string[];
  filters: TrafficFilters;
  /** Group template (`pr-{2}`, `{1}`); empty: the rule's apps have no group. */
  group: string;
  createdAt: number;
  updatedAt: number;
}

/** A host template is valid when it is a host name once each placeholder is a DNS label. */
function hostTemplateOk(template: string): boolean {
  return HOST_PATTERN.test(template.replace(/\{(name|[1-9])\}/g, 'x'));
}

const ruleFields = {
  label: z.string().trim().max(120),
  enabled: z.boolean(),
  ownerId: z.string().regex(OWNER_ID_PATTERN, says('ownerId')).nullable(),
  pattern: z
    .string()
    .min(1, says('patternMissing'))
    .max(MAX_PATTERN_LENGTH)
    .refine((p) => wildcardCount(p) <= MAX_WILDCARDS, {
      message: says('wildcards'),
      params: { max: MAX_WILDCARDS },
    }),
  dryRun: z.boolean(),
  gracePeriodMs: z.number().int().min(MIN_GRACE_PERIOD_MS).max(MAX_GRACE_PERIOD_MS),
  ranges: z.array(rangeSchema).max(50),
  hosts: z
    .array(z.string().trim().toLowerCase().max(253).refine(hostTemplateOk, says('hostTemplate')))
    .max(50)
    .superRefine(noRepeats()),
  filters: filtersSchema,
  group: z.string().trim().max(GROUP_NAME_MAX),
};

/** Placeholders the pattern cannot fill (`{3}` with two wildcards), reported on their field. */
function checkPlaceholders(
  rule: { pattern?: string | undefined; hosts?: string[] | undefined; group?: string | undefined },
  ctx: z.RefinementCtx,
): void {
  if (rule.pattern === undefined) return;
  const n = wildcardCount(rule.pattern);
  const allowed = n === 0 ? '{name}' : n === 1 ? '{name}, {1}' : `{name}, {1}…{${n}}`;
  const say = (path: (string | number)[], bad: string[]) =>
    ctx.addIssue({
      code: 'custom',
      path,
      message: says('placeholders'),
      params: { bad: bad.join(', '), count: n, allowed },
    });
  rule.hosts?.forEach((h, i) => {
    const bad = unknownPlaceholders(h, n);
    if (bad.length) say(['hosts', i], bad);
  });
  const bad = unknownPlaceholders(rule.group ?? '', n);
  if (bad.length) say(['group'], bad);
}

/** Where a rule sits in the list (0 = first, the strongest); absent: at the end, or where it is. */
const position = z.number().int().min(0).max(10_000);

export const ruleCreateObject = z
  .object({
    label: ruleFields.label.default(''),
    enabled: ruleFields.enabled.default(true),
    ownerId: ruleFields.ownerId.default(null),
    pattern: ruleFields.pattern,
    dryRun: ruleFields.dryRun.default(false),
    gracePeriodMs: ruleFields.gracePeriodMs.default(DEFAULT_GRACE_PERIOD_MS),
    ranges: ruleFields.ranges.default([]),
    hosts: ruleFields.hosts.default([]),
    filters: filtersSchema.default({ pathPrefixes: [], sources: [] }),
    group: ruleFields.group.default(''),
    position: position.optional(),
  })
  .strict();

/** A new rule: only the pattern is required. */
export const ruleCreateSchema = ruleCreateObject.superRefine(checkPlaceholders);
export type RuleCreate = z.input<typeof ruleCreateSchema>;
export type RuleFields = Omit<Rule, 'id' | 'createdAt' | 'updatedAt'>;

/** A change to a rule: any field, at least one (placeholders checked against the merged rule). */
export const ruleUpdateSchema = z
  .object({ ...ruleFields, position })
  .partial()
  .strict()
  .refine((u) => Object.keys(u).length > 0, says('nothingToChange'));
export type RuleUpdate = z.input<typeof ruleUpdateSchema>;

/** The rule editor's preview: a draft (as to create), and the id of the rule it edits, if any. */
export const rulePreviewSchema = ruleCreateObject
  .extend({ ruleId: z.string().regex(RULE_ID_PATTERN, says('ruleId')).optional() })
  .superRefine(checkPlaceholders);

/** A stored rule checked again (placeholders against its own pattern). */
export const storedRuleSchema = ruleCreateObject.omit({ position: true }).superRefine(checkPlaceholders);

/** Problems of a whole rule (after an update is merged into it). */
export function ruleProblems(rule: RuleFields): FieldProblem[] {
  return inputProblems(storedRuleSchema, rule);
}

// ---- resolution ------------------------------------------------------------------------------------

/** An app as the application lists give it: all a rule looks at. */
export interface ListedApp {
  id: string;
  ownerId: string;
  name: string;
}

/** The captures when the rule takes this app (owner and pattern match, rule enabled), else null. */
export function ruleMatch(rule: Rule, app: ListedApp): string[] | null {
  if (!rule.enabled) return null;
  if (rule.ownerId !== null && rule.ownerId !== app.ownerId) return null;
  return globMatch(rule.pattern, app.name);
}

/** The routing a rule gives one app: its template filled with the app's name and captures. */
export function ruleRouting(rule: Rule, app: ListedApp, captures: readonly string[]): AppRouting {
  const group = rule.group ? fillTemplate(rule.group, app.name, captures, false).trim() : '';
  return {
    managed: true,
    ownerId: app.ownerId,
    gracePeriodMs: rule.gracePeriodMs,
    ranges: rule.ranges,
    hosts: rule.hosts.map((h) => fillTemplate(h, app.name, captures, true)),
    filters: rule.filters,
    routeIds: [],
    ruleId: rule.id,
    dryRun: rule.dryRun,
    group: group || null,
  };
}

/** Which rule takes an app (the first enabled one that matches), with its captures. */
export function firstRule(rules: readonly Rule[], app: ListedApp): { rule: Rule; captures: string[] } | null {
  for (const rule of rules) {
    const captures = ruleMatch(rule, app);
    if (captures) return { rule, captures };
  }
  return null;
}

/**
 * The routing of every managed app: the apps named by an enabled route (see effectiveRouting), then
 * every listed app no route names (enabled or not) that an enabled rule matches, the first rule of
 * the list taking it. A host name a rule gives that is already taken (by a route, or by an app
 * resolved before: apps in id order) is left out for that app.
 */
export function resolveRouting(
  routes: readonly Route[],
  rules: readonly Rule[],
  apps: Iterable<ListedApp>,
): Map<string, AppRouting> {
  const routing = effectiveRouting(routes);
  if (!rules.some((r) => r.enabled)) return routing;
  const named = new Set(routes.map((r) => r.appId));
  const taken = new Set<string>();
  for (const r of routing.values()) for (const h of r.hosts) taken.add(h);
  const sorted = [...apps].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  for (const app of sorted) {
    if (named.has(app.id) || routing.has(app.id)) continue;
    const hit = firstRule(rules, app);
    if (!hit) continue;
    const r = ruleRouting(hit.rule, app, hit.captures);
    r.hosts = r.hosts.filter((h) => !taken.has(h));
    for (const h of r.hosts) taken.add(h);
    routing.set(app.id, r);
  }
  return routing;
}

/** The settings an app's decisions use: the global ones, in dry-run when its rule is. */
export function settingsFor(settings: Settings, routing: AppRouting | undefined): Settings {
  return routing?.dryRun && !settings.dryRun ? { ...settings, dryRun: true } : settings;
}

/** Owners whose application lists the rules need: null when a rule looks at every owner. */
export function ruleOwners(rules: readonly Rule[]): Set<string> | null {
  const owners = new Set<string>();
  for (const r of rules) {
    if (!r.enabled) continue;
    if (r.ownerId === null) return null;
    owners.add(r.ownerId);
  }
  return owners;
}
