/**
 * The catalogues agree: every key of English exists in French and the other way round, with the same
 * placeholders, and no message is empty. (French is also typed against English's shape; this test
 * catches what a type cannot: a placeholder renamed in one language, or a copied English sentence
 * left in the French file.)
 */
import { describe, expect, it } from 'vitest';
import { CATALOG, en, NAMESPACES } from './catalog.ts';
import { createI18n } from './i18n.ts';
import { acceptLanguageTags, LANGUAGES, pickLanguage } from './languages.ts';

type Tree = { readonly [key: string]: string | Tree };

function leaves(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else for (const [k, v] of leaves(value, path)) out.set(k, v);
  }
  return out;
}

const placeholders = (text: string) =>
  [...text.matchAll(/\{\{\s*([\w.]+)[^}]*\}\}/g)].map((m) => m[1]).sort();

/** Messages that read the same in both languages (names, units, symbols), by full key. */
const SAME_IN_BOTH = new Set<string>([
  // tray: the product's name; a count and a state's name, each translated on its own.
  'tray:title.local',
  // a repeated toast: its own text (already translated) and how many times.
  'shell:toasts.repeated_one',
  'shell:toasts.repeated_other',
  'tray:tooltip.count',
  'apps:toolbar.stateOption',
  'apps:table.columns.actions',
  // Issue 25: the admin role's name, the tokens table's actions column, a name and a role.
  'common:roles.admin',
  'settings:tokens.actions',
  'shell:session.who',
  'apps:console.compact',
  'apps:detail.actions',
  'apps:detail.requestFrom',
  'apps:detail.routes',
  'apps:facts.ignoredLine',
  'apps:timeline.total',
  'apps:toasts.failed',
  'common:actors.reaper',
  // who (issue 25): "API", a route and the audit are the same words in French.
  'common:vias.api',
  'tray:vias.api',
  'tray:tooltip.as',
  'history:audit.whats.route',
  'shell:nav.audit',
  'common:historyKinds.transition',
  'common:unitNames.minutes',
  // routes: the grace period's unit, the same word in French and English.
  'routes:template.minutes_one',
  'routes:template.minutes_other',
  'common:units.seconds',
  'common:units.minutes',
  'common:units.hours',
  'common:units.pair',
  'common:time.inZone',
  // shell, settings, history, savings, firstRun: French uses the same word (or unit, or name).
  'firstRun:connect.secret',
  'history:pager.label',
  'history:pager.page',
  'savings:perApp.flavor',
  'savings:price.sources',
  'savings:units.hours',
  'savings:units.minutes',
  'settings:account.mode',
  'settings:account.source.environment',
  'settings:proxy.port',
  'settings:units.min',
  'shell:nav.routes',
  'shell:toasts.label',
  'routes:editor.appOption',
  'routes:editor.appPlaceholder',
  'routes:editor.hostsExample',
  'routes:ranges.daysExample',
  'routes:ruleEditor.hostsExample',
  'routes:ruleEditor.patternPlaceholder',
  'routes:rules.actions',
  'routes:table.actions',
  'routes:template.minutes',
  'routes:template.pathsExample',
  'routes:view.count_one',
  'routes:view.count_other',
  'routes:view.title',
  'validation:fields.action',
  'validation:fields.cursor',
  'validation:fields.format',
  'validation:fields.routeId',
  'validation:fields.source',
  'validation:fields.url',
  'validation:fields.wakeProxyPort',
  'validation:fields.webhooks',
]);

describe('catalogues', () => {
  for (const ns of NAMESPACES) {
    const english = leaves(en[ns] as Tree);
    const french = leaves(CATALOG.fr[ns] as Tree);
    it(`${ns}: the same keys in English and French`, () => {
      expect([...french.keys()].sort()).toEqual([...english.keys()].sort());
    });
    it(`${ns}: the same placeholders, no empty message, French translated`, () => {
      for (const [key, text] of english) {
        const other = french.get(key) ?? '';
        expect(text.trim(), `${ns}:${key} (en) is empty`).not.toBe('');
        expect(other.trim(), `${ns}:${key} (fr) is empty`).not.toBe('');
        expect(placeholders(other), `${ns}:${key}: placeholders`).toEqual(placeholders(text));
        const full = `${ns}:${key}`;
        if (!SAME_IN_BOTH.has(full) && /\p{L}{3,}/u.test(text)) {
          expect(
            other,
            `${full}: the French is the English text; translate it or list it in SAME_IN_BOTH`,
          ).not.toBe(text);
        }
      }
    });
  }

  it('builds an instance per language that answers in that language, English as the fallback', () => {
    expect(createI18n('en').t('common:language.label')).toBe('Language');
    expect(createI18n('fr').t('common:language.label')).toBe('Langue');
    expect(LANGUAGES).toEqual(['en', 'fr']);
  });

  it('picks the first preferred language it speaks, the operator’s choice first', () => {
    expect(pickLanguage(['de-DE', 'fr-CA', 'en'])).toBe('fr');
    expect(pickLanguage(['en-GB', 'fr'])).toBe('en');
    expect(pickLanguage(['de', 'it'])).toBe('en');
    expect(pickLanguage([])).toBe('en');
    expect(pickLanguage(['en'], 'fr')).toBe('fr');
    expect(pickLanguage(['fr'], 'klingon')).toBe('fr');
  });

  it('reads Accept-Language by quality', () => {
    expect(acceptLanguageTags('en;q=0.5, fr-CH, fr;q=0.9, *;q=0.1')).toEqual(['fr-CH', 'fr', 'en']);
    expect(acceptLanguageTags('de;q=0, en')).toEqual(['en']);
    expect(acceptLanguageTags(undefined)).toEqual([]);
    expect(pickLanguage(acceptLanguageTags('de-DE,fr;q=0.8,en;q=0.7'))).toBe('fr');
  });
});
