/** The Savings view in French: its words, and hours and euros formatted with Intl for the language. */
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { HOUR } from '../../../shared/durations.ts';
import type { SavingsFigures, SavingsReport } from '../../../shared/savings.ts';
import { App } from '../../App.tsx';
import { i18n } from '../../i18n.ts';
import { appView, fakeApi, NOW } from '../../test/fake-api.ts';

afterEach(async () => {
  await i18n.changeLanguage('en');
});

const figures = (hoursAsleep: number, savedEur: number, projectedHours = 0): SavingsFigures => ({
  hoursAsleep,
  savedEur,
  projectedHours,
  projectedEur: projectedHours * 0.02,
  outsideHours: 0,
});

function report(): SavingsReport {
  const daily = Array.from({ length: 30 }, (_, i) => ({
    day: new Date(NOW - (29 - i) * 24 * HOUR).toISOString().slice(0, 10),
    start: NOW - (30 - i) * 24 * HOUR,
    end: NOW - (29 - i) * 24 * HOUR,
    figures: figures(12, 0.24),
  }));
  const window = { start: NOW - HOUR, end: NOW };
  return {
    now: NOW,
    timeZone: 'Europe/Paris',
    windows: { today: window, month: window, year: window, all: window },
    totals: {
      today: figures(9, 0.18, 2),
      month: figures(84, 1.68),
      year: figures(400, 8),
      all: figures(1512.5, 30.25),
    },
    savingNow: { eurPerHour: 0, apps: 0, unpriced: 0, outsideApps: 0 },
    daily,
    apps: [
      {
        appId: 'app_api-sandbox',
        name: 'api-sandbox',
        managed: false,
        flavorName: 'S',
        flavorPrice: 0.6873,
        instances: 2,
        hourlyEur: 0.08,
        windows: {
          today: figures(9, 0.72),
          month: figures(84, 6.72),
          year: figures(400, 32),
          all: figures(1512.5, 121),
        },
        asleepNow: null,
      },
    ],
    pricing: { unit: 'drops-per-10-min', eurPerDrop: 0.0097, confirmed: false, source: 'flavor-price' },
    unpriced: 2,
  };
}

describe('the Savings view in French', () => {
  it('says its figures in French, with a decimal comma and the euro after the amount', async () => {
    await i18n.changeLanguage('fr');
    const api = fakeApi({ apps: [appView('api-sandbox', 'Down')] });
    api.answer('savings', () => report());
    const user = userEvent.setup();
    render(<App api={api} />);
    await user.click(await screen.findByRole('link', { name: /^Économies/ }));
    const totals = await screen.findByRole('list', { name: 'Totaux' });
    const today = within(totals).getAllByRole('listitem')[1]!;
    expect(within(today).getByRole('heading', { name: 'Aujourd’hui' })).toBeTruthy();
    expect(within(today).getByText('9,0 h')).toBeTruthy();
    expect(today.textContent?.replace(/\s/g, ' ')).toContain('Simulation : aurait économisé 0,04 € (2,0 h)');
    const allTime = within(totals).getAllByRole('listitem')[4]!;
    expect(allTime.textContent?.replace(/\s/g, ' ')).toContain('1 513 h');
    expect(allTime.textContent?.replace(/\s/g, ' ')).toContain('30,25 € économisés');
    expect(screen.getByText(/lu en drops par 10 minutes × 0,0097 € par drop/)).toBeTruthy();
    expect(screen.getByText(/2 applications sans prix de flavor connu/)).toBeTruthy();
    const table = screen.getByRole('table');
    expect(within(table).getByText('(libérée)', { exact: false })).toBeTruthy();
    expect(
      screen.getByRole('img', { name: /Heures de veille par jour sur les 30 derniers jours/ }),
    ).toBeTruthy();
  });
});
