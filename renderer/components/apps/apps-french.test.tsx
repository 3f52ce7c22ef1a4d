/**
 * The apps view in French: the table, an app in Error with its explanation and console links, the
 * details panel and the outcome of Wake; a language switch re-renders without a reload; and a time
 * set by a must-be-up range in another zone says that zone (in both languages).
 */
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CAUSES } from '../../../shared/domain.ts';
import { MINUTE } from '../../../shared/durations.ts';
import { App } from '../../App.tsx';
import { i18n } from '../../i18n.ts';
import { setViewerTimeZone } from '../../lib/format.ts';
import { appView, fakeApi, NOW, routeOf } from '../../test/fake-api.ts';

const ORG_CONSOLE = 'https://console.clever-cloud.com/organisations/orga_acme/applications';
const rowOf = (name: string) => document.querySelector<HTMLElement>(`tr[data-app="${name}"]`)!;

beforeEach(async () => {
  await i18n.changeLanguage('fr');
});
afterEach(async () => {
  setViewerTimeZone(null);
  await i18n.changeLanguage('en');
});

describe('the apps view in French', () => {
  it('the table: its name, columns, states as the dashboard and the console say them, actions', async () => {
    const apps = [
      appView('shop', 'Up', { lastRequestAt: NOW - 3 * MINUTE, lastRequestSource: 'access-log' }),
      appView('blog', 'Down'),
      appView('billing', 'Error', { cause: CAUSES.startFailed, cleverState: 'WANTS_TO_BE_UP' }),
    ];
    render(<App api={fakeApi({ apps })} />);
    const table = await screen.findByRole('table', { name: 'Applications gérées' });
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((h) => h.textContent?.replace(/[▲▼]/g, '').trim());
    expect(headers).toEqual([
      '',
      'Application',
      'État',
      'Clever Cloud',
      'Dernière requête',
      'Mise en veille',
      'Cause / remarques',
      'Actions',
    ]);
    const shop = within(rowOf('shop'));
    expect(shop.getByText('Éveillée')).toBeTruthy();
    expect(shop.getByText('Disponible').getAttribute('title')).toBe('SHOULD_BE_UP');
    expect(shop.getByText('il y a 3 min')).toBeTruthy();
    expect(shop.getByText('journal d’accès')).toBeTruthy();
    expect(shop.getByText('depuis 10 min')).toBeTruthy();
    expect(shop.getByText('s’endort à 09:20')).toBeTruthy();
    expect(shop.getByRole('link', { name: 'Console : shop (s’ouvre dans votre navigateur)' })).toBeTruthy();
    const blog = within(rowOf('blog'));
    expect(blog.getByText('En veille')).toBeTruthy();
    expect(blog.getByText('Arrêtée')).toBeTruthy();
    expect(blog.getByRole('button', { name: 'Réveiller blog' }).textContent).toBe('Réveiller');
    expect(within(rowOf('billing')).getByRole('button', { name: 'Réinitialiser billing' })).toBeTruthy();
    // The cause in French, the spec's English kept on hover; its short name groups the apps in Error.
    const cause = within(rowOf('billing')).getByText(
      'l’application n’a pas réussi à démarrer sur Clever Cloud',
    );
    expect(cause.getAttribute('title')).toBe(CAUSES.startFailed);
    const causes = screen.getByRole('region', { name: 'Causes des erreurs' });
    expect(causes.textContent).toContain('échec du démarrage');
    expect(
      within(causes).getByRole('button', { name: 'Réinitialiser 1 application ayant cette cause' }),
    ).toBeTruthy();
    expect(screen.getByText('3 applications')).toBeTruthy();
    expect(screen.getByRole('combobox', { name: 'Filtrer par état' }).textContent).toContain('En erreur (1)');
  });

  it('an app in Error: the cause in French with its English original, the explanation and next step, the console links', async () => {
    const user = userEvent.setup();
    const app = appView('billing-preview', 'Error', {
      cause: CAUSES.startFailed,
      cleverState: 'WANTS_TO_BE_UP',
    });
    render(<App api={fakeApi({ apps: [app] })} />);
    await screen.findByRole('table', { name: 'Applications gérées' });
    await user.click(within(rowOf('billing-preview')).getByRole('link', { name: 'billing-preview' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'billing-preview' }));
    const alert = within(dialog.getByRole('alert'));
    expect(alert.getByText('l’application n’a pas réussi à démarrer sur Clever Cloud')).toBeTruthy();
    expect(alert.getByText(`Original (tel qu’enregistré) : ${CAUSES.startFailed}`)).toBeTruthy();
    expect(alert.getByRole('heading', { name: 'Le démarrage a échoué sur Clever Cloud' })).toBeTruthy();
    expect(dialog.getByRole('alert').textContent).toContain(
      'À faire : Lisez les logs de ce déploiement dans la console',
    );
    expect(alert.getByRole('link', { name: /Logs dans la console Clever Cloud/ }).getAttribute('href')).toBe(
      `${ORG_CONSOLE}/app_billing-preview/logs`,
    );
    expect(
      alert.getByRole('link', { name: /Ouvrir dans la console Clever Cloud/ }).getAttribute('href'),
    ).toBe(`${ORG_CONSOLE}/app_billing-preview`);
    expect(alert.getByRole('button', { name: 'Réinitialiser' })).toBeTruthy();
    // The console's French for WANTS_TO_BE_UP with a failed deployment, the raw value on hover.
    expect(dialog.getByText('Échec du démarrage').getAttribute('title')).toBe(
      'WANTS_TO_BE_UP, dernier déploiement FAIL',
    );
  });

  it('the details panel: facts, durations, history, and the outcome of Wake', async () => {
    const user = userEvent.setup();
    const app = appView('blog', 'Down', {
      lastRequestAt: NOW - 2 * 60 * MINUTE,
      lastRequestSource: 'wake-proxy',
    });
    render(<App api={fakeApi({ apps: [app] })} />);
    await screen.findByRole('table', { name: 'Applications gérées' });
    await user.click(within(rowOf('blog')).getByRole('link', { name: 'blog' }));
    const panel = await screen.findByRole('dialog', { name: 'blog' });
    const dialog = within(panel);
    expect(dialog.getByRole('button', { name: 'Fermer le détail' })).toBeTruthy();
    const facts = panel.querySelector('dl.facts')!;
    expect(facts.textContent).toContain('ÉtatEn veille depuis 10 min');
    expect(facts.textContent).toContain('Dernière requêteil y a 2 h, proxy de réveil');
    expect(facts.textContent).toContain('Délai de grâce1 h');
    expect(await dialog.findByText('en général 45 s, au pire 1 min 10 s (les 3 derniers)')).toBeTruthy();
    expect(dialog.getByRole('heading', { name: 'Plages d’éveil obligatoire' })).toBeTruthy();
    expect(dialog.getByRole('heading', { name: 'Historique' })).toBeTruthy();
    expect(dialog.getByRole('heading', { name: 'Sources de réveil' })).toBeTruthy();
    await user.click(
      within(dialog.getByRole('region', { name: 'Actions' })).getByRole('button', { name: 'Réveiller' }),
    );
    expect(await dialog.findByText('Réveil demandé : éveillée dans 45 s environ')).toBeTruthy();
  });

  it('a switch of language re-renders the view at once, without a reload', async () => {
    await i18n.changeLanguage('en');
    render(<App api={fakeApi({ apps: [appView('blog', 'Down')] })} />);
    await screen.findByRole('table', { name: 'Managed apps' });
    expect(within(rowOf('blog')).getByText('Asleep')).toBeTruthy();
    await act(() => i18n.changeLanguage('fr'));
    expect(screen.getByRole('table', { name: 'Applications gérées' })).toBeTruthy();
    expect(within(rowOf('blog')).getByText('En veille')).toBeTruthy();
    expect(within(rowOf('blog')).getByText('Arrêtée')).toBeTruthy();
  });
});

describe('times set by a must-be-up range say its zone when it is not the viewer’s', () => {
  /** Monday 09:00 UTC; the next range start is Tuesday 09:00 in Tokyo, Tuesday 01:00 in Paris. */
  const tokyo = { days: 'Mon-Fri', start: '09:00', end: '18:00', timeZone: 'Asia/Tokyo' };
  const nextStart = Date.UTC(2026, 0, 6, 0, 0);
  const asleep = appView('reports', 'Down', { hasRanges: true, nextMustBeUpAt: nextStart });

  it('in French, with the viewer in Europe/Paris', async () => {
    setViewerTimeZone('Europe/Paris');
    render(<App api={fakeApi({ apps: [asleep], routes: [routeOf(asleep, { ranges: [tokyo] })] })} />);
    await screen.findByRole('table', { name: 'Applications gérées' });
    expect(
      within(rowOf('reports')).getByText('se réveille à mar. 01:00 (mar. 09:00 Asia/Tokyo)'),
    ).toBeTruthy();
  });

  it('in English; and nothing is added where the zone writes the time as the viewer’s', async () => {
    await i18n.changeLanguage('en');
    setViewerTimeZone('Europe/Paris');
    const berlin = appView('berlin', 'Down', { hasRanges: true, nextMustBeUpAt: Date.UTC(2026, 0, 6, 7, 0) });
    const apps = [asleep, berlin];
    const routes = [
      routeOf(asleep, { ranges: [tokyo] }),
      routeOf(berlin, { ranges: [{ ...tokyo, timeZone: 'Europe/Berlin' }] }),
    ];
    render(<App api={fakeApi({ apps, routes })} />);
    await screen.findByRole('table', { name: 'Managed apps' });
    expect(within(rowOf('reports')).getByText('wakes at Tue 01:00 (Tue 09:00 Asia/Tokyo)')).toBeTruthy();
    expect(within(rowOf('berlin')).getByText('wakes at Tue 08:00')).toBeTruthy();
  });
});
