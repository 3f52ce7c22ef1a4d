import { expect, SHELL, test } from './fixtures.ts';

// The wake proxy is the browser's own way in: nothing to do with the shell around the dashboard.
test.skip(SHELL === 'electron', 'the wake proxy is reached by a browser, not by the desktop window');

test('a browser asking for an Asleep app through the wake proxy gets the waking page, which ends on the app', async ({
  page,
  reaper,
}) => {
  const { body: status } = await reaper.api<{ wakeProxy: { url: string | null } }>('GET', '/api/status');
  expect(status.wakeProxy.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  const port = new URL(status.wakeProxy.url!).port;
  const appId = await reaper.appId('preview-site');
  // *.localhost is this machine for the browser: the proxy routes by the Host header.
  const answer = await page.goto(`http://preview.localhost:${port}/docs?page=2`);
  expect(answer?.status()).toBe(503);
  await expect(page.getByRole('heading', { name: 'Waking up preview-site' })).toBeVisible();
  await expect(page.getByRole('progressbar', { name: 'Start progress' })).toBeVisible();
  // The page follows the start live and reloads by itself once the app is Up: its own page then.
  await expect(page.getByRole('heading', { name: 'preview-site', exact: true })).toBeVisible({
    timeout: 30_000,
  });
  expect(page.url()).toBe(`http://preview.localhost:${port}/docs?page=2`);
  const { body: app } = await reaper.api<{ app: { state: string } }>('GET', `/api/apps/${appId}`);
  expect(app.app.state).toBe('Up');
  const { body: history } = await reaper.api<{ to: string | null; actor: string; reason: string }[]>(
    'GET',
    `/api/apps/${appId}/history`,
  );
  expect(history.find((e) => e.to === 'WaitingForUp')).toMatchObject({
    actor: 'request',
    reason: 'asked for by wake-proxy',
  });
});
