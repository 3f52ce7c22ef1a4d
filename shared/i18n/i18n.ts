/**
 * One i18next instance per language user (the tray, a waking page's request), built synchronously
 * from the bundled catalogues: no loading step, no flash of untranslated text. (The dashboard loads
 * its language's catalogue alone: catalogues.ts.)
 */
import type { i18n } from 'i18next';
import { CATALOG, NAMESPACES } from './catalog.ts';
import { createI18nOn } from './instance.ts';
import type { Language } from './languages.ts';

export function createI18n(language: Language): i18n {
  return createI18nOn(language, CATALOG, NAMESPACES);
}
