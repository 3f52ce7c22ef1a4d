/** A thousand apps, and the first run of a server with no account. */
import { appRow, badge, expect, SHELL, test } from './fixtures.ts';

test.describe('a thousand apps', () => {
  test.use({ scenario: 'fleet', timeScale: 5 });

  test('are listed in a virtualised table that stays searchable and keyboard usable', async ({
    page,
    reaper,
  }) => {
    await page.goto(reaper.dashboardUrl);
    const table = page.getByRole('table', { name: 'Managed apps' });
    await expect(table).toHaveAttribute('aria-rowcount', '1001');
    const rendered = await table.locator('tbody tr[data-app]').count();
    expect(rendered).toBeGreaterThan(5);
    expect(rendered).toBeLessThan(60);

    await page.screenshot({
      path: `e2e/screenshots/${SHELL === 'electron' ? 'desktop/' : ''}fleet-1280x800-light.png`,
    });
    await page.keyboard.press('/');
    await page.keyboard.type('web-0992');
    await expect(table.locator('tbody tr[data-app]')).toHaveCount(1);
    await expect(page.getByText('1 of 1,000 apps')).toBeVisible();
    await page.getByRole('searchbox').fill('');

    // From the first row to the last with the keyboard; the table scrolls to it.
    await table.locator('tbody tr[data-app] .open').first().focus();
    await page.keyboard.press('End');
    const last = page.locator('tr[aria-rowindex="1001"]');
    await expect(last.locator('.open')).toBeFocused();
    await expect(last).toHaveAttribute('data-app', 'worker-0994');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('dialog', { name: 'worker-0994' })).toBeVisible();
  });
});

test.describe('a server with no Clever Cloud account', () => {
  test.use({ scenario: null });

  test('offers the demo on its first run, and runs it', async ({ page, reaper }) => {
    await page.goto(reaper.dashboardUrl);
    await expect(page.getByRole('heading', { name: 'Welcome to Clever Reaper' })).toBeVisible();
    await page.getByRole('button', { name: 'Try the demo' }).click();
    await expect(page.getByRole('table', { name: 'Managed apps' })).toBeVisible();
    await expect(badge(appRow(page, 'shop-staging'))).toHaveText('Up');
    const { body } = await reaper.api<{ mode: string }>('GET', '/api/status');
    expect(body.mode).toBe('demo');
  });

  test('asks for the admin token when the page is opened without it', async ({ page, reaper }) => {
    test.skip(SHELL === 'electron', 'the desktop app has no admin token: its window is the dashboard');
    await page.goto(reaper.url);
    await page.getByLabel('Your token').fill('not-the-token');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByText('The server refused this token (wrong, revoked or expired).')).toBeVisible();
    await page.getByLabel('Your token').fill(reaper.token);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('heading', { name: 'Welcome to Clever Reaper' })).toBeVisible();
  });
});
