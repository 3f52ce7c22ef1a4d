import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { HistoryEntry } from '../../../shared/domain.ts';
import { HOUR, MINUTE } from '../../../shared/durations.ts';
import type { SavingsFigures, SavingsReport } from '../../../shared/savings.ts';
import { App } from '../../App.tsx';
import { appView, type FakeApi, fakeApi, NOW } from '../../test/fake-api.ts';

async function open(api: FakeApi, view: 'History' | 'Savings' | 'Settings') {
  const user = userEvent.setup();
  render(<App api={api} />);
  await user.click(await screen.findByRole('link', { name: new RegExp(`^${view}`) }));
  // The view is a chunk loaded on demand (Shell.tsx): shown once it is in.
  await screen.findByRole('heading', { level: 1, name: view });
  return { user };
}

const history: HistoryEntry[] = [
  {
    id: 3,
    appId: 'app_billing-preview',
    at: NOW - MINUTE,
    kind: 'transition',
    from: 'WaitingForUp',
    to: 'Error',
    actor: 'reaper',
    reason: 'the app failed to start on clever cloud',
  },
  {
    id: 2,
    appId: 'app_gone',
    at: NOW - HOUR,
    kind: 'release',
    from: 'Down',
    to: null,
    actor: 'operator',
    reason: 'the reaper was disabled from the console',
  },
  {
    id: 1,
    appId: 'app_billing-preview',
    at: NOW - 2 * HOUR,
    kind: 'would-sleep',
    from: null,
    to: null,
    actor: 'reaper',
    reason: 'dry-run: would stop the app; no traffic for 1 h',
  },
];

const figures = (hoursAsleep: number, savedEur: number | null, projectedHours = 0): SavingsFigures => ({
  hoursAsleep,
  savedEur,
  projectedHours,
  projectedEur: projectedHours ? projectedHours * 0.02 : savedEur === null ? null : 0,
  outsideHours: 0,
});

function report(): SavingsReport {
  const days = Array.from({ length: 30 }, (_, i) => ({
    day: new Date(NOW - (29 - i) * 24 * HOUR).toISOString().slice(0, 10),
    start: NOW - (30 - i) * 24 * HOUR,
    end: NOW - (29 - i) * 24 * HOUR,
    figures: figures(i % 7 < 5 ? 14 : 24, 0.28, i === 29 ? 2 : 0),
  }));
  return {
    now: NOW,
    timeZone: 'Europe/Paris',
    windows: {
      today: { start: NOW - 9 * HOUR, end: NOW },
      month: { start: NOW - 7 * 24 * HOUR, end: NOW },
      year: { start: NOW - 20 * 24 * HOUR, end: NOW },
      all: { start: NOW - 30 * 24 * HOUR, end: NOW },
    },
    totals: {
      today: figures(9, 0.18, 2),
      month: figures(118, 2.36),
      year: figures(300, 6),
      all: figures(512, 10.24),
    },
    savingNow: { eurPerHour: 0, apps: 0, unpriced: 0, outsideApps: 0 },
    daily: days,
    apps: [
      {
        appId: 'app_api-sandbox',
        name: 'api-sandbox',
        managed: true,
        flavorName: 'S',
        flavorPrice: 0.6873,
        instances: 2,
        hourlyEur: 0.08,
        windows: {
          today: figures(9, 0.72),
          month: figures(118, 9.44),
          year: figures(300, 24),
          all: figures(512, 40.96),
        },
        asleepNow: 'reaper',
      },
    ],
    pricing: { unit: 'drops-per-10-min', eurPerDrop: 0.0097, confirmed: false },
    unpriced: 0,
  };
}

describe('the History view', () => {
  it('lists the entries of every app, released ones included, with who acted and why', async () => {
    const api = fakeApi({ apps: [appView('billing-preview', 'Error')], history });
    await open(api, 'History');
    const table = await screen.findByRole('table', { name: 'History, newest first' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(3);
    expect(within(rows[0]!).getByText('Waking up → Error')).toBeTruthy();
    expect(within(rows[0]!).getByText('the app failed to start on clever cloud')).toBeTruthy();
    expect(within(rows[1]!).getByText('(released)')).toBeTruthy();
    expect(within(rows[2]!).getByText('would sleep (dry-run)')).toBeTruthy();
  });

  it('filters by the fields chosen, and pages with the cursor the server gave', async () => {
    const api = fakeApi({ apps: [appView('billing-preview', 'Error')], history });
    api.answer('historyQuery', (input: { cursor?: string }) => ({
      entries: [],
      nextCursor: input.cursor ? null : '100.7',
    }));
    const { user } = await open(api, 'History');
    await user.selectOptions(screen.getByLabelText('Who acted'), 'operator');
    await user.selectOptions(screen.getByLabelText('State'), 'Error');
    // Filters apply as they change: no button to press.
    await waitFor(() =>
      expect(api.calls).toContainEqual({
        name: 'historyQuery',
        input: { actor: 'operator', state: 'Error', limit: 50 },
      }),
    );
    await user.click(screen.getByRole('button', { name: 'Older →' }));
    await waitFor(() =>
      expect(api.calls).toContainEqual({
        name: 'historyQuery',
        input: { actor: 'operator', state: 'Error', limit: 50, cursor: '100.7' },
      }),
    );
    expect(screen.getByText('Page 2')).toBeTruthy();
  });

  it('announces the entries pushed since the page loaded, and shows them on demand', async () => {
    const api = fakeApi({ apps: [appView('billing-preview', 'Error')], history });
    const { user } = await open(api, 'History');
    await screen.findByRole('table', { name: 'History, newest first' });
    const queries = () => api.calls.filter((c) => c.name === 'historyQuery').length;
    const before = queries();
    api.emit({ type: 'history', entry: { ...history[0]!, id: 4, at: NOW } });
    expect(await screen.findByText(/1 new entry since this page was loaded/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Show them' }));
    await waitFor(() => expect(queries()).toBe(before + 1));
    expect(screen.queryByText(/new entry since/)).toBeNull();
  });

  it('downloads the filtered history as CSV', async () => {
    const api = fakeApi({ history });
    const asked: unknown[] = [];
    api.exportHistory = async (format, filter) => {
      asked.push({ format, filter });
      return { blob: new Blob(['id,time\r\n']), filename: 'clever-reaper-history-2026-01-05.csv' };
    };
    URL.createObjectURL = () => 'blob:history';
    URL.revokeObjectURL = () => undefined;
    const { user } = await open(api, 'History');
    await user.click(await screen.findByRole('button', { name: 'Download CSV' }));
    expect(asked).toEqual([{ format: 'csv', filter: {} }]);
  });
});

describe('the Savings view', () => {
  it('shows hours and money per window, a chart of 30 days, the dry-run projection, and where the price comes from', async () => {
    const api = fakeApi({ apps: [appView('api-sandbox', 'Down')] });
    api.answer('savings', () => report());
    await open(api, 'Savings');
    const totals = await screen.findByRole('list', { name: 'Totals' });
    const today = within(totals).getAllByRole('listitem')[1]!;
    expect(within(today).getByText('9.0 h')).toBeTruthy();
    expect(within(today).getByText(/would have saved/)).toBeTruthy();
    expect(screen.getByRole('img', { name: /Hours asleep per day over the last 30 days/ })).toBeTruthy();
    expect(screen.getByText(/read as drops per 10 minutes × 0.0097 € per drop/)).toBeTruthy();
    expect(screen.getByText(/Unconfirmed: Clever Cloud does not state the unit/)).toBeTruthy();
    const table = screen.getByRole('table');
    expect(within(table).getByText('S × 2')).toBeTruthy();
    expect(within(table).getByText('512 h')).toBeTruthy();
    expect(api.calls.find((c) => c.name === 'savings')?.input).toEqual({ timeZone: expect.any(String) });
  });
});

describe('the settings for operators', () => {
  it('adds a webhook, sends it a test and saves it', async () => {
    const api = fakeApi();
    api.answer('testWebhook', () => ({ ok: true, status: 200, error: null, durationMs: 12 }));
    const { user } = await open(api, 'Settings');
    await user.click(screen.getByRole('button', { name: 'Add a webhook' }));
    await user.type(screen.getByLabelText('Webhook URL 1'), 'https://hooks.example.com/T/B/x');
    await user.selectOptions(screen.getByLabelText('Format of webhook 1'), 'slack');
    await user.click(screen.getByRole('checkbox', { name: 'sleep' }));
    await user.click(screen.getByRole('button', { name: 'Send a test' }));
    expect(await screen.findByText(/Test delivered \(HTTP 200\)/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Save the webhooks' }));
    await waitFor(() =>
      expect(api.calls).toContainEqual({
        name: 'updateSettings',
        input: {
          webhooks: [{ url: 'https://hooks.example.com/T/B/x', format: 'slack', events: ['error', 'sleep'] }],
        },
      }),
    );
  });

  it('saves the history retention and the price unit', async () => {
    const api = fakeApi();
    const { user } = await open(api, 'Settings');
    const retention = screen.getByLabelText('Keep the history for');
    await user.clear(retention);
    await user.type(retention, '90');
    await user.selectOptions(screen.getByLabelText('Flavor price unit'), 'eur-per-hour');
    await user.click(screen.getByRole('button', { name: 'Save history and savings' }));
    await waitFor(() =>
      expect(api.calls).toContainEqual({
        name: 'updateSettings',
        input: { historyRetentionDays: 90, flavorPriceUnit: 'eur-per-hour', eurPerDrop: 0.0097 },
      }),
    );
  });
});

describe('the app details', () => {
  it('show how long its starts and stops took', async () => {
    const api = fakeApi({ apps: [appView('api-sandbox', 'Down')] });
    const user = userEvent.setup();
    render(<App api={api} />);
    await screen.findByRole('table', { name: 'Managed apps' });
    await user.click(screen.getByRole('link', { name: 'api-sandbox' }));
    expect(await screen.findByText('usually 45 s, at worst 1 min 10 s (last 3)')).toBeTruthy();
    expect(screen.getByText('none yet')).toBeTruthy();
  });
});
