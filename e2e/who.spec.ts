/**
 * Who, in a real browser (issue 25): alice (operator, her own token) resets an app from the
 * dashboard; bob (admin, his own token) edits a route and turns the kill switch on. The History says
 * "by alice · dashboard", the Audit view names bob for the route (what changed) and the kill switch,
 * and the banner says since when and by whom. The dashboard signs in with the token in the fragment.
 */
import type { Browser, Page } from '@playwright/test';
import { expect, type Reaper, test } from './fixtures.ts';
import { goTo, routeIdOf } from './views.ts';

async function tokenFor(reaper: Reaper, name: string, role: 'operator' | 'admin'): Promise<string> {
  const { status, body } = await reaper.api<{ token: string }>('POST', '/api/tokens', { name, role });
  expect(status).toBe(201);
  return body.token;
}

async function signedIn(browser: Browser, reaper: Reaper, token: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto(`${reaper.url}/#token=${encodeURIComponent(token)}`);
  await expect(page.locator('tr[data-app]').first()).toBeVisible();
  return page;
}

test('the History, the Audit view and the banner name who reset, edited a route and turned the kill switch on', async ({
  browser,
  reaper,
}) => {
  const alice = await signedIn(browser, reaper, await tokenFor(reaper, 'alice', 'operator'));
  const causes = alice.getByRole('region', { name: 'Error causes' });
  await causes.getByRole('button', { name: 'Reset 1 app with this cause' }).click();
  await expect(alice.getByRole('region', { name: 'Reset: result' }).getByRole('status')).toContainText(
    'Reset: 1 succeeded',
  );
  await goTo(alice, '#/history?kind=reset');
  await expect(alice.locator('table tbody tr').first()).toContainText('by alice · dashboard');

  const bob = await signedIn(browser, reaper, await tokenFor(reaper, 'bob', 'admin'));
  const routeId = await routeIdOf(reaper, 'partner-portal');
  await goTo(bob, `#/routes/${routeId}`);
  const dialog = bob.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Label' }).fill('partner portal (front)');
  await dialog.getByRole('button', { name: 'Save the route' }).click();
  await expect(dialog).toHaveCount(0);

  await bob.getByRole('button', { name: /^Kill switch/ }).click();
  const confirm = bob.getByRole('alertdialog', { name: 'Turn the kill switch on?' });
  await confirm.getByRole('button', { name: 'Turn the kill switch on' }).click();
  const said = bob.getByTestId('kill-switch-by');
  await expect(said).toHaveText(/^On since .+, by bob \(dashboard\)\.$/);
  await expect(said).not.toHaveText(/\d{4}-\d{2}-\d{2}/);
  // alice's dashboard hears it too, the same words.
  await expect(alice.getByTestId('kill-switch-by')).toHaveText(/^On since .+, by bob \(dashboard\)\.$/);

  await bob.getByRole('link', { name: /^Audit/ }).click();
  await expect(bob.getByRole('heading', { level: 1, name: 'Audit' })).toBeVisible();
  const rows = bob.getByTestId('audit-row');
  const kill = rows.filter({ hasText: 'Kill switch' });
  await expect(kill).toHaveCount(1);
  await expect(kill).toContainText('by bob · dashboard');
  await expect(kill).toContainText('false → true');
  const edit = rows.filter({ hasText: routeId }).filter({ hasText: 'Route' });
  await expect(edit).toHaveCount(1);
  await expect(edit).toContainText('by bob · dashboard');
  await expect(edit).toContainText('→ partner portal (front)');
  // The tokens bob's token was made with are in the audit too: by bootstrap, never their secret.
  await bob.getByLabel('What').selectOption('token');
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toContainText('by bootstrap · API');
});
