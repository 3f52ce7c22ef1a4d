/**
 * The page with its first screen (issue 26), on the real server: a signed-in browser's GET / gets the
 * rows (from the built server entry: here a small one written for the test, so this test does not
 * need `vite build`) and the snapshot once in a JSON data block, in the language the language cookie
 * or Accept-Language says; without a session, with a cookie that is none, without the built entry or
 * when its render throws, the page as built (200, the failure logged). And the data block cannot be
 * ended by what it carries (`</script>` in an app's name).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppView, Snapshot } from '../../shared/api.ts';
import { FIRST_SCREEN_ID, type FirstScreenData } from '../../shared/first-screen.ts';
import { snapshotByApp } from '../../shared/snapshot-form.ts';
import { TEST_SERVER } from '../testing/test-server.ts';
import { pageWith } from './first-page.ts';
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

/** The data block's JSON, read as the page's first script reads it. */
function dataOf(html: string): FirstScreenData {
  const open = `<script type="application/json" id="${FIRST_SCREEN_ID}">`;
  const at = html.indexOf(open);
  expect(at).toBeGreaterThan(0);
  const end = html.indexOf('</script>', at);
  return JSON.parse(html.slice(at + open.length, end)) as FirstScreenData;
}

describe('GET / with the first screen', () => {
  it('signed in: the rows and the data block once, in the language of Accept-Language', async () => {
    const { status, headers, text } = await page({ cookie: admin, 'accept-language': 'fr-CA,fr;q=0.9' });
    expect(status).toBe(200);
    expect(headers.get('cache-control')).toBe('no-store');
    expect(headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(text).toContain('<html lang="fr">');
    expect(text).toMatch(
      /<div id="root"><p class="rendered" data-language="fr" data-zone="UTC" data-role="admin" data-locale="fr-CA">\d+ apps<\/p><\/div>/,
    );
    expect(text.split(FIRST_SCREEN_ID)).toHaveLength(2);
    const data = dataOf(text);
    expect(data.session).toMatchObject({ name: 'alice', role: 'admin', by: 'session' });
    expect(data.session.csrf).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(data.snapshot.form).toBe('by-app');
    expect(data.snapshot.apps.length).toBeGreaterThan(0);
    // The rows before the data block: they show while it is still on its way.
    expect(text.indexOf('class="rendered"')).toBeLessThan(text.indexOf(FIRST_SCREEN_ID));
  });

  it('the language cookie over Accept-Language, the zone cookie, a viewer’s settings as a viewer’s', async () => {
    const cookie = `${viewer}; reaper_language=en; reaper_zone=${encodeURIComponent('America/New_York')}`;
    const { text } = await page({ cookie, 'accept-language': 'fr-FR' });
    expect(text).toContain('<html lang="en">');
    expect(text).toContain(
      'data-language="en" data-zone="America/New_York" data-role="viewer" data-locale="en"',
    );
    expect(dataOf(text).session.role).toBe('viewer');
    // A zone Intl does not know: UTC.
    expect((await page({ cookie: `${viewer}; reaper_zone=Mars%2FOlympus` })).text).toContain(
      'data-zone="UTC"',
    );
  });

  it('no session, a cookie that is none, or a render that fails: the page as built, never an error', async () => {
    for (const cookie of [
      undefined,
      'reaper_session=not-a-session',
      `${admin}; reaper_zone=Pacific%2FKiritimati`,
    ]) {
      const { status, text } = await page(cookie ? { cookie } : {});
      expect(status).toBe(200);
      expect(text).toBe(PAGE);
    }
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
});

describe('the data block', () => {
  it('cannot be ended or changed by what it carries, and reads back as it was', () => {
    const snapshot = {
      seq: 3,
      apps: [{ appId: 'app_x', name: '</script><script>alert(1)</script><!-- \u2028 & >' } as AppView],
      routes: [],
      rules: [],
    } as unknown as Snapshot;
    const data = {
      snapshot: snapshotByApp(snapshot),
      session: { name: 'a', role: 'admin', by: 'session', csrf: 'c', expiresAt: null },
      language: 'en',
      locale: 'en',
      zone: 'UTC',
      host: 'reaper.example.com',
    } as FirstScreenData;
    const html = pageWith(PAGE, data, '<p>rows</p>');
    const block = html.slice(html.indexOf(FIRST_SCREEN_ID));
    // One end of a script after the block's start: its own.
    expect(block.split('</script>')).toHaveLength(2);
    expect(block).not.toContain('<!--');
    expect(block).not.toContain('<script>');
    expect(dataOf(html)).toEqual(data);
  });
});
