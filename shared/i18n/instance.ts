/**
 * An i18next instance on the catalogues given (all of them: i18n.ts; or none yet, the dashboard
 * adding its language's when loaded: catalogues.ts). Synchronous: no loading step of its own.
 */
import i18next, { type i18n, type Resource } from 'i18next';
import type { Language } from './languages.ts';

export function createI18nOn(language: Language, resources: Resource, ns: readonly string[]): i18n {
  const instance = i18next.createInstance();
  // initAsync false: the catalog is in memory, the instance is ready when init returns.
  instance
    .init({
      lng: language,
      fallbackLng: 'en',
      supportedLngs: ['en', 'fr'],
      resources,
      ns: [...ns],
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
