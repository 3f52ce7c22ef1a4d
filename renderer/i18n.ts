/**
 * The dashboard's language (lib/language-choice.ts picks it). One i18next instance for the page,
 * registered with react-i18next so `useTranslation()` works in every component without a provider.
 *
 * The instance starts without catalogues: each language's is a chunk of its own, loaded on demand
 * (shared/i18n/catalogues.ts). The page's first script (main.tsx) starts loading the one it speaks
 * while the bundle arrives, and boot.tsx waits for it (`loadLanguage`) before the first render; a
 * switch in Settings loads the other before changing to it.
 */
import { initReactI18next } from 'react-i18next';
import { loadCatalogue } from '../shared/i18n/catalogues.ts';
import { createI18nOn } from '../shared/i18n/instance.ts';
import { isLanguage, type Language } from '../shared/i18n/languages.ts';
import {
  chosenLanguage,
  keepForServer,
  LANGUAGE_KEY,
  startingLanguage,
  systemLanguage,
  viewerHere,
} from './lib/language-choice.ts';

export { chosenLanguage, systemLanguage };

export const i18n = createI18nOn(startingLanguage(), {}, []);
i18n.use(initReactI18next);
// Registered after init: the plugin only needs the instance (react-i18next reads it on first use).
initReactI18next.init(i18n);
setDocumentLanguage(i18n.language as Language);

function setDocumentLanguage(language: Language): void {
  if (globalThis.document) document.documentElement.lang = language;
}

const loading = new Map<Language, Promise<void>>();

/** Have `language`'s catalogue in the instance (loaded once; a failed load is tried again next time). */
export function loadLanguage(language: Language): Promise<void> {
  let done = loading.get(language);
  if (!done) {
    done = loadCatalogue(language).then((catalogue) => {
      for (const [ns, messages] of Object.entries(catalogue)) {
        i18n.addResourceBundle(language, ns, messages, true, true);
      }
    });
    loading.set(language, done);
    done.catch(() => loading.delete(language));
  }
  return done;
}

/** The catalogue of the language spoken now, before the first render. */
export async function loadStartingLanguage(): Promise<void> {
  const language = currentLanguage();
  await loadLanguage(language);
  // Resolved again now that it has messages.
  await i18n.changeLanguage(language);
}

/** Follow `choice` from now on (null: the system's language), and remember it. */
export async function chooseLanguage(choice: Language | null): Promise<void> {
  try {
    if (choice) globalThis.localStorage?.setItem(LANGUAGE_KEY, choice);
    else globalThis.localStorage?.removeItem(LANGUAGE_KEY);
  } catch {
    // Storage refused: the choice lasts for this page.
  }
  if (globalThis.document && !globalThis.window?.reaper) {
    keepForServer(document, viewerHere(window), choice);
  }
  const language = choice ?? systemLanguage();
  await loadLanguage(language);
  await i18n.changeLanguage(language);
  setDocumentLanguage(language);
}

/** The current language, for Intl formatting outside React. */
export function currentLanguage(): Language {
  return isLanguage(i18n.language) ? i18n.language : 'en';
}
