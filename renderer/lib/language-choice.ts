/**
 * Which language the dashboard speaks: the operator's choice (kept in this browser or desktop
 * profile), else the browser's or system's preferred languages, else English. Small and free of
 * i18next, for the page's first script (main.tsx), which starts loading that language's catalogue.
 */
import { isLanguage, type Language, pickLanguage } from '../../shared/i18n/languages.ts';

export const LANGUAGE_KEY = 'clever-reaper.language';

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

/** The language to speak now. */
export function startingLanguage(): Language {
  return chosenLanguage() ?? systemLanguage();
}
