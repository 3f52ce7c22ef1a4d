/**
 * Leaving a form with unsaved changes asks in the page's own "Discard changes?" dialog, never the
 * browser's window.confirm (closing the tab is still the browser's beforeunload question). Keep
 * editing (the focus) leaves the edit as it was; Discard goes where the person was going.
 *
 * The route editor is modal (the header is out of reach while it is open): leaving it from outside is
 * Back. A Settings form is in the page: leaving it is a click on another view's tab.
 */
import { expect, test } from './fixtures.ts';
import { browserDialogsOf, goTo, routeIdOf } from './views.ts';

test('a route edited, then Back: the page asks; Keep editing keeps the edit, Discard goes back', async ({
  page,
  reaper,
}) => {
  const browserDialogs = browserDialogsOf(page);
  await page.goto(reaper.dashboardUrl);
  await page.getByRole('link', { name: /^Routes/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Routes' })).toBeVisible();
  const routeId = await routeIdOf(reaper, 'partner-portal');
  await page.locator('tr[data-route="partner-portal"]').getByRole('button', { name: /^Edit/ }).click();
  const editor = page.getByRole('dialog');
  await expect(editor).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`#/routes/${routeId}$`));
  await editor.getByLabel('Label').fill('edited, not saved');

  await page.goBack();
  const ask = page.getByRole('alertdialog', { name: 'Discard changes?' });
  await expect(ask).toContainText('Leave this route without saving your changes?');
  const keep = ask.getByRole('button', { name: 'Keep editing' });
  await expect(keep).toBeFocused();
  // While asked, the address stays the editor's.
  await expect(page).toHaveURL(new RegExp(`#/routes/${routeId}$`));
  await keep.click();
  await expect(ask).toHaveCount(0);
  await expect(editor.getByLabel('Label')).toHaveValue('edited, not saved');
  await expect(editor.getByLabel('Label')).toBeFocused();
  await expect(page).toHaveURL(new RegExp(`#/routes/${routeId}$`));

  await page.goBack();
  await ask.getByRole('button', { name: 'Discard' }).click();
  await expect(editor).toHaveCount(0);
  await expect(page).toHaveURL(/#\/routes$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Routes' })).toBeVisible();
  expect(browserDialogs).toEqual([]);
  // Nothing was saved.
  const { body } = await reaper.api<{ label: string }>('GET', `/api/routes/${routeId}`);
  expect(body.label).not.toBe('edited, not saved');
});

test('a Settings form edited, then another tab: the page asks; Keep editing stays, Discard goes', async ({
  page,
  reaper,
}) => {
  const browserDialogs = browserDialogsOf(page);
  await page.goto(reaper.dashboardUrl);
  await expect(page.locator('tr[data-app]').first()).toBeVisible();
  await goTo(page, '#/settings');
  const interval = page.getByLabel('Job interval');
  await interval.fill('45');
  const history = page.getByRole('link', { name: /^History/ });
  await history.click();
  const ask = page.getByRole('alertdialog', { name: 'Discard changes?' });
  await expect(ask).toContainText('Your changes to “Paces and timeouts” are not saved.');
  await expect(ask.getByRole('button', { name: 'Keep editing' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(ask).toHaveCount(0);
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  await expect(interval).toHaveValue('45');
  await expect(history).toBeFocused();

  await history.click();
  await ask.getByRole('button', { name: 'Discard' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'History' })).toBeVisible();
  await expect(page).toHaveURL(/#\/history/);
  expect(browserDialogs).toEqual([]);
});
