/**
 * The header at 1280x800 and 1440x900, in English and French (issue 26, item 8): signed in as a
 * person (the browser dashboard of a server, as a team's), with the kill switch off and on, no word of
 * the header is cut, none takes two lines, none goes past the window. Screenshots of the header and
 * of the Audit view (filtered, from its URL) into e2e/screenshots/review/ (git-ignored) to look at.
 */
import type { Page } from '@playwright/test';
import { expect, SHELL, test } from './fixtures.ts';
import { cutTexts, wrappedTexts } from './measure.ts';
import { goTo, settle } from './views.ts';

test.skip(
  SHELL === 'electron',
  'the desktop app signs in with no token screen (its header: desktop-who.test.tsx)',
);

const LANGUAGES = [
  { language: 'en', locale: 'en-GB' },
  { language: 'fr', locale: 'fr-FR' },
] as const;
const SIZES = [
  { width: 1280, height: 800 },
  { width: 1440, height: 900 },
] as const;

async function headerProblems(page: Page): Promise<string[]> {
  await settle(page);
  const cut = (await cutTexts(page)).filter((c) => c.includes('header') || c.includes('.status'));
  return [...cut.map((c) => `cut: ${c}`), ...(await wrappedTexts(page, 'header.header'))];
}

for (const { language, locale } of LANGUAGES) {
  test.describe(`the header, ${language}`, () => {
    test.use({ locale });
    for (const size of SIZES) {
      const tag = `${language}-${size.width}`;
      test(`nothing cut, nothing on two lines, kill switch off and on (${tag})`, async ({ page, reaper }) => {
        const { status, body } = await reaper.api<{ token: string }>('POST', '/api/tokens', {
          name: 'alice',
          role: 'admin',
        });
        expect(status).toBe(201);
        await page.setViewportSize(size);
        await page.goto(reaper.url);
        await page.locator('#token').fill(body.token);
        await page.locator('form.card button[type=submit]').click();
        await expect(page.locator('tr[data-app]').first()).toBeVisible();
        await expect(page.locator('html')).toHaveAttribute('lang', language);
        const header = page.locator('header.header');
        await expect(header.getByTestId('signed-in')).toContainText('alice');
        await expect(header.getByTestId('mode-label')).toBeVisible();
        const found: Record<string, string[]> = { 'kill switch off': await headerProblems(page) };
        await header.screenshot({
          path: `e2e/screenshots/review/header-off-${tag}.png`,
          animations: 'disabled',
        });

        expect((await reaper.api('PATCH', '/api/settings', { killSwitch: true })).status).toBe(200);
        await expect(header.locator('.kill-switch.on')).toBeVisible();
        found['kill switch on'] = await headerProblems(page);
        await header.screenshot({
          path: `e2e/screenshots/review/header-on-${tag}.png`,
          animations: 'disabled',
        });

        // The Audit view, filtered from its address: the kill switch the bootstrap token turned on.
        await goTo(page, '#/audit?what=killSwitch&via=api');
        await expect(page.getByTestId('audit-row')).toHaveCount(1);
        found['the audit view'] = await headerProblems(page);
        await settle(page);
        await page.screenshot({ path: `e2e/screenshots/review/audit-${tag}.png`, animations: 'disabled' });
        expect(Object.entries(found).filter(([, lines]) => lines.length > 0)).toEqual([]);
      });
    }
  });
}
