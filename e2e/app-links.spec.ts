/**
 * An app's name is a link to its details (`#/apps/<id>`, the table's order and filters kept): a plain
 * click opens the details in place; Ctrl+click (or a middle click) is the browser's, a new tab. In a
 * browser signed in with a person's token (the session cookie), the new tab is signed in too and opens
 * with that app's details shown, the table in the order it had. Closing the details there gives the
 * focus to the app's name in the table (nothing opened them in that tab), else the view's heading.
 */
import { appRow, expect, type Reaper, SHELL, test } from './fixtures.ts';

test.skip(SHELL === 'electron', 'the desktop window has no tabs');

async function personalToken(reaper: Reaper, name: string): Promise<string> {
  const { status, body } = await reaper.api<{ token: string }>('POST', '/api/tokens', {
    name,
    role: 'admin',
  });
  expect(status).toBe(201);
  return body.token;
}

test('a name’s link opens the details in place, and in a new signed-in tab with the same order', async ({
  browser,
  reaper,
}) => {
  const token = await personalToken(reaper, 'lina');
  const context = await browser.newContext({ locale: 'en-GB', viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    await page.goto(reaper.url);
    await page.locator('#token').fill(token);
    await page.locator('form.card button[type=submit]').click();
    const table = page.getByRole('table', { name: 'Managed apps' });
    await expect(table.locator('tbody tr[data-app]').first()).toBeVisible();
    // An order other than the default, and a filter: both in the links.
    await table.getByRole('button', { name: /^State/ }).click();
    await page.getByRole('checkbox', { name: /^Errors only/ }).check();
    await expect(page).toHaveURL(/#\/apps\?errors=1&sort=state$/);
    const appId = await reaper.appId('partner-portal');
    const link = appRow(page, 'partner-portal').getByRole('link', { name: 'partner-portal', exact: true });
    await expect(link).toHaveAttribute('href', `#/apps/${appId}?errors=1&sort=state`);

    // Ctrl+click: a new tab of the same browser, signed in, the details of that app shown.
    const opened = context.waitForEvent('page');
    await link.click({ modifiers: ['ControlOrMeta'] });
    const second = await opened;
    await second.waitForLoadState();
    const details = second.getByRole('dialog', { name: 'partner-portal' });
    await expect(details).toBeVisible();
    await expect(second.locator('#token')).toHaveCount(0);
    await expect(second).toHaveURL(new RegExp(`#/apps/${appId}\\?errors=1&sort=state$`));
    await expect(second.getByRole('checkbox', { name: /^Errors only/ })).toBeChecked();
    await expect(second.getByRole('columnheader', { name: /^State/ })).toHaveAttribute(
      'aria-sort',
      'ascending',
    );
    // This tab did not move: no details opened here.
    await expect(page.getByRole('dialog')).toHaveCount(0);

    // Closed there: the focus goes to the app's name in the table (nothing in that tab opened them).
    await second.keyboard.press('Escape');
    await expect(details).toHaveCount(0);
    await expect(
      appRow(second, 'partner-portal').getByRole('link', { name: 'partner-portal', exact: true }),
    ).toBeFocused();

    // The same link pasted into another new tab of the signed-in browser.
    const third = await context.newPage();
    await third.goto(new URL(`#/apps/${appId}`, reaper.url).toString());
    await expect(third.getByRole('dialog', { name: 'partner-portal' })).toBeVisible();
    // The issue's own form of the link, ?app=<id>, opens it too.
    await third.goto(new URL(`#/apps?app=${appId}`, reaper.url).toString());
    await third.reload();
    await expect(third.getByRole('dialog', { name: 'partner-portal' })).toBeVisible();
    await third.close();

    // A plain click opens the details in place; Close gives the focus back to the name.
    await link.click();
    await expect(page.getByRole('dialog', { name: 'partner-portal' })).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`#/apps/${appId}\\?errors=1&sort=state$`));
    await page.getByRole('button', { name: 'Close the details' }).click();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(link).toBeFocused();
  } finally {
    await context.close();
  }
});
