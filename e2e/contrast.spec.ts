/**
 * Every button readable in every state: at rest, under the pointer, focused, pressed and disabled
 * (and a disabled one plainly different from its enabled self, not only greyer),
 * light and dark, on each view and on the destructive confirmations (the kill switch, Disable the
 * reaper, a route's Delete), where the pointer usually is when they open. The contrast is computed
 * from Chromium's computed colours (e2e/measure.ts), against WCAG AA.
 */
import type { Page } from '@playwright/test';
import { appRow, expect, openDetails, test } from './fixtures.ts';
import { disabledLookAlike, lowContrastButtons } from './measure.ts';
import { goTo, settle } from './views.ts';

async function expectReadable(page: Page, where: string): Promise<void> {
  await settle(page);
  expect(await lowContrastButtons(page), `buttons too faint on ${where}`).toEqual([]);
  // Disabled is plain to see: not only a greyer text (the words stay readable, measured above).
  expect(await disabledLookAlike(page), `buttons that look the same disabled on ${where}`).toEqual([]);
}

for (const scheme of ['light', 'dark'] as const) {
  test(`buttons keep their contrast in every state, ${scheme}`, async ({ page, reaper }) => {
    // Eight views, five states each, measured through the DevTools protocol: slow on a loaded machine.
    test.slow();
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto(reaper.dashboardUrl);
    await expect(appRow(page, 'partner-portal').locator('.badge')).toBeVisible();
    await expectReadable(page, 'the apps');

    const details = await openDetails(page, 'partner-portal');
    await expectReadable(page, 'the apps with the details open');
    await details.getByRole('button', { name: 'Disable the reaper' }).click();
    await expect(page.getByRole('alertdialog').getByRole('button', { name: 'Cancel' })).toBeFocused();
    await expectReadable(page, 'the Disable the reaper confirmation');
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: /^Kill switch/ }).click();
    await expect(page.getByRole('alertdialog', { name: 'Turn the kill switch on?' })).toBeVisible();
    await expectReadable(page, 'the kill switch confirmation');
    await page.keyboard.press('Escape');

    await goTo(page, '#/routes');
    const actions = page.locator('table.routes tbody td.actions').first();
    await actions.locator('button').nth(1).click();
    await expect(page.getByRole('alertdialog').locator('button.danger')).toBeVisible();
    await expectReadable(page, 'a route’s Delete confirmation');
    await page.keyboard.press('Escape');
    await expect(page.getByRole('alertdialog')).toHaveCount(0);

    for (const view of ['history', 'savings', 'settings']) {
      await goTo(page, `#/${view}`);
      await expect(page.locator(`main.view-${view}`)).toBeVisible();
      await expect(page.locator('main .pending')).toHaveCount(0);
      await expectReadable(page, view);
    }
  });
}
