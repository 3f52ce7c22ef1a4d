/**
 * Who, on screen (issue 25): the History says "by alice · dashboard" on a Reset and nothing on the
 * reaper's own entries; the Audit view names bob for a route edit (what changed, before → after, a
 * secret hidden) and for the kill switch, filters by what and by whom, pages older entries; the kill
 * switch banner says since when and by whom; in English and French.
 */
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { HistoryEntry } from '../../../shared/domain.ts';
import type { AuditEntry, AuditQuery } from '../../../shared/people.ts';
import { App } from '../../App.tsx';
import { i18n } from '../../i18n.ts';
import { appView, type FakeApi, fakeApi, NOW } from '../../test/fake-api.ts';
import { AUDIT_PAGE_SIZE } from './AuditView.tsx';

afterEach(async () => {
  await i18n.changeLanguage('en');
});

const reset: HistoryEntry = {
  id: 2,
  appId: 'app_shop',
  at: NOW,
  kind: 'reset',
  from: 'Error',
  to: 'WaitingForInit',
  actor: 'operator',
  reason: 'reset from the console',
  by: { name: 'alice', via: 'dashboard' },
};
const automatic: HistoryEntry = { ...reset, id: 1, kind: 'transition', actor: 'reaper', by: undefined };
delete automatic.by;

const routeEdit: AuditEntry = {
  id: 7,
  at: NOW - 60_000,
  by: 'bob',
  via: 'api',
  what: 'route',
  target: 'route_shop',
  before: { id: 'route_shop', label: 'shop', enabled: true, token: 'old' },
  after: { id: 'route_shop', label: 'shop (front)', enabled: true, token: 'new' },
};
const killSwitch: AuditEntry = {
  id: 8,
  at: NOW,
  by: 'bob',
  via: 'dashboard',
  what: 'killSwitch',
  target: null,
  before: false,
  after: true,
};

function withAudit(api: FakeApi, entries: AuditEntry[]) {
  const asked: AuditQuery[] = [];
  api.audit = async (query) => {
    asked.push(query);
    return entries
      .filter((e) => (!query.what || e.what === query.what) && (!query.by || e.by === query.by))
      .filter((e) => query.before === undefined || e.id < query.before)
      .sort((a, b) => b.id - a.id)
      .slice(0, query.limit ?? 100);
  };
  return asked;
}

async function open(api: FakeApi, name: RegExp) {
  const user = userEvent.setup();
  render(<App api={api} />);
  await user.click(await screen.findByRole('link', { name }));
  return user;
}

describe('who, on screen', () => {
  it('the History names the person and the way for a Reset, nobody for the reaper', async () => {
    const api = fakeApi({ apps: [appView('shop', 'Up')], history: [reset, automatic] });
    await open(api, /^History/);
    const by = await screen.findByText('by alice · dashboard');
    const row = by.closest('tr')!;
    expect(row.textContent).toContain('reset');
    // The reaper's own entry names nobody.
    expect(screen.getAllByText(/^by /)).toHaveLength(1);
  });

  it('the Audit view names bob for a route edit and the kill switch, filters and pages', async () => {
    const api = fakeApi({ apps: [appView('shop', 'Up')] });
    const asked = withAudit(api, [routeEdit, killSwitch]);
    const user = await open(api, /^Audit/);
    await screen.findByRole('heading', { level: 1, name: 'Audit' });
    const rows = await screen.findAllByTestId('audit-row');
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByText('by bob · dashboard')).toBeTruthy();
    expect(within(rows[0]!).getByText('Kill switch')).toBeTruthy();
    expect(rows[0]!.textContent).toContain('false → true');
    expect(within(rows[1]!).getByText('by bob · API')).toBeTruthy();
    expect(rows[1]!.textContent).toContain('label shop → shop (front)');
    // The token changed, but is never shown.
    expect(rows[1]!.textContent).not.toMatch(/old|new/);
    expect(rows[1]!.querySelector('time')?.textContent).not.toMatch(/\d{4}-\d{2}-\d{2}/);

    await user.selectOptions(screen.getByLabelText('What'), 'route');
    await waitFor(() => expect(screen.getAllByTestId('audit-row')).toHaveLength(1));
    expect(asked.at(-1)).toEqual({ limit: AUDIT_PAGE_SIZE, what: 'route' });
    await user.selectOptions(screen.getByLabelText('What'), '');
    await user.type(screen.getByLabelText('By'), 'carol');
    await screen.findByText('No change matches these filters.');
    expect(asked.at(-1)).toEqual({ limit: AUDIT_PAGE_SIZE, by: 'carol' });
  });

  it('pages: Older asks for the entries before the oldest shown', async () => {
    const api = fakeApi({ apps: [appView('shop', 'Up')] });
    const many = Array.from({ length: AUDIT_PAGE_SIZE + 3 }, (_, i) => ({ ...killSwitch, id: i + 1 }));
    const asked = withAudit(api, many);
    const user = await open(api, /^Audit/);
    await waitFor(() => expect(screen.getAllByTestId('audit-row')).toHaveLength(AUDIT_PAGE_SIZE));
    await user.click(screen.getByRole('button', { name: 'Older →' }));
    await waitFor(() => expect(screen.getAllByTestId('audit-row')).toHaveLength(3));
    expect(asked.at(-1)).toEqual({ limit: AUDIT_PAGE_SIZE, before: 4 });
    await user.click(screen.getByRole('button', { name: '← Newer' }));
    await waitFor(() => expect(screen.getAllByTestId('audit-row')).toHaveLength(AUDIT_PAGE_SIZE));
  });

  it('the kill switch banner says since when and by whom, in French too', async () => {
    const on = { at: NOW - 5 * 60_000, by: { name: 'bob', via: 'tray' as const } };
    const api = fakeApi({ apps: [appView('shop', 'Up')], settings: { killSwitch: true, killSwitchOn: on } });
    render(<App api={api} />);
    const said = await screen.findByTestId('kill-switch-by');
    expect(said.textContent).toMatch(/^On since .+, by bob \(tray\)\.$/);
    expect(said.textContent).not.toMatch(/\d{4}-\d{2}-\d{2}|T\d{2}:/);
    await i18n.changeLanguage('fr');
    await waitFor(() =>
      expect(screen.getByTestId('kill-switch-by').textContent).toMatch(
        /^Activé depuis .+, par bob \(zone de notification\)\.$/,
      ),
    );
  });
});
