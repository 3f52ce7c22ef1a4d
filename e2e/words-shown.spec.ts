/**
 * What a person reads on every view, in English and in French at 1280x800 and 1440x900: no
 * ISO-8601 timestamp (times are said in the viewer's zone and language), and no word cut by its box
 * (an ellipsis, a label clipped by its column, a date wider than its field): the text overflow is
 * measured in the page (e2e/measure.ts). On the demo (30 days of history for History and Savings), in
 * real time so that nothing moves under the check, with two apps put in a group (the group panel says
 * what the group waits for, until when), a rule, and every app picked (the bulk bar's buttons).
 */
import type { Page } from '@playwright/test';
import { expect, LANGUAGES, REVIEW_SIZES, type Reaper, SHELL, test } from './fixtures.ts';
import { cutTexts, isoTimestampsShown } from './measure.ts';
import { goTo, openDashboard, routeIdOf, settle } from './views.ts';

/** What is wrong with the words of the page as it is now: ISO timestamps and cut words. */
async function wrongWords(page: Page): Promise<string[]> {
  await settle(page);
  const iso = (await isoTimestampsShown(page)).map((t) => `ISO timestamp on screen: ${t}`);
  const cut = (await cutTexts(page)).map((c) => `cut: ${c}`);
  return [...iso, ...cut];
}

/** blog-review-42 and shop-staging in one group: blog's panel says it waits for shop's grace period. */
async function groupTwoApps(reaper: Reaper): Promise<void> {
  for (const name of ['blog-review-42', 'shop-staging']) {
    const { status } = await reaper.api('PATCH', `/api/routes/${await routeIdOf(reaper, name)}`, {
      group: 'office-hours',
    });
    expect(status, `group ${name}`).toBe(200);
  }
  const { status } = await reaper.api('POST', '/api/rules', {
    label: 'review apps',
    pattern: 'review-*',
    hosts: ['{name}.review.localhost'],
    group: 'pr-{1}',
    ranges: [{ days: 'Mon-Fri', start: '09:00', end: '18:00', timeZone: 'Europe/Paris' }],
  });
  expect(status, 'the rule').toBe(201);
}

for (const { language, locale } of LANGUAGES) {
  test.describe(`the words shown, ${language}`, () => {
    test.use({ locale, scenario: 'demo', timeScale: 1 });
    test.skip(SHELL === 'electron' && language !== 'en', "the desktop app follows the system's language");

    for (const size of REVIEW_SIZES) {
      test(`no ISO timestamp and no cut word on any view (${language}, ${size.width})`, async ({
        page,
        reaper,
      }) => {
        test.slow();
        await page.setViewportSize(size);
        await groupTwoApps(reaper);
        await openDashboard(page, reaper, language);
        const found: Record<string, string[]> = {};

        await page.locator('table.apps thead input[type="checkbox"]').check();
        await expect(page.locator('.bulk-bar')).toBeVisible();
        found['apps, all picked'] = await wrongWords(page);
        await page.locator('table.apps thead input[type="checkbox"]').uncheck();

        for (const name of ['partner-portal', 'blog-review-42', 'docs-preview', 'metrics-dashboard']) {
          await goTo(page, `#/apps/${await reaper.appId(name)}`);
          const details = page.getByRole('dialog');
          await expect(details).toBeVisible();
          await expect(details.locator('.pending')).toHaveCount(0);
          if (name === 'blog-review-42') await expect(details.locator('.app-group p')).toHaveCount(2);
          found[`apps, ${name}'s details`] = await wrongWords(page);
        }

        await goTo(page, '#/routes');
        await expect(page.locator('table.routes tbody tr').first()).toBeVisible();
        await expect(page.locator('main.view-routes table').nth(1)).toBeVisible();
        found['routes and rules'] = await wrongWords(page);

        await goTo(page, `#/routes/${await routeIdOf(reaper, 'docs-preview')}`);
        await expect(page.locator('ul.ranges input').first()).toBeVisible();
        found['the route editor'] = await wrongWords(page);
        await page.keyboard.press('Escape');

        await goTo(page, '#/history');
        await expect(page.locator('main.view-history tbody tr').first()).toBeVisible();
        found.history = await wrongWords(page);

        await goTo(page, '#/savings');
        await expect(page.locator('main.view-savings [role="img"]').first()).toBeVisible();
        await expect(page.locator('main.view-savings tbody tr').first()).toBeVisible();
        found.savings = await wrongWords(page);

        await goTo(page, '#/settings');
        await expect(page.getByRole('switch').first()).toBeVisible();
        found.settings = await wrongWords(page);

        expect(Object.entries(found).filter(([, lines]) => lines.length > 0)).toEqual([]);
      });
    }
  });
}
