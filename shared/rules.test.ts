import { describe, expect, it } from 'vitest';
import { HOUR, MINUTE } from './durations.ts';
import { dnsLabel, fillTemplate, globMatch, unknownPlaceholders } from './glob.ts';
import type { Route } from './routes.ts';
import { previewRule } from './rule-preview.ts';
import {
  type ListedApp,
  type Rule,
  resolveRouting,
  ruleCreateSchema,
  ruleOwners,
  settingsFor,
} from './rules.ts';
import { DEFAULT_SETTINGS } from './settings.ts';

const ORG = 'orga_acme';
const OTHER = 'orga_other';

function rule(id: string, pattern: string, overrides: Partial<Rule> = {}): Rule {
  return {
    id,
    label: '',
    enabled: true,
    ownerId: null,
    pattern,
    dryRun: false,
    gracePeriodMs: HOUR,
    ranges: [],
    hosts: [],
    filters: { pathPrefixes: [], sources: [] },
    group: '',
    createdAt: 0,
    updatedAt: 0,
    ...overrides,
  };
}

function route(id: string, appId: string, overrides: Partial<Route> = {}): Route {
  return {
    id,
    appId,
    ownerId: ORG,
    label: '',
    enabled: true,
    gracePeriodMs: 2 * HOUR,
    ranges: [],
    hosts: [],
    filters: { pathPrefixes: [], sources: [] },
    createdAt: 0,
    updatedAt: 0,
    ...overrides,
  };
}

const app = (id: string, name: string, ownerId = ORG): ListedApp => ({ id, name, ownerId });

describe('name patterns (glob)', () => {
  it('* stands for any run of characters, ? for one, the rest for itself', () => {
    expect(globMatch('review-*', 'review-')).toEqual(['']);
    expect(globMatch('review-*', 'review-shop')).toEqual(['shop']);
    expect(globMatch('review-*', 'staging-shop')).toBeNull();
    expect(globMatch('app-?', 'app-1')).toEqual(['1']);
    expect(globMatch('app-?', 'app-12')).toBeNull();
    expect(globMatch('a.b', 'axb')).toBeNull();
    expect(globMatch('(x)+[y]', '(x)+[y]')).toEqual([]);
  });

  it('is case-sensitive', () => {
    expect(globMatch('Shop-*', 'shop-front')).toBeNull();
    expect(globMatch('Shop-*', 'Shop-front')).toEqual(['front']);
  });

  it('each * takes as few characters as it can, from left to right', () => {
    expect(globMatch('*-pr-*', 'shop-front-pr-123')).toEqual(['shop-front', '123']);
    expect(globMatch('*-*', 'a-b-c')).toEqual(['a', 'b-c']);
    expect(globMatch('*?x', 'abx')).toEqual(['a', 'b']);
  });

  it('stays fast on a pattern that makes a backtracking matcher explode', () => {
    const started = performance.now();
    expect(globMatch('*a*a*a*a*a*a*a*a*b', 'a'.repeat(200))).toBeNull();
    expect(performance.now() - started).toBeLessThan(200);
  });
});

describe('templates', () => {
  it('{name} and {1}.. filled, made DNS-safe in host names', () => {
    const caps = globMatch('*-pr-*', 'Shop_Front-pr-123')!;
    expect(fillTemplate('{name}.review.example.com', 'Shop_Front-pr-123', caps, true)).toBe(
      'shop-front-pr-123.review.example.com',
    );
    expect(fillTemplate('pr-{2}', 'Shop_Front-pr-123', caps, false)).toBe('pr-123');
  });

  it('a DNS label: lower case, other characters one dash, no dash at the ends, 63 at most', () => {
    expect(dnsLabel('  Éte Été!! ')).toBe('ete-ete');
    expect(dnsLabel('---')).toBe('app');
    expect(dnsLabel('x'.repeat(70))).toHaveLength(63);
    expect(dnsLabel(`${'y'.repeat(62)}-z`)).toBe('y'.repeat(62));
  });

  it('placeholders the pattern cannot fill are named', () => {
    expect(unknownPlaceholders('{name}-{1}-{3}-{x}', 2)).toEqual(['{3}', '{x}']);
    const parsed = ruleCreateSchema.safeParse({
      pattern: '*-pr-*',
      hosts: ['{3}.example.com'],
      group: '{0}',
    });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((i) => i.path.join('.'))).toEqual(['hosts.0', 'group']);
    expect(ruleCreateSchema.safeParse({ pattern: '*', hosts: ['bad host.{name}'] }).success).toBe(false);
    expect(ruleCreateSchema.parse({ pattern: '*-pr-*', hosts: ['{name}.Review.example.com'] }).hosts).toEqual(
      ['{name}.review.example.com'],
    );
  });
});

describe('resolving routes and rules', () => {
  const apps = [
    app('app_1', 'shop-front-pr-1'),
    app('app_2', 'shop-api-pr-1'),
    app('app_3', 'blog-pr-7'),
    app('app_4', 'prod-shop'),
    app('app_5', 'docs-pr-2', OTHER),
  ];

  it('an explicit route overrides the rules; disabled, it keeps the app out of them', () => {
    const routes = [route('route_a', 'app_1'), route('route_b', 'app_2', { enabled: false })];
    const routing = resolveRouting(routes, [rule('rule_pr', '*-pr-*')], apps);
    expect(routing.get('app_1')).toMatchObject({
      routeIds: ['route_a'],
      ruleId: null,
      gracePeriodMs: 2 * HOUR,
    });
    expect(routing.has('app_2')).toBe(false);
    expect(routing.get('app_3')).toMatchObject({ ruleId: 'rule_pr', routeIds: [], gracePeriodMs: HOUR });
    expect(routing.has('app_4')).toBe(false);
  });

  it('among rules, the first of the list that matches takes the app; disabled ones are skipped', () => {
    const rules = [
      rule('rule_off', '*', { enabled: false }),
      rule('rule_blog', 'blog-*', { gracePeriodMs: 10 * MINUTE }),
      rule('rule_pr', '*-pr-*'),
    ];
    const routing = resolveRouting([], rules, apps);
    expect(routing.get('app_3')?.ruleId).toBe('rule_blog');
    expect(routing.get('app_1')?.ruleId).toBe('rule_pr');
    expect(resolveRouting([], [rules[2]!, rules[1]!], apps).get('app_3')?.ruleId).toBe('rule_pr');
  });

  it('a rule of one owner matches only that owner s apps', () => {
    const routing = resolveRouting([], [rule('rule_pr', '*-pr-*', { ownerId: ORG })], apps);
    expect(routing.has('app_5')).toBe(false);
    expect(ruleOwners([rule('r', '*', { ownerId: ORG })])).toEqual(new Set([ORG]));
    expect(ruleOwners([rule('r', '*', { ownerId: ORG }), rule('s', '*')])).toBeNull();
  });

  it('fills host names and the group per app; a host already taken is left out', () => {
    const rules = [
      rule('rule_pr', '*-pr-*', { hosts: ['{name}.review.test', 'pr-{2}.test'], group: 'pr-{2}' }),
    ];
    const routing = resolveRouting(
      [route('route_x', 'app_9', { hosts: ['blog-pr-7.review.test'] })],
      rules,
      apps,
    );
    expect(routing.get('app_1')).toMatchObject({
      hosts: ['shop-front-pr-1.review.test', 'pr-1.test'],
      group: 'pr-1',
    });
    // app_2 comes after app_1 (id order): pr-1.test is app_1's.
    expect(routing.get('app_2')).toMatchObject({ hosts: ['shop-api-pr-1.review.test'], group: 'pr-1' });
    expect(routing.get('app_3')).toMatchObject({ hosts: ['pr-7.test'], group: 'pr-7' });
  });

  it('a rule in dry-run puts its apps in dry-run', () => {
    const routing = resolveRouting([], [rule('rule_pr', '*-pr-*', { dryRun: true })], apps);
    expect(settingsFor(DEFAULT_SETTINGS, routing.get('app_1')).dryRun).toBe(true);
    expect(settingsFor(DEFAULT_SETTINGS, undefined)).toBe(DEFAULT_SETTINGS);
  });
});

describe('the rule editor s preview', () => {
  const apps = [
    app('app_1', 'shop-pr-1'),
    app('app_2', 'blog-pr-2'),
    app('app_3', 'api-pr-3'),
    app('app_4', 'prod'),
  ];
  const routes = [route('route_a', 'app_3')];
  const existing = [rule('rule_blog', 'blog-*')];

  it('says which apps it would manage, take from a rule, or leave to a rule or a route', () => {
    const draft = rule('rule_new', '*-pr-*', { hosts: ['{name}.review.test'] });
    const atEnd = previewRule(draft, undefined, existing, routes, apps);
    expect(atEnd.position).toBe(1);
    expect(atEnd.matches.map((m) => [m.name, m.outcome, m.otherRuleId ?? m.routeIds[0] ?? null])).toEqual([
      ['api-pr-3', 'kept-by-route', 'route_a'],
      ['blog-pr-2', 'kept-by-rule', 'rule_blog'],
      ['shop-pr-1', 'managed', null],
    ]);
    expect(atEnd.matches.find((m) => m.appId === 'app_1')?.hosts).toEqual(['shop-pr-1.review.test']);
    const first = previewRule(draft, 0, existing, routes, apps);
    expect(first.counts).toEqual({ managed: 1, 'taken-from-rule': 1, 'kept-by-rule': 0, 'kept-by-route': 1 });
    expect(first.matches.find((m) => m.appId === 'app_2')).toMatchObject({
      outcome: 'taken-from-rule',
      otherRuleId: 'rule_blog',
    });
  });

  it('an edited rule is compared with the others, not with itself', () => {
    const edited = rule('rule_blog', 'blog-*', { gracePeriodMs: 2 * HOUR });
    const p = previewRule(edited, undefined, existing, routes, apps);
    expect(p.matches).toMatchObject([{ appId: 'app_2', outcome: 'managed' }]);
  });
});
