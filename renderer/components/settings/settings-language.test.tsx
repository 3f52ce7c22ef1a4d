/**
 * Settings: the language switch applies at once, without a reload, and tells the desktop's main
 * process (DashboardApi.setLanguage) so the tray and notifications follow; a Settings form with
 * unsaved changes asks before it is left.
 */
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Language } from '../../../shared/i18n/languages.ts';
import { App } from '../../App.tsx';
import { i18n } from '../../i18n.ts';
import { appView, type FakeApi, fakeApi } from '../../test/fake-api.ts';

afterEach(async () => {
  vi.restoreAllMocks();
  await i18n.changeLanguage('en');
  document.documentElement.lang = 'en';
});

async function openSettings(api: FakeApi) {
  const user = userEvent.setup();
  render(<App api={api} />);
  await user.click(await screen.findByRole('link', { name: /^Settings/ }));
  await screen.findByRole('heading', { level: 1, name: 'Settings' });
  return { user };
}

const header = () => screen.getByRole('banner');

describe('the language switch', () => {
  it('offers the system language, English and Français, and switches live, telling the desktop', async () => {
    const told: (Language | null)[] = [];
    const api = Object.assign(fakeApi({ apps: [appView('shop', 'Up')] }), {
      setLanguage: async (choice: Language | null) => {
        told.push(choice);
      },
    });
    const { user } = await openSettings(api);
    const select = screen.getByLabelText('Language of the dashboard') as HTMLSelectElement;
    expect([...select.options].map((o) => o.textContent)).toEqual([
      'As the system (English)',
      'English',
      'Français',
    ]);
    expect(select.value).toBe('system');

    await user.selectOptions(select, 'fr');
    // At once, no reload: the view, the header and the page's language.
    expect(await screen.findByRole('heading', { level: 1, name: 'Paramètres' })).toBeTruthy();
    expect(within(header()).getByRole('link', { name: /^Applications/ })).toBeTruthy();
    expect(within(header()).getByRole('button', { name: 'Arrêt d’urgence : désactivé' })).toBeTruthy();
    expect(document.documentElement.lang).toBe('fr');
    expect(localStorage.getItem('clever-reaper.language')).toBe('fr');
    await waitFor(() => expect(told).toEqual(['fr']));
    const french = screen.getByLabelText('Langue du tableau de bord') as HTMLSelectElement;
    expect([...french.options].map((o) => o.textContent)).toEqual([
      'Comme le système (English)',
      'English',
      'Français',
    ]);

    await user.selectOptions(french, 'system');
    expect(await screen.findByRole('heading', { level: 1, name: 'Settings' })).toBeTruthy();
    expect(localStorage.getItem('clever-reaper.language')).toBeNull();
    await waitFor(() => expect(told).toEqual(['fr', null]));
    expect(document.documentElement.lang).toBe('en');
  });

  it('works without a desktop (the headless dashboard)', async () => {
    const { user } = await openSettings(fakeApi());
    await user.selectOptions(screen.getByLabelText('Language of the dashboard'), 'fr');
    expect(await screen.findByRole('heading', { level: 1, name: 'Paramètres' })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says when the tray and notifications could not follow', async () => {
    const api = Object.assign(fakeApi(), {
      setLanguage: async () => {
        throw new Error('the settings file is read-only');
      },
    });
    const { user } = await openSettings(api);
    await user.selectOptions(screen.getByLabelText('Language of the dashboard'), 'fr');
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Le tableau de bord parle Français, mais l’icône de la barre des tâches et les notifications n’ont pas pu suivre : the settings file is read-only',
    );
  });
});

describe('unsaved changes in Settings', () => {
  it('asks before leaving a form with unsaved changes, and stays when told to', async () => {
    const confirm = vi.spyOn(window, 'confirm');
    const { user } = await openSettings(fakeApi({ apps: [appView('shop', 'Up')] }));
    // A clean form lets the view change without asking.
    await user.click(within(header()).getByRole('link', { name: /^History/ }));
    await screen.findByRole('heading', { level: 1, name: 'History' });
    expect(screen.queryByRole('alertdialog')).toBeNull();
    await user.click(within(header()).getByRole('link', { name: /^Settings/ }));
    const interval = await screen.findByLabelText('Job interval');
    await user.clear(interval);
    await user.type(interval, '45');
    const apps = within(header()).getByRole('link', { name: /^Apps/ });
    await user.click(apps);
    const asked = await screen.findByRole('alertdialog', { name: 'Discard changes?' });
    expect(asked.textContent).toContain(
      'Your changes to “Paces and timeouts” are not saved. Leave without saving them?',
    );
    await user.click(within(asked).getByRole('button', { name: 'Keep editing' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(screen.getByRole('heading', { level: 1, name: 'Settings' })).toBeTruthy();
    expect(screen.getByLabelText('Job interval')).toHaveProperty('value', '45');
    expect(document.activeElement).toBe(apps);
    await user.click(apps);
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Discard' }));
    expect(await screen.findByRole('table', { name: /./ })).toBeTruthy();
    expect(confirm).not.toHaveBeenCalled();
  });

  it('asks in French, naming the form', async () => {
    await i18n.changeLanguage('fr');
    const user = userEvent.setup();
    render(<App api={fakeApi()} />);
    await user.click(await screen.findByRole('link', { name: /^Paramètres/ }));
    await user.click(await screen.findByRole('button', { name: 'Ajouter un webhook' }));
    await user.click(within(header()).getByRole('link', { name: /^Historique/ }));
    const asked = await screen.findByRole('alertdialog', { name: 'Abandonner les modifications ?' });
    expect(asked.textContent).toContain(
      'Vos modifications de « Alertes d’équipe » ne sont pas enregistrées. Partir sans les enregistrer ?',
    );
    expect(within(asked).getByRole('button', { name: 'Continuer la saisie' })).toBe(document.activeElement);
  });
});
