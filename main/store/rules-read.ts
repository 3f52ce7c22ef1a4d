/**
 * Rules as stored (key 'rules', beside the routes): read and checked one by one. A rule that does
 * not validate any more is kept in the file as it is (written back by later writes), not used, and
 * named in the config store's problems; while one is unread, no app is released (its apps may be
 * missing from the rules only because of it).
 */
import { InputError } from '../../shared/errors.ts';
import { type Rule, storedRuleSchema } from '../../shared/rules.ts';

export const RULES_NOT_A_LIST = 'the rules are not a list';

export interface UnreadRule {
  raw: unknown;
  id: string | null;
  reason: string;
}

export function readRules(value: unknown): { rules: Rule[]; unread: UnreadRule[] } {
  const rules: Rule[] = [];
  const unread: UnreadRule[] = [];
  if (value === undefined) return { rules, unread };
  if (!Array.isArray(value)) return { rules, unread: [{ raw: value, id: null, reason: RULES_NOT_A_LIST }] };
  for (const item of value) {
    if (!item || typeof item !== 'object' || Array.isArray(item)) {
      unread.push({ raw: item, id: null, reason: 'not a rule object' });
      continue;
    }
    const { id, createdAt, updatedAt, ...fields } = item as Record<string, unknown>;
    const parsed = storedRuleSchema.safeParse(fields, { reportInput: true });
    if (typeof id !== 'string' || !id) unread.push({ raw: item, id: null, reason: 'the rule has no id' });
    else if (!parsed.success)
      unread.push({ raw: item, id, reason: InputError.fromZod(parsed.error).message });
    else {
      rules.push({
        id,
        ...parsed.data,
        createdAt: typeof createdAt === 'number' ? createdAt : 0,
        updatedAt: typeof updatedAt === 'number' ? updatedAt : 0,
      });
    }
  }
  return { rules, unread };
}

export function unreadRulesProblem(unread: readonly UnreadRule[]): string | null {
  if (unread.length === 0) return null;
  const list = unread.map((u) => `${u.id ?? 'a rule without id'} (${u.reason})`).join('; ');
  return `${unread.length} stored rule${unread.length === 1 ? '' : 's'} could not be read and ${unread.length === 1 ? 'is' : 'are'} not used: ${list}. No app is released until ${unread.length === 1 ? 'it is' : 'they are'} fixed or deleted.`;
}
