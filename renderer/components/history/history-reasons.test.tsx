/**
 * The reasons of the history read in the viewer's language, in the History view and in the details
 * panel's history: translated where they are ours, the Error causes of the spec in French too (their English on hover), a
 * reason of no known form as written. The download and the API keep the stored text (not this).
 */
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { CAUSES, type HistoryEntry } from '../../../shared/domain.ts';
import { App } from '../../App.tsx';
import { i18n } from '../../i18n.ts';
import { appView, fakeApi, NOW } from '../../test/fake-api.ts';
import { HistoryList } from '../apps/AppFacts.tsx';

afterEach(async () => {
  await i18n.changeLanguage('en');
});

const entry = (id: number, reason: string, to: HistoryEntry['to'] = 'Down'): HistoryEntry => ({
  id,
  appId: 'app_shop',
  at: NOW - id * 60_000,
  kind: 'transition',
  from: 'Up',
  to,
  actor: 'reaper',
  reason,
});

const entries = [
  entry(1, 'no traffic for 1 h 30 min (grace period 2 min), last deployment OK', 'WaitingForShutdown'),
  entry(2, 'stopped outside the reaper: Clever Cloud says SHOULD_BE_DOWN'),
  entry(3, CAUSES.stopTimeout, 'Error'),
  entry(4, 'written by a version we do not know'),
];

const reasonsShown = (root: HTMLElement) => [...root.querySelectorAll('.reason')].map((el) => el.textContent);

describe('history reasons', () => {
  it('the History view shows them in French, the causes of the spec too, unknown reasons as written', async () => {
    await i18n.changeLanguage('fr');
    const user = userEvent.setup();
    render(<App api={fakeApi({ apps: [appView('shop', 'Up')], history: entries })} />);
    await user.click(await screen.findByRole('link', { name: /^Historique/ }));
    const table = await screen.findByRole('table');
    await within(table).findByText(/aucun trafic depuis/);
    expect(reasonsShown(table)).toEqual([
      'aucun trafic depuis 1 h 30 min (délai de grâce 2 min), dernier déploiement OK',
      'arrêtée en dehors du reaper : Clever Cloud indique SHOULD_BE_DOWN',
      'l’application ne s’est pas arrêtée dans le délai d’échec',
      'written by a version we do not know',
    ]);
    // The recorded English on hover.
    expect(table.querySelectorAll('.reason')[2]?.getAttribute('title')).toBe(CAUSES.stopTimeout);
  });

  it('the details panel’s history shows them in French, and as written in English', async () => {
    const { container, rerender } = render(<HistoryList entries={entries} />);
    expect(reasonsShown(container)).toEqual(entries.map((e) => e.reason));
    await i18n.changeLanguage('fr');
    rerender(<HistoryList entries={[...entries]} />);
    expect(reasonsShown(container).slice(0, 2)).toEqual([
      'aucun trafic depuis 1 h 30 min (délai de grâce 2 min), dernier déploiement OK',
      'arrêtée en dehors du reaper : Clever Cloud indique SHOULD_BE_DOWN',
    ]);
  });
});
