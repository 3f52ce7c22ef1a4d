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
import { createHash, randomBytes } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { constants, createBrotliCompress, createGzip } from 'node:zlib';
import type { Snapshot } from '../../shared/api.ts';
import {
  FIRST_VIEW_HEIGHT,
  type FirstScreenData,
  type FirstScreenRenderer,
  firstScreenPath,
  LANGUAGE_COOKIE,
  RENDERING_ATTRIBUTE,
  VIEW_HEIGHT_COOKIE,
  ZONE_COOKIE,
} from '../../shared/first-screen.ts';
import { acceptLanguageTags, isLanguage, localeFor, pickLanguage } from '../../shared/i18n/languages.ts';
import { describeError, type Log } from '../../shared/log.ts';
import type { SessionInfo } from '../../shared/people.ts';
import { snapshotByApp } from '../../shared/snapshot-form.ts';
import { sendError, sendJson } from './answers.ts';
import { forViewer } from './audited.ts';
import type { Gate, Who } from './gate.ts';
import { CSP, negotiateEncoding } from './static-files.ts';

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

/** A window height in CSS pixels, within what screens have; else the default. */
function viewHeightOf(given: string | null): number {
  const height = Number(given);
  return Number.isInteger(height) && height >= 100 && height <= 10_000 ? height : FIRST_VIEW_HEIGHT;
}

/** The language, locale, zone and window height the first screen is written for, as the page would pick them. */
export function viewerOf(
  req: IncomingMessage,
): Pick<FirstScreenData, 'language' | 'locale' | 'zone' | 'viewHeight' | 'host'> {
  const tags = acceptLanguageTags(String(req.headers['accept-language'] ?? ''));
  const chosen = cookieValue(req, LANGUAGE_COOKIE);
  const language = pickLanguage(tags, isLanguage(chosen) ? chosen : undefined);
  return {
    language,
    locale: localeFor(language, tags),
    zone: zoneOf(cookieValue(req, ZONE_COOKIE)),
    viewHeight: viewHeightOf(cookieValue(req, VIEW_HEIGHT_COOKIE)),
    host: String(req.headers.host ?? ''),
  };
}

/**
 * The page cut where the first screen goes: `head` up to and with `<div id="root">`, `tail` from its
 * `</div>` on. Its <html> is in the viewer's language and carries the first screen's id (the page's
 * first script fetches its data with it), and the head asks for that data at once (a preload, so it
 * is on its way before any script has run).
 */
export function pageParts(template: string, language: string, id: string): { head: string; tail: string } {
  const root = '<div id="root"></div>';
  const at = template.indexOf(root);
  if (at < 0 || !template.includes('<head>'))
    throw new Error('the built page has no <head> or no empty #root');
  const open = '<div id="root">'.length;
  return {
    head: template
      .slice(0, at + open)
      .replace(/<html lang="[^"]*">/, `<html lang="${language}" ${RENDERING_ATTRIBUTE}="${id}">`)
      .replace(
        '<head>',
        `<head>\n    <link rel="preload" as="fetch" crossorigin href="${firstScreenPath(id)}" />`,
      ),
    tail: template.slice(at + open),
  };
}

interface Template {
  text: string;
  /** The CSP the page is answered with: the server's, its inline stylesheet allowed by its hash. */
  policy: string;
}

/**
 * The built page with its stylesheet in it (a `<style>`, allowed by its hash in the page's CSP, the
 * header's and the page's own): the first paint then waits for nothing but the page, not for a
 * request that queues behind the scripts' on a server busy rendering the rows. A stylesheet that
 * cannot be put in: the page as built.
 */
async function withStyleIn(template: string, pagePath: string): Promise<Template> {
  const link = /<link rel="stylesheet" crossorigin href="\.\/(assets\/[\w.-]+\.css)">/.exec(template);
  const styles = "style-src 'self'";
  const css = link ? await readFile(join(dirname(pagePath), link[1]!), 'utf8').catch(() => null) : null;
  if (!link || css === null || /<\/style/i.test(css)) return { text: template, policy: CSP };
  const allowed = `${styles} 'sha256-${createHash('sha256').update(css).digest('base64')}'`;
  return {
    text: template.replace(styles, () => allowed).replace(link[0], () => `<style>${css}</style>`),
    policy: CSP.replace(styles, () => allowed),
  };
}

/**
 * The answer's body as it is written, compressed as the client accepts; `flush` sends what is
 * written so far (the browser parses, fetches and paints it while the rest is made), and resolves
 * once it is handed to the connection: the compressor works on a thread of its own, and a render
 * started before its answer came back would hold the head back until the render's end.
 */
function bodyWriter(res: ServerResponse, encoding: ReturnType<typeof negotiateEncoding>) {
  if (!encoding) {
    return {
      write: (text: string) => res.write(text),
      flush: () => Promise.resolve(),
      end: () => res.end(),
    };
  }
  const zip =
    encoding === 'br'
      ? createBrotliCompress({
          params: {
            [constants.BROTLI_PARAM_QUALITY]: 4,
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          },
        })
      : createGzip({ level: 6 });
  // A client gone away, or a compressor failing: the answer ends there (nothing else to tell).
  pipeline(zip, res, () => undefined);
  return {
    write: (text: string) => zip.write(text),
    flush: () => new Promise<void>((flushed) => zip.flush(() => flushed())),
    end: () => zip.end(),
  };
}

/** How long a first screen's data waits for its page to ask for it. */
export const FIRST_SCREEN_KEPT_MS = 60_000;
/** First screens waiting at most: a page asks for its own within a second; more are dropped, oldest first. */
const MAX_WAITING = 64;

interface Waiting {
  /** The session it was rendered for (its CSRF token: one per session). */
  csrf: string;
  data: Promise<FirstScreenData | null>;
  timer: NodeJS.Timeout;
}

export function firstPage(options: FirstPageOptions) {
  const { log } = options;
  let loaded: { mtimeMs: number; renderer: Promise<FirstScreenRenderer> } | null = null;
  let template: { mtimeMs: number; text: Promise<Template> } | null = null;
  const waiting = new Map<string, Waiting>();
  const forget = (id: string) => {
    clearTimeout(waiting.get(id)?.timer);
    waiting.delete(id);
  };

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
  const page = async (): Promise<Template> => {
    const info = await stat(options.page);
    if (template?.mtimeMs !== info.mtimeMs) {
      template = {
        mtimeMs: info.mtimeMs,
        text: readFile(options.page, 'utf8').then((text) => withStyleIn(text, options.page)),
      };
    }
    return template.text;
  };

  /** The first screen's data, for what `who` rendered with `render`, or null when it could not be rendered. */
  async function render(
    renderer: FirstScreenRenderer,
    who: Who,
    viewer: ReturnType<typeof viewerOf>,
  ): Promise<{ data: FirstScreenData; rows: string } | null> {
    try {
      const full = await options.snapshot();
      const shown = (who.role === 'viewer' ? forViewer('snapshot', full) : full) as Snapshot;
      const session: SessionInfo = {
        name: who.name,
        role: who.role,
        by: who.by,
        csrf: who.csrf,
        expiresAt: who.expiresAt,
      };
      const data: FirstScreenData = { snapshot: snapshotByApp(shown), session, ...viewer };
      return { data, rows: await renderer.renderFirstScreen(data, shown) };
    } catch (error) {
      log?.(
        'error',
        `the first screen could not be rendered (the page is served without it): ${describeError(error, { stack: true })}`,
      );
      return null;
    }
  }

  return {
    /**
     * Serve the page with the first screen in it: false when not for this request (serve it as
     * built). The page is sent as it is made: its head at once (the browser fetches the stylesheet,
     * the scripts and the first screen's data while the rows are rendered), then the rows. A render
     * that fails once the head is sent leaves the page as built from there (no rows), and its data
     * answers 404: the page's first script then renders it anew.
     */
    async page(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
      if (req.method !== 'GET' || !req.headers.cookie) return false;
      const who = await options.gate.sessionOf(req);
      if (!who?.csrf) return false;
      let entry: FirstScreenRenderer | null;
      let built: Template;
      try {
        entry = await renderer();
        built = await page();
      } catch (error) {
        log?.(
          'error',
          `the first screen cannot be rendered (the page is served without it): ${describeError(error)}`,
        );
        return false;
      }
      if (!entry) return false;
      const viewer = viewerOf(req);
      const id = randomBytes(18).toString('base64url');
      const { head, tail } = pageParts(built.text, viewer.language, id);
      const encoding = negotiateEncoding(req.headers['accept-encoding']);
      res.writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-store',
        'content-security-policy': built.policy,
        vary: 'Accept-Encoding, Cookie',
        ...(encoding ? { 'content-encoding': encoding } : {}),
      });
      const body = bodyWriter(res, encoding);
      body.write(head);
      // The head on its way first (its scripts, and the preload of this data), then the rows.
      const rendered = body.flush().then(() => render(entry, who, viewer));
      if (waiting.size >= MAX_WAITING) forget(waiting.keys().next().value!);
      const timer = setTimeout(() => forget(id), FIRST_SCREEN_KEPT_MS);
      timer.unref();
      waiting.set(id, { csrf: who.csrf, data: rendered.then((r) => r?.data ?? null), timer });
      const done = await rendered;
      body.write(done ? done.rows + tail : tail);
      body.end();
      return true;
    },

    /**
     * `GET /api/first-screen/{id}`: the data a page's first screen was rendered with (so that its
     * hydration renders exactly the same), once, to the session it was rendered for, within
     * FIRST_SCREEN_KEPT_MS. Anything else is a 404, and the page renders anew: a first screen already
     * taken, too old, another session's, one whose render failed, or one rendered by another instance
     * of a team server (each keeps its own).
     */
    async data(req: IncomingMessage, res: ServerResponse, who: Who, id: string): Promise<void> {
      const kept = waiting.get(id);
      if (!kept || !who.csrf || kept.csrf !== who.csrf) {
        sendError(res, {
          error: { code: 'not-found', message: `no first screen ${id} waits for this session` },
        });
        return;
      }
      forget(id);
      const data = await kept.data;
      if (!data) {
        sendError(res, {
          error: { code: 'not-found', message: `the first screen ${id} could not be rendered` },
        });
        return;
      }
      await sendJson(res, 200, data, req.headers['accept-encoding']);
    },
  };
}
