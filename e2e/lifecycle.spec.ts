/**
 * The lifecycle through the dashboard: the real engine on the simulator's e2e scenario, time running
 * 20 times faster unless told (a grace period of 3 minutes passes in 9 seconds). Every wait is on what the page
 * or the admin API shows, never a fixed sleep.
 */
import { appRow, badge, expect, historyList, openDetails, test } from './fixtures.ts';

test.describe('at half the usual speed', () => {
  // Its 3-minute grace period lasts 18 s: time enough to see the app Up first on a slow machine.
  test.use({ timeScale: 10 });

  test('an idle app goes to sleep after its grace period, and the history says why', async ({
    page,
    reaper,
  }) => {
    await page.goto(reaper.dashboardUrl);
    const row = appRow(page, 'idle-review');
    await expect(badge(row)).toHaveText('Up');
    await expect(row).toContainText(/sleeps at \d\d:\d\d/);
    await expect(badge(row)).toHaveText('Asleep', { timeout: 60_000 });
    const dialog = await openDetails(page, 'idle-review');
    const history = historyList(dialog);
    await expect(history).toContainText('Up → Going to sleep');
    await expect(history).toContainText(/no traffic for 3 min .*\(grace period 3 min\), last deployment OK/);
    await expect(history).toContainText('Going to sleep → Asleep');
    // The token moved from the address bar to the session.
    expect(page.url()).not.toContain('token=');
  });
});

test('Wake from the dashboard brings a sleeping app Up', async ({ page, reaper }) => {
  await page.goto(reaper.dashboardUrl);
  const row = appRow(page, 'api-sandbox');
  await expect(badge(row)).toHaveText('Asleep');
  await row.getByRole('button', { name: 'Wake api-sandbox' }).click();
  await expect(badge(row)).toHaveText('Up');
  await expect(row).toContainText('dashboard');
  const history = historyList(await openDetails(page, 'api-sandbox'));
  await expect(history).toContainText('Asleep → Waking up');
  await expect(history).toContainText('asked for by dashboard');
  await expect(history).toContainText('Waking up → Up');
});

test('a failed deployment shows the app in Error with its cause; Reset brings it back to its real state', async ({
  page,
  reaper,
}) => {
  await page.goto(reaper.dashboardUrl);
  const row = appRow(page, 'billing-preview');
  await row.getByRole('button', { name: 'Wake billing-preview' }).click();
  await expect(badge(row)).toHaveText('Error');
  await expect(row).toContainText('the app failed to start on clever cloud');
  await expect(page.getByRole('alert').filter({ hasText: 'billing-preview is in Error' })).toContainText(
    'the app failed to start on clever cloud',
  );
  await expect(page.getByRole('checkbox', { name: 'Errors only (2)' })).toBeVisible();

  await row.getByRole('button', { name: 'Reset billing-preview' }).click();
  // Its real state: the failed start left it stopped on Clever Cloud.
  await expect(badge(row)).toHaveText('Asleep');
  const history = historyList(await openDetails(page, 'billing-preview'));
  await expect(history).toContainText('reset: Error → Initializing');
  await expect(history).toContainText('reset from the console');
  await expect(history).toContainText('Initializing → Asleep');
});

test('a route disabled from the dashboard releases its app: started, then forgotten', async ({
  page,
  reaper,
}) => {
  const appId = await reaper.appId('old-reports');
  await page.goto(reaper.dashboardUrl);
  await expect(badge(appRow(page, 'old-reports'))).toHaveText('Asleep');
  await page.getByRole('link', { name: /^Routes/ }).click();
  const toggle = page.getByRole('switch', { name: 'Route of old reports (to retire) enabled' });
  await expect(toggle).toBeChecked();
  await toggle.click();
  await expect(toggle).not.toBeChecked();
  await page.getByRole('link', { name: /^Apps/ }).click();
  // Noticed by the job, released after the release delay (a minute of engine time).
  await expect(appRow(page, 'old-reports')).toHaveCount(0);
  await expect(page.getByRole('status').filter({ hasText: 'old-reports was released' })).toBeVisible();
  const { body: history } = await reaper.api<{ kind: string; reason: string }[]>(
    'GET',
    `/api/apps/${appId}/history?limit=1`,
  );
  expect(history[0]).toMatchObject({
    kind: 'release',
    reason: 'released: started so that it is not left asleep, then forgotten',
  });
});

test('Disable the reaper releases an app at once', async ({ page, reaper }) => {
  const appId = await reaper.appId('api-sandbox');
  await page.goto(reaper.dashboardUrl);
  const dialog = await openDetails(page, 'api-sandbox');
  await dialog.getByRole('button', { name: 'Disable the reaper' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Disable and release' }).click();
  await expect(appRow(page, 'api-sandbox')).toHaveCount(0);
  const { body: routes } = await reaper.api<{ appId: string; enabled: boolean }[]>('GET', '/api/routes');
  expect(routes.filter((r) => r.appId === appId).map((r) => r.enabled)).toEqual([false]);
  const { body: history } = await reaper.api<{ kind: string; actor: string }[]>(
    'GET',
    `/api/apps/${appId}/history?limit=1`,
  );
  expect(history[0]).toMatchObject({ kind: 'release', actor: 'operator' });
});

test('the kill switch stops all sleeps until it is turned off', async ({ page, reaper }) => {
  await page.goto(reaper.dashboardUrl);
  await page.getByRole('link', { name: /^Settings/ }).click();
  await page.getByRole('switch', { name: /Kill switch/ }).click();
  await expect(page.getByText('Kill switch on:')).toBeVisible();

  // Two apps whose grace period is now already over: they would go to sleep at the next run.
  const idle = ['nightly-batch', 'qa-env'];
  for (const name of idle) {
    const appId = await reaper.appId(name);
    const { body: routes } = await reaper.api<{ id: string; appId: string }[]>(
      'GET',
      `/api/routes?appId=${appId}`,
    );
    const res = await reaper.api('PATCH', `/api/routes/${routes[0]!.id}`, { gracePeriodMs: 60_000 });
    expect(res.status).toBe(200);
  }
  // Let two job intervals (and more than the grace period) pass on the engine's clock.
  const from = await reaper.now();
  await expect.poll(() => reaper.now(), { timeout: 30_000 }).toBeGreaterThan(from + 2 * 60_000 + 30_000);

  await page.getByRole('link', { name: /^Apps/ }).click();
  for (const name of [...idle, 'idle-review']) {
    await expect(badge(appRow(page, name))).toHaveText('Up');
    await expect(appRow(page, name)).toContainText('kill switch on');
  }

  await page.getByRole('button', { name: 'Turn the kill switch off' }).click();
  await expect(page.getByText('Kill switch on:')).toHaveCount(0);
  for (const name of idle) await expect(badge(appRow(page, name))).toHaveText('Asleep');
});

test('changes made through the admin API appear on the page without a reload', async ({ page, reaper }) => {
  await page.goto(reaper.dashboardUrl);
  await expect(badge(appRow(page, 'partner-portal'))).toHaveText('Error');
  await page.evaluate('window.notReloaded = true');
  await reaper.api('PATCH', '/api/settings', { dryRun: true });
  await expect(page.getByText('Dry-run:')).toBeVisible();
  await reaper.api('POST', `/api/apps/${await reaper.appId('shop-staging')}/_keep-awake`, {
    until: (await reaper.now()) + 3 * 3_600_000,
  });
  await expect(appRow(page, 'shop-staging')).toContainText(/kept awake until \d\d:\d\d/);
  expect(await page.evaluate('window.notReloaded')).toBe(true);
});

test('a route created from the dashboard puts a picked app under the reaper', async ({ page, reaper }) => {
  await page.goto(reaper.dashboardUrl);
  await page.getByRole('link', { name: /^Routes/ }).click();
  await page.getByRole('button', { name: 'New route' }).click();
  const form = page.getByRole('form', { name: 'New route' });
  await form.getByLabel('Owner').selectOption({ label: 'Acme Staging' });
  // The picker says the state in the console's words (issue 26, item 6): picked by the app's name.
  const picker = form.getByLabel('App', { exact: true });
  const wiki = await picker.locator('option', { hasText: /^internal-wiki · / }).getAttribute('value');
  await picker.selectOption(wiki!);
  await form.getByLabel('Grace period', { exact: true }).fill('0');
  await form.getByRole('button', { name: 'Create the route' }).click();
  await expect(form.getByText('Grace period: 0 hours is too short; the least is 1 minute.')).toBeVisible();
  await form.getByLabel('Grace period', { exact: true }).fill('2');
  await form.getByRole('button', { name: 'Create the route' }).click();
  await expect(form).toHaveCount(0);
  await page.getByRole('link', { name: /^Apps/ }).click();
  await expect(badge(appRow(page, 'internal-wiki'))).toHaveText('Up');
});
