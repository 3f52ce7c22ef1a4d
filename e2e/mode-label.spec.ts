/** The header says which reaper the dashboard talks to: the server (web) or this computer (desktop). */
import { expect, SHELL, test } from './fixtures.ts';

test('the header names the reaper the dashboard talks to', async ({ page, reaper }) => {
  await page.goto(reaper.dashboardUrl);
  const label = page.getByRole('banner').getByTestId('mode-label');
  if (SHELL === 'electron') {
    await expect(label).toHaveText('Local');
    return;
  }
  await expect(label).toHaveText(`Server · ${new URL(reaper.url).host}`);
  await expect(page.getByRole('banner').getByRole('status')).toHaveText('Live');
});
