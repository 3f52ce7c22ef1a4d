/**
 * The calls about rules: list, read, create, change (and move), delete, and the rule editor's
 * preview; and the group view of an app's details. Rules live in the config store beside the routes.
 */
import type { AppGroupView } from '../../../shared/api.ts';
import { CONSOLE_LABELS } from '../../../shared/domain.ts';
import { previewRule } from '../../../shared/rule-preview.ts';
import type { ListedApp, Rule } from '../../../shared/rules.ts';
import { groupNotes } from '../../engine/decide-group.ts';
import type { Session } from '../session.ts';
import type { CallContext, HandlersOf } from './context.ts';

export type RuleCall = 'listRules' | 'getRule' | 'createRule' | 'updateRule' | 'deleteRule' | 'previewRule';

export function ruleCalls(ctx: Pick<CallContext, 'need'>): HandlersOf<RuleCall> {
  return {
    listRules: async () => [...ctx.need().config.rules()],

    getRule: async ({ ruleId }) => ctx.need().config.rule(ruleId),

    createRule: async (input) => ctx.need().config.save((c) => c.createRule(input)),

    updateRule: async ({ ruleId, changes }) => ctx.need().config.save((c) => c.updateRule(ruleId, changes)),

    deleteRule: async ({ ruleId }) => {
      await ctx.need().config.save((c) => c.deleteRule(ruleId));
      return { deleted: ruleId };
    },

    previewRule: async ({ ruleId, position, ...fields }) => {
      const s = ctx.need();
      if (ruleId) s.config.rule(ruleId); // an unknown rule is a 404, not a new one
      const draft: Rule = { id: ruleId ?? 'rule_draft', ...fields, createdAt: 0, updatedAt: 0 };
      const { apps, unreadOwners } = await readApps(s, fields.ownerId);
      const preview = previewRule(draft, position, s.config.rules(), s.config.routes(), apps);
      return { ...preview, unreadOwners };
    },
  };
}

/**
 * The apps a rule may match now: each owner's list read afresh (the list of the last sweep when the
 * read fails; neither: the owner is reported unread). Every owner when the rule names none.
 */
async function readApps(
  s: Session,
  ownerId: string | null,
): Promise<{ apps: ListedApp[]; unreadOwners: string[] }> {
  const owners = ownerId ? [ownerId] : (await s.clever.listOwners()).map((o) => o.id);
  const apps: ListedApp[] = [];
  const unreadOwners: string[] = [];
  await Promise.all(
    owners.map(async (owner) => {
      let list: readonly { id: string; name: string }[] | undefined;
      try {
        list = await s.clever.listApplications(owner);
      } catch {
        list = s.engine.listedAppsOf(owner);
      }
      if (!list) unreadOwners.push(owner);
      else for (const a of list) apps.push({ id: a.id, ownerId: owner, name: a.name });
    }),
  );
  return { apps, unreadOwners: unreadOwners.sort() };
}

/** The group of an app as its details show it. */
export function groupView(s: Session, appId: string): AppGroupView | null {
  const group = s.engine.groupOf(appId);
  if (!group) return null;
  const members = [...group.members].sort((a, b) => a.name.localeCompare(b.name));
  return {
    name: group.name,
    members: members.map((m) => ({
      appId: m.appId,
      name: m.name,
      state: m.state,
      label: CONSOLE_LABELS[m.state],
    })),
    waitingFor: group.waitingFor,
    notes: groupNotes(members.filter((m) => m.appId !== appId)),
  };
}
