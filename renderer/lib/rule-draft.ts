/**
 * The rule editor's draft: the form's text fields for a rule, and the rule fields sent from them
 * (pure). The owner '' stands for every owner.
 */
import { HOUR } from '../../shared/durations.ts';
import { DEFAULT_GRACE_PERIOD_MS } from '../../shared/routes.ts';
import type { Rule, RuleCreate } from '../../shared/rules.ts';
import type { MustBeUpRange } from '../../shared/schedule.ts';
import { msTo } from './format.ts';
import { graceMs, UNITS, type Unit } from './route-draft.ts';

export interface RuleDraft {
  label: string;
  ownerId: string;
  pattern: string;
  enabled: boolean;
  dryRun: boolean;
  grace: string;
  graceUnit: Unit;
  ranges: MustBeUpRange[];
  hosts: string;
  group: string;
  pathPrefixes: string;
  sources: string;
  /** Index in the list of rules (0 = first, the strongest). */
  position: number;
}

const list = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);

export function ruleDraftOf(rule: Rule | null, position: number): RuleDraft {
  const grace = rule?.gracePeriodMs ?? DEFAULT_GRACE_PERIOD_MS;
  const unit: Unit = grace % HOUR === 0 ? 'h' : 'min';
  return {
    label: rule?.label ?? '',
    ownerId: rule?.ownerId ?? '',
    pattern: rule?.pattern ?? '',
    enabled: rule?.enabled ?? true,
    dryRun: rule?.dryRun ?? false,
    grace: msTo(grace, UNITS[unit]),
    graceUnit: unit,
    ranges: rule?.ranges.map((r) => ({ ...r })) ?? [],
    hosts: rule?.hosts.join(', ') ?? '',
    group: rule?.group ?? '',
    pathPrefixes: rule?.filters.pathPrefixes.join(', ') ?? '',
    sources: rule?.filters.sources.join(', ') ?? '',
    position,
  };
}

/** The rule fields a draft stands for (checked by the shared schema before sending). */
export function ruleFieldsOf(draft: RuleDraft) {
  return {
    label: draft.label,
    ownerId: draft.ownerId || null,
    pattern: draft.pattern,
    enabled: draft.enabled,
    dryRun: draft.dryRun,
    gracePeriodMs: graceMs(draft),
    ranges: draft.ranges,
    hosts: list(draft.hosts),
    group: draft.group,
    filters: { pathPrefixes: list(draft.pathPrefixes), sources: list(draft.sources) },
    position: draft.position,
  } satisfies RuleCreate;
}
