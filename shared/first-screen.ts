/**
 * The first screen rendered by the server (issue 26): what the dashboard hydrates the page's rows
 * with, and what the server-side entry (renderer/ssr.tsx, built to out/renderer-ssr) takes and gives.
 * A signed-in browser's `GET /` gets the apps view's rows in its HTML and the id of this data, which
 * the page fetches once (`GET /api/first-screen/{id}`, preloaded by the page's head): a megabyte of
 * JSON in the HTML held its first paint back while the parser went through it.
 * Pure: no DOM, no Node.js.
 */

import type { Snapshot } from './api.ts';
import type { Language } from './i18n/languages.ts';
import type { SessionInfo } from './people.ts';
import type { SnapshotByApp } from './snapshot-form.ts';

/**
 * The attribute on the page's <html> when the server renders its first screen, with the id of its
 * data. The page is sent as it is made (its head first): its first script may run before the rows
 * are in.
 */
export const RENDERING_ATTRIBUTE = 'data-first-screen';

/** Where a page fetches the data its first screen was rendered with, once. */
export const FIRST_SCREEN_PATH = '/api/first-screen';

export function firstScreenPath(id: string): string {
  return `${FIRST_SCREEN_PATH}/${encodeURIComponent(id)}`;
}

/**
 * `GET /api/events?after=<seq>`: the stream starts with the events after that snapshot's (the page's
 * own, taken before the stream opened), so that the page does not ask for a snapshot again.
 */
export const EVENTS_AFTER_PARAM = 'after';

/** The cookie the dashboard keeps the language chosen in Settings in, for the server's render. */
export const LANGUAGE_COOKIE = 'reaper_language';
/** The cookie the dashboard keeps the browser's time zone in, for the server's render. */
export const ZONE_COOKIE = 'reaper_zone';
/**
 * The cookie the dashboard keeps the height of its apps table's scrolled area in (CSS pixels; the
 * window's when the table was not on the page): the server renders the rows that fill it.
 */
export const VIEW_HEIGHT_COOKIE = 'reaper_view_height';
/** The height the first rows fill without that cookie (a laptop's window). */
export const FIRST_VIEW_HEIGHT = 800;

/** What the server rendered the rows with: the page hydrates with exactly this, then with its own. */
export interface FirstScreenData {
  snapshot: SnapshotByApp;
  /** Who the session is (the answer "who am I" would give, its CSRF token included). */
  session: SessionInfo;
  language: Language;
  /** The Intl locale the times and numbers were written in ("en-GB", "fr"). */
  locale: string;
  /** The time zone the times were written in. */
  zone: string;
  /** The height the rows were rendered to fill (CSS pixels): the table's first render fills as much. */
  viewHeight: number;
  /**
   * The server's host as the request named it (Host): the header says "the reaper at <host>", as the
   * page says it from its own address (the same, as a browser names it).
   */
  host: string;
}

/** What main/ calls in the built server entry (out/renderer-ssr). */
export interface FirstScreenRenderer {
  /**
   * The inner HTML of #root for this data (the apps view as its first paint shows it). `snapshot`:
   * data.snapshot in the flat form, when the caller has it (the server does), not decoded again.
   */
  renderFirstScreen(data: FirstScreenData, snapshot?: Snapshot): Promise<string>;
}
