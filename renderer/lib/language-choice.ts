/**
 * Which language the dashboard speaks: the operator's choice (kept in this browser or desktop
 * profile), else the browser's or system's preferred languages, else English. Small and free of
 * i18next, for the page's first script (main.tsx), which starts loading that language's catalogue.
 */
import { LANGUAGE_COOKIE, VIEW_HEIGHT_COOKIE, ZONE_COOKIE } from '../../shared/first-screen.ts';
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

/** What the server renders a first screen for, of this page: its time zone and the height its rows fill. */
export interface ViewerHere {
  zone: string;
  height: number;
}

/** The apps table's scrolled area (AppsTable), whose height the first rows fill. */
const TABLE_VIEW = '.table-scroll';

/**
 * This page's zone, and the height of its apps table's scrolled area when it is on the page (the
 * window's otherwise: more rows than show, never fewer).
 */
export function viewerHere(win: Window): ViewerHere {
  const table = win.document.querySelector(TABLE_VIEW)?.clientHeight;
  return {
    zone: Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC',
    height: table || win.innerHeight,
  };
}

/**
 * Tell the server, for the first screen it renders (issue 26), the language chosen here (the cookie
 * cleared when none: the server then reads Accept-Language), the browser's time zone and the height
 * the rows fill (the server renders as many). Not secrets, readable by the page; kept a year.
 */
export function keepForServer(doc: Document, viewer: ViewerHere, choice = chosenLanguage()): void {
  const cookie = (name: string, value: string | null) => {
    doc.cookie = `${name}=${value === null ? '' : encodeURIComponent(value)}; Path=/; SameSite=Strict; Max-Age=${value === null ? 0 : 31_536_000}`;
  };
  try {
    cookie(LANGUAGE_COOKIE, choice);
    cookie(ZONE_COOKIE, viewer.zone);
    cookie(VIEW_HEIGHT_COOKIE, String(Math.round(viewer.height)));
  } catch {
    // Cookies refused (a sandboxed page): the server renders in Accept-Language's language and UTC.
  }
}
