/**
 * Every message bad input gets is written for people, in English and in French: each input schema
 * (every call of the API, so every form's) is walked with bad values field by field, and each
 * problem found must name the field as the form labels it, say it once, use no wording of the
 * validation library and no internal field name, and write durations in the field's unit.
 */
import type { i18n as I18n } from 'i18next';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { CALL_SCHEMAS, type CallName, parseJsonBody } from './api.ts';
import { HOUR, MINUTE, SECOND } from './durations.ts';
import { InputError, inputProblems } from './errors.ts';
import { validation as en } from './i18n/en/validation.ts';
import { createI18n } from './i18n/i18n.ts';
import { rangeProblems } from './schedule.ts';
import { DEFAULT_SETTINGS, settingsProblems } from './settings.ts';
import {
  DURATION_FIELDS,
  type FieldProblem,
  fieldLabel,
  formatDurationIn,
  parseDecimal,
  problemText,
} from './validation.ts';

const LANGS: Record<'en' | 'fr', I18n> = { en: createI18n('en'), fr: createI18n('fr') };

const RANGE = { days: 'Mon-Fri', start: '08:00', end: '19:00', timeZone: 'Europe/Paris' };
const WEBHOOK = { url: 'https://hooks.example.com/x', format: 'json', events: ['error'] };
const ROUTE = {
  appId: 'app_0a1b2c3d',
  ownerId: 'orga_acme',
  label: 'shop',
  enabled: true,
  gracePeriodMs: HOUR,
  ranges: [RANGE],
  hosts: ['shop.example.com'],
  filters: { pathPrefixes: ['/health'], sources: ['10.0.0.0/8'] },
  group: '',
};
const RULE = {
  label: '',
  enabled: true,
  ownerId: null,
  pattern: 'review-*',
  dryRun: false,
  gracePeriodMs: HOUR,
  ranges: [RANGE],
  hosts: ['{name}.review.example.com'],
  filters: { pathPrefixes: [], sources: [] },
  group: 'pr-{1}',
};

/** A valid input of each call that takes one (the others are walked from {}). */
const VALID: Partial<Record<CallName, Record<string, unknown>>> = {
  createRoute: ROUTE,
  updateRoute: { routeId: 'route_1', changes: ROUTE },
  createRule: RULE,
  updateRule: { ruleId: 'rule_1', changes: RULE },
  previewRule: RULE,
  updateSettings: { ...DEFAULT_SETTINGS, webhooks: [WEBHOOK] },
  wake: { appId: 'app_0a1b2c3d', source: 'dashboard', wait: true, timeoutMs: 60_000 },
  keepAwake: { appId: 'app_0a1b2c3d', until: null },
  bulk: { action: 'keepAwake', appIds: ['app_0a1b2c3d'], until: 1_900_000_000_000 },
  previewRanges: { ranges: [RANGE], count: 6 },
  testWebhook: WEBHOOK,
  historyQuery: { appId: 'app_x', from: 0, to: 1, limit: 50 },
  connect: { source: 'pasted', token: 'abc' },
  savings: { timeZone: 'Europe/Paris' },
};

/** Bad values tried in every field, and for some fields bad values of their own. */
const BAD: unknown[] = [
  undefined,
  null,
  'zz!!',
  '',
  2.5,
  -1,
  1e13,
  true,
  [],
  {},
  'x'.repeat(3000),
  Array.from({ length: 300 }, () => 'a'),
];
const BAD_BY_KEY: Record<string, unknown[]> = {
  ranges: [
    [{ days: 'Funday', start: '25:00', end: '8', timeZone: 'Mars/Olympus' }],
    [
      { ...RANGE, start: '08:00', end: '08:00' },
      { ...RANGE, days: ' ' },
    ],
    [{ ...RANGE, zone: 'x' }],
  ],
  hosts: [['Not a host!', 'a.example.com', 'a.example.com'], ['{3}.example.com']],
  group: ['pr-{7}'],
  pattern: ['*-*-*-*-*-*-*-*-*-*'],
  filters: [{ pathPrefixes: ['health'], sources: ['10.0.0.300', 'x'] }],
  webhooks: [
    [
      { url: 'ftp://x', format: 'xml', events: [] },
      { ...WEBHOOK, url: 'https://u:p@h.example.com' },
    ],
  ],
  appIds: [['app_0a1b2c3d', 'app_0a1b2c3d', 'nope']],
  gracePeriodMs: [30 * SECOND, 90 * 24 * HOUR, 1.5],
  failTimeoutMs: [30 * SECOND],
  intervalMs: [2 * HOUR],
  wakeProxyPort: [80],
  wakeProxyAddress: ['localhost'],
  eurPerDrop: [0],
  until: ['next tuesday'],
  from: ['yesterday'],
  cursor: ['page-2'],
  action: ['explode'],
  source: ['pasted-by-hand'],
};

const isObject = (v: unknown): v is Record<string, unknown> =>
  !!v && typeof v === 'object' && !Array.isArray(v);

/** Each input: the valid one with one field (at any depth) replaced by a bad value, and an unknown key. */
function* variants(base: Record<string, unknown>): Generator<Record<string, unknown>> {
  yield { ...base, zz: 1 };
  for (const [key, value] of Object.entries(base)) {
    for (const bad of [...BAD, ...(BAD_BY_KEY[key] ?? [])]) yield { ...base, [key]: bad };
    if (isObject(value)) for (const inner of variants(value)) yield { ...base, [key]: inner };
  }
  for (const key of Object.keys(BAD_BY_KEY)) {
    if (!(key in base)) for (const bad of BAD_BY_KEY[key] ?? []) yield { ...base, [key]: bad };
  }
}

const LIBRARY_WORDING =
  /Invalid input|Invalid option|Invalid ISO|Invalid string|[Ee]xpected \w+|received \w+|Too (big|small)|Unrecognized key|[<>]=|must contain/;
/** An internal name: camelCase (gracePeriodMs), a path (ranges.0.start, ranges[0]), ms. */
const INTERNAL = /\b[a-z]+[A-Z]\w*\b|\b[a-z]+(\.\d+|\[\d+\])|\d\s?ms\b/;
/** What a message quotes is the person's entry, whatever it holds. */
const unquoted = (text: string) => text.replace(/“[^”]*”|« [^»]* »/g, '“…”');

function check(problem: FieldProblem, where: string) {
  for (const [lang, i18n] of Object.entries(LANGS)) {
    const text = problemText(i18n, problem);
    const label = fieldLabel(i18n, problem.field);
    const context = `${where} ${lang} ${problem.field} ${problem.code}: ${text}`;
    expect(problem.code, context).toBeTruthy();
    expect(text.startsWith(`${label}${lang === 'fr' ? ' :' : ':'}`), context).toBe(true);
    expect(label, context).not.toMatch(/^validation:/);
    expect(text, context).not.toMatch(/\{\{|validation:/);
    expect(unquoted(text), context).not.toMatch(LIBRARY_WORDING);
    expect(unquoted(text).slice(label.length), context).not.toMatch(INTERNAL);
    const unit = DURATION_FIELDS[problem.field.split('.').at(-1) ?? ''];
    if (unit === 'min' || unit === 'h') expect(text, context).not.toMatch(/\d\s?s\b|seconde?s?\b/);
  }
  expect(problemText(LANGS.fr, problem), 'the French says it in French').not.toBe(
    problemText(LANGS.en, problem),
  );
}

describe('every message of bad input is written for people, in English and French', () => {
  for (const [name, schema] of Object.entries(CALL_SCHEMAS) as [CallName, z.ZodType][]) {
    it(`${name}: each bad field is named as labelled, once, in words`, () => {
      let seen = 0;
      for (const input of variants(VALID[name] ?? {})) {
        const problems = inputProblems(schema, input);
        const keys = problems.map((p) => `${p.field}|${p.code}|${JSON.stringify(p.params)}`);
        expect(new Set(keys).size, `said twice: ${keys.join(', ')}`).toBe(keys.length);
        for (const p of problems) check(p, name);
        seen += problems.length;
      }
      expect(seen, `${name}: the walk found problems to check`).toBeGreaterThan(0);
    });
  }

  it('every message of the catalogue names its field first, in both languages', () => {
    const codes = new Set(Object.keys(en.problems).map((k) => k.replace(/_(one|other)$/, '')));
    for (const code of codes) {
      const params = { value: 'v', min: 1, max: 2, count: 2, keys: 'k', options: 'a, b', start: '08:00' };
      check(
        {
          field: 'label',
          code: code as FieldProblem['code'] & string,
          message: '',
          params: {
            ...params,
            end: '08:00',
            bad: '{3}',
            allowed: '{name}',
            key: 'k',
            other: 'o',
            owner: 'o',
            text: 't',
          },
        },
        'catalogue',
      );
    }
  });

  it('the checks themselves catch library wording and internal names (the checker checked)', () => {
    expect('Invalid input: expected number, received string').toMatch(LIBRARY_WORDING);
    expect('Grace period: graceMs is too small').toMatch(INTERNAL);
    expect('see ranges[0].start').toMatch(INTERNAL);
    expect('see ranges.0.start').toMatch(INTERNAL);
    expect('at least 60000 ms').toMatch(INTERNAL);
    expect(unquoted('Grace period: “gracePeriodMs” is not a number.')).not.toMatch(INTERNAL);
  });

  it('a bad range says each problem once, on the field as labelled, quoting the entry', () => {
    const problems = inputProblems(CALL_SCHEMAS.createRoute, {
      ...ROUTE,
      ranges: [RANGE, { days: 'Mon-Fro', start: '25:00', end: '19:00', timeZone: 'Europe/Paris' }],
    });
    expect(problems.map((p) => p.message)).toEqual([
      'Range 2 weekdays: “Mon-Fro” is not a weekday or a range of weekdays (Mon, Tue … Sun, for example Mon-Fri).',
      'Range 2 start: “25:00” is not a time from 00:00 to 23:59.',
    ]);
    expect(problems.map((p) => problemText(LANGS.fr, p))).toEqual([
      'Plage 2, jours : « Mon-Fro » n’est pas un jour ni une suite de jours (lun, mar … dim, par exemple lun-ven).',
      'Plage 2, début : « 25:00 » n’est pas une heure entre 00:00 et 23:59.',
    ]);
    expect(rangeProblems({ ...RANGE, end: '08:00' })).toHaveLength(1);
  });

  it('writes durations in the field’s unit: minutes on a minutes field, the form’s unit when it says', () => {
    const [short] = inputProblems(CALL_SCHEMAS.createRoute, { ...ROUTE, gracePeriodMs: 30 * SECOND });
    expect(short?.message).toBe('Grace period: 0.5 minutes is too short; the least is 1 minute.');
    expect(problemText(LANGS.fr, short!)).toBe(
      'Délai de grâce : 0,5 minute, c’est trop court ; le minimum est 1 minute.',
    );
    const [long] = inputProblems(CALL_SCHEMAS.createRoute, { ...ROUTE, gracePeriodMs: 40 * 24 * HOUR });
    expect(problemText(LANGS.en, long!, { units: { gracePeriodMs: 'h' } })).toBe(
      'Grace period: 960 hours is too long; the most is 720 hours.',
    );
    const [fail] = inputProblems(CALL_SCHEMAS.updateSettings, { failTimeoutMs: 30 * SECOND });
    expect(fail?.message).toBe('Fail timeout: 0.5 minutes is too short; the least is 1 minute.');
    const [interval] = settingsProblems({ ...DEFAULT_SETTINGS, fastIntervalMs: 40 * SECOND });
    expect(interval?.message).toBe(
      'Fast interval: 40 seconds is longer than the job interval (30 seconds); it cannot exceed it.',
    );
    expect(formatDurationIn(30 * 24 * HOUR, 'min', 'en', true)).toBe('30 days');
    expect(formatDurationIn(MINUTE, 'h', 'fr', true)).toBe('1 minute');
  });

  it('names host names and sources that are wrong, and the one listed twice', () => {
    const problems = inputProblems(CALL_SCHEMAS.createRoute, {
      ...ROUTE,
      hosts: ['shop.example.com', 'Bad Host', 'shop.example.com'],
      filters: { pathPrefixes: ['health'], sources: ['10.0.0.300'] },
    });
    expect(problems.map((p) => p.message)).toEqual([
      'Wake-proxy hosts: “bad host” is not a host name (for example staging.example.com).',
      'Wake-proxy hosts: “shop.example.com” is listed twice.',
      'Ignore paths: “health” does not start with /.',
      'Ignore sources: “10.0.0.300” is not an IP address or a CIDR block (for example 10.0.0.0/8).',
    ]);
    const twice = inputProblems(CALL_SCHEMAS.createRoute, {
      ...ROUTE,
      hosts: ['a.example.com', 'a.example.com'],
    });
    expect(twice.map((p) => [p.field, p.message])).toEqual([
      ['hosts.1', 'Wake-proxy hosts: “a.example.com” is listed twice.'],
    ]);
  });

  it('the API body says it in English, with the code and params for a translation', () => {
    try {
      parseJsonBody('{"__proto__": {"x": 1}}');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(InputError);
      expect((error as InputError).problems).toEqual([
        {
          field: '',
          code: 'forbiddenKey',
          params: { key: '__proto__' },
          message: 'The request: may not hold the key “__proto__” (at any depth).',
        },
      ]);
    }
  });

  it('accepts a decimal comma where a decimal point is', () => {
    expect(parseDecimal('2,5')).toBe(2.5);
    expect(parseDecimal(' 2.5 ')).toBe(2.5);
    expect(parseDecimal(',5')).toBe(0.5);
    expect(parseDecimal('45')).toBe(45);
    expect(parseDecimal('2,5,1')).toBeNull();
    expect(parseDecimal('')).toBeNull();
    expect(parseDecimal('abc')).toBeNull();
  });
});

describe('what a message quotes', () => {
  it('never quotes a token, a secret or a URL’s user, password or path back', () => {
    const token = inputProblems(CALL_SCHEMAS.connect, { source: 'pasted', token: 's3cret'.repeat(400) });
    expect(JSON.stringify(token)).not.toMatch(/s3cret/);
    expect(token[0]?.message).toBe('Token: “•••” is too long; at most 2,000 characters.');
    const url = inputProblems(CALL_SCHEMAS.testWebhook, {
      url: 'https://user:pw@hooks.example.com/services/T0/B0/key',
      format: 'json',
    });
    expect(JSON.stringify(url)).not.toMatch(/pw|key|services/);
    expect(url[0]?.message).toBe('URL: remove the user name and password from the URL.');
    const hook = 'https://hooks.slack.com/services/T0/B0/key';
    const twice = inputProblems(CALL_SCHEMAS.updateSettings, {
      webhooks: [
        { url: hook, format: 'slack', events: ['error'] },
        { url: hook, format: 'slack', events: ['error'] },
      ],
    });
    expect(twice.map((p) => p.message)).toEqual(['Webhooks: “https://hooks.slack.com/…” is listed twice.']);
  });
});

describe('the field names of the messages', () => {
  it('are the labels of the route and rule editors, in both languages', () => {
    const same: [string, string, Record<string, number>?][] = [
      ['fields.appId', 'routes:editor.app'],
      ['fields.ownerId', 'routes:editor.owner'],
      ['fields.label', 'routes:editor.label'],
      ['fields.gracePeriodMs', 'routes:template.grace'],
      ['fields.ranges', 'routes:ranges.title'],
      ['fields.rangeDays', 'routes:ranges.days', { n: 2 }],
      ['fields.rangeStart', 'routes:ranges.start', { n: 2 }],
      ['fields.rangeEnd', 'routes:ranges.end', { n: 2 }],
      ['fields.rangeTimeZone', 'routes:ranges.zone', { n: 2 }],
      ['fields.hosts', 'routes:template.hosts'],
      ['fields.group', 'routes:template.group'],
      ['fields.pathPrefixes', 'routes:template.paths'],
      ['fields.sources', 'routes:template.sources'],
      ['fields.pattern', 'routes:ruleEditor.pattern'],
      ['fields.position', 'routes:ruleEditor.position'],
    ];
    for (const i18n of Object.values(LANGS)) {
      const t = i18n.t as unknown as (key: string, options?: object) => string;
      for (const [field, label, options] of same) {
        expect(t(`validation:${field}`, options), `${i18n.language} ${field}`).toBe(t(label, options));
      }
    }
  });
});
