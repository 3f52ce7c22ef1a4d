/**
 * Screenshots in English and in French (the browser's language, as a visitor's), into
 * e2e/screenshots/i18n/ (git-ignored, as the other screenshots): the apps view, an app in Error with
 * its explanation and its link to the Clever Cloud console, the route editor with a bad range, and the
 * first-run screen. Each screen is found by its address and its structure, not by its words, so the
 * spec holds while the words change; each checks the page is in the language asked for.
 */
import type { Page } from '@playwright/test';
import { expect, LANGUAGES, SHELL, test } from './fixtures.ts';
import { firstRangeStart, goTo, openDashboard, routeIdOf, settle } from './views.ts';

async function shoot(page: Page, name: string): Promise<void> {
  await settle(page);
  const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
  expect(overflow, `${name}: the page scrolls sideways`).toBeLessThanOrEqual(0);
  const folder = SHELL === 'electron' ? 'e2e/screenshots/desktop/i18n' : 'e2e/screenshots/i18n';
  await page.screenshot({ path: `${folder}/${name}.png`, animations: 'disabled' });
}

for (const { language, locale } of LANGUAGES) {
  test.describe(`screenshots, ${language}`, () => {
    test.use({ locale });
    // The desktop window speaks the system's language, which Playwright's locale does not set.
    test.skip(SHELL === 'electron' && language !== 'en', "the desktop app follows the system's language");

    test(`the apps, an app in Error, and the route editor with a bad range (${language})`, async ({
      page,
      reaper,
    }) => {
      await openDashboard(page, reaper, language);
      const broken = page.locator('tr[data-app="partner-portal"]');
      await expect(broken.locator('.badge')).toBeVisible();
      await shoot(page, `apps-${language}`);

      // partner-portal is in Error from the start of the e2e scenario: its details say why, and link
      // to the app in the Clever Cloud console.
      await goTo(page, `#/apps/${await reaper.appId('partner-portal')}`);
      const details = page.getByRole('dialog');
      await expect(details).toBeVisible();
      await expect(details.locator('a[href^="https://console.clever-cloud.com/"]').first()).toBeVisible();
      await shoot(page, `app-error-${language}`);

      // docs-preview's route has one must-be-up range: its start made impossible.
      await goTo(page, `#/routes/${await routeIdOf(reaper, 'docs-preview')}`);
      const start = firstRangeStart(page);
      await expect(start).toBeVisible();
      await start.fill('25:00');
      const problem = page.locator('ul.ranges li').first().locator('.field-error');
      await expect(problem).toBeVisible();
      await start.scrollIntoViewIfNeeded();
      await shoot(page, `route-editor-bad-range-${language}`);
    });

    test.describe('without an account', () => {
      test.use({ scenario: null });
      test(`the first-run screen (${language})`, async ({ page, reaper }) => {
        await page.goto(reaper.dashboardUrl);
        await expect(page.locator('main.first-run h1')).toBeVisible();
        await expect(page.locator('html')).toHaveAttribute('lang', language);
        await shoot(page, `first-run-${language}`);
      });
    });
  });
}
