/** The rules, in their order of precedence: validated whole, kept with what could not be read. */
import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { InputError, NotFoundError, parseInput } from '../../../shared/errors.ts';
import {
  type Rule,
  type RuleCreate,
  type RuleUpdate,
  ruleCreateSchema,
  ruleProblems,
  ruleUpdateSchema,
} from '../../../shared/rules.ts';
import { RULES_NOT_A_LIST, readRules, type UnreadRule, unreadRulesProblem } from '../rules-read.ts';
import type { BookContext } from './book.ts';

export class RuleBook {
  private readonly ctx: BookContext;
  private rules: Rule[];
  private unreadRules: UnreadRule[];

  constructor(ctx: BookContext) {
    this.ctx = ctx;
    const { rules, unread } = readRules(ctx.backend.get('rules'));
    this.rules = rules;
    this.unreadRules = unread;
  }

  /** Take the stored value as it is now; whether anything changed. */
  adopt(value: unknown): boolean {
    const { rules, unread } = readRules(value);
    const changed = !isDeepStrictEqual([rules, unread], [this.rules, this.unreadRules]);
    this.rules = rules;
    this.unreadRules = unread;
    return changed;
  }

  get unreadCount(): number {
    return this.unreadRules.length;
  }

  problem(): string | null {
    return unreadRulesProblem(this.unreadRules);
  }

  list(): readonly Rule[] {
    return this.rules;
  }

  get(id: string): Rule {
    const rule = this.rules.find((r) => r.id === id);
    if (!rule) throw new NotFoundError(`rule ${id}`);
    return rule;
  }

  /** A new rule, at `position` in the list (0 = first, the strongest) or at the end. */
  create(input: RuleCreate): Rule {
    const { position, ...fields } = parseInput(ruleCreateSchema, input);
    const now = this.ctx.now();
    const rule: Rule = { id: `rule_${randomUUID()}`, ...fields, createdAt: now, updatedAt: now };
    this.write(placed(this.rules, rule, position));
    return rule;
  }

  /** A change to a rule (checked whole once merged); `position` moves it in the list. */
  update(id: string, input: RuleUpdate): Rule {
    const current = this.get(id);
    const { position, ...fields } = parseInput(ruleUpdateSchema, input);
    const rule: Rule = { ...current, ...fields, updatedAt: this.ctx.now() };
    const { id: _id, createdAt: _c, updatedAt: _u, ...whole } = rule;
    const problems = ruleProblems(whole);
    if (problems.length) throw new InputError(problems);
    const others = this.rules.filter((r) => r.id !== id);
    const at = position ?? this.rules.findIndex((r) => r.id === id);
    this.write(placed(others, rule, at));
    return rule;
  }

  /** Delete a rule (an unreadable one too, by its id). */
  delete(id: string): void {
    const unread = this.unreadRules.find((u) => u.id === id);
    if (unread) {
      this.write(
        this.rules,
        this.unreadRules.filter((u) => u !== unread),
      );
      return;
    }
    this.get(id);
    this.write(this.rules.filter((r) => r.id !== id));
  }

  private write(rules: Rule[], unread: UnreadRule[] = this.unreadRules): void {
    // A stored value that was not even a list is kept whole only while nothing replaces it.
    const kept = unread.flatMap((u) => (u.reason === RULES_NOT_A_LIST ? [] : [u.raw]));
    this.ctx.backend.set('rules', [...rules, ...kept]);
    this.rules = rules;
    this.unreadRules = unread.filter((u) => u.reason !== RULES_NOT_A_LIST);
    this.ctx.emit({ kind: 'rules' });
  }
}

/** `rule` put at index `at` of `list` (clamped; undefined: at the end). */
function placed(list: readonly Rule[], rule: Rule, at: number | undefined): Rule[] {
  const i = Math.min(at ?? list.length, list.length);
  return [...list.slice(0, i), rule, ...list.slice(i)];
}
