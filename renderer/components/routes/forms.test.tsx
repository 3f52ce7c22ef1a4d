import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../shared/api-errors.ts';
import { HOUR, MINUTE } from '../../../shared/durations.ts';
import { App, BrowserApp } from '../../App.tsx';
import { createHttpClient } from '../../api/http-client.ts';
import { appView, type FakeApi, fakeApi, routeOf } from '../../test/fake-api.ts';

async function open(api: FakeApi, view: 'Routes' | 'Settings') {
  const user = userEvent.setup();
  render(<App api={api} />);
  await user.click(await screen.findByRole('link', { name: new RegExp(`^${view}`) }));
  // The view is a chunk loaded on demand (Shell.tsx): shown once it is in.
  await screen.findByRole('heading', { level: 1, name: view });
  return { user };
}

describe('the route editor', () => {
  it('puts an app picked from the account under the reaper, with its grace period and ranges', async () => {
    const api = fakeApi({ apps: [appView('shop-staging', 'Up')] });
    const { user } = await open(api, 'Routes');
    await user.click(screen.getByRole('button', { name: 'New route' }));
    const form = screen.getByRole('form', { name: 'New route' });
    const f = within(form);
    await waitFor(() => expect(f.getByRole('option', { name: /internal-wiki/ })).toBeTruthy());
    expect(f.getByRole('option', { name: /shop-staging .* already routed/ })).toBeTruthy();
    // The state in the console's words, as the apps table says it, not the API's SHOULD_BE_UP.
    expect(f.getByRole('option', { name: 'internal-wiki · Running' })).toBeTruthy();
    expect(f.queryByRole('option', { name: /SHOULD_BE_|WANTS_TO_BE_UP/ })).toBeNull();
    await user.selectOptions(f.getByLabelText('App'), 'app_wiki');
    await user.clear(f.getByLabelText('Grace period'));
    // The unit agrees with the number: "1 hour", never "1 hours".
    await user.type(f.getByLabelText('Grace period'), '1');
    expect(f.getByRole('option', { name: 'hour' })).toBeTruthy();
    await user.type(f.getByLabelText('Grace period'), '{Backspace}45');
    expect(f.getByRole('option', { name: 'hours' })).toBeTruthy();
    await user.selectOptions(f.getByRole('combobox', { name: 'Unit of the grace period' }), 'min');
    await user.click(f.getByRole('button', { name: 'Add a range' }));
    await user.clear(f.getByRole('combobox', { name: 'Range 1 time zone' }));
    await user.click(f.getByRole('combobox', { name: 'Range 1 time zone' }));
    await user.paste('Europe/Paris');
    expect(f.getByText('Next transitions')).toBeTruthy();
    expect(f.getAllByText(/^up from .* (CET|CEST|GMT\+\d)$/).length).toBeGreaterThan(0);
    await user.click(f.getByRole('button', { name: 'Create the route' }));
    const created = api.calls.find((c) => c.name === 'createRoute')?.input;
    expect(created).toMatchObject({
      appId: 'app_wiki',
      ownerId: 'orga_acme',
      enabled: true,
      gracePeriodMs: 45 * MINUTE,
      ranges: [{ days: 'Mon-Fri', start: '08:00', end: '19:00', timeZone: 'Europe/Paris' }],
      hosts: [],
    });
    await waitFor(() => expect(screen.queryByRole('form', { name: 'New route' })).toBeNull());
  });

  it('previews a range that never ends as always up, with no false "may sleep from"', async () => {
    const api = fakeApi({ apps: [appView('shop-staging', 'Up')] });
    const { user } = await open(api, 'Routes');
    await user.click(screen.getByRole('button', { name: 'New route' }));
    const f = within(screen.getByRole('form', { name: 'New route' }));
    await user.click(f.getByRole('button', { name: 'Add a range' }));
    for (const [field, value] of [
      ['weekdays', 'Mon-Sun'],
      ['start', '00:00'],
      ['end', '24:00'],
    ] as const) {
      await user.clear(f.getByRole('textbox', { name: `Range 1 ${field}` }));
      await user.type(f.getByRole('textbox', { name: `Range 1 ${field}` }), value);
    }
    expect(f.getByText('Always up: these ranges never let the app sleep.')).toBeTruthy();
    expect(f.queryAllByText(/may sleep from/)).toEqual([]);
  });

  it('names each field that is wrong before sending anything', async () => {
    const api = fakeApi({ apps: [appView('shop-staging', 'Up')] });
    const { user } = await open(api, 'Routes');
    await user.click(screen.getByRole('button', { name: 'New route' }));
    const f = within(screen.getByRole('form', { name: 'New route' }));
    await waitFor(() => expect(f.getByRole('option', { name: /internal-wiki/ })).toBeTruthy());
    await user.clear(f.getByLabelText('Grace period'));
    await user.type(f.getByLabelText('Grace period'), '0.5');
    await user.selectOptions(f.getByRole('combobox', { name: 'Unit of the grace period' }), 'min');
    await user.click(f.getByRole('button', { name: 'Add a range' }));
    await user.clear(f.getByRole('textbox', { name: 'Range 1 weekdays' }));
    await user.type(f.getByRole('textbox', { name: 'Range 1 weekdays' }), 'Weekdays');
    expect(f.getByText(/^Range 1 weekdays: “Weekdays” is not a weekday or a range of weekdays/)).toBeTruthy();
    await user.click(f.getByRole('button', { name: 'Create the route' }));
    expect(f.getByText('App: this is required.')).toBeTruthy();
    expect(f.getByText('Grace period: 0.5 minutes is too short; the least is 1 minute.')).toBeTruthy();
    expect(f.getByLabelText('Grace period').getAttribute('aria-invalid')).toBe('true');
    expect(api.calls.some((c) => c.name === 'createRoute')).toBe(false);
  });

  it('shows the engine refusing a field on that field', async () => {
    const app = appView('shop-staging', 'Up');
    const api = fakeApi({ apps: [app], routes: [routeOf(app, { hosts: ['shop.example.com'] })] });
    api.answer('updateRoute', () => {
      throw new ApiError('invalid-input', 'hosts: shop.example.com already routes to another app (app_x)', [
        { field: 'hosts', message: 'shop.example.com already routes to another app (app_x)' },
      ]);
    });
    const { user } = await open(api, 'Routes');
    await user.click(screen.getByRole('button', { name: 'Edit the route of shop-staging' }));
    const f = within(screen.getByRole('form', { name: 'Edit the route of shop-staging' }));
    await user.click(f.getByRole('button', { name: 'Save the route' }));
    expect(await f.findByText('shop.example.com already routes to another app (app_x)')).toBeTruthy();
    expect(f.getByLabelText('Wake-proxy hosts').getAttribute('aria-invalid')).toBe('true');
  });

  it('disables a route from its switch', async () => {
    const app = appView('old-reports', 'Down');
    const api = fakeApi({ apps: [app] });
    const { user } = await open(api, 'Routes');
    await user.click(screen.getByRole('switch', { name: 'Route of old-reports enabled' }));
    expect(api.calls).toContainEqual({
      name: 'updateRoute',
      input: { routeId: 'route_old-reports', changes: { enabled: false } },
    });
    await waitFor(() =>
      expect(
        (screen.getByRole('switch', { name: 'Route of old-reports enabled' }) as HTMLInputElement).checked,
      ).toBe(false),
    );
  });
});

describe('the settings', () => {
  it('turn the kill switch on at once, and show the banner', async () => {
    const api = fakeApi({ apps: [appView('qa-env', 'Up')] });
    const { user } = await open(api, 'Settings');
    await user.click(screen.getByRole('switch', { name: /Kill switch/ }));
    expect(api.calls).toContainEqual({ name: 'updateSettings', input: { killSwitch: true } });
    expect(await screen.findByText('Kill switch on:')).toBeTruthy();
  });

  it('save the paces in milliseconds, and show a refused one on its field', async () => {
    const api = fakeApi({ apps: [] });
    const { user } = await open(api, 'Settings');
    const failTimeout = screen.getByLabelText('Fail timeout');
    expect((failTimeout as HTMLInputElement).value).toBe('15');
    await user.clear(failTimeout);
    await user.type(failTimeout, '20');
    await user.click(screen.getByRole('button', { name: 'Save the paces' }));
    const patch = api.calls.find((c) => c.name === 'updateSettings')?.input as Record<string, number>;
    expect(patch.failTimeoutMs).toBe(20 * MINUTE);
    expect(patch.intervalMs).toBe(30_000);
    expect(await screen.findByText('Saved.')).toBeTruthy();
    api.answer('updateSettings', () => {
      throw new ApiError('invalid-input', 'fastIntervalMs: the fast interval cannot exceed the interval', [
        { field: 'fastIntervalMs', message: 'the fast interval cannot exceed the interval' },
      ]);
    });
    await user.clear(screen.getByLabelText('Fast interval'));
    await user.type(screen.getByLabelText('Fast interval'), '60');
    await user.click(screen.getByRole('button', { name: 'Save the paces' }));
    expect(await screen.findByText('the fast interval cannot exceed the interval')).toBeTruthy();
    expect(screen.getByLabelText('Fast interval').getAttribute('aria-invalid')).toBe('true');
  });

  it('show the credentials status, never a secret', async () => {
    const api = fakeApi({
      status: {
        mode: 'account',
        credentials: {
          state: 'connected',
          source: 'clever-tools',
          account: 'ops@example.com',
          found: { environment: false, cleverTools: true },
          storage: 'a file only its owner can read',
          problem: null,
          canConnect: true,
        },
      },
    });
    await open(api, 'Settings');
    expect(screen.getByText('connected as ops@example.com, from the clever-tools login')).toBeTruthy();
    expect(screen.getByText('a file only its owner can read')).toBeTruthy();
  });
});

describe('the first run', () => {
  it('offers to connect an account or to try the demo', async () => {
    const api = fakeApi({
      status: {
        mode: 'disconnected',
        credentials: {
          state: 'none',
          source: null,
          account: null,
          found: { environment: false, cleverTools: true },
          storage: null,
          problem: null,
          canConnect: true,
        },
      },
    });
    api.answer('connect', () => {
      throw new ApiError('invalid-input', 'token: Clever Cloud refused this token', [
        { field: 'token', message: 'Clever Cloud refused this token' },
      ]);
    });
    const user = userEvent.setup();
    render(<App api={api} />);
    expect(await screen.findByRole('heading', { name: 'Welcome to Clever Reaper' })).toBeTruthy();
    await user.click(
      screen.getByRole('button', { name: 'Use the clever-tools login found on this machine' }),
    );
    expect(api.calls).toContainEqual({ name: 'connect', input: { source: 'clever-tools' } });
    await user.type(screen.getByLabelText('Token'), 'not-a-token');
    await user.click(screen.getByRole('button', { name: 'Connect' }));
    expect(await screen.findByText('Clever Cloud refused this token')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Try the demo' }));
    expect(api.calls.some((c) => c.name === 'startDemo')).toBe(true);
  });

  it('asks for the token when the browser is not signed in', async () => {
    const http = createHttpClient({
      baseUrl: '',
      fetch: (async () => new Response('{}', { status: 401 })) as typeof fetch,
    });
    render(
      <BrowserApp initial={{ http, session: Promise.resolve({ ok: false, failure: { kind: 'none' } }) }} />,
    );
    expect(await screen.findByLabelText('Your token')).toBeTruthy();
    expect(screen.getByText(/admin-token/)).toBeTruthy();
  });
});

describe('durations in forms', () => {
  it('shows a grace period in the unit it is a whole number of', async () => {
    const app = appView('shop-staging', 'Up');
    const api = fakeApi({ apps: [app], routes: [routeOf(app, { gracePeriodMs: 2 * HOUR })] });
    const { user } = await open(api, 'Routes');
    await user.click(screen.getByRole('button', { name: 'Edit the route of shop-staging' }));
    expect((screen.getByLabelText('Grace period') as HTMLInputElement).value).toBe('2');
    expect(
      (screen.getByRole('combobox', { name: 'Unit of the grace period' }) as HTMLSelectElement).value,
    ).toBe('h');
  });
});
