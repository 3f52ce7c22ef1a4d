/**
 * The screens a newcomer's review looked at, in English and in French at 1280x800 and 1440x900, into
 * e2e/screenshots/review/ (git-ignored, as the other screenshots): the apps with the details panel
 * open, a destructive confirmation with the pointer on it (where it is when the confirmation opens),
 * the savings (on the demo's 30 days of history, and on the fleet of 1,000 apps: its table renders
 * the rows on screen, not a thousand), and a bulk result with refusals. Screens are found by their
 * structure, not their words.
 */
import type { Page } from '@playwright/test';
import { expect, LANGUAGES, REVIEW_SIZES, SHELL, test } from './fixtures.ts';
import { goTo, openDashboard, settle } from './views.ts';

async function shoot(page: Page, name: string): Promise<void> {
  await settle(page);
  const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
  expect(overflow, `${name}: the page scrolls sideways`).toBeLessThanOrEqual(0);
  const folder = SHELL === 'electron' ? 'e2e/screenshots/desktop/review' : 'e2e/screenshots/review';
  await page.screenshot({ path: `${folder}/${name}.png`, animations: 'disabled' });
}

for (const { language, locale } of LANGUAGES) {
  test.describe(`the review's screens, ${language}`, () => {
    test.use({ locale });
    test.skip(SHELL === 'electron' && language !== 'en', "the desktop app follows the system's language");

    for (const size of REVIEW_SIZES) {
      const tag = `${language}-${size.width}`;

      test(`the panel, a confirmation under the pointer, a bulk result with refusals (${tag})`, async ({
        page,
        reaper,
      }) => {
        await page.setViewportSize(size);
        await openDashboard(page, reaper, language);
        await goTo(page, `#/apps/${await reaper.appId('partner-portal')}`);
        const details = page.getByRole('dialog');
        await expect(details.locator('.error-explained')).toBeVisible();
        await shoot(page, `apps-panel-${tag}`);

        // Disable the reaper, then its confirmation with the pointer on its action.
        await details.locator('button.danger-outline').click();
        const confirm = page.getByRole('alertdialog').locator('button.danger');
        await expect(confirm).toBeVisible();
        await confirm.hover();
        await shoot(page, `confirm-under-pointer-${tag}`);
        await page.keyboard.press('Escape');

        // Every app picked, then Wake: the apps that cannot be woken are refused, with their reason.
        await goTo(page, '#/apps');
        await page.locator('table.apps thead input[type="checkbox"]').check();
        await page.locator('.bulk-bar .row-of-buttons > button').nth(1).click();
        await expect(page.locator('.bulk-outcomes li.refused').first()).toBeVisible();
        await shoot(page, `bulk-refusals-${tag}`);
      });
    }

    test.describe('on the demo (30 days of simulated history)', () => {
      test.use({ scenario: 'demo' });
      for (const size of REVIEW_SIZES) {
        const tag = `${language}-${size.width}`;
        test(`the savings (${tag})`, async ({ page, reaper }) => {
          await page.setViewportSize(size);
          await openDashboard(page, reaper, language);
          await goTo(page, '#/savings');
          await expect(
            page.locator('main.view-savings figure, main.view-savings [role="img"]').first(),
          ).toBeVisible();
          await shoot(page, `savings-${tag}`);
          const table = page.locator('main.view-savings table.savings-table');
          await table.scrollIntoViewIfNeeded();
          await shoot(page, `savings-table-${tag}`);
        });
      }
    });

    test.describe('on the fleet (1,000 apps)', () => {
      test.use({ scenario: 'fleet', timeScale: 5 });
      for (const size of REVIEW_SIZES) {
        const tag = `${language}-${size.width}`;
        test(`the savings of 1,000 apps (${tag})`, async ({ page, reaper }) => {
          test.slow();
          await page.setViewportSize(size);
          await openDashboard(page, reaper, language);
          await goTo(page, '#/savings');
          const table = page.locator('main.view-savings table.savings-table');
          // The report of 1,000 apps takes a while on a loaded machine: waited for, not timed.
          await expect(table).toHaveAttribute('aria-rowcount', /^\d{4}$/, { timeout: 60_000 });
          await expect(table.locator('tbody tr:not(.spacer)').first()).toBeVisible();
          const rows = await table.locator('tbody tr:not(.spacer)').count();
          expect(rows, 'the rows rendered for 1,000 apps').toBeLessThan(60);
          await shoot(page, `savings-fleet-${tag}`);
          await table.scrollIntoViewIfNeeded();
          await shoot(page, `savings-fleet-table-${tag}`);
          // The table's own box scrolls: its rows are drawn as they come into view.
          await table.locator('xpath=..').evaluate((box) => {
            box.scrollTop = box.scrollHeight;
          });
          await expect(table.locator('tbody tr:not(.spacer)').last()).toHaveAttribute(
            'aria-rowindex',
            /^\d{4}$/,
          );
          await shoot(page, `savings-fleet-scrolled-${tag}`);
        });
      }
    });
  });
}
