/**
 * The route editor's front-door and connection fields in a real browser, and their effect on the
 * real wake proxy: bad numbers are said on their fields, then the route is saved to answer other
 * callers 503 at once, ignored requests 200 with a status body, and to let Slackbot wake the app;
 * the wake proxy answers so at once, and the editor shows the saved values when opened again.
 */
import { request } from 'node:http';
import { expect, SHELL, test } from './fixtures.ts';

// The wake proxy is reached over HTTP by a client, not by the desktop window.
test.skip(SHELL === 'electron', 'the wake proxy is reached by an HTTP client, not by the desktop window');

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One GET through the wake proxy with the Host of the route (fetch cannot set Host). */
function viaProxy(port: number, host: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path: '/api/status', headers: { host, ...headers } },
      (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

test('the route editor sets how the wake proxy answers, and the wake proxy answers so', async ({
  page,
  reaper,
}) => {
  const { body: status } = await reaper.api<{ wakeProxy: { url: string | null } }>('GET', '/api/status');
  const port = Number(new URL(status.wakeProxy.url!).port);
  const appId = await reaper.appId('preview-site');

  await page.goto(reaper.dashboardUrl);
  await page.getByRole('link', { name: /^Routes/ }).click();
  await page.getByRole('button', { name: 'Edit the route of preview-site' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  // The defaults of a route that never set them.
  await expect(dialog.getByLabel('Other callers while asleep')).toHaveValue('hold');
  await expect(dialog.getByLabel('Ready delay (s)')).toHaveValue('5');
  await expect(dialog.getByRole('switch', { name: /Keep the app awake/ })).toBeChecked();
  await expect(dialog.getByLabel('Connection idle limit (min)')).toHaveValue('15');

  // Bad numbers: each said on its field, in its unit, and nothing is saved.
  await dialog.getByLabel('Ready delay (s)').fill('soon');
  await dialog.getByLabel('Connection idle limit (min)').fill('0,5');
  await dialog.getByRole('button', { name: 'Save the route' }).click();
  await expect(dialog.getByText('Ready delay: “soon” is not a number.')).toHaveCount(1);
  await expect(
    dialog.getByText(/^Idle limit of a connection: 0[.,]5 minutes is too short; the least is 1 minute\.$/),
  ).toHaveCount(1);
  await expect(dialog.getByLabel('Ready delay (s)')).toHaveAttribute('aria-invalid', 'true');
  await dialog.getByLabel('Ready delay (s)').fill('700');
  await dialog.getByRole('button', { name: 'Save the route' }).click();
  await expect(
    dialog.getByText(/^Ready delay: 700 seconds is too long; the most is (600 seconds|10 minutes)\.$/),
  ).toHaveCount(1);

  // Good values: scripts told to come back, monitors answered 200, Slackbot let through.
  await dialog.getByLabel('Ready delay (s)').fill('3');
  await dialog.getByLabel('Connection idle limit (min)').fill('30');
  await dialog
    .getByLabel('Other callers while asleep')
    .selectOption({ label: 'Answer 503 at once (retry later)' });
  await dialog.getByLabel('Health checks while asleep').selectOption({ label: '200 with a status body' });
  await dialog.getByText('None of them wakes this app').click();
  await dialog.getByRole('checkbox', { name: 'Slackbot (link preview)' }).check();
  await expect(dialog.getByText('These wake this app: Slackbot')).toBeVisible();
  await dialog.getByRole('button', { name: 'Save the route' }).click();
  await expect(dialog).toHaveCount(0);

  const { body: routes } = await reaper.api<Record<string, unknown>[]>('GET', '/api/routes');
  expect(routes.find((r) => r.appId === appId)).toMatchObject({
    readyDelayMs: 3000,
    callers: 'unavailable',
    ignoredAnswer: 'status',
    quietAgents: { builtIn: true, wake: ['Slackbot'] },
    connectionsKeepAwake: true,
    connectionIdleLimitMs: 30 * 60_000,
  });

  // An uptime monitor of the asleep app: 200 with a status body, and the app sleeps on.
  const monitor = await viaProxy(port, 'preview.localhost', { 'user-agent': 'UptimeRobot/2.0' });
  expect(monitor.status).toBe(200);
  expect(JSON.parse(monitor.body)).toEqual({
    app: 'preview-site',
    state: 'Asleep',
    woken: false,
    why: 'user agent UptimeRobot (uptime monitor)',
  });
  const { body: asleep } = await reaper.api<{ app: { state: string } }>('GET', `/api/apps/${appId}`);
  expect(asleep.app.state).toBe('Down');

  // Slackbot, let through by this route, wakes it; not a browser, it is told at once to come back.
  const slack = await viaProxy(port, 'preview.localhost', {
    'user-agent': 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
    accept: 'application/json',
  });
  expect(slack.status).toBe(503);
  expect(slack.headers['retry-after']).toMatch(/^\d+$/);
  expect(JSON.parse(slack.body)).toMatchObject({ error: 'preview-site is waking up; retry later' });
  await expect
    .poll(
      async () => (await reaper.api<{ app: { state: string } }>('GET', `/api/apps/${appId}`)).body.app.state,
    )
    .not.toBe('Down');

  // Opened again, the editor shows what was saved.
  await page.getByRole('button', { name: 'Edit the route of preview-site' }).click();
  await expect(dialog.getByLabel('Other callers while asleep')).toHaveValue('unavailable');
  await expect(dialog.getByLabel('Health checks while asleep')).toHaveValue('status');
  await expect(dialog.getByLabel('Ready delay (s)')).toHaveValue('3');
  await expect(dialog.getByLabel('Connection idle limit (min)')).toHaveValue('30');
  await expect(dialog.getByRole('checkbox', { name: 'Slackbot (link preview)' })).toBeChecked();

  // Open connections no longer keep it awake: the idle limit is not asked for, and is not sent.
  await dialog.getByRole('switch', { name: /Keep the app awake/ }).click();
  await expect(dialog.getByLabel('Connection idle limit (min)')).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Save the route' }).click();
  await expect(dialog).toHaveCount(0);
  const { body: after } = await reaper.api<Record<string, unknown>[]>('GET', '/api/routes');
  expect(after.find((r) => r.appId === appId)).toMatchObject({ connectionsKeepAwake: false });
});
