/**
 * Sign-in sessions and roles in the browser (issue 25, "Must show"): a viewer sees every write
 * control disabled with the reason; an operator resets an app but cannot edit a route; an admin
 * creates and revokes tokens in Settings; a new tab stays signed in (the session cookie); Sign out
 * ends the session; a revoked token's session fails on its next call and the page shows the token
 * screen. Screenshots of the token screen and of the viewer's disabled controls, in English and
 * French at 1280 px, into e2e/screenshots/i18n/ (git-ignored, as the other screenshots).
 */
import type { Browser, Page } from '@playwright/test';
import { appRow, expect, type Reaper, SHELL, test } from './fixtures.ts';
import { routeIdOf, settle } from './views.ts';

test.skip(SHELL === 'electron', "the desktop app's own engine needs no sign-in");

async function personalToken(reaper: Reaper, name: string, role: string): Promise<string> {
  const { status, body } = await reaper.api<{ token: string }>('POST', '/api/tokens', { name, role });
  expect(status).toBe(201);
  return body.token;
}

async function signedInPage(browser: Browser, reaper: Reaper, token: string, locale = 'en-GB') {
  const context = await browser.newContext({ locale, viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(reaper.url);
  await page.locator('#token').fill(token);
  await page.locator('form.card button[type=submit]').click();
  await expect(page.locator('tr[data-app]').first()).toBeVisible();
  return { context, page };
}

async function shoot(page: Page, name: string): Promise<void> {
  await settle(page);
  const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
  expect(overflow, `${name}: the page scrolls sideways`).toBeLessThanOrEqual(0);
  await page.screenshot({ path: `e2e/screenshots/i18n/${name}.png`, animations: 'disabled' });
}

test('a viewer: every write control disabled with the reason, in English and French', async ({
  browser,
  reaper,
}) => {
  const token = await personalToken(reaper, 'vera', 'viewer');
  for (const [language, locale] of [
    ['en', 'en-GB'],
    ['fr', 'fr-FR'],
  ] as const) {
    const context = await browser.newContext({ locale, viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(reaper.url);
    await expect(page.locator('#token')).toBeVisible();
    await shoot(page, `sign-in-${language}`);
    await page.locator('#token').fill(token);
    await page.locator('form.card button[type=submit]').click();
    await expect(page.locator('tr[data-app]').first()).toBeVisible();
    const reason =
      language === 'en'
        ? 'Needs the operator role: you are signed in as viewer'
        : 'Demande le rôle opérateur : vous êtes connecté en tant que lecteur';
    await expect(page.getByTestId('signed-in')).toContainText(
      language === 'en' ? 'vera · viewer' : 'vera · lecteur',
    );
    const reset = appRow(page, 'partner-portal').locator('.cell.actions button').first();
    await expect(reset).toBeDisabled();
    await expect(reset).toHaveAttribute('title', reason);
    // The kill switch and the routes: an admin's.
    const kill = page.locator('button.kill-switch');
    await expect(kill).toBeDisabled();
    await expect(kill).toHaveAttribute('title', new RegExp(language === 'en' ? 'admin role' : 'rôle admin'));
    await shoot(page, `viewer-apps-${language}`);
    await page.locator('nav a[href$="/routes"]').click();
    await expect(page.locator('.routes-view')).toBeVisible();
    const edit = page.locator('table tr[data-route] td.actions button').first();
    await expect(edit).toBeDisabled();
    await expect(edit).toHaveAttribute('title', new RegExp(language === 'en' ? 'admin role' : 'rôle admin'));
    await expect(page.locator('.routes-view > .view-head button.primary')).toBeDisabled();
    await shoot(page, `viewer-routes-${language}`);
    // Settings: disabled in a gate that says why; the language stays the reader's own.
    await page.locator('nav a[href$="/settings"]').click();
    await expect(page.getByTestId('role-note')).toBeVisible();
    const gate = page.locator('fieldset.role-gate');
    await expect(gate.getByRole('switch').first()).toBeDisabled();
    await expect(gate.locator('button[type=submit]').first()).toBeDisabled();
    await shoot(page, `viewer-settings-${language}`);
    await expect(page.locator('.tokens')).toHaveCount(0);
    await context.close();
  }
});

test('an operator resets an app but cannot edit a route; a new tab stays signed in; Sign out', async ({
  browser,
  reaper,
}) => {
  const token = await personalToken(reaper, 'alice', 'operator');
  const { context, page } = await signedInPage(browser, reaper, token);
  try {
    await expect(page.getByTestId('signed-in')).toContainText('Signed in as alice · operator');
    const reset = page.getByRole('button', { name: /^Reset partner-portal/ });
    await expect(reset).toBeEnabled();
    await reset.click();
    // The engine reset it: its history says so (no refusal, no error toast).
    const appId = await reaper.appId('partner-portal');
    await expect
      .poll(async () => {
        const { body } = await reaper.api<{ reason: string }[]>('GET', `/api/apps/${appId}/history?limit=20`);
        return body.some((h) => h.reason === 'reset from the console');
      })
      .toBe(true);
    await expect(page.locator('.toast.error')).toHaveCount(0);
    // Editing a route: disabled with the reason, and the server would refuse it too.
    await page.getByRole('link', { name: /^Routes/ }).click();
    const edit = page.locator('table tr[data-route] td.actions button').first();
    await expect(edit).toBeDisabled();
    await expect(edit).toHaveAttribute('title', 'Needs the admin role: you are signed in as operator');

    // A new tab: the session cookie, no token asked.
    const second = await context.newPage();
    await second.goto(reaper.url);
    await expect(second.locator('tr[data-app]').first()).toBeVisible();
    await expect(second.getByTestId('signed-in')).toContainText('alice · operator');
    await expect(second.locator('#token')).toHaveCount(0);

    // Sign out: the token screen; the other tab's next call finds the session ended.
    await second.getByRole('button', { name: 'Sign out' }).click();
    await expect(second.locator('#token')).toBeVisible();
    await page.getByRole('link', { name: /^Apps/ }).click();
    await page
      .getByRole('button', { name: /^Wake / })
      .first()
      .click();
    await expect(page.getByTestId('sign-in-message')).toHaveText(
      'Your session has ended: sign in again. What you were typing is kept.',
    );
    await page.reload();
    await expect(page.locator('#token')).toBeVisible();
  } finally {
    await context.close();
  }
});

test('an admin creates a token (shown once), revokes it, and its session fails on its next call', async ({
  browser,
  reaper,
}) => {
  const admin = await signedInPage(browser, reaper, reaper.token);
  const page = admin.page;
  await expect(page.getByTestId('signed-in')).toContainText('bootstrap · admin');
  await page.getByRole('link', { name: /^Settings/ }).click();
  const tokens = page.locator('section.tokens');
  // The name is checked as the server checks it.
  await tokens.getByLabel('Name').fill('Bob Smith');
  await tokens.getByRole('button', { name: 'Create the token' }).click();
  await expect(tokens.locator('.field-error')).toContainText('lowercase letters');
  await tokens.getByLabel('Name').fill('bob');
  await tokens.getByLabel('Role').selectOption('operator');
  await tokens.getByLabel('Expires').selectOption('30');
  await tokens.getByRole('button', { name: 'Create the token' }).click();
  const secret = tokens.getByTestId('token-secret');
  await expect(secret).toContainText('shown this once');
  const bobToken = (await secret.locator('code').textContent())!.trim();
  await expect(tokens.locator('tr[data-token="bob"]')).toContainText('operator');

  // Bob signs in elsewhere, then his token is revoked: his next call fails, the token screen shows.
  const bob = await signedInPage(browser, reaper, bobToken);
  await expect(bob.page.getByTestId('signed-in')).toContainText('bob · operator');
  await tokens.getByRole('button', { name: 'Revoke the token of bob' }).click();
  const confirm = page.getByRole('alertdialog');
  await confirm.getByRole('button', { name: 'Revoke' }).click();
  await expect(confirm).toHaveCount(0);
  await expect(tokens.locator('tr[data-token="bob"]')).toContainText('Revoked');
  await bob.page.getByRole('link', { name: /^History/ }).click();
  await expect(bob.page.locator('#token')).toBeVisible();
  await expect(bob.page.getByTestId('sign-in-message')).toContainText('Your session has ended');
  await bob.context.close();
  await admin.context.close();
  expect(await routeIdOf(reaper, 'partner-portal')).toBeTruthy();
});
