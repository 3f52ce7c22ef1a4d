/**
 * The rule editor's preview, before saving: the apps a rule (new or changed) matches now, and for
 * each what saving it would do: manage it, take it from another rule (this one comes first), or
 * leave it to a rule that comes first or to the explicit route that names it.
 */
import type { Route } from './routes.ts';
import { firstRule, type ListedApp, type Rule, ruleMatch, ruleRouting } from './rules.ts';

export const PREVIEW_OUTCOMES = ['managed', 'taken-from-rule', 'kept-by-rule', 'kept-by-route'] as const;
export type PreviewOutcome = (typeof PREVIEW_OUTCOMES)[number];

export interface RulePreviewMatch {
  appId: string;
  name: string;
  ownerId: string;
  outcome: PreviewOutcome;
  /** taken-from-rule: the rule that manages it now; kept-by-rule: the rule that comes first. */
  otherRuleId: string | null;
  /** kept-by-route: the routes that name the app. */
  routeIds: string[];
  /** What the rule would give the app: its host names and its group. */
  hosts: string[];
  group: string | null;
}

export interface RulePreview {
  /** Where the rule would sit in the list (0 = first). */
  position: number;
  matches: RulePreviewMatch[];
  counts: Record<PreviewOutcome, number>;
}

/** Preview `draft` placed at `position` among `rules` (a rule of the same id is the one edited). */
export function previewRule(
  draft: Rule,
  position: number | undefined,
  rules: readonly Rule[],
  routes: readonly Route[],
  apps: Iterable<ListedApp>,
): RulePreview {
  const others = rules.filter((r) => r.id !== draft.id);
  const current = rules.findIndex((r) => r.id === draft.id);
  const at = Math.min(position ?? (current >= 0 ? current : others.length), others.length);
  const after = [...others.slice(0, at), draft, ...others.slice(at)];
  // The preview shows what the rule would match once enabled, even if saved disabled.
  const active = { ...draft, enabled: true };
  const counts: Record<PreviewOutcome, number> = {
    managed: 0,
    'taken-from-rule': 0,
    'kept-by-rule': 0,
    'kept-by-route': 0,
  };
  const matches: RulePreviewMatch[] = [];
  for (const app of apps) {
    const captures = ruleMatch(active, app);
    if (!captures) continue;
    const routing = ruleRouting(active, app, captures);
    const base = {
      appId: app.id,
      name: app.name,
      ownerId: app.ownerId,
      hosts: routing.hosts,
      group: routing.group,
    };
    const routeIds = routes.filter((r) => r.appId === app.id).map((r) => r.id);
    let outcome: PreviewOutcome;
    let otherRuleId: string | null = null;
    if (routeIds.length) {
      outcome = 'kept-by-route';
    } else {
      const winner = firstRule(
        after.map((r) => (r.id === draft.id ? active : r)),
        app,
      );
      if (winner && winner.rule.id !== draft.id) {
        outcome = 'kept-by-rule';
        otherRuleId = winner.rule.id;
      } else {
        const before = firstRule(others, app);
        outcome = before ? 'taken-from-rule' : 'managed';
        otherRuleId = before?.rule.id ?? null;
      }
    }
    counts[outcome]++;
    matches.push({ ...base, outcome, otherRuleId, routeIds });
  }
  matches.sort((a, b) => a.name.localeCompare(b.name) || a.appId.localeCompare(b.appId));
  return { position: at, matches, counts };
}
