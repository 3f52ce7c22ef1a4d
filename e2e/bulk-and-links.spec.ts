/**
 * Operators at scale (issue 16): a bulk Reset of a mixed selection made with the mouse and the keyboard
 * (it resets the apps in Error only),
 * "Reset all N with this cause", and the dashboard's place in the URL: a pasted `#/apps/app_...`
 * link opens that app after a reload (and in a new browser, once the token is given), Back returns
 * to the list, the filters survive a reload, and the admin token never shows in the address bar.
 */
import { appRow, expect, SHELL, test } from './fixtures.ts';

test('a bulk Reset of a mixed selection: Shift+click a range, Space adds one, only the app in Error reset', async ({
  page,
  reaper,
}) => {
  await page.goto(reaper.dashboardUrl);
  const table = page.getByRole('table', { name: 'Managed apps' });
  await expect(appRow(page, 'partner-portal')).toBeVisible();

  // Sorted by name: nightly-batch, old-reports, partner-portal are a range.
  await appRow(page, 'nightly-batch').getByRole('checkbox', { name: 'Select nightly-batch' }).click();
  await appRow(page, 'partner-portal')
    .getByRole('checkbox', { name: 'Select partner-portal' })
    .click({ modifiers: ['Shift'] });
  const bar = page.getByRole('region', { name: 'Selected apps' });
  await expect(bar).toContainText('3 selected');
  // The keyboard: Space on a focused row picks it too.
  await appRow(page, 'qa-env').getByRole('link', { name: 'qa-env', exact: true }).focus();
  await page.keyboard.press('Space');
  await expect(bar).toContainText('4 selected');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  for (const name of ['nightly-batch', 'old-reports', 'partner-portal', 'qa-env']) {
    await expect(appRow(page, name).getByRole('checkbox')).toBeChecked();
  }
  await expect(appRow(page, 'idle-review').getByRole('checkbox')).not.toBeChecked();

  // A mixed selection: Reset acts on the one app in Error and says it leaves the three others.
  const resetButton = bar.getByRole('button', { name: 'Reset the 1 in Error' });
  await expect(resetButton).toHaveAttribute(
    'title',
    '3 selected apps are not in Error: Reset leaves them as they are',
  );
  await resetButton.click();
  const result = page.getByRole('region', { name: 'Reset: result' });
  await expect(result.getByRole('status')).toContainText('Reset: 1 succeeded');
  // Nothing refused: the summary alone, no line per app.
  await expect(result.getByRole('list', { name: 'Result per app' })).toHaveCount(0);

  // The engine says the same: the app in Error of the selection was reset by the operator, no other.
  for (const [name, reset] of [
    ['nightly-batch', false],
    ['partner-portal', true],
    ['qa-env', false],
    ['idle-review', false],
  ] as const) {
    const appId = await reaper.appId(name);
    const { body } = await reaper.api<{ reason: string }[]>('GET', `/api/apps/${appId}/history?limit=20`);
    expect(
      body.some((h) => h.reason === 'reset from the console'),
      name,
    ).toBe(reset);
  }

  // Ctrl/Cmd+A picks what the filters show: only the apps in Error here.
  await page.getByRole('checkbox', { name: /^Errors only/ }).check();
  await expect(table.locator('tbody tr[data-app]')).toHaveCount(1);
  await table.locator('tbody tr[data-app] .open').first().focus();
  await page.keyboard.press('Escape');
  await page.keyboard.press('ControlOrMeta+a');
  await expect(bar).toContainText('1 selected');
});

test('Reset all N with this cause, from the error causes', async ({ page, reaper }) => {
  await page.goto(reaper.dashboardUrl);
  const causes = page.getByRole('region', { name: 'Error causes' });
  await expect(causes).toContainText('unexpected Clever Cloud state');
  await causes.getByRole('button', { name: 'Reset 1 app with this cause' }).click();
  await expect(page.getByRole('region', { name: 'Reset: result' }).getByRole('status')).toContainText(
    'Reset: 1 succeeded',
  );
  const appId = await reaper.appId('partner-portal');
  const { body } = await reaper.api<{ reason: string }[]>('GET', `/api/apps/${appId}/history?limit=20`);
  expect(body.some((h) => h.reason === 'reset from the console')).toBe(true);
});

test('a pasted #/apps/app_... link opens that app after a reload; Back returns to the list', async ({
  page,
  reaper,
}) => {
  await page.goto(reaper.dashboardUrl);
  await expect(appRow(page, 'shop-staging')).toBeVisible();
  // The token came in the fragment: it is gone from the address bar, the route took its place.
  expect(page.url()).not.toContain(reaper.token);
  expect(new URL(page.url()).hash).toBe('#/apps');

  const appId = await reaper.appId('shop-staging');
  await page.goto(`${reaper.url}/#/apps/${appId}`);
  await page.reload();
  await expect(page.getByRole('dialog', { name: 'shop-staging' })).toBeVisible();
  expect(page.url()).not.toContain(reaper.token);

  // From the list, open an app: Back closes it, Forward opens it again.
  await page.getByRole('button', { name: 'Close the details' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await appRow(page, 'api-sandbox').getByRole('link', { name: 'api-sandbox', exact: true }).click();
  await expect(page.getByRole('dialog', { name: 'api-sandbox' })).toBeVisible();
  expect(new URL(page.url()).hash).toBe(`#/apps/${await reaper.appId('api-sandbox')}`);
  await page.goBack();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByRole('table', { name: 'Managed apps' })).toBeVisible();
  expect(new URL(page.url()).hash).toBe('#/apps');
  await page.goForward();
  await expect(page.getByRole('dialog', { name: 'api-sandbox' })).toBeVisible();

  // Views and filters are in the URL too: a reload keeps them, Back goes to the view before.
  await page.getByRole('button', { name: 'Close the details' }).click();
  await page.getByRole('checkbox', { name: /^Errors only/ }).check();
  await expect(page).toHaveURL(/#\/apps\?errors=1$/);
  await page.reload();
  await expect(page.getByRole('checkbox', { name: /^Errors only/ })).toBeChecked();
  await expect(page.getByRole('table', { name: 'Managed apps' }).locator('tbody tr[data-app]')).toHaveCount(
    1,
  );
  await page.getByRole('link', { name: /^History/ }).click();
  await expect(page).toHaveURL(/#\/history$/);
  await page.goBack();
  await expect(page).toHaveURL(/#\/apps\?errors=1$/);
  await expect(page.getByRole('checkbox', { name: /^Errors only/ })).toBeChecked();
});

test('a link pasted to a colleague opens the app once the token is given, and keeps it out of the URL', async ({
  browser,
  reaper,
}) => {
  test.skip(SHELL === 'electron', 'the desktop app has no admin token: its window is the dashboard');
  const appId = await reaper.appId('idle-review');
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    await page.goto(`${reaper.url}/#/apps/${appId}`);
    await page.getByLabel('Your token').fill(reaper.token);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('dialog', { name: 'idle-review' })).toBeVisible();
    expect(page.url()).not.toContain(reaper.token);
    // A token added to a route by hand is taken out too.
    await page.goto(`${reaper.url}/#/history?token=${encodeURIComponent(reaper.token)}`);
    await page.reload();
    await expect(page.getByRole('heading', { name: 'History' })).toBeVisible();
    expect(page.url()).not.toContain(reaper.token);
  } finally {
    await context.close();
  }
});

test.describe('a thousand apps on a 1440x900 screen', () => {
  test.use({ scenario: 'fleet', timeScale: 5, viewport: { width: 1440, height: 900 } });

  test('compact rows show about twice as many apps; the details leave the actions column in view', async ({
    page,
    reaper,
  }) => {
    await page.goto(reaper.dashboardUrl);
    const table = page.getByRole('table', { name: 'Managed apps' });
    await expect(table).toHaveAttribute('aria-rowcount', '1001');
    // Counted in the page (a string: the specs are typed without the DOM's types).
    const fullyShown = () =>
      page.evaluate<number>(`(() => {
        const box = document.querySelector('.table-scroll').getBoundingClientRect();
        const head = document.querySelector('table.apps thead').getBoundingClientRect();
        return [...document.querySelectorAll('table.apps tbody tr[data-app]')].filter((tr) => {
          const r = tr.getBoundingClientRect();
          return r.top >= head.bottom - 1 && r.bottom <= box.bottom + 1;
        }).length;
      })()`);
    const comfortable = await fullyShown();
    await page.getByRole('checkbox', { name: 'Compact rows' }).check();
    await expect(table).toHaveClass(/compact/);
    const compact = await fullyShown();
    console.log(`apps fully shown at 1440x900: ${comfortable} comfortable, ${compact} compact`);
    expect(compact).toBeGreaterThanOrEqual(2 * comfortable - 1);
    // The density is kept in this browser.
    await page.reload();
    await expect(page.getByRole('checkbox', { name: 'Compact rows' })).toBeChecked();

    const first = table.locator('tbody tr[data-app]').first();
    await first.locator('.open').click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toBeVisible();
    const drawer = (await dialog.boundingBox())!;
    const actions = (await first.locator('td').last().boundingBox())!;
    expect(actions.x + actions.width).toBeLessThanOrEqual(drawer.x + 1);
  });
});
