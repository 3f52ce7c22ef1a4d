/**
 * Which URLs are the app's own page, and which links may leave the app for the browser. Pure: the
 * security handlers (security.ts) and the IPC sender check (ipc.ts) decide with these.
 */

/** Where the dashboard is loaded from: the built file, or the dev server (`electron-vite dev`). */
export type AppPage = { kind: 'file'; url: string } | { kind: 'dev'; url: string };

/** The app's own page: the same file (any fragment), or the same dev server origin. */
export function isAppPage(candidate: string, page: AppPage): boolean {
  if (!URL.canParse(candidate)) return false;
  const url = new URL(candidate);
  const own = new URL(page.url);
  if (page.kind === 'dev') return url.origin === own.origin && own.origin !== 'null';
  return (
    url.protocol === 'file:' &&
    own.protocol === 'file:' &&
    url.host === own.host &&
    url.pathname === own.pathname
  );
}

/**
 * Hosts of the links the app builds (Clever Cloud's console and documentation). A link the page
 * asks to open goes to the browser only when it is https to one of these (or http(s) on loopback,
 * the local wake proxy); anything else is dropped.
 */
export const EXTERNAL_HOSTS: readonly string[] = [
  'console.clever-cloud.com',
  'www.clever-cloud.com',
  'developers.clever-cloud.com',
];

/** The link to hand to the browser, normalised; null when the app does not open it. */
export function externalLink(candidate: string, hosts: readonly string[] = EXTERNAL_HOSTS): string | null {
  if (candidate.length > 2000 || !URL.canParse(candidate)) return null;
  const url = new URL(candidate);
  if (url.username || url.password) return null;
  const loopback = url.hostname === '127.0.0.1' || url.hostname === 'localhost' || url.hostname === '[::1]';
  if (url.protocol === 'https:' && hosts.includes(url.hostname)) return url.toString();
  if ((url.protocol === 'http:' || url.protocol === 'https:') && loopback) return url.toString();
  return null;
}
