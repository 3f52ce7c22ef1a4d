/**
 * The dashboard's language: the operator's choice (kept in this browser or desktop profile), else the
 * browser's or system's preferred languages, else English. One i18next instance for the page,
 * registered with react-i18next so `useTranslation()` works in every component without a provider.
 */
import { initReactI18next } from 'react-i18next';
import { createI18n } from '../shared/i18n/i18n.ts';
import { isLanguage, type Language, pickLanguage } from '../shared/i18n/languages.ts';

const LANGUAGE_KEY = 'clever-reaper.language';

/** The language chosen in Settings, or null to follow the system. */
export function chosenLanguage(): Language | null {
  try {
    const saved = globalThis.localStorage?.getItem(LANGUAGE_KEY);
    return isLanguage(saved) ? saved : null;
  } catch {
    return null;
  }
}

/** The system's or browser's language, as we speak it. */
export function systemLanguage(): Language {
  return pickLanguage(globalThis.navigator?.languages ?? []);
}

export const i18n = createI18n(chosenLanguage() ?? systemLanguage());
i18n.use(initReactI18next);
// Registered after init: the plugin only needs the instance (react-i18next reads it on first use).
initReactI18next.init(i18n);
setDocumentLanguage(i18n.language as Language);

function setDocumentLanguage(language: Language): void {
  if (globalThis.document) document.documentElement.lang = language;
}

/** Follow `choice` from now on (null: the system's language), and remember it. */
export async function chooseLanguage(choice: Language | null): Promise<void> {
  try {
    if (choice) globalThis.localStorage?.setItem(LANGUAGE_KEY, choice);
    else globalThis.localStorage?.removeItem(LANGUAGE_KEY);
  } catch {
    // Storage refused: the choice lasts for this page.
  }
  const language = choice ?? systemLanguage();
  await i18n.changeLanguage(language);
  setDocumentLanguage(language);
}

/** The current language, for Intl formatting outside React. */
export function currentLanguage(): Language {
  return isLanguage(i18n.language) ? i18n.language : 'en';
}
