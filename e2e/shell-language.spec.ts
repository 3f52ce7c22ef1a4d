/**
 * What unit tests cannot reach: the browser's own language picks French on a first run, the kill
 * switch in the header reaches the real engine, and a language chosen in Settings applies at once
 * and survives a reload (issue 17, "English and French", "First run and safety").
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, SHELL, test } from './fixtures.ts';

/** Where the e2e suite keeps its screenshots (git-ignored), as screenshots.spec.ts does. */
const FOLDER = SHELL === 'electron' ? 'e2e/screenshots/desktop' : 'e2e/screenshots';

/** Axe's violations within `selector` (rule ids and the elements), none expected. */
async function violations(page: Page, selector: string) {
  const result = await new AxeBuilder({ page }).include(selector).analyze();
  return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

test.describe('a French browser on a server with no account', () => {
  test.use({ scenario: null, locale: 'fr-FR' });

  test('speaks French from the first run, pauses sleeping from the header, and switches to English in Settings', async ({
    page,
    reaper,
  }) => {
    test.skip(SHELL === 'electron', "the desktop app follows the system's language, not the browser's");
    await page.goto(reaper.dashboardUrl);
    await expect(page.getByRole('heading', { name: 'Bienvenue dans Clever Reaper' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
    await expect(page.getByRole('link', { name: 'Tokens d’API' })).toHaveAttribute(
      'href',
      'https://console.clever-cloud.com/users/me/api-tokens',
    );
    expect(await violations(page, 'main')).toEqual([]);
    await page.screenshot({ path: `${FOLDER}/first-run-fr-1280x800-light.png`, animations: 'disabled' });
    await page.getByRole('button', { name: 'Essayer la démo' }).click();

    const header = page.getByRole('banner');
    await expect(header.getByText(/^Démo/)).toBeVisible();
    await header.getByRole('button', { name: 'Arrêt d’urgence : désactivé' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Activer l’arrêt d’urgence ?' });
    await expect(dialog).toContainText('les réveils continuent');
    expect(await violations(page, 'header')).toEqual([]);
    await page.screenshot({
      path: `${FOLDER}/kill-switch-confirm-fr-1280x800-light.png`,
      animations: 'disabled',
    });
    await dialog.getByRole('button', { name: 'Activer l’arrêt d’urgence' }).click();
    await expect(header.getByRole('button', { name: 'Arrêt d’urgence : activé' })).toBeVisible();
    const { body } = await reaper.api<{ killSwitch: boolean }>('GET', '/api/settings');
    expect(body.killSwitch).toBe(true);

    await header.getByRole('link', { name: /^Paramètres/ }).click();
    await page.getByLabel('Langue du tableau de bord').selectOption('en');
    await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
    await expect(header.getByRole('button', { name: 'Kill switch: on' })).toBeVisible();
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  });
});
