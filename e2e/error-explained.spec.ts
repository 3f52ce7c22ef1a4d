/**
 * An app in Error explains itself: the e2e scenario's partner-portal is MODERATED on Clever Cloud
 * (in the personal space), billing-preview's start fails (in an organisation). The details say what
 * the cause means and what to do, link to the app's console pages, and Reset tells what it found.
 */
import { appRow, badge, expect, openDetails, test } from './fixtures.ts';

test('a MODERATED app explains itself, links to its console page, and Reset says what it read', async ({
  page,
  reaper,
}) => {
  const appId = await reaper.appId('partner-portal');
  await page.goto(reaper.dashboardUrl);
  const row = appRow(page, 'partner-portal');
  await expect(badge(row)).toHaveText('Error');
  // The Clever Cloud state as people read it, the raw value on hover; the API keeps it raw.
  const state = row.locator('.clever-state');
  await expect(state).toContainText('Moderated');
  await expect(state).toHaveAttribute('title', 'MODERATED');
  const { body: apps } = await reaper.api<{ name: string; cleverState: string; cause: string }[]>(
    'GET',
    '/api/apps',
  );
  const portal = apps.find((a) => a.name === 'partner-portal')!;
  expect(portal.cleverState).toBe('MODERATED');
  expect(portal.cause).toBe("unexpected clever cloud state 'MODERATED'");

  const consoleUrl = `https://console.clever-cloud.com/users/me/applications/${appId}`;
  await expect(
    row.getByRole('link', { name: 'Console: partner-portal (opens in your browser)' }),
  ).toHaveAttribute('href', consoleUrl);

  const dialog = await openDetails(page, 'partner-portal');
  const alert = dialog.getByRole('alert');
  await expect(alert).toContainText("unexpected clever cloud state 'MODERATED'");
  await expect(alert.getByRole('heading', { name: 'Moderated by Clever Cloud' })).toBeVisible();
  await expect(alert).toContainText('Only Clever Cloud can lift a moderation');
  const link = alert.getByRole('link', { name: /Open in the Clever Cloud console/ });
  await expect(link).toHaveAttribute('href', consoleUrl);
  await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
  await expect(link).toHaveAttribute('target', '_blank');

  await alert.getByRole('button', { name: 'Reset' }).click();
  await expect(dialog.getByRole('status')).toHaveText('Reset: read again from Clever Cloud, still MODERATED');
  await expect(badge(row)).toHaveText('Error');
});

test('a failed start links to the app and its logs in the organisation console', async ({ page, reaper }) => {
  const appId = await reaper.appId('billing-preview');
  const { body: detail } = await reaper.api<{ app: { ownerId: string } }>('GET', `/api/apps/${appId}`);
  const ownerId = detail.app.ownerId;
  expect(ownerId).toMatch(/^orga_/);
  await page.goto(reaper.dashboardUrl);
  const row = appRow(page, 'billing-preview');
  await row.getByRole('button', { name: 'Wake billing-preview' }).click();
  await expect(badge(row)).toHaveText('Error');
  const dialog = await openDetails(page, 'billing-preview');
  const alert = dialog.getByRole('alert');
  await expect(alert.getByRole('heading', { name: 'The start failed on Clever Cloud' })).toBeVisible();
  const base = `https://console.clever-cloud.com/organisations/${ownerId}/applications/${appId}`;
  await expect(alert.getByRole('link', { name: /Open in the Clever Cloud console/ })).toHaveAttribute(
    'href',
    base,
  );
  await expect(alert.getByRole('link', { name: /Logs in the Clever Cloud console/ })).toHaveAttribute(
    'href',
    `${base}/logs`,
  );
});
