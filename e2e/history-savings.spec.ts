/**
 * The history across apps and the savings, in the dashboard against the real engine: filters, the
 * CSV download, the savings of an app asleep, and the metrics endpoint behind the admin token.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from './fixtures.ts';

test('the history can be filtered by app and downloaded as a CSV with its header row', async ({
  page,
  reaper,
}) => {
  await page.goto(reaper.dashboardUrl);
  await page.getByRole('link', { name: /^History/ }).click();
  const table = page.getByRole('table', { name: 'History, newest first' });
  await expect(table.getByRole('button', { name: 'api-sandbox' }).first()).toBeVisible();
  // The app picker is a combobox: type part of the name, pick the option.
  await page.getByRole('combobox', { name: 'App', exact: true }).fill('api-sand');
  await page.getByRole('option', { name: 'api-sandbox' }).click();
  // The pick applies at once; the download below exports what the table shows.
  await expect(table.getByRole('row').nth(1)).toContainText('api-sandbox');
  const names = await table.locator('tbody tr td:nth-child(2) button').allTextContents();
  expect(new Set(names)).toEqual(new Set(['api-sandbox']));

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download CSV' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^clever-reaper-history-\d{4}-\d\d-\d\d\.csv$/);
  const text = readFileSync(await download.path(), 'utf8');
  const [header, ...rows] = text.split('\r\n');
  expect(header).toBe(
    'id,time,app_id,app_name,kind,from_state,to_state,from_label,to_label,actor,reason,by,via',
  );
  expect(rows.filter(Boolean).every((r) => r.includes(',api-sandbox,'))).toBe(true);
  expect(text).toContain('put under the reaper by a route');
});

test("the savings show an app asleep, priced from the price system, with the fallback unit stated, its sleep not the reaper's apart", async ({
  page,
  reaper,
}) => {
  await page.goto(reaper.dashboardUrl);
  await page.getByRole('link', { name: /^Savings/ }).click();
  const row = page.getByRole('row', { name: /api-sandbox/ });
  await expect(row).toContainText('S × 2');
  await expect(page.getByText(/read as drops per 10 minutes × 0.0097 € per drop/)).toBeVisible();
  // The demo's simulator serves Clever Cloud's price system: the source is stated.
  await expect(
    page.getByText("Prices: Clever Cloud's price system (euros per hour, counted to the second)."),
  ).toBeVisible();
  await expect(page.getByText(/Unconfirmed: Clever Cloud does not state the unit/)).toBeVisible();
  // Asleep since the first sweep, but found so (the reaper did not put it to sleep): some minutes of
  // engine time by now, in the "not counted" column, none of them savings.
  await expect(row.locator('th')).toContainText('stopped outside the reaper');
  await expect(async () => {
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(row.locator('td').nth(6)).not.toHaveText('—', { timeout: 1000 });
  }).toPass();
  await expect(row.locator('td').nth(5).locator('.line').first()).toHaveText('0 h');
  await expect(page.getByText(/apps? stopped outside the reaper, not counted/)).toBeVisible();
});

test('GET /metrics answers with the admin token only, in the Prometheus text format', async ({ reaper }) => {
  expect((await fetch(`${reaper.url}/metrics`)).status).toBe(401);
  const res = await fetch(`${reaper.url}/metrics`, { headers: { authorization: `Bearer ${reaper.token}` } });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('version=0.0.4');
  expect(await res.text()).toMatch(/^clever_reaper_apps\{state="Error",label="Error"\} 1$/m);
});
