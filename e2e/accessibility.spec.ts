/**
 * axe (WCAG 2.x A and AA rules) finds nothing on any view of the dashboard, in English and in
 * French: the apps, an app's details panel, the routes, the route editor, the history, the savings,
 * the settings, the first-run screen and the token screen, on the demo server; and the waking page
 * the wake proxy serves. The language comes from the browser's (`locale`), as a visitor's would.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, LANGUAGES, SHELL, test } from './fixtures.ts';
import { goTo, openDashboard, routeIdOf, settle } from './views.ts';

/** Every violation of the page, one line each: the rule, its impact, and where. */
async function violations(page: Page): Promise<string[]> {
  await settle(page);
  const result = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
    .analyze();
  return result.violations.flatMap((v) =>
    v.nodes.map(
      (n) => `${v.id} (${v.impact}): ${n.target.join(' ')} — ${n.failureSummary?.split('\n')[1] ?? v.help}`,
    ),
  );
}

for (const { language, locale } of LANGUAGES) {
  test.describe(`accessibility, ${language}`, () => {
    test.use({ locale });
    // The desktop window speaks the system's language, which Playwright's locale does not set.
    test.skip(SHELL === 'electron' && language !== 'en', "the desktop app follows the system's language");

    test(`the dashboard's views have no axe violation (${language})`, async ({ page, reaper }) => {
      test.setTimeout(180_000);
      await openDashboard(page, reaper, language);
      const found: Record<string, string[]> = {};

      await goTo(page, '#/apps');
      await expect(page.locator('tr[data-app="partner-portal"]')).toBeVisible();
      found.apps = await violations(page);

      await goTo(page, `#/apps/${await reaper.appId('partner-portal')}`);
      await expect(page.getByRole('dialog')).toBeVisible();
      found['app details'] = await violations(page);

      await goTo(page, '#/routes');
      await expect(page.locator('tr[data-app]')).toHaveCount(0);
      await expect(page.getByRole('table').first()).toBeVisible();
      found.routes = await violations(page);

      await goTo(page, `#/routes/${await routeIdOf(reaper, 'docs-preview')}`);
      await expect(page.locator('ul.ranges input').first()).toBeVisible();
      found['route editor'] = await violations(page);

      await goTo(page, '#/history');
      await expect(page.getByRole('table').first()).toBeVisible();
      found.history = await violations(page);

      await goTo(page, '#/savings');
      await expect(page.getByRole('img').first()).toBeVisible();
      found.savings = await violations(page);

      await goTo(page, '#/settings');
      await expect(page.getByRole('switch').first()).toBeVisible();
      found.settings = await violations(page);

      expect(found).toEqual({
        apps: [],
        'app details': [],
        routes: [],
        'route editor': [],
        history: [],
        savings: [],
        settings: [],
      });
    });

    test.describe('without an account', () => {
      test.use({ scenario: null });
      test(`the first-run screen has no axe violation (${language})`, async ({ page, reaper }) => {
        await page.goto(reaper.dashboardUrl);
        await expect(page.locator('main.first-run h1')).toBeVisible();
        await expect(page.locator('html')).toHaveAttribute('lang', language);
        expect(await violations(page)).toEqual([]);
      });
    });

    test(`the token screen has no axe violation (${language})`, async ({ page, reaper }) => {
      test.skip(SHELL === 'electron', 'the desktop app needs no token');
      await page.goto(reaper.url);
      await expect(page.locator('main.first-run form')).toBeVisible();
      await expect(page.locator('html')).toHaveAttribute('lang', language);
      expect(await violations(page)).toEqual([]);
    });

    test.describe('the waking page', () => {
      // In real time: the app takes its while to wake, and the page reloads onto it once Up.
      test.use({ timeScale: 1 });
      test(`the waking page has no axe violation, and speaks the visitor's language (${language})`, async ({
        page,
        reaper,
      }) => {
        test.skip(SHELL === 'electron', 'the wake proxy is reached by a browser, not by the desktop window');
        const { body: status } = await reaper.api<{ wakeProxy: { url: string | null } }>(
          'GET',
          '/api/status',
        );
        const port = new URL(status.wakeProxy.url!).port;
        const answer = await page.goto(`http://preview.localhost:${port}/`);
        expect(answer?.status()).toBe(503);
        await expect(page.locator('html')).toHaveAttribute('lang', language);
        await expect(page.getByRole('heading', { level: 1 })).toHaveText(
          language === 'fr' ? 'Réveil de preview-site' : 'Waking up preview-site',
        );
        expect(await violations(page)).toEqual([]);
        // The time the start was asked, written by the page's script with Intl for the language.
        await expect(page.locator('#asked')).toHaveText(
          language === 'fr' ? /demandé à \d{2}:\d{2}$/ : /asked at \d{2}:\d{2}$/,
        );
      });
    });
  });
}
