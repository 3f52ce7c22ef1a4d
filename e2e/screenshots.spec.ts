/**
 * Screenshots of the main screens, light and dark, at 1280x800 and 1024x700, into e2e/screenshots/
 * (git-ignored): the apps table, an app in Error with its details, the route editor with its preview,
 * the settings with the kill switch on, the history, the savings, the team alerts, and the first run.
 * Each also checks the layout holds: no horizontal scroll of the page.
 */
import type { Page } from '@playwright/test';
import { appRow, badge, expect, openDetails, SHELL, test } from './fixtures.ts';

const SIZES = [
  { width: 1280, height: 800 },
  { width: 1024, height: 700 },
] as const;
const SCHEMES = ['light', 'dark'] as const;

async function shoot(page: Page, name: string) {
  const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
  expect(overflow, `${name}: the page scrolls sideways`).toBeLessThanOrEqual(0);
  const { width } = page.viewportSize()!;
  const folder = SHELL === 'electron' ? 'e2e/screenshots/desktop' : 'e2e/screenshots';
  await page.screenshot({ path: `${folder}/${name}.png`, animations: 'disabled' });
  return width;
}

for (const size of SIZES) {
  for (const scheme of SCHEMES) {
    const tag = `${size.width}x${size.height}-${scheme}`;

    test(`the main screens at ${tag}`, async ({ page, reaper }) => {
      await page.setViewportSize(size);
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto(reaper.dashboardUrl);
      await expect(badge(appRow(page, 'partner-portal'))).toHaveText('Error');
      await expect(appRow(page, 'shop-staging')).toContainText('access log');
      await shoot(page, `apps-${tag}`);

      // An app whose start fails: its details show the cause, the timeline and the transitions.
      await appRow(page, 'billing-preview').getByRole('button', { name: 'Wake billing-preview' }).click();
      await expect(badge(appRow(page, 'billing-preview'))).toHaveText('Error');
      const dialog = await openDetails(page, 'billing-preview');
      await expect(dialog.getByRole('list', { name: /Transitions/ })).toContainText('Waking up → Error');
      await dialog.getByRole('radio', { name: '1 h' }).check();
      await shoot(page, `app-error-${tag}`);
      await page.keyboard.press('Escape');
      await expect(dialog).toHaveCount(0);

      await page.getByRole('link', { name: /^Routes/ }).click();
      await page.getByRole('button', { name: 'Edit the route of docs-preview' }).click();
      await expect(page.getByText('Next transitions')).toBeVisible();
      await shoot(page, `route-editor-${tag}`);
      await page.getByRole('button', { name: 'Cancel' }).click();

      await page.getByRole('link', { name: /^Settings/ }).click();
      await page.getByRole('switch', { name: /Kill switch/ }).click();
      await expect(page.getByText('Kill switch on:')).toBeVisible();
      await shoot(page, `settings-kill-switch-${tag}`);
    });
  }
}

test.describe('history and savings, on the demo (30 days of simulated history)', () => {
  test.use({ scenario: 'demo' });
  for (const size of SIZES) {
    for (const scheme of SCHEMES) {
      const tag = `${size.width}x${size.height}-${scheme}`;
      test(`the history and savings screens at ${tag}`, async ({ page, reaper }) => {
        await page.setViewportSize(size);
        await page.emulateMedia({ colorScheme: scheme });
        await page.goto(reaper.dashboardUrl);
        await page.getByRole('link', { name: /^History/ }).click();
        const table = page.getByRole('table', { name: 'History, newest first' });
        await expect(table.getByRole('row')).toHaveCount(51);
        await shoot(page, `history-${tag}`);

        await page.getByRole('link', { name: /^Savings/ }).click();
        await expect(page.getByRole('img', { name: /Hours asleep per day/ })).toBeVisible();
        await expect(page.getByRole('table').getByText('blog-review-42')).toBeVisible();
        await shoot(page, `savings-${tag}`);

        await page.getByRole('link', { name: /^Settings/ }).click();
        await page.getByRole('button', { name: 'Add a webhook' }).click();
        await page.getByLabel('Webhook URL 1').fill('https://hooks.example.com/services/T0/B0/x');
        await page.getByRole('heading', { name: 'Team alerts' }).scrollIntoViewIfNeeded();
        await shoot(page, `settings-team-alerts-${tag}`);
      });
    }
  }
});

test.describe('first run', () => {
  test.use({ scenario: null });
  for (const scheme of SCHEMES) {
    test(`the first-run screen, ${scheme}`, async ({ page, reaper }) => {
      await page.setViewportSize(SIZES[1]);
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto(reaper.dashboardUrl);
      await expect(page.getByRole('heading', { name: 'Welcome to Clever Reaper' })).toBeVisible();
      await shoot(page, `first-run-1024x700-${scheme}`);
    });
  }
});
