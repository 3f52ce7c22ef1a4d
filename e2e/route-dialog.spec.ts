/**
 * The route editor as a dialog in a real browser: it opens over the row clicked (in view), with focus
 * inside; a bad range is said once, on the range as labelled; Escape asks about unsaved changes (in
 * the page's own "Discard changes?" dialog) and closes; focus comes back to the row's Edit button. In
 * English and in French (a French browser).
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { browserDialogsOf } from './views.ts';

async function focusIsInDialog(page: Page): Promise<boolean> {
  return page.evaluate<boolean>(`!!document.activeElement?.closest('[role="dialog"][aria-modal="true"]')`);
}

test('the route editor opens as a dialog in view, says a bad range once, and gives focus back', async ({
  page,
  reaper,
}) => {
  await page.goto(reaper.dashboardUrl);
  // "Routes" in both languages (its name may end with a count).
  await page.getByRole('link', { name: /^Routes/ }).click();
  const edit = page.getByRole('button', { name: /^Edit the route of / }).last();
  await edit.scrollIntoViewIfNeeded();
  await edit.click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  expect(await focusIsInDialog(page)).toBe(true);
  // Over the view, whatever the scroll: its top is inside the window.
  const box = await dialog.boundingBox();
  expect(box && box.y >= 0 && box.y < 800).toBe(true);

  await dialog.getByRole('button', { name: 'Add a range' }).click();
  const start = dialog.getByRole('textbox', { name: /^Range \d+ start$/ }).last();
  await start.fill('25:00');
  await dialog.getByRole('button', { name: 'Save the route' }).click();
  await expect(
    dialog.getByText(/^Range \d+ start: “25:00” is not a time from 00:00 to 23:59\.$/),
  ).toHaveCount(1);
  await expect(dialog).not.toContainText(/ranges\.\d|Invalid input|expected \w+/);
  // The dialog, its problems shown, has no accessibility violation.
  const axe = await new AxeBuilder({ page }).include('[role="dialog"]').analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(', ')}`)).toEqual([]);

  // Unsaved changes: Escape asks, in the page's own dialog (no browser dialog); Keep editing, the
  // editor stays; Discard, it closes.
  const browserDialogs = browserDialogsOf(page);
  await page.keyboard.press('Escape');
  const ask = page.getByRole('alertdialog', { name: 'Discard changes?' });
  await expect(ask).toContainText('Leave this route without saving your changes?');
  await expect(ask.getByRole('button', { name: 'Keep editing' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(ask).toHaveCount(0);
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await ask.getByRole('button', { name: 'Discard' }).click();
  await expect(dialog).toHaveCount(0);
  expect(browserDialogs).toEqual([]);
  await expect(edit).toBeFocused();
});

test.describe('in French', () => {
  test.use({ locale: 'fr-FR' });

  test('the route editor speaks French, bad range included', async ({ page, reaper }) => {
    await page.goto(reaper.dashboardUrl);
    // "Routes" in both languages (its name may end with a count).
    await page.getByRole('link', { name: /^Routes/ }).click();
    const open = page.getByRole('button', { name: 'Nouvelle route' });
    await open.click();
    const dialog = page.getByRole('dialog', { name: 'Nouvelle route' });
    await expect(dialog).toBeVisible();
    expect(await focusIsInDialog(page)).toBe(true);
    await dialog.getByRole('button', { name: 'Ajouter une plage' }).click();
    await dialog.getByRole('textbox', { name: 'Plage 1, début' }).fill('25:00');
    await expect(
      dialog.getByText('Plage 1, début : « 25:00 » n’est pas une heure entre 00:00 et 23:59.'),
    ).toHaveCount(1);
    await page.keyboard.press('Escape');
    const ask = page.getByRole('alertdialog', { name: 'Abandonner les modifications ?' });
    await expect(ask).toContainText('Quitter cette route sans enregistrer vos modifications ?');
    await expect(ask.getByRole('button', { name: 'Continuer la saisie' })).toBeFocused();
    await ask.getByRole('button', { name: 'Abandonner' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(open).toBeFocused();
  });
});
