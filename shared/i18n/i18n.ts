/**
 * One i18next instance per language user (the dashboard, the tray, a waking page's request), built
 * synchronously from the bundled catalogues: no loading step, no flash of untranslated text.
 */
import i18next, { type i18n } from 'i18next';
import { CATALOG, NAMESPACES } from './catalog.ts';
import type { Language } from './languages.ts';

export function createI18n(language: Language): i18n {
  const instance = i18next.createInstance();
  // initAsync false: the catalog is in memory, the instance is ready when init returns.
  instance
    .init({
      lng: language,
      fallbackLng: 'en',
      supportedLngs: ['en', 'fr'],
      resources: CATALOG,
      ns: NAMESPACES,
      defaultNS: 'common',
      initAsync: false,
      // React and our HTML templates escape on their own.
      interpolation: { escapeValue: false },
      returnNull: false,
    })
    .catch((error: unknown) => {
      console.error(`the ${language} translations could not be set up:`, error);
    });
  return instance;
}
