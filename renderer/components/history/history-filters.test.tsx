/**
 * History filters apply as they change, so Download exports exactly what the table shows; a From
 * after its To is refused at the field; an empty history says why (nothing yet, or nothing matches
 * these filters, with a way to clear them); in English and in French.
 */
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { HistoryEntry } from '../../../shared/domain.ts';
import { CAUSE_FILTERS } from '../../../shared/history.ts';
import { App } from '../../App.tsx';
import { i18n } from '../../i18n.ts';
import { appView, type FakeApi, fakeApi, NOW } from '../../test/fake-api.ts';
import { CAUSE_KEYS } from './HistoryView.tsx';

afterEach(async () => {
  await i18n.changeLanguage('en');
});

const entry: HistoryEntry = {
  id: 1,
  appId: 'app_shop',
  at: NOW,
  kind: 'transition',
  from: 'Up',
  to: 'WaitingForShutdown',
  actor: 'reaper',
  reason: 'no traffic for 1 h',
};

async function openHistory(api: FakeApi, title = 'History') {
  const user = userEvent.setup();
  render(<App api={api} />);
  await user.click(await screen.findByRole('link', { name: new RegExp(`^${title}`) }));
  await screen.findByRole('heading', { level: 1, name: title });
  return { user };
}

const queries = (api: FakeApi) =>
  api.calls.filter((c) => c.name === 'historyQuery').map((c) => c.input as Record<string, unknown>);

function withExport(api: FakeApi) {
  const exported: unknown[] = [];
  api.exportHistory = async (format, filter) => {
    exported.push({ format, filter });
    return { blob: new Blob(['id\r\n']), filename: 'clever-reaper-history.csv' };
  };
  URL.createObjectURL = () => 'blob:history';
  URL.revokeObjectURL = () => undefined;
  return exported;
}

describe('the History filters', () => {
  it('apply as they change, and Download exports exactly what the screen shows', async () => {
    const api = fakeApi({ apps: [appView('shop', 'Up')], history: [entry] });
    const exported = withExport(api);
    const { user } = await openHistory(api);
    expect(screen.queryByRole('button', { name: 'Filter' })).toBeNull();
    await user.selectOptions(screen.getByLabelText('Who acted'), 'operator');
    await waitFor(() => expect(queries(api).at(-1)).toEqual({ actor: 'operator', limit: 50 }));
    await user.selectOptions(screen.getByLabelText('Kind'), 'would-sleep');
    await waitFor(() =>
      expect(queries(api).at(-1)).toEqual({ actor: 'operator', kind: 'would-sleep', limit: 50 }),
    );
    expect(window.location.hash).toBe('#/history?actor=operator&kind=would-sleep');
    await user.click(screen.getByRole('button', { name: 'Download CSV' }));
    expect(exported).toEqual([{ format: 'csv', filter: { actor: 'operator', kind: 'would-sleep' } }]);
  });

  it('refuse a From after its To at the field, and apply the range once it is right', async () => {
    const api = fakeApi({ apps: [appView('shop', 'Up')], history: [entry] });
    const exported = withExport(api);
    const { user } = await openHistory(api);
    const from = screen.getByLabelText('From');
    const to = screen.getByLabelText('To');
    fireEvent.change(to, { target: { value: '2026-01-05T09:00' } });
    await waitFor(() => expect(queries(api).at(-1)).toHaveProperty('to'));
    const before = queries(api).length;
    fireEvent.change(from, { target: { value: '2026-01-05T10:00' } });
    const message = await screen.findByText(/is after To/);
    expect(message.textContent).toContain('choose an earlier From or a later To');
    expect(from.getAttribute('aria-invalid')).toBe('true');
    expect(from.getAttribute('aria-describedby')).toBe(message.id);
    // Not applied: no query with the backwards range, and Download keeps what is shown.
    expect(queries(api).length).toBe(before);
    expect(queries(api).some((q) => q.from !== undefined)).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Download CSV' }));
    expect((exported[0] as { filter: object }).filter).not.toHaveProperty('from');

    fireEvent.change(to, { target: { value: '2026-01-05T11:00' } });
    await waitFor(() => expect(screen.queryByText(/is after To/)).toBeNull());
    await waitFor(() => {
      const last = queries(api).at(-1)!;
      expect(last.from).toBe(new Date('2026-01-05T10:00').getTime());
      expect(last.to).toBe(new Date('2026-01-05T11:00').getTime());
    });
    expect(from.getAttribute('aria-invalid')).toBeNull();
  });

  it('say why the history is empty: nothing yet, or nothing matching, with the filters cleared in one click', async () => {
    const api = fakeApi({ apps: [appView('shop', 'Up')], history: [] });
    const { user } = await openHistory(api);
    expect(await screen.findByText(/Nothing has happened yet/)).toBeTruthy();
    expect(screen.queryByText('No entry matches these filters.')).toBeNull();

    await user.selectOptions(screen.getByLabelText('State'), 'Error');
    const empty = (await screen.findByText('No entry matches these filters.')).closest(
      '.empty',
    ) as HTMLElement;
    expect(screen.queryByText(/Nothing has happened yet/)).toBeNull();
    await user.click(within(empty).getByRole('button', { name: 'Clear the filters' }));
    await waitFor(() => expect(queries(api).at(-1)).toEqual({ limit: 50 }));
    expect((screen.getByLabelText('State') as HTMLSelectElement).value).toBe('');
    expect(await screen.findByText(/Nothing has happened yet/)).toBeTruthy();
  });

  it('name every Error cause of the filter', () => {
    expect(CAUSE_KEYS).toHaveLength(CAUSE_FILTERS.length);
  });

  it('speak French: the labels, the refused range and the empty history', async () => {
    await i18n.changeLanguage('fr');
    const api = fakeApi({ apps: [appView('shop', 'Up')], history: [] });
    const { user } = await openHistory(api, 'Historique');
    expect(await screen.findByText(/Rien ne s’est encore passé/)).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Au'), { target: { value: '2026-01-05T09:00' } });
    fireEvent.change(screen.getByLabelText('Du'), { target: { value: '2026-01-05T10:00' } });
    expect((await screen.findByText(/est après « Au »/)).textContent).toContain(
      'choisissez un début plus tôt ou une fin plus tard',
    );
    await user.selectOptions(screen.getByLabelText('Qui a agi'), 'operator');
    expect(screen.getByRole('option', { name: 'opérateur' })).toBeTruthy();
  });
});
