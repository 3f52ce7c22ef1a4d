/**
 * The one confirmation (ConfirmDialog) where something cannot be taken back: a route's Delete and
 * the bulk Disable, in English and French. An alertdialog named by its question, focus on the safe
 * answer, Escape cancels (nothing sent, focus back on the button that asked), the action sends once,
 * and focus goes to the view's heading when the button that asked is gone with its row.
 */
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
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
