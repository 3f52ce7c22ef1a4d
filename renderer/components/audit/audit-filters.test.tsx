/**
 * The Audit view's filters (issue 25): asked of the server (what, which one, by whom, through what,
 * between which days of the viewer), kept in the URL (#/audit?who=alice&what=route: a reload, a link,
 * Back), and checked by the form before it asks (a name that is not one, From after To), in English
 * and French.
 */
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { AuditEntry, AuditQuery } from '../../../shared/people.ts';
import { App } from '../../App.tsx';
import { i18n } from '../../i18n.ts';
import { appView, type FakeApi, fakeApi, NOW } from '../../test/fake-api.ts';
import { AUDIT_PAGE_SIZE } from './AuditView.tsx';

afterEach(async () => {
  await i18n.changeLanguage('en');
  window.history.replaceState(null, '', '#/apps');
});

function withAudit(api: FakeApi) {
  const asked: AuditQuery[] = [];
  const entry: AuditEntry = {
    id: 1,
    at: NOW,
    by: 'alice',
    via: 'dashboard',
    what: 'route',
    target: 'route_shop',
    before: null,
    after: { label: 'shop' },
  };
  api.audit = async (query) => {
    asked.push(query);
    return [entry];
  };
  return asked;
}

/** Local midnight of a day, as the viewer's zone has it. */
const midnight = (y: number, m: number, d: number) => new Date(y, m - 1, d).getTime();

describe('the Audit view’s filters', () => {
  it('come from the URL, are asked of the server, and go back into the URL; Back restores them', async () => {
    window.history.replaceState(null, '', '#/audit?who=alice&what=route&from=2026-11-30&to=2026-12-01');
    const api = fakeApi({ apps: [appView('shop', 'Up')] });
    const asked = withAudit(api);
    const user = userEvent.setup();
    render(<App api={api} />);
    await screen.findByRole('heading', { level: 1, name: 'Audit' });
    await waitFor(() =>
      expect(asked.at(-1)).toEqual({
        limit: AUDIT_PAGE_SIZE,
        what: 'route',
        by: 'alice',
        from: midnight(2026, 11, 30),
        to: midnight(2026, 12, 2) - 1,
      }),
    );
    expect((screen.getByLabelText('By') as HTMLInputElement).value).toBe('alice');
    expect((screen.getByLabelText('What') as HTMLSelectElement).value).toBe('route');
    expect((screen.getByLabelText('From') as HTMLInputElement).value).toBe('2026-11-30');

    await user.selectOptions(screen.getByLabelText('Through'), 'desktop');
    await waitFor(() => expect(window.location.hash).toContain('via=desktop'));
    expect(asked.at(-1)).toMatchObject({ via: 'desktop', by: 'alice' });

    // Another view, then Back: the Audit view with its filters again.
    await user.click(screen.getByRole('link', { name: /^History/ }));
    await screen.findByRole('heading', { level: 1, name: 'History' });
    act(() => window.history.back());
    await screen.findByRole('heading', { level: 1, name: 'Audit' });
    await waitFor(() =>
      expect((screen.getByLabelText('Through') as HTMLSelectElement).value).toBe('desktop'),
    );
    expect((screen.getByLabelText('By') as HTMLInputElement).value).toBe('alice');

    await user.click(screen.getByRole('button', { name: 'Clear the filters' }));
    await waitFor(() => expect(asked.at(-1)).toEqual({ limit: AUDIT_PAGE_SIZE }));
    expect(window.location.hash).toBe('#/audit');
  });

  it('says what is wrong at the field and does not ask the server, in English and French', async () => {
    const api = fakeApi({ apps: [appView('shop', 'Up')] });
    const asked = withAudit(api);
    const user = userEvent.setup();
    window.history.replaceState(null, '', '#/audit');
    render(<App api={api} />);
    await screen.findByRole('heading', { level: 1, name: 'Audit' });
    await waitFor(() => expect(asked).toHaveLength(1));
    const who = screen.getByLabelText('By');
    await user.type(who, 'a b');
    expect(who.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(who.getAttribute('aria-describedby')!)?.textContent).toBe(
      'A name is lowercase letters, digits, dots, dashes or underscores',
    );
    // "a" was asked; "a " and "a b" were not.
    expect(asked.map((q) => q.by)).toEqual([undefined, 'a']);
    await user.clear(who);

    const from = screen.getByLabelText('From');
    await user.type(screen.getByLabelText('To'), '2026-12-01');
    await user.type(from, '2026-12-05');
    expect(from.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(from.getAttribute('aria-describedby')!)?.textContent).toBe(
      'From is after To',
    );
    expect(asked.some((q) => q.from === midnight(2026, 12, 5))).toBe(false);

    await act(() => i18n.changeLanguage('fr'));
    expect(await screen.findByText('« Du » est après « Au »')).toBeTruthy();
  });
});
