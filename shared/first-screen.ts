/**
 * The first screen rendered by the server (issue 26): what the page's HTML carries for the dashboard
 * to hydrate, and what the server-side entry (renderer/ssr.tsx, built to out/renderer-ssr) takes and
 * gives. A signed-in browser's `GET /` gets the apps view's rows in its HTML, and this data once, in
 * a `<script type="application/json">` block (a data block: it never runs, the CSP allows it).
 * Pure: no DOM, no Node.js.
 */
import type { Language } from './i18n/languages.ts';
import type { SessionInfo } from './people.ts';
import type { SnapshotByApp } from './snapshot-form.ts';

/** The id of the data block in the page. */
export const FIRST_SCREEN_ID = 'reaper-first-screen';

/**
 * `GET /api/events?after=<seq>`: the stream starts with the events after that snapshot's (the page's
 * own, taken before the stream opened), so that the page does not ask for a snapshot again.
 */
export const EVENTS_AFTER_PARAM = 'after';

/** The cookie the dashboard keeps the language chosen in Settings in, for the server's render. */
export const LANGUAGE_COOKIE = 'reaper_language';
/** The cookie the dashboard keeps the browser's time zone in, for the server's render. */
export const ZONE_COOKIE = 'reaper_zone';

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
  /**
   * The server's host as the request named it (Host): the header says "the reaper at <host>", as the
   * page says it from its own address (the same, as a browser names it).
   */
  host: string;
}

/** What main/ calls in the built server entry (out/renderer-ssr). */
export interface FirstScreenRenderer {
  /** The inner HTML of #root for this data (the apps view as its first paint shows it). */
  renderFirstScreen(data: FirstScreenData): Promise<string>;
}

/**
 * JSON that is safe inside a `<script>` element: `<` (so no `</script>` nor `<!--` can end or change
 * it), `>`, `&` and the two line separators JavaScript once refused, all written as \u escapes, which
 * JSON.parse reads back as the same characters.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
