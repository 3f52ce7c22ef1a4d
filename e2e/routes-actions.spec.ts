/**
 * The routes list at 1280 px in English and in French: the last column holds its two buttons (Edit
 * and Delete; "Modifier" and "Supprimer" in French) without overflowing its cell, also while Delete
 * asks (in a dialog: Delete and Keep, "Supprimer" and "Garder"). Layout only a real browser measures.
 */
import type { Page } from '@playwright/test';
import { expect, SHELL, test } from './fixtures.ts';
import { goTo, openDashboard, settle } from './views.ts';

/** How far the first row's actions go past their cell (0 when they fit). */
const overflow = (page: Page) =>
  page.evaluate<number>(`(() => {
    const td = document.querySelector('table.routes tbody td.actions');
    const right = td.getBoundingClientRect().right - parseFloat(getComputedStyle(td).paddingRight);
    const ends = [...td.querySelectorAll('button')].map((b) => b.getBoundingClientRect().right - right);
    return Math.max(0, ...ends);
  })()`);

for (const { language, locale } of [
  { language: 'en', locale: 'en-GB' },
  { language: 'fr', locale: 'fr-FR' },
] as const) {
  test.describe(`the routes list, ${language}`, () => {
    test.use({ locale });
    test.skip(SHELL === 'electron' && language !== 'en', "the desktop app follows the system's language");

    test(`the actions column holds both buttons at 1280 px (${language})`, async ({ page, reaper }) => {
      await openDashboard(page, reaper, language);
      await goTo(page, '#/routes');
      const cell = page.locator('table.routes tbody td.actions').first();
      await expect(cell.locator('button')).toHaveCount(2);
      await settle(page);
      expect(await overflow(page)).toBe(0);
      // Asked to delete: the confirmation is a dialog ("Supprimer" and "Garder"), the cell unchanged
      // under it.
      await cell.locator('button').nth(1).click();
      const ask = page.getByRole('alertdialog');
      await expect(ask.locator('button.danger')).toHaveText(language === 'en' ? 'Delete' : 'Supprimer');
      await expect(ask.locator('button').first()).toHaveText(language === 'en' ? 'Keep' : 'Garder');
      await expect(cell.locator('button')).toHaveCount(2);
      await settle(page);
      expect(await overflow(page)).toBe(0);
    });
  });
}
