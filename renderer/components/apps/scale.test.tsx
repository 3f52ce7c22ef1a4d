/** Operators at scale: bulk actions, grouping and density, the Routes search, the History app picker. */
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { App } from '../../App.tsx';
import { appView, type FakeApi, fakeApi } from '../../test/fake-api.ts';

async function renderDashboard(api: FakeApi) {
  const user = userEvent.setup();
  render(<App api={api} />);
  await screen.findByRole('table', { name: 'Managed apps' });
  return { user };
}

const fleet = () => [
  appView('api-sandbox', 'Down'),
  appView('billing-preview', 'Error', { cause: 'the app failed to start on clever cloud' }),
  appView('docs-preview', 'Down', { ownerId: 'user_me', ownerName: 'Demo User' }),
  appView('shop-staging', 'Up'),
];

const box = (name: string) => screen.getByRole('checkbox', { name: `Select ${name}` }) as HTMLInputElement;

describe('bulk actions', () => {
  it('wake a Shift+click range, and tell the result per app: succeeded, or refused and why', async () => {
    const api = fakeApi({ apps: fleet() });
    const { user } = await renderDashboard(api);
    await user.click(box('api-sandbox'));
    await user.keyboard('{Shift>}');
    await user.click(box('docs-preview'));
    await user.keyboard('{/Shift}');
    expect([box('api-sandbox'), box('billing-preview'), box('docs-preview')].map((b) => b.checked)).toEqual([
      true,
      true,
      true,
    ]);
    expect(box('shop-staging').checked).toBe(false);
    const bar = screen.getByRole('region', { name: 'Selected apps' });
    await user.click(within(bar).getByRole('button', { name: 'Wake 3' }));
    const result = await screen.findByRole('region', { name: 'Wake: result' });
    expect(within(result).getByRole('status').textContent).toContain('Wake: 2 succeeded, 1 refused');
    expect(within(result).getByRole('list', { name: 'Result per app' }).textContent).toContain(
      'billing-preview' + 'refused: the app is in Error',
    );
    expect(api.calls.find((c) => c.name === 'bulk')?.input).toEqual({
      action: 'wake',
      appIds: ['app_api-sandbox', 'app_billing-preview', 'app_docs-preview'],
      source: 'dashboard',
    });
  });

  it('with the keyboard: Space picks the focused row, Shift+Down extends, Ctrl+A picks what is shown', async () => {
    const { user } = await renderDashboard(fakeApi({ apps: fleet() }));
    const open = (name: string) => screen.getByRole('link', { name, exact: true } as never);
    open('api-sandbox').focus();
    await user.keyboard(' ');
    expect(box('api-sandbox').checked).toBe(true);
    expect(screen.queryByRole('dialog')).toBeNull();
    await user.keyboard('{Shift>}{ArrowDown}{/Shift}');
    expect(box('billing-preview').checked).toBe(true);
    await waitFor(() => expect(document.activeElement).toBe(open('billing-preview')));
    await user.keyboard('{Escape}');
    expect(box('api-sandbox').checked).toBe(false);
    await user.keyboard('{Control>}a{/Control}');
    expect(screen.getByRole('region', { name: 'Selected apps' }).textContent).toContain('4 selected');
  });

  it('Reset all N with this cause, from the causes of the apps in Error', async () => {
    const api = fakeApi({ apps: fleet() });
    const { user } = await renderDashboard(api);
    const causes = screen.getByRole('region', { name: 'Error causes' });
    expect(causes.textContent).toContain('failed to start');
    await user.click(within(causes).getByRole('button', { name: 'Reset 1 app with this cause' }));
    await screen.findByRole('region', { name: 'Reset: result' });
    expect(api.calls.find((c) => c.name === 'bulk')?.input).toMatchObject({
      action: 'reset',
      appIds: ['app_billing-preview'],
    });
  });
});

describe('the apps table at scale', () => {
  it('groups by owner under headers with counts that collapse, and keeps the choice and the density', async () => {
    const { user } = await renderDashboard(fakeApi({ apps: fleet() }));
    await user.click(screen.getByRole('checkbox', { name: 'Group by owner' }));
    const acme = screen.getByRole('button', { name: /Acme Staging\s*3/ });
    expect(acme.getAttribute('aria-expanded')).toBe('true');
    await user.click(acme);
    expect(document.querySelector('tr[data-app="shop-staging"]')).toBeNull();
    expect(document.querySelector('tr[data-app="docs-preview"]')).not.toBeNull();
    await user.click(screen.getByRole('checkbox', { name: 'Compact rows' }));
    expect(screen.getByRole('table', { name: 'Managed apps' }).className).toContain('compact');
    expect(JSON.parse(localStorage.getItem('clever-reaper.apps-table')!)).toEqual({
      density: 'compact',
      groupByOwner: true,
    });
  });
});

describe('a link to a place', () => {
  it('opens the app it names once the apps are loaded, or says it is not managed here', async () => {
    window.history.replaceState(null, '', '/#/apps/app_shop-staging?state=Up');
    render(<App api={fakeApi({ apps: fleet() })} />);
    expect(await screen.findByRole('dialog', { name: 'shop-staging' })).toBeTruthy();
    expect((screen.getByLabelText('Filter by state') as HTMLSelectElement).value).toBe('Up');
  });

  it('to an app this reaper does not manage says so, and shows the list', async () => {
    window.history.replaceState(null, '', '/#/apps/app_elsewhere');
    render(<App api={fakeApi({ apps: fleet() })} />);
    expect(await screen.findByText(/No managed app app_elsewhere here/)).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(window.location.hash).toBe('#/apps');
  });
});

describe('the Routes view', () => {
  it('opens the editor of the route a link names, and the URL follows the editor', async () => {
    window.history.replaceState(null, '', '/#/routes/route_api-sandbox');
    const user = userEvent.setup();
    render(<App api={fakeApi({ apps: fleet() })} />);
    expect(await screen.findByRole('heading', { name: 'Edit the route of api-sandbox' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Edit the route of shop-staging' }));
    expect(await screen.findByRole('heading', { name: 'Edit the route of shop-staging' })).toBeTruthy();
    expect(window.location.hash).toBe('#/routes/route_shop-staging');
  });

  it('finds a route by app, owner or host', async () => {
    const { user } = await renderDashboard(fakeApi({ apps: fleet() }));
    await user.click(screen.getByRole('link', { name: /^Routes/ }));
    expect(await screen.findByText('4 routes')).toBeTruthy();
    await user.type(screen.getByRole('searchbox', { name: 'Search routes' }), 'demo user');
    expect(screen.getByText('1 of 4 routes')).toBeTruthy();
    expect(document.querySelector('tr[data-route="docs-preview"]')).not.toBeNull();
    expect(document.querySelector('tr[data-route="shop-staging"]')).toBeNull();
    expect(window.location.hash).toBe('#/routes?q=demo+user');
  });
});

describe('the History app picker', () => {
  it('is a combobox: typing narrows the apps, arrows move, Enter picks', async () => {
    const apps = Array.from({ length: 300 }, (_, i) => appView(`app-${String(i).padStart(3, '0')}`, 'Up'));
    const api = fakeApi({ apps });
    const { user } = await renderDashboard(api);
    await user.click(screen.getByRole('link', { name: /^History/ }));
    const combo = await screen.findByRole('combobox', { name: 'App' });
    await user.click(combo);
    expect(combo.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByText('250 more: type to narrow')).toBeTruthy();
    await user.type(combo, 'app-12');
    const list = () => within(screen.getByRole('listbox', { name: 'Apps' })).getAllByRole('option');
    const options = list().map((o) => o.textContent);
    expect(options).toEqual([
      'All apps',
      'app-120',
      ...Array.from({ length: 9 }, (_, i) => `app-12${i + 1}`),
    ]);
    await user.keyboard('{ArrowDown}');
    expect(combo.getAttribute('aria-activedescendant')).toBe(list()[2]!.id);
    await user.keyboard('{Enter}');
    expect((combo as HTMLInputElement).value).toBe('app-121');
    expect(combo.getAttribute('aria-expanded')).toBe('false');
    // The pick applies at once (no Filter button).
    await waitFor(() =>
      expect(api.calls.filter((c) => c.name === 'historyQuery').at(-1)?.input).toMatchObject({
        appId: 'app_app-121',
      }),
    );
    expect(window.location.hash).toBe('#/history?app=app_app-121');
  });
});
