/**
 * The one confirmation (ConfirmDialog) where something cannot be taken back: a route's Delete, a
 * rule's Delete, the details' Disable the reaper and the bulk Disable, in English and French. An alertdialog named by its question, focus on the safe
 * answer, Escape cancels (nothing sent, focus back on the button that asked), the action sends once,
 * and focus goes to the view's heading when the button that asked is gone with its row.
 */
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { Rule } from '../../../shared/rules.ts';
import { App } from '../../App.tsx';
import { i18n } from '../../i18n.ts';
import { appView, fakeApi, routeOf } from '../../test/fake-api.ts';

afterEach(async () => {
  await i18n.changeLanguage('en');
});

const described = (dialog: HTMLElement) =>
  document.getElementById(dialog.getAttribute('aria-describedby')!)?.textContent;

describe('a route’s Delete', () => {
  it('asks in a dialog: Keep has the focus, Escape keeps, Delete deletes and focus goes to the heading', async () => {
    const api = fakeApi({ apps: [appView('shop-staging', 'Up'), appView('api-sandbox', 'Down')] });
    window.history.replaceState(null, '', '#/routes');
    const user = userEvent.setup();
    render(<App api={api} />);
    const heading = await screen.findByRole('heading', { level: 1, name: 'Routes' });
    const del = screen.getByRole('button', { name: 'Delete the route of shop-staging' });
    expect(del.getAttribute('aria-haspopup')).toBe('dialog');
    await user.click(del);
    const dialog = screen.getByRole('alertdialog', { name: 'Delete the route of shop-staging?' });
    expect(described(dialog)).toMatch(
      /^Unless another route or a rule still covers it, shop-staging is released/,
    );
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Keep' }));
    // The rest of the page is out of reach while it asks.
    expect(heading.closest('[inert]')).not.toBeNull();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(document.activeElement).toBe(del);
    expect(api.calls.some((c) => c.name === 'deleteRoute')).toBe(false);

    await user.click(del);
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() =>
      expect(api.calls.filter((c) => c.name === 'deleteRoute')).toEqual([
        { name: 'deleteRoute', input: { routeId: 'route_shop-staging' } },
      ]),
    );
    // The engine says the route is gone: its row goes, with the button that asked and the dialog.
    act(() => api.emit({ type: 'routes', routes: [routeOf(appView('api-sandbox', 'Down'))] }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(screen.queryByRole('button', { name: 'Delete the route of shop-staging' })).toBeNull();
    expect(document.activeElement).toBe(heading);
  });
});

describe('the bulk Disable', () => {
  it('asks in a dialog naming how many, sends once confirmed; in French too', async () => {
    const api = fakeApi({ apps: [appView('api-sandbox', 'Down'), appView('shop-staging', 'Up')] });
    const user = userEvent.setup();
    render(<App api={api} />);
    await screen.findByRole('table', { name: 'Managed apps' });
    await user.click(screen.getByRole('checkbox', { name: 'Select api-sandbox' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select shop-staging' }));
    const bar = screen.getByRole('region', { name: 'Selected apps' });
    const disable = within(bar).getByRole('button', { name: 'Disable 2…' });
    await user.click(disable);
    let dialog = screen.getByRole('alertdialog', { name: 'Disable the reaper for 2 apps?' });
    expect(described(dialog)).toBe(
      'Their routes are switched off and they are released at once: those asleep are started first, so none is left asleep.',
    );
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Cancel' }));
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(document.activeElement).toBe(disable);
    expect(api.calls.some((c) => c.name === 'bulk')).toBe(false);

    await i18n.changeLanguage('fr');
    await user.click(within(bar).getByRole('button', { name: 'Désactiver 2…' }));
    dialog = screen.getByRole('alertdialog', { name: 'Désactiver le reaper pour 2 applications ?' });
    await user.click(within(dialog).getByRole('button', { name: 'Désactiver le reaper pour 2' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(api.calls.find((c) => c.name === 'bulk')?.input).toMatchObject({
      action: 'release',
      appIds: ['app_api-sandbox', 'app_shop-staging'],
    });
  });
});

describe('the details’ Disable the reaper', () => {
  it('asks in a dialog over the panel, says an asleep app is started first, and releases once confirmed', async () => {
    const api = fakeApi({ apps: [appView('api-sandbox', 'Down'), appView('shop-staging', 'Up')] });
    window.history.replaceState(null, '', '#/apps/app_api-sandbox');
    const user = userEvent.setup();
    render(<App api={api} />);
    const panel = await screen.findByRole('dialog', { name: 'api-sandbox' });
    const disable = await within(panel).findByRole('button', { name: 'Disable the reaper' });
    expect(disable.getAttribute('aria-haspopup')).toBe('dialog');
    await user.click(disable);
    const dialog = screen.getByRole('alertdialog', { name: 'Disable the reaper for api-sandbox?' });
    expect(described(dialog)).toBe(
      'Its routes are switched off and it is released at once: it is started first, so it is not left asleep.',
    );
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Cancel' }));
    // Escape answers the dialog only: the panel stays open, focus back on the button that asked.
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(screen.getByRole('dialog', { name: 'api-sandbox' })).toBeTruthy();
    expect(document.activeElement).toBe(disable);
    expect(api.calls.some((c) => c.name === 'release')).toBe(false);

    await i18n.changeLanguage('fr');
    await user.click(within(panel).getByRole('button', { name: 'Désactiver le reaper' }));
    const fr = screen.getByRole('alertdialog', { name: 'Désactiver le reaper pour api-sandbox ?' });
    expect(described(fr)).toMatch(
      /^Ses routes sont désactivées et elle est libérée aussitôt : elle est d’abord démarrée/,
    );
    await user.click(within(fr).getByRole('button', { name: /^Désactiver/ }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(api.calls.filter((c) => c.name === 'release')).toEqual([
      { name: 'release', input: { appId: 'app_api-sandbox' } },
    ]);
  });
});

describe('a rule’s Delete', () => {
  const rule = (id: string, pattern: string): Rule => ({
    id,
    label: '',
    enabled: true,
    ownerId: null,
    pattern,
    dryRun: false,
    gracePeriodMs: 3_600_000,
    ranges: [],
    hosts: [],
    filters: { pathPrefixes: [], sources: [] },
    group: '',
    createdAt: 0,
    updatedAt: 0,
  });

  it('asks in a dialog naming how many apps it releases (none, one, several), and deletes once confirmed', async () => {
    const apps = [
      appView('review-1', 'Up', { ruleId: 'rule_review' }),
      appView('review-2', 'Down', { ruleId: 'rule_review' }),
      appView('demo-1', 'Up', { ruleId: 'rule_demo' }),
    ];
    const api = fakeApi({
      apps,
      routes: [],
      rules: [rule('rule_review', 'review-*'), rule('rule_demo', 'demo-*'), rule('rule_old', 'old-*')],
    });
    api.answer('deleteRule', () => ({ deleted: 'rule_review' }) as never);
    window.history.replaceState(null, '', '#/routes');
    const user = userEvent.setup();
    render(<App api={api} />);
    const ask = async (title: string) => {
      const del = await screen.findByRole('button', { name: `Delete the rule ${title}` });
      expect(del.getAttribute('aria-haspopup')).toBe('dialog');
      await user.click(del);
      const dialog = screen.getByRole('alertdialog', { name: `Delete the rule ${title}?` });
      expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Keep' }));
      return { del, dialog };
    };
    let { del, dialog } = await ask('old-*');
    expect(described(dialog)).toBe('It takes no app now: deleting it releases none.');
    await user.click(within(dialog).getByRole('button', { name: 'Keep' }));
    expect(document.activeElement).toBe(del);
    ({ dialog } = await ask('demo-*'));
    expect(described(dialog)).toMatch(
      /^Unless a route or another rule takes it, the app this rule takes is released/,
    );
    await user.keyboard('{Escape}');
    ({ dialog } = await ask('review-*'));
    expect(described(dialog)).toMatch(/the 2 apps this rule takes are released after the release delay/);
    expect(api.calls.some((c) => c.name === 'deleteRule')).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(api.calls.filter((c) => c.name === 'deleteRule')).toEqual([
      { name: 'deleteRule', input: { ruleId: 'rule_review' } },
    ]);
  });
});
