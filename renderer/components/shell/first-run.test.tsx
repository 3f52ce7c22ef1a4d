/**
 * The first run leads with connecting an account (where the console makes a token, what rights it
 * needs), the demo second; once connected, a first day in dry-run is proposed with its projected
 * savings (from the savings report); in English and in French.
 */
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { type CredentialsStatus, NO_CREDENTIALS, type ReaperStatus } from '../../../shared/api.ts';
import type { AppSavings, SavingsFigures, SavingsReport } from '../../../shared/savings.ts';
import { DEFAULT_SETTINGS } from '../../../shared/settings.ts';
import { App } from '../../App.tsx';
import { i18n } from '../../i18n.ts';
import { appView, type FakeApi, fakeApi, NOW } from '../../test/fake-api.ts';

afterEach(async () => {
  await i18n.changeLanguage('en');
});

const none: CredentialsStatus = { ...NO_CREDENTIALS, canConnect: true };
const zero: SavingsFigures = {
  hoursAsleep: 0,
  savedEur: 0,
  projectedHours: 0,
  projectedEur: 0,
  outsideHours: 0,
};

function appSavings(name: string, hourlyEur: number | null, managed = true): AppSavings {
  return {
    appId: `app_${name}`,
    name,
    managed,
    flavorName: 'S',
    flavorPrice: 0.6873,
    instances: 1,
    hourlyEur,
    windows: { today: zero, month: zero, year: zero, all: zero },
    asleepNow: null,
  };
}

function report(apps: AppSavings[]): SavingsReport {
  const window = { start: NOW, end: NOW };
  return {
    now: NOW,
    timeZone: 'Europe/Paris',
    windows: { today: window, month: window, year: window, all: window },
    totals: { today: zero, month: zero, year: zero, all: zero },
    savingNow: { eurPerHour: 0, apps: 0, unpriced: 0, outsideApps: 0 },
    daily: [],
    apps,
    pricing: { unit: 'drops-per-10-min', eurPerDrop: 0.0097, confirmed: false },
    unpriced: 0,
  };
}

/** A reaper with no account yet, which connects as the real one does: a session event, then a snapshot. */
function firstRunApi(savings: SavingsReport): FakeApi {
  const api = fakeApi({ status: { mode: 'disconnected', scenario: null, credentials: none } });
  const connected: ReaperStatus = {
    now: NOW,
    timeScale: 1,
    mode: 'account',
    scenario: null,
    wakeProxy: { url: null },
    problems: [],
    credentials: { ...none, state: 'connected', source: 'pasted', account: 'ops@example.com' },
    version: 'test',
  };
  let settings = DEFAULT_SETTINGS;
  api.answer('connect', () => {
    api.answer('snapshot', () => ({
      seq: 1,
      status: connected,
      apps: [appView('shop-staging', 'Up')],
      routes: [],
      rules: [],
      settings,
    }));
    setTimeout(() => api.emit({ type: 'session', status: connected }), 0);
    return connected;
  });
  api.answer('updateSettings', (patch: object) => {
    settings = { ...settings, ...patch };
    return settings;
  });
  api.answer('savings', () => savings);
  return api;
}

describe('the first run', () => {
  it('leads with connecting an account, says where to make a token and what it may do, the demo second', async () => {
    render(<App api={firstRunApi(report([]))} />);
    expect(await screen.findByRole('heading', { name: 'Welcome to Clever Reaper' })).toBeTruthy();
    const headings = screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent);
    expect(headings.indexOf('Connect a Clever Cloud account')).toBeLessThan(
      headings.indexOf('Or try the demo'),
    );
    const link = screen.getByRole('link', { name: 'API tokens' });
    expect(link.getAttribute('href')).toBe('https://console.clever-cloud.com/users/me/api-tokens');
    expect(link.getAttribute('rel')).toContain('noopener');
    expect(screen.getByText('clever tokens create clever-reaper')).toBeTruthy();
    expect(screen.getByText(/A token acts with your own rights/)).toBeTruthy();
    // The demo is offered, but not as the first choice.
    expect(screen.getByRole('button', { name: 'Try the demo' }).className).not.toContain('primary');
    expect(screen.getByRole('button', { name: 'Connect' }).className).toContain('primary');
  });

  it('after connecting, proposes a first day in dry-run with its projected savings, and starts it', async () => {
    const api = firstRunApi(
      report([appSavings('shop', 0.08), appSavings('blog', 0.02), appSavings('old', 5, false)]),
    );
    const user = userEvent.setup();
    render(<App api={api} />);
    await user.type(await screen.findByLabelText('Token'), 'a-pasted-api-token');
    await user.click(screen.getByRole('button', { name: 'Connect' }));
    const card = await screen.findByTestId('first-day');
    expect(within(card).getByRole('heading', { name: 'Start with a day in dry-run' })).toBeTruthy();
    expect(within(card).getByText('Connected as ops@example.com.')).toBeTruthy();
    // 0.08 + 0.02 € an hour for the two managed apps (the released one does not count), 12 hours a day.
    expect(
      await within(card).findByText(
        'Your 2 managed apps cost about €0.10 an hour together while they run. Asleep 12 hours a day (a night, 20:00 to 08:00), they would save about €1.20 a day, €36.00 over 30 days.',
      ),
    ).toBeTruthy();
    expect(within(screen.getByRole('banner')).getByTestId('account-label').textContent).toBe(
      'ops@example.com',
    );
    await user.click(within(card).getByRole('button', { name: 'Start a day in dry-run' }));
    await waitFor(() =>
      expect(api.calls).toContainEqual({ name: 'updateSettings', input: { dryRun: true } }),
    );
    await waitFor(() => expect(screen.queryByTestId('first-day')).toBeNull());
    expect(await screen.findByText('Dry-run:')).toBeTruthy();
  });

  it('says what to do first when no app is managed yet, and can be put off', async () => {
    const api = firstRunApi(report([]));
    const user = userEvent.setup();
    render(<App api={api} />);
    await user.type(await screen.findByLabelText('Token'), 'a-pasted-api-token');
    await user.click(screen.getByRole('button', { name: 'Connect' }));
    const card = await screen.findByTestId('first-day');
    expect(await within(card).findByText(/No app is managed yet: add a route/)).toBeTruthy();
    await user.click(within(card).getByRole('button', { name: 'Not now' }));
    expect(screen.queryByTestId('first-day')).toBeNull();
    expect(api.calls.some((c) => c.name === 'updateSettings')).toBe(false);
  });

  it('speaks French, money included', async () => {
    await i18n.changeLanguage('fr');
    const api = firstRunApi(report([appSavings('shop', 0.1)]));
    const user = userEvent.setup();
    render(<App api={api} />);
    expect(await screen.findByRole('heading', { name: 'Bienvenue dans Clever Reaper' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Tokens d’API' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Essayer la démo' })).toBeTruthy();
    await user.type(screen.getByLabelText('Jeton'), 'a-pasted-api-token');
    await user.click(screen.getByRole('button', { name: 'Se connecter' }));
    const card = await screen.findByTestId('first-day');
    const text = (await within(card).findByText(/Votre application gérée coûte environ/)).textContent ?? '';
    // Intl in French: a decimal comma and the euro sign after the amount.
    expect(text.replace(/\s/g, ' ')).toContain('0,10 € de l');
    expect(text.replace(/\s/g, ' ')).toContain('1,20 € par jour, 36,00 € sur 30 jours');
    expect(within(card).getByRole('button', { name: 'Commencer une journée en simulation' })).toBeTruthy();
  });
});
