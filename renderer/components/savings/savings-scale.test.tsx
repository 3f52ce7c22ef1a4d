/**
 * The Savings view at scale and in a chosen zone: a thousand apps put the rows on screen in the page,
 * not a thousand; the zone the days are cut in is asked of the server and kept in the URL; the
 * saving per hour now and the hours stopped outside the reaper are shown.
 */
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { HOUR } from '../../../shared/durations.ts';
import type { AppSavings, SavingsFigures, SavingsReport } from '../../../shared/savings.ts';
import { App } from '../../App.tsx';
import { viewerTimeZone } from '../../lib/time-zones.ts';
import { fakeApi, NOW } from '../../test/fake-api.ts';

afterEach(() => {
  window.history.replaceState(null, '', '/');
});

const figures = (hoursAsleep: number, outsideHours = 0): SavingsFigures => ({
  hoursAsleep,
  savedEur: hoursAsleep * 0.02,
  projectedHours: 0,
  projectedEur: 0,
  outsideHours,
});

function app(i: number): AppSavings {
  const f = figures(1000 - i, i % 10 === 0 ? 5 : 0);
  return {
    appId: `app_fleet-${i}`,
    name: `fleet-${String(i).padStart(4, '0')}`,
    managed: true,
    flavorName: 'XS',
    flavorPrice: 0.3436,
    instances: 1,
    hourlyEur: 0.02,
    windows: { today: f, month: f, year: f, all: f },
    asleepNow: i % 2 === 0 ? 'reaper' : null,
  };
}

function report(timeZone: string, count: number): SavingsReport {
  const window = { start: NOW - HOUR, end: NOW };
  const total = figures(12_345.5, 42);
  return {
    now: NOW,
    timeZone,
    windows: { today: window, month: window, year: window, all: { start: NOW - 90 * 24 * HOUR, end: NOW } },
    savingNow: { eurPerHour: 10, apps: count / 2, unpriced: 0, outsideApps: 3 },
    totals: { today: total, month: total, year: total, all: total },
    daily: [],
    apps: Array.from({ length: count }, (_, i) => app(i)),
    pricing: { unit: 'drops-per-10-min', eurPerDrop: 0.0097, confirmed: false, source: 'price-system' },
    unpriced: 0,
  };
}

describe('the Savings view at scale', () => {
  it('renders the rows on screen for a thousand apps, not a thousand rows', async () => {
    const api = fakeApi();
    api.answer('savings', (input: { timeZone?: string }) => report(input.timeZone ?? 'UTC', 1000));
    const user = userEvent.setup();
    render(<App api={api} />);
    await user.click(await screen.findByRole('link', { name: /^Savings/ }));
    const table = await screen.findByRole('table');
    expect(table.getAttribute('aria-rowcount')).toBe('1001');
    const rows = within(table).getAllByRole('row');
    // The header, and the rows of a screenful (and the virtualiser's overscan).
    expect(rows.length).toBeGreaterThan(5);
    expect(rows.length).toBeLessThan(40);
    expect(table.querySelectorAll('tbody tr:not(.spacer)').length).toBe(rows.length - 1);
    expect(within(table).getByText('fleet-0000')).toBeTruthy();
    expect(within(table).queryByText('fleet-0999')).toBeNull();
    // The whole page stays small: the 9,210 elements of a fully rendered table are gone.
    expect(document.body.querySelectorAll('*').length).toBeLessThan(2000);
    expect(screen.getByText('1,000 apps')).toBeTruthy();
  });

  it('asks for the zone chosen, keeps it in the URL, and shows the saving now and the outside hours apart', async () => {
    const api = fakeApi();
    api.answer('savings', (input: { timeZone?: string }) => report(input.timeZone ?? 'UTC', 4));
    const user = userEvent.setup();
    render(<App api={api} />);
    await user.click(await screen.findByRole('link', { name: /^Savings/ }));
    const totals = await screen.findByRole('list', { name: 'Totals' });
    expect(api.calls.find((c) => c.name === 'savings')?.input).toEqual({ timeZone: viewerTimeZone() });
    const now = within(totals).getAllByRole('listitem')[0]!;
    expect(within(now).getByRole('heading', { name: 'Saving per hour right now' })).toBeTruthy();
    expect(now.textContent).toContain('€10.00 an hour');
    expect(now.textContent).toContain('2 apps asleep because of the reaper');
    expect(now.textContent).toContain('3 apps stopped outside the reaper, not counted');
    expect(totals.textContent).toContain('Stopped outside the reaper: 42 h, not counted');
    expect(totals.textContent).toContain('12,346 h');

    const zone = screen.getByLabelText('Days counted in') as HTMLSelectElement;
    expect(zone.value).toBe(viewerTimeZone());
    const other = viewerTimeZone() === 'Asia/Tokyo' ? 'America/New_York' : 'Asia/Tokyo';
    await user.selectOptions(zone, other);
    await waitFor(() =>
      expect(api.calls.filter((c) => c.name === 'savings').at(-1)?.input).toEqual({ timeZone: other }),
    );
    expect(window.location.hash).toBe(`#/savings?tz=${encodeURIComponent(other)}`);
  });
});
