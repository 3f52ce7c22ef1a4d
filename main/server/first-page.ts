/**
 * The page with its first screen in it (issue 26): a signed-in browser's `GET /` gets the dashboard's
 * rows in the HTML, rendered by the built server entry of the dashboard (out/renderer-ssr/ssr.js,
 * made by `vite build` from renderer/ssr.tsx; imported as a built file, never renderer/ source), and
 * the snapshot they were rendered with once, in a JSON data block the page hydrates from (it does
 * not ask for it again). A data block (`type="application/json"`) never runs: the page's CSP
 * (`script-src 'self'`) has nothing to allow for it.
 *
 * Without a session cookie, or with one that is not a session, the page is served as it is built
 * (the token screen asks). So is it when the server entry is not built, or its render fails (logged,
 * never an error answer). The page is the session's own: `no-store`, never a shared cache's.
 */
import { readFile, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pathToFileURL } from 'node:url';
import type { Snapshot } from '../../shared/api.ts';
import {
  FIRST_SCREEN_ID,
  type FirstScreenData,
  type FirstScreenRenderer,
  jsonForScript,
  LANGUAGE_COOKIE,
  ZONE_COOKIE,
} from '../../shared/first-screen.ts';
import { acceptLanguageTags, isLanguage, localeFor, pickLanguage } from '../../shared/i18n/languages.ts';
import { describeError, type Log } from '../../shared/log.ts';
import type { SessionInfo } from '../../shared/people.ts';
import { snapshotByApp } from '../../shared/snapshot-form.ts';
import { forViewer } from './audited.ts';
import type { Gate } from './gate.ts';
import { compressBody, negotiateEncoding } from './static-files.ts';

export interface FirstPageOptions {
  /** The built page (out/renderer/index.html). */
  page: string;
  /** The built server entry (out/renderer-ssr/ssr.js); absent: the page as built. */
  entry: string;
  gate: Gate;
  snapshot(): Promise<Snapshot>;
  log?: Log;
}

/** A cookie's value, decoded; null when absent or not decodable. */
export function cookieValue(req: IncomingMessage, name: string): string | null {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key !== name) continue;
    try {
      return decodeURIComponent(value.join('='));
    } catch {
      return null;
    }
  }
  return null;
}

/** A time zone Intl knows, else UTC (the page's hydration then writes in its own after a second). */
function zoneOf(given: string | null): string {
  if (!given || given.length > 64) return 'UTC';
  try {
    return new Intl.DateTimeFormat('en', { timeZone: given }).resolvedOptions().timeZone;
  } catch {
    return 'UTC';
  }
}

/** The language, locale and zone the first screen is written in, as the page would pick them. */
export function viewerOf(
  req: IncomingMessage,
): Pick<FirstScreenData, 'language' | 'locale' | 'zone' | 'host'> {
  const tags = acceptLanguageTags(String(req.headers['accept-language'] ?? ''));
  const chosen = cookieValue(req, LANGUAGE_COOKIE);
  const language = pickLanguage(tags, isLanguage(chosen) ? chosen : undefined);
  return {
    language,
    locale: localeFor(language, tags),
    zone: zoneOf(cookieValue(req, ZONE_COOKIE)),
    host: String(req.headers.host ?? ''),
  };
}

/** The page with the first screen and its data put in. */
export function pageWith(template: string, data: FirstScreenData, rows: string): string {
  const root = '<div id="root"></div>';
  if (!template.includes(root)) throw new Error('the built page has no empty #root');
  const block = `<script type="application/json" id="${FIRST_SCREEN_ID}">${jsonForScript(data)}</script>`;
  return template
    .replace(/<html lang="[^"]*">/, `<html lang="${data.language}">`)
    .replace(root, () => `<div id="root">${rows}</div>\n    ${block}`);
}

export function firstPage(options: FirstPageOptions) {
  const { log } = options;
  let loaded: { mtimeMs: number; renderer: Promise<FirstScreenRenderer> } | null = null;
  let template: { mtimeMs: number; text: Promise<string> } | null = null;

  /** The built entry, imported again when rebuilt; null when not built. */
  const renderer = async (): Promise<FirstScreenRenderer | null> => {
    const info = await stat(options.entry).catch(() => null);
    if (!info?.isFile()) return null;
    if (loaded?.mtimeMs !== info.mtimeMs) {
      const url = `${pathToFileURL(options.entry).href}?v=${info.mtimeMs}`;
      loaded = { mtimeMs: info.mtimeMs, renderer: import(url) as Promise<FirstScreenRenderer> };
    }
    return loaded.renderer;
  };
  const page = async (): Promise<string> => {
    const info = await stat(options.page);
    if (template?.mtimeMs !== info.mtimeMs) {
      template = { mtimeMs: info.mtimeMs, text: readFile(options.page, 'utf8') };
    }
    return template.text;
  };

  /** Serve the page with the first screen in it: false when not for this request (serve it as built). */
  return async function serveFirstPage(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    if (req.method !== 'GET' || !req.headers.cookie) return false;
    const who = await options.gate.sessionOf(req);
    if (!who) return false;
    let html: string;
    try {
      const render = await renderer();
      if (!render) return false;
      const full = await options.snapshot();
      const shown = (who.role === 'viewer' ? forViewer('snapshot', full) : full) as Snapshot;
      const session: SessionInfo = {
        name: who.name,
        role: who.role,
        by: who.by,
        csrf: who.csrf,
        expiresAt: who.expiresAt,
      };
      const data: FirstScreenData = { snapshot: snapshotByApp(shown), session, ...viewerOf(req) };
      html = pageWith(await page(), data, await render.renderFirstScreen(data));
    } catch (error) {
      log?.(
        'error',
        `the first screen could not be rendered (the page is served without it): ${describeError(error, { stack: true })}`,
      );
      return false;
    }
    const body = Buffer.from(html);
    const encoding = negotiateEncoding(req.headers['accept-encoding']);
    const sent = encoding ? await compressBody(body, encoding, 'dynamic') : body;
    res.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      vary: 'Accept-Encoding, Cookie',
      ...(encoding ? { 'content-encoding': encoding } : {}),
      'content-length': sent.length,
    });
    res.end(sent);
    return true;
  };
}
