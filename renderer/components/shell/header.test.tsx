/**
 * The header of every view: the connected account and the mode always shown, credentials saved but
 * not yet checked warned about (never a green "Live"), and the kill switch one click away with a
 * confirmation that says what it does; in English and in French.
 */
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { type CredentialsStatus, NO_CREDENTIALS } from '../../../shared/api.ts';
import { App } from '../../App.tsx';
import { i18n } from '../../i18n.ts';
import { appView, type FakeApi, fakeApi } from '../../test/fake-api.ts';

afterEach(async () => {
  await i18n.changeLanguage('en');
});

const header = () => screen.getByRole('banner');

const checked: CredentialsStatus = {
  ...NO_CREDENTIALS,
  state: 'connected',
  source: 'clever-tools',
  account: 'ops@example.com',
  canConnect: true,
};

const unchecked: CredentialsStatus = {
  ...checked,
  account: null,
  unchecked: true,
  problem: 'the credentials could not be checked yet: Clever Cloud answered 503',
};

async function show(api: FakeApi) {
  const user = userEvent.setup();
  render(<App api={api} />);
  await screen.findByRole('table', { name: /./ });
  return { user };
}

describe('the header', () => {
  it('names the connected account and the server, and says Live once the credentials are checked', async () => {
    const api = {
      ...fakeApi({ apps: [appView('shop', 'Up')], status: { mode: 'account', credentials: checked } }),
      serverHost: 'reaper.example.com:7410',
    };
    await show(api);
    expect(within(header()).getByTestId('account-label').textContent).toBe('ops@example.com');
    expect(within(header()).getByTestId('mode-label').textContent).toBe('Server · reaper.example.com:7410');
    expect(within(header()).getByRole('status').textContent).toBe('Live');
    expect(screen.queryByTestId('unchecked-banner')).toBeNull();
  });

  it('says the demo and its time scale', async () => {
    await show(fakeApi({ apps: [appView('shop', 'Up')], status: { timeScale: 60 } }));
    expect(within(header()).getByText('Demo · time ×60')).toBeTruthy();
    // The demo's simulated account has no name: nothing to say beside "Demo".
    expect(within(header()).queryByTestId('account-label')).toBeNull();
  });

  it('warns about credentials saved but not yet checked, never with a green Live, and leads to Settings', async () => {
    const api = fakeApi({
      apps: [appView('shop', 'Up')],
      status: { mode: 'account', credentials: unchecked },
    });
    const { user } = await show(api);
    expect(within(header()).getByRole('status').textContent).toBe('Not yet checked');
    expect(within(header()).queryByText('Live')).toBeNull();
    expect(within(header()).getByTestId('account-label').textContent).toBe('Account not yet checked');
    const banner = screen.getByTestId('unchecked-banner');
    expect(banner.getAttribute('role')).toBe('alert');
    expect(banner.textContent).toContain('Clever Cloud credentials not yet checked:');
    expect(banner.textContent).toContain('Clever Cloud answered 503');
    expect(banner.textContent).toContain('connect again in Settings');
    await user.click(within(banner).getByRole('button', { name: 'Open Settings' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Settings' })).toBeTruthy();
    expect(screen.getByText('saved, not yet checked by Clever Cloud')).toBeTruthy();
    // The warning stays on every view.
    expect(screen.getByTestId('unchecked-banner')).toBeTruthy();
  });

  it('speaks French: the account, the warning and the connection', async () => {
    await i18n.changeLanguage('fr');
    const api = fakeApi({
      apps: [appView('shop', 'Up')],
      status: { mode: 'account', credentials: unchecked },
    });
    await show(api);
    expect(within(header()).getByRole('status').textContent).toBe('Pas encore vérifié');
    expect(within(header()).getByTestId('account-label').textContent).toBe('Compte pas encore vérifié');
    expect(screen.getByTestId('unchecked-banner').textContent).toContain(
      'Identifiants Clever Cloud pas encore vérifiés :',
    );
    expect(within(header()).getByRole('link', { name: 'Paramètres' })).toBeTruthy();
  });
});

describe('the kill switch in the header', () => {
  it('is one click away on every view, says what it does, and turns on only once confirmed', async () => {
    const api = fakeApi({ apps: [appView('shop', 'Up')] });
    const { user } = await show(api);
    for (const view of ['History', 'Savings', 'Routes', 'Settings', 'Apps']) {
      await user.click(within(header()).getByRole('link', { name: new RegExp(`^${view}`) }));
      expect(within(header()).getByRole('button', { name: 'Kill switch: off' })).toBeTruthy();
    }
    await user.click(within(header()).getByRole('button', { name: 'Kill switch: off' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Turn the kill switch on?' });
    expect(dialog.textContent).toContain('no app is put to sleep by any route or rule');
    expect(dialog.textContent).toContain('wakes still happen');
    // Focus is in the dialog, on what it asks; Cancel changes nothing.
    expect(document.activeElement).toBe(
      within(dialog).getByRole('button', { name: 'Turn the kill switch on' }),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(api.calls.some((c) => c.name === 'updateSettings')).toBe(false);
    // Escape closes it too.
    await user.click(within(header()).getByRole('button', { name: 'Kill switch: off' }));
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('alertdialog')).toBeNull();

    await user.click(within(header()).getByRole('button', { name: 'Kill switch: off' }));
    await user.click(
      within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Turn the kill switch on' }),
    );
    await waitFor(() =>
      expect(api.calls).toContainEqual({ name: 'updateSettings', input: { killSwitch: true } }),
    );
    expect(await within(header()).findByRole('button', { name: 'Kill switch: on' })).toBeTruthy();
    expect(screen.getByText('Kill switch on:')).toBeTruthy();

    // Off again, from the header, with its own confirmation.
    await user.click(within(header()).getByRole('button', { name: 'Kill switch: on' }));
    const off = screen.getByRole('alertdialog', { name: 'Turn the kill switch off?' });
    await user.click(within(off).getByRole('button', { name: 'Turn the kill switch off' }));
    await waitFor(() =>
      expect(api.calls).toContainEqual({ name: 'updateSettings', input: { killSwitch: false } }),
    );
    expect(await within(header()).findByRole('button', { name: 'Kill switch: off' })).toBeTruthy();
  });

  it('says whose kill switch it is on a shared server', async () => {
    const api = { ...fakeApi({ apps: [appView('shop', 'Up')] }), serverHost: 'reaper.example.com' };
    const { user } = await show(api);
    await user.click(within(header()).getByRole('button', { name: 'Kill switch: off' }));
    expect(screen.getByRole('alertdialog').textContent).toContain(
      'the kill switch of the reaper at reaper.example.com: it applies to everyone',
    );
  });

  it('asks in French', async () => {
    await i18n.changeLanguage('fr');
    const api = fakeApi({ apps: [appView('shop', 'Up')], settings: { killSwitch: true } });
    const { user } = await show(api);
    await user.click(within(header()).getByRole('button', { name: 'Arrêt d’urgence : activé' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Désactiver l’arrêt d’urgence ?' });
    await user.click(within(dialog).getByRole('button', { name: 'Désactiver l’arrêt d’urgence' }));
    await waitFor(() =>
      expect(api.calls).toContainEqual({ name: 'updateSettings', input: { killSwitch: false } }),
    );
  });
});
