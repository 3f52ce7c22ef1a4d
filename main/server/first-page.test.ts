/**
 * The page with its first screen (issue 26), on the real server: a signed-in browser's GET / gets the
 * rows (from the built server entry: here a small one written for the test, so this test does not
 * need `vite build`), in the language the language cookie or Accept-Language says, sent as they are
 * made (the head first), and the id of the data they were rendered with, which that session alone
 * can fetch, once; without a session, with a cookie that is none, without the built entry or when its
 * render throws, the page as built (200, the failure logged).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIRST_VIEW_HEIGHT, type FirstScreenData, RENDERING_ATTRIBUTE } from '../../shared/first-screen.ts';
import { TEST_SERVER } from '../testing/test-server.ts';
import { type Headless, startHeadless } from './headless.ts';

const PAGE = `<!doctype html>
<html lang="en">
  <head><script type="module" async crossorigin src="./assets/index.js"></script></head>
  <body>
    <div id="root"></div>
  </body>
</html>
`;

/** The built entry's contract (shared/first-screen.ts), its render made to fail in one zone. */
const ENTRY = `export async function renderFirstScreen(data) {
  if (data.zone === 'Pacific/Kiritimati') throw new Error('the render failed on purpose');
  if (data.zone === 'Pacific/Chatham') await globalThis.renderHeld;
  return '<p class="rendered" data-language="' + data.language + '" data-zone="' + data.zone + '" data-role="' +
    data.session.role + '" data-locale="' + data.locale + '">' + data.snapshot.apps.length + ' apps</p>';
}
`;

let server: Headless;
let dir: string;
let admin = '';
let viewer = '';
const logs: string[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'reaper-first-page-'));
  mkdirSync(join(dir, 'out', 'renderer'), { recursive: true });
  mkdirSync(join(dir, 'out', 'renderer-ssr'), { recursive: true });
  mkdirSync(join(dir, 'data'));
  writeFileSync(join(dir, 'out', 'renderer', 'index.html'), PAGE);
  writeFileSync(join(dir, 'out', 'renderer-ssr', 'ssr.js'), ENTRY);
  server = await startHeadless({
    ...TEST_SERVER,
    demo: true,
    dataDir: join(dir, 'data'),
    staticDir: join(dir, 'out', 'renderer'),
    log: (level, message) => logs.push(`${level}: ${message}`),
  });
  admin = await signIn((await server.people.createToken({ name: 'alice', role: 'admin' }, 'test')).token);
  viewer = await signIn((await server.people.createToken({ name: 'victor', role: 'viewer' }, 'test')).token);
}, 60_000);
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function signIn(token: string): Promise<string> {
  const res = await fetch(`${server.url}/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token }),
  });
  expect(res.status).toBe(200);
  return (res.headers.get('set-cookie') ?? '').split(';')[0]!;
}

async function page(headers: Record<string, string> = {}) {
  const res = await fetch(`${server.url}/`, { headers });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/** The id of the first screen's data the page names on its <html>, and preloads in its head. */
function idOf(html: string): string {
  const id = new RegExp(`<html lang="[a-z]+" ${RENDERING_ATTRIBUTE}="([A-Za-z0-9_-]+)">`).exec(html)?.[1];
  expect(id).toBeDefined();
  expect(html).toContain(
    `<head>\n    <link rel="preload" as="fetch" crossorigin href="/api/first-screen/${id}" />`,
  );
  return id!;
}

/** The page without what names its first screen's data: the page as built, with its rows if any. */
function withoutId(html: string): string {
  return html
    .replace(/ data-first-screen="[^"]*"/, '')
    .replace(/\n {4}<link rel="preload" as="fetch" crossorigin href="\/api\/first-screen\/[^"]*" \/>/, '');
}

/** The first screen's data, fetched as the page's first script does (its cookie, same origin). */
function data(id: string, headers: Record<string, string>) {
  return fetch(`${server.url}/api/first-screen/${id}`, { headers });
}

describe('GET / with the first screen', () => {
  it('signed in: the rows in the page, which names their data: served once, to its session, compressed', async () => {
    const { status, headers, text } = await page({ cookie: admin, 'accept-language': 'fr-CA,fr;q=0.9' });
    expect(status).toBe(200);
    expect(headers.get('cache-control')).toBe('no-store');
    expect(headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(text).toMatch(
      /<div id="root"><p class="rendered" data-language="fr" data-zone="UTC" data-role="admin" data-locale="fr-CA">\d+ apps<\/p><\/div>/,
    );
    expect(text).toContain(`<html lang="fr" ${RENDERING_ATTRIBUTE}="`);
    const id = idOf(text);
    // The data is not in the page: a megabyte of JSON in the HTML held the first paint back.
    expect(text).not.toContain('"snapshot"');
    // Another session, a bearer token, an id that is none: nothing (and the page's own is still there).
    expect((await data(id, { cookie: viewer })).status).toBe(404);
    expect((await data(id, { authorization: `Bearer ${server.token.token}` })).status).toBe(404);
    expect((await data('not-an-id', { cookie: admin })).status).toBe(404);
    const post = await fetch(`${server.url}/api/first-screen/${id}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.token.token}` },
    });
    expect(post.status).toBe(405);
    const res = await data(id, { cookie: admin, 'accept-encoding': 'br' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe('br');
    expect(res.headers.get('cache-control')).toBe('no-store');
    const first = (await res.json()) as FirstScreenData;
    expect(first.session).toMatchObject({ name: 'alice', role: 'admin', by: 'session' });
    expect(first.session.csrf).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(first).toMatchObject({ language: 'fr', locale: 'fr-CA', zone: 'UTC' });
    expect(first.snapshot.form).toBe('by-app');
    expect(first.snapshot.apps.length).toBeGreaterThan(0);
    // Once: a second ask finds nothing, with a reason.
    const again = await data(id, { cookie: admin });
    expect(again.status).toBe(404);
    expect(((await again.json()) as { error: { message: string } }).error.message).toBe(
      `no first screen ${id} waits for this session`,
    );
  });

  it('the language cookie over Accept-Language, the zone cookie, a viewer’s settings as a viewer’s', async () => {
    const cookie = `${viewer}; reaper_language=en; reaper_zone=${encodeURIComponent('America/New_York')}`;
    const { text } = await page({ cookie, 'accept-language': 'fr-FR' });
    expect(text).toContain(`<html lang="en" ${RENDERING_ATTRIBUTE}="`);
    expect(text).toContain(
      'data-language="en" data-zone="America/New_York" data-role="viewer" data-locale="en"',
    );
    const first = (await (await data(idOf(text), { cookie: viewer })).json()) as FirstScreenData;
    expect(first.session.role).toBe('viewer');
    expect(first.zone).toBe('America/New_York');
    // The window's height the rows fill; one no screen has: the default.
    const tall = await page({ cookie: `${viewer}; reaper_view_height=1400` });
    expect(
      ((await (await data(idOf(tall.text), { cookie: viewer })).json()) as FirstScreenData).viewHeight,
    ).toBe(1400);
    for (const height of ['40', '1e9', '700.5', 'tall']) {
      const odd = await page({ cookie: `${viewer}; reaper_view_height=${height}` });
      const read = (await (await data(idOf(odd.text), { cookie: viewer })).json()) as FirstScreenData;
      expect(read.viewHeight).toBe(FIRST_VIEW_HEIGHT);
    }
    // A zone Intl does not know: UTC.
    expect((await page({ cookie: `${viewer}; reaper_zone=Mars%2FOlympus` })).text).toContain(
      'data-zone="UTC"',
    );
  });

  it('no session, a cookie that is none, or a render that fails: the page as built, never an error', async () => {
    for (const cookie of [undefined, 'reaper_session=not-a-session']) {
      const { status, text } = await page(cookie ? { cookie } : {});
      expect(status).toBe(200);
      expect(text).toBe(PAGE);
    }
    // A render that fails once the head is sent: the rest of the page as built (no rows), and its
    // data is none, so that the page's first script renders it anew.
    const failed = await page({ cookie: `${admin}; reaper_zone=Pacific%2FKiritimati` });
    expect(failed.status).toBe(200);
    expect(withoutId(failed.text)).toBe(PAGE);
    const none = await data(idOf(failed.text), { cookie: admin });
    expect(none.status).toBe(404);
    expect(((await none.json()) as { error: { message: string } }).error.message).toMatch(
      /could not be rendered$/,
    );
    expect(
      logs.some(
        (l) => l.startsWith('error: the first screen could not be rendered') && l.includes('on purpose'),
      ),
    ).toBe(true);
    // A wrong cookie on the page is not a wrong token: nothing is slowed down.
    expect((await page({ cookie: admin })).text).toContain('class="rendered"');
  });

  it('without the built entry: the page as built', async () => {
    rmSync(join(dir, 'out', 'renderer-ssr', 'ssr.js'));
    expect((await page({ cookie: admin })).text).toBe(PAGE);
    writeFileSync(join(dir, 'out', 'renderer-ssr', 'ssr.js'), ENTRY);
  });

  it('keeps a bounded number of first screens waiting: the oldest goes first', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 65; i++) ids.push(idOf((await page({ cookie: admin })).text));
    expect((await data(ids[0]!, { cookie: admin })).status).toBe(404);
    expect((await data(ids[1]!, { cookie: admin })).status).toBe(200);
    expect((await data(ids[64]!, { cookie: admin })).status).toBe(200);
  });
});

describe('sent as it is made', () => {
  it('a browser gone before its rows are written: nothing breaks, the next page is served', async () => {
    for (const encoding of ['br', 'gzip', 'identity']) {
      let release: () => void = () => undefined;
      const held = globalThis as { renderHeld?: Promise<void> };
      held.renderHeld = new Promise<void>((done) => {
        release = done;
      });
      const gone = new AbortController();
      const res = await fetch(`${server.url}/`, {
        headers: { cookie: `${admin}; reaper_zone=Pacific%2FChatham`, 'accept-encoding': encoding },
        signal: gone.signal,
      });
      const reader = res.body!.getReader();
      await reader.read();
      gone.abort();
      await reader.read().catch(() => undefined);
      release();
      const next = await page({ cookie: admin, 'accept-encoding': encoding });
      expect(next.status).toBe(200);
      expect(next.text).toContain('class="rendered"');
    }
  });

  it('the head before the rows are rendered; the data asked for meanwhile waits for them; compressed or not', async () => {
    for (const encoding of ['br', 'gzip', 'identity']) {
      let release: () => void = () => undefined;
      const held = globalThis as { renderHeld?: Promise<void> };
      held.renderHeld = new Promise<void>((done) => {
        release = done;
      });
      const res = await fetch(`${server.url}/`, {
        headers: { cookie: `${admin}; reaper_zone=Pacific%2FChatham`, 'accept-encoding': encoding },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-encoding') ?? 'identity').toBe(encoding);
      const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
      let text = '';
      while (!text.includes('<div id="root">')) {
        const { value, done } = await reader.read();
        expect(done).toBe(false);
        text += value;
      }
      // The render is held: what came is the head (its scripts, its preload of the data), no row yet.
      expect(text).toContain('./assets/index.js');
      expect(text).not.toContain('class="rendered"');
      // The page's preload asks for the data now: it answers once the render is done.
      let answered = false;
      const asked = data(idOf(text), { cookie: admin }).then((r) => {
        answered = true;
        return r;
      });
      await new Promise<void>((done) => setImmediate(done));
      expect(answered).toBe(false);
      release();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        text += value;
      }
      expect(text).toContain('class="rendered"');
      expect(text.endsWith('</html>\n')).toBe(true);
      const first = await asked;
      expect(first.status).toBe(200);
      expect(((await first.json()) as FirstScreenData).zone).toBe('Pacific/Chatham');
    }
  });
});
