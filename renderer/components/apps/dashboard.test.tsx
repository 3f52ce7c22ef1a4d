import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../shared/api-errors.ts';
import { MINUTE } from '../../../shared/durations.ts';
import { DEFAULT_SETTINGS } from '../../../shared/settings.ts';
import { App } from '../../App.tsx';
import { appView, type FakeApi, fakeApi, NOW } from '../../test/fake-api.ts';

async function renderDashboard(api: FakeApi) {
  const user = userEvent.setup();
  render(<App api={api} />);
  await screen.findByRole('table', { name: 'Managed apps' });
  return { user };
}

const row = (name: string) => {
  const found = document.querySelector<HTMLElement>(`tr[data-app="${name}"]`);
  if (!found) throw new Error(`no row for ${name}`);
  return found;
};

const fleet = () => [
  appView('shop-staging', 'Up', {
    lastRequestAt: NOW - 2 * MINUTE,
    lastRequestSource: 'access-log',
    sleepsAt: NOW + 28 * MINUTE,
  }),
  appView('api-sandbox', 'Down'),
  appView('billing-preview', 'Error', {
    cause: 'the app failed to start on clever cloud',
    cleverState: 'SHOULD_BE_DOWN',
  }),
  appView('docs-preview', 'WaitingForUp', { ownerId: 'user_me', ownerName: 'Personal space' }),
];

describe('the apps table', () => {
  it('shows every app with its console state, owner, Clever Cloud state, last request and sleep time', async () => {
    await renderDashboard(fakeApi({ apps: fleet() }));
    const shop = within(row('shop-staging'));
    expect(shop.getByText('Up')).toBeTruthy();
    expect(shop.getByText('Acme Staging')).toBeTruthy();
    // Clever Cloud's state as the console words it, the raw value on hover.
    expect(shop.getByText('Running').getAttribute('title')).toBe('SHOULD_BE_UP');
    expect(shop.getByText('2 min ago')).toBeTruthy();
    expect(shop.getByText('access log')).toBeTruthy();
    expect(shop.getByText(/^sleeps at \d\d:\d\d$/)).toBeTruthy();
    expect(shop.getByText(/^in 2\d min$/)).toBeTruthy();
    expect(within(row('api-sandbox')).getByText('Asleep')).toBeTruthy();
    expect(within(row('docs-preview')).getByText('Waking up')).toBeTruthy();
    expect(within(row('docs-preview')).getByText('for 10 min')).toBeTruthy();
  });

  it('shows the cause of an app in Error in words, with Reset', async () => {
    const api = fakeApi({ apps: fleet() });
    const { user } = await renderDashboard(api);
    const billing = within(row('billing-preview'));
    expect(billing.getByText('Error')).toBeTruthy();
    expect(billing.getByText('the app failed to start on clever cloud')).toBeTruthy();
    await user.click(billing.getByRole('button', { name: 'Reset billing-preview' }));
    expect(api.calls).toContainEqual({ name: 'reset', input: { appId: 'app_billing-preview' } });
  });

  it('wakes a sleeping app from its row, as the dashboard', async () => {
    const api = fakeApi({ apps: fleet() });
    const { user } = await renderDashboard(api);
    await user.click(within(row('api-sandbox')).getByRole('button', { name: 'Wake api-sandbox' }));
    expect(api.calls).toContainEqual({
      name: 'wake',
      input: { appId: 'app_api-sandbox', source: 'dashboard' },
    });
    expect(within(row('shop-staging')).queryByRole('button', { name: /Wake/ })).toBeNull();
  });

  it('shows a change pushed by the engine without a reload', async () => {
    const api = fakeApi({ apps: fleet() });
    await renderDashboard(api);
    act(() => api.emit({ type: 'app', app: appView('api-sandbox', 'WaitingForUp') }));
    await waitFor(() => expect(within(row('api-sandbox')).getByText('Waking up')).toBeTruthy(), {
      timeout: 1000,
    });
    act(() => api.emit({ type: 'removed', appId: 'app_api-sandbox' }));
    await waitFor(() => expect(document.querySelector('tr[data-app="api-sandbox"]')).toBeNull());
    expect(await screen.findByText(/api-sandbox was released/)).toBeTruthy();
  });

  it('raises an alert when an app enters Error', async () => {
    const api = fakeApi({ apps: fleet() });
    await renderDashboard(api);
    act(() =>
      api.emit({
        type: 'alert',
        appId: 'app_shop-staging',
        name: 'shop-staging',
        cause: 'the app did not stop within the fail timeout',
      }),
    );
    const alert = await screen.findByText(
      'shop-staging is in Error: the app did not stop within the fail timeout',
    );
    expect(alert.closest('[role="alert"]')).toBeTruthy();
  });

  it('narrows the table by search, state, owner and errors only', async () => {
    const { user } = await renderDashboard(fakeApi({ apps: fleet() }));
    const names = () => [...document.querySelectorAll<HTMLElement>('tr[data-app]')].map((r) => r.dataset.app);
    await user.type(screen.getByRole('searchbox'), 'PREVIEW');
    expect(names().sort()).toEqual(['billing-preview', 'docs-preview']);
    expect(screen.getByText('2 of 4 apps')).toBeTruthy();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Filter by owner' }), 'Personal space');
    expect(names()).toEqual(['docs-preview']);
    await user.clear(screen.getByRole('searchbox'));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Filter by owner' }), '');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Filter by state' }), 'Down');
    expect(names()).toEqual(['api-sandbox']);
    await user.selectOptions(screen.getByRole('combobox', { name: 'Filter by state' }), '');
    await user.click(screen.getByRole('checkbox', { name: 'Errors only (1)' }));
    expect(names()).toEqual(['billing-preview']);
  });

  it('renders a thousand apps as a window of rows, and finds any of them', async () => {
    const apps = Array.from({ length: 1000 }, (_, i) =>
      appView(`app-${String(i).padStart(4, '0')}`, i % 7 ? 'Up' : 'Down'),
    );
    const { user } = await renderDashboard(fakeApi({ apps }));
    const table = screen.getByRole('table', { name: 'Managed apps' });
    expect(table.getAttribute('aria-rowcount')).toBe('1001');
    const rendered = table.querySelectorAll('tr[data-app]').length;
    expect(rendered).toBeGreaterThan(5);
    expect(rendered).toBeLessThan(40);
    await user.type(screen.getByRole('searchbox'), 'app-0999');
    expect(row('app-0999')).toBeTruthy();
  });

  it('is usable with the keyboard: arrows move between rows, Enter opens the details, Escape closes them', async () => {
    const { user } = await renderDashboard(fakeApi({ apps: fleet() }));
    const rows = () => [...document.querySelectorAll<HTMLElement>('tr[data-app] .open')];
    expect(rows().filter((r) => r.tabIndex === 0)).toHaveLength(1);
    rows()[0]!.focus();
    await user.keyboard('{ArrowDown}');
    await waitFor(() => expect(document.activeElement).toBe(rows()[1]));
    await user.keyboard('{End}');
    await waitFor(() => expect(document.activeElement).toBe(rows()[3]));
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: 'shop-staging' });
    expect(dialog).toBeTruthy();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // Focus goes back to the row the details were opened from.
    await waitFor(() => expect(document.activeElement).toBe(rows()[3]));
  });

  it('sorts by a column header, and says so to assistive technologies', async () => {
    const { user } = await renderDashboard(fakeApi({ apps: fleet() }));
    const names = () => [...document.querySelectorAll<HTMLElement>('tr[data-app]')].map((r) => r.dataset.app);
    expect(names()[0]).toBe('api-sandbox');
    await user.click(screen.getByRole('button', { name: /^State/ }));
    expect(names()[0]).toBe('billing-preview');
    expect(screen.getByRole('columnheader', { name: /^State/ }).getAttribute('aria-sort')).toBe('ascending');
  });
});

describe('the kill switch and dry-run', () => {
  it('stay visible in a banner while on, with a way to turn them off', async () => {
    const api = fakeApi({ apps: fleet(), settings: { killSwitch: true, dryRun: true } });
    const { user } = await renderDashboard(api);
    expect(screen.getByText('Kill switch on:')).toBeTruthy();
    expect(screen.getByText('Dry-run:')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Turn the kill switch off' }));
    expect(api.calls).toContainEqual({ name: 'updateSettings', input: { killSwitch: false } });
    await waitFor(() => expect(screen.queryByText('Kill switch on:')).toBeNull());
    act(() => api.emit({ type: 'settings', settings: { ...DEFAULT_SETTINGS, killSwitch: true } }));
    expect(await screen.findByText('Kill switch on:')).toBeTruthy();
  });

  it('replace the sleep time of an Up app while the kill switch is on', async () => {
    await renderDashboard(
      fakeApi({ apps: [appView('qa-env', 'Up', { sleepsAt: null, sleepNote: 'kill switch on' })] }),
    );
    expect(within(row('qa-env')).getByText('no sleep')).toBeTruthy();
    expect(within(row('qa-env')).getByText('kill switch on')).toBeTruthy();
  });

  it('shows an action handed over while the datastore is away as pending (team mode)', async () => {
    const note = 'reset handed over: will run when the datastore is back';
    await renderDashboard(
      fakeApi({ apps: [appView('qa-env', 'Error', { handedOver: note }), appView('docs', 'Up')] }),
    );
    const pending = within(row('qa-env')).getByText('pending: runs when the datastore is back');
    expect(pending.getAttribute('title')).toBe(note);
    expect(within(row('docs')).queryByText('pending: runs when the datastore is back')).toBeNull();
  });
});

describe('the details of an app', () => {
  const history = [
    {
      id: 3,
      appId: 'app_billing-preview',
      at: NOW - MINUTE,
      kind: 'transition' as const,
      from: 'WaitingForUp' as const,
      to: 'Error' as const,
      actor: 'reaper' as const,
      reason: 'the app failed to start on clever cloud',
    },
    {
      id: 2,
      appId: 'app_billing-preview',
      at: NOW - 3 * MINUTE,
      kind: 'transition' as const,
      from: 'Down' as const,
      to: 'WaitingForUp' as const,
      actor: 'operator' as const,
      reason: 'asked for by dashboard',
    },
    {
      id: 1,
      appId: 'app_billing-preview',
      at: NOW - 9 * MINUTE,
      kind: 'transition' as const,
      from: null,
      to: 'WaitingForInit' as const,
      actor: 'operator' as const,
      reason: 'put under the reaper by a route',
    },
  ];

  it('show the cause with Reset, the timeline and the transitions with who acted and why', async () => {
    const api = fakeApi({ apps: fleet(), history });
    const { user } = await renderDashboard(api);
    await user.click(within(row('billing-preview')).getByRole('link', { name: 'billing-preview' }));
    const dialog = await screen.findByRole('dialog', { name: 'billing-preview' });
    const d = within(dialog);
    expect(d.getByRole('alert').textContent).toContain('the app failed to start on clever cloud');
    const list = await d.findByRole('list', { name: 'Transitions and actions, newest first' });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(3);
    expect(items[0]!.textContent).toContain('Waking up → Error');
    expect(items[1]!.textContent).toContain('operator');
    expect(items[1]!.textContent).toContain('asked for by dashboard');
    expect(d.getByRole('img', { name: /^Timeline: Initializing from/ })).toBeTruthy();
    await user.click(d.getByRole('button', { name: 'Reset' }));
    expect(api.calls.some((c) => c.name === 'reset')).toBe(true);
  });

  it('append a history entry pushed by the engine', async () => {
    const api = fakeApi({ apps: fleet(), history });
    const { user } = await renderDashboard(api);
    await user.click(within(row('billing-preview')).getByRole('link', { name: 'billing-preview' }));
    const list = await screen.findByRole('list', { name: 'Transitions and actions, newest first' });
    act(() =>
      api.emit({
        type: 'history',
        entry: {
          appId: 'app_billing-preview',
          at: NOW,
          kind: 'reset',
          from: 'Error',
          to: 'WaitingForInit',
          actor: 'operator',
          reason: 'reset from the console',
        },
      }),
    );
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(4));
    expect(within(list).getAllByRole('listitem')[0]!.textContent).toContain('reset from the console');
  });

  it('disable the reaper only once confirmed', async () => {
    const api = fakeApi({ apps: fleet() });
    const { user } = await renderDashboard(api);
    await user.click(within(row('api-sandbox')).getByRole('link', { name: 'api-sandbox' }));
    const dialog = await screen.findByRole('dialog', { name: 'api-sandbox' });
    await user.click(within(dialog).getByRole('button', { name: 'Disable the reaper' }));
    expect(api.calls.some((c) => c.name === 'release')).toBe(false);
    const confirm = screen.getByRole('alertdialog', { name: 'Disable the reaper for api-sandbox?' });
    expect(confirm.textContent).toContain('it is started first');
    await user.click(within(confirm).getByRole('button', { name: 'Disable and release' }));
    expect(api.calls).toContainEqual({ name: 'release', input: { appId: 'app_api-sandbox' } });
  });

  it('keep an app awake for a while, and show the problem of a refused time', async () => {
    const api = fakeApi({ apps: fleet() });
    const { user } = await renderDashboard(api);
    await user.click(within(row('shop-staging')).getByRole('link', { name: 'shop-staging' }));
    const dialog = await screen.findByRole('dialog', { name: 'shop-staging' });
    await user.click(within(dialog).getByRole('button', { name: '3 hours' }));
    const call = api.calls.find((c) => c.name === 'keepAwake')?.input as { until: number; source: string };
    expect(call.source).toBe('dashboard');
    expect(call.until - NOW).toBeGreaterThanOrEqual(3 * 60 * MINUTE);
    api.answer('keepAwake', () => {
      throw new ApiError('invalid-input', 'until: this time is already past', [
        { field: 'until', message: 'this time is already past' },
      ]);
    });
    await user.click(within(dialog).getByRole('button', { name: '1 hour' }));
    expect(await within(dialog).findByText('until: this time is already past')).toBeTruthy();
  });
});
