/**
 * The first screen of the web dashboard (issue 16, "a fast first screen"): its data asked for once,
 * by the page's first script, with the session cookie (the token sent once, in the sign-in's body,
 * never in a URL nor kept; issue 25; once signed in, in the page itself, issue 26); the views it does not
 * show fetched only when opened; the files cached and compressed.
 */
import type { Request } from '@playwright/test';
import { appRow, expect, SHELL, test } from './fixtures.ts';

/** The chunks of the views loaded on demand (renderer/components/shell/Shell.tsx). */
const ON_DEMAND =
  /\/assets\/(AppDetail|HistoryView|SavingsView|RoutesView|SettingsView|FirstRun)-[\w-]+\.js$/;

test.describe('the first screen', () => {
  test.skip(SHELL === 'electron', 'the desktop window has no admin token and no HTTP server');

  test('asks for its data once, signed in with the token once, and no view it does not show', async ({
    page,
    reaper,
  }) => {
    const requests: Request[] = [];
    page.on('request', (r) => requests.push(r));
    await page.goto(reaper.dashboardUrl);
    await expect(appRow(page, 'shop-staging')).toBeVisible();
    await expect(page.locator('.connection.live')).toBeVisible();

    const paths = requests.map((r) => new URL(r.url()).pathname);
    expect(paths.filter((p) => p === '/api/snapshot')).toHaveLength(1);
    expect(paths.filter((p) => p === '/api/events')).toHaveLength(1);
    for (const r of requests) {
      expect(r.url()).not.toContain(reaper.token);
      expect(r.url()).not.toContain(encodeURIComponent(reaper.token));
      if (new URL(r.url()).pathname.startsWith('/api/')) {
        expect(await r.headerValue('authorization')).toBeNull();
      }
    }
    // The token went once, in the body of the sign-in; the session cookie stands for it after.
    const signIns = requests.filter(
      (r) => new URL(r.url()).pathname === '/api/session' && r.method() === 'POST',
    );
    expect(signIns.map((r) => r.postDataJSON())).toEqual([{ token: reaper.token }]);
    expect(await page.evaluate(() => JSON.stringify({ ...sessionStorage, ...localStorage }))).not.toContain(
      reaper.token,
    );
    expect(page.url()).not.toContain(reaper.token);
    expect(requests.filter((r) => ON_DEMAND.test(r.url()))).toEqual([]);

    // The other views arrive when opened.
    for (const view of ['History', 'Savings', 'Routes', 'Settings']) {
      await page.getByRole('link', { name: new RegExp(`^${view}`) }).click();
      await expect(page.getByRole('heading', { level: 1, name: view })).toBeVisible();
      expect(requests.some((r) => new RegExp(`/assets/${view}View-[\\w-]+\\.js$`).test(r.url()))).toBe(true);
    }
    // And a reload, without the token in the address bar, finds the data again (the session
    // cookie): in the page itself, rendered by the server (issue 26), not asked for; it stays on the
    // view the URL names (#/settings), and the apps are there.
    requests.length = 0;
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
    await page.getByRole('link', { name: /^Apps/ }).click();
    await expect(appRow(page, 'shop-staging')).toBeVisible();
    expect(requests.filter((r) => new URL(r.url()).pathname === '/api/snapshot')).toHaveLength(0);
  });

  test('is served compressed, its hashed files cached for good and the page revalidated', async ({
    page,
    reaper,
  }) => {
    const [page_] = await Promise.all([
      page.waitForResponse((r) => new URL(r.url()).pathname === '/'),
      page.goto(reaper.dashboardUrl),
    ]);
    expect(page_.headers()['cache-control']).toBe('no-cache');
    await expect(appRow(page, 'shop-staging')).toBeVisible();
    const scripts = await page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .filter((e) => /\/assets\/.*\.js$/.test(e.name))
        .map((e) => e.name),
    );
    expect(scripts.length).toBeGreaterThan(1);
    for (const url of scripts) {
      const res = await page.request.get(url, { headers: { 'accept-encoding': 'gzip, br' } });
      expect(res.status()).toBe(200);
      expect(res.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
      // Below 1 KB (a chunk that only re-exports) a file is sent as it is.
      if ((await res.body()).length >= 1024) {
        expect(res.headers().vary).toBe('Accept-Encoding');
        expect(['br', 'gzip']).toContain(res.headers()['content-encoding']);
      }
    }
  });
});
