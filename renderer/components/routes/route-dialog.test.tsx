/**
 * The route and rule editors as dialogs, in English and French: focus inside, Escape closes, focus
 * back on what opened them, unsaved changes asked about (Escape, Cancel, another view, leaving the
 * page), a bad range said once where it is, a decimal comma, and a second route on an app saying
 * which grace period wins.
 */
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HOUR } from '../../../shared/durations.ts';
import { App } from '../../App.tsx';
import { i18n } from '../../i18n.ts';
import { appView, type FakeApi, fakeApi, routeOf } from '../../test/fake-api.ts';

afterEach(async () => {
  vi.restoreAllMocks();
  await i18n.changeLanguage('en');
});

/** The dashboard opened on the Routes view (by its URL, whatever the language of the navigation). */
async function openRoutes(api: FakeApi, language: 'en' | 'fr' = 'en') {
  await i18n.changeLanguage(language);
  window.history.replaceState(null, '', '#/routes');
  const user = userEvent.setup();
  render(<App api={api} />);
  await screen.findByRole('heading', { level: 1, name: 'Routes' });
  return { user };
}

const shop = appView('shop-staging', 'Up');

/** The page's own "Discard changes?" dialog: what it asks, then the answer clicked. */
async function answerDiscard(
  user: ReturnType<typeof userEvent.setup>,
  answer: string,
  title = 'Discard changes?',
) {
  const dialog = await screen.findByRole('alertdialog', { name: title });
  const asked = document.getElementById(dialog.getAttribute('aria-describedby')!)?.textContent;
  await user.click(within(dialog).getByRole('button', { name: answer }));
  await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
  return asked;
}

describe('the route editor dialog', () => {
  it('opens with focus inside, closes on Escape and gives focus back to the row’s button', async () => {
    const api = fakeApi({ apps: [shop] });
    const { user } = await openRoutes(api);
    const edit = screen.getByRole('button', { name: 'Edit the route of shop-staging' });
    await user.click(edit);
    const dialog = screen.getByRole('dialog', { name: 'Edit the route of shop-staging' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(dialog.contains(document.activeElement)).toBe(true);
    // The rest of the page is out of reach while it is open.
    expect(screen.getByRole('heading', { level: 1, name: 'Routes' }).closest('[inert]')).not.toBeNull();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(edit);
    expect(screen.getByRole('heading', { level: 1, name: 'Routes' }).closest('[inert]')).toBeNull();
  });

  it('keeps Tab inside the dialog', async () => {
    const api = fakeApi({ apps: [shop] });
    const { user } = await openRoutes(api);
    await user.click(screen.getByRole('button', { name: 'New route' }));
    const dialog = screen.getByRole('dialog', { name: 'New route' });
    for (let i = 0; i < 25; i++) {
      await user.tab();
      expect(dialog.contains(document.activeElement), `tab ${i}`).toBe(true);
    }
    await user.tab({ shift: true });
    expect(dialog.contains(document.activeElement)).toBe(true);
  });

  it('asks before unsaved changes are lost: Escape, Cancel, another view, leaving the page', async () => {
    const confirm = vi.spyOn(window, 'confirm');
    const api = fakeApi({ apps: [shop] });
    const { user } = await openRoutes(api);
    const edit = screen.getByRole('button', { name: 'Edit the route of shop-staging' });
    await user.click(edit);
    const f = within(screen.getByRole('dialog'));
    await user.type(f.getByLabelText('Label'), 'shop');
    await user.keyboard('{Escape}');
    // Keep editing has the focus: Enter keeps the edit.
    const asked = await screen.findByRole('alertdialog', { name: 'Discard changes?' });
    expect(document.activeElement).toBe(within(asked).getByRole('button', { name: 'Keep editing' }));
    expect(await answerDiscard(user, 'Keep editing')).toBe('Leave this route without saving your changes?');
    expect(screen.getByRole('dialog')).toBeTruthy();
    expect(f.getByLabelText('Label')).toHaveProperty('value', 'shop');
    expect(screen.getByRole('dialog').contains(document.activeElement)).toBe(true);
    await user.click(f.getByRole('button', { name: 'Cancel' }));
    await answerDiscard(user, 'Keep editing');
    expect(screen.getByRole('dialog')).toBeTruthy();
    const unload = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(unload);
    expect(unload.defaultPrevented).toBe(true);
    // Another view (the store's setView, as the navigation calls it) asks too, and stays when refused.
    await user.click(screen.getByRole('link', { name: /^Settings/ }));
    await answerDiscard(user, 'Keep editing');
    expect(screen.getByRole('dialog')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: 'Routes' })).toBeTruthy();
    await user.click(f.getByRole('button', { name: 'Close' }));
    await answerDiscard(user, 'Discard');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.activeElement).toBe(edit);
    expect(api.calls.some((c) => c.name === 'updateRoute')).toBe(false);
    expect(confirm).not.toHaveBeenCalled();
  });

  it('goes to the other view once Discard is answered', async () => {
    const api = fakeApi({ apps: [shop] });
    const { user } = await openRoutes(api);
    await user.click(screen.getByRole('button', { name: 'Edit the route of shop-staging' }));
    await user.type(within(screen.getByRole('dialog')).getByLabelText('Label'), 'x');
    await user.click(screen.getByRole('link', { name: /^Settings/ }));
    await answerDiscard(user, 'Discard');
    expect(await screen.findByRole('heading', { level: 1, name: 'Settings' })).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('says a bad range once, on the range as labelled, quoting the entry', async () => {
    const api = fakeApi({ apps: [shop] });
    const { user } = await openRoutes(api);
    await user.click(screen.getByRole('button', { name: 'Edit the route of shop-staging' }));
    const f = within(screen.getByRole('dialog'));
    await user.click(f.getByRole('button', { name: 'Add a range' }));
    await user.clear(f.getByRole('textbox', { name: 'Range 1 start' }));
    await user.type(f.getByRole('textbox', { name: 'Range 1 start' }), '25:00');
    await user.click(f.getByRole('button', { name: 'Save the route' }));
    const message = 'Range 1 start: “25:00” is not a time from 00:00 to 23:59.';
    expect(f.getAllByText(message)).toHaveLength(1);
    expect(f.getByRole('textbox', { name: 'Range 1 start' }).getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByRole('dialog').textContent).not.toMatch(/ranges\.0|Invalid input|expected \w+/);
    expect(api.calls.some((c) => c.name === 'updateRoute')).toBe(false);
  });

  it('reads a decimal comma in the grace period', async () => {
    const api = fakeApi({ apps: [shop] });
    const { user } = await openRoutes(api);
    await user.click(screen.getByRole('button', { name: 'Edit the route of shop-staging' }));
    const f = within(screen.getByRole('dialog'));
    await user.clear(f.getByLabelText('Grace period'));
    await user.type(f.getByLabelText('Grace period'), '2,5');
    await user.click(f.getByRole('button', { name: 'Save the route' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.calls.find((c) => c.name === 'updateRoute')?.input).toMatchObject({
      changes: { gracePeriodMs: 2.5 * HOUR },
    });
  });

  it('sends the front-door fields only once changed: callers, ready delay, quiet user agents', async () => {
    const api = fakeApi({ apps: [shop] });
    const { user } = await openRoutes(api);
    await user.click(screen.getByRole('button', { name: 'Edit the route of shop-staging' }));
    let f = within(screen.getByRole('dialog'));
    await user.clear(f.getByLabelText('Grace period'));
    await user.type(f.getByLabelText('Grace period'), '2');
    await user.click(f.getByRole('button', { name: 'Save the route' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const plain = api.calls.find((c) => c.name === 'updateRoute')?.input as { changes: object };
    expect(Object.keys(plain.changes)).not.toContain('callers');

    await user.click(screen.getByRole('button', { name: 'Edit the route of shop-staging' }));
    f = within(screen.getByRole('dialog'));
    await user.selectOptions(f.getByLabelText('Other callers while asleep'), 'unavailable');
    await user.clear(f.getByLabelText('Ready delay (s)'));
    await user.type(f.getByLabelText('Ready delay (s)'), '2,5');
    await user.click(f.getByRole('switch', { name: /Never wake the app/ }));
    await user.click(f.getByRole('button', { name: 'Save the route' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.calls.filter((c) => c.name === 'updateRoute').at(-1)?.input).toMatchObject({
      changes: {
        callers: 'unavailable',
        ignoredAnswer: 'unavailable',
        readyDelayMs: 2500,
        quietAgents: { builtIn: false, wake: [] },
      },
    });
  });

  it('says a grace period that is not a number, quoting it, in the field’s unit', async () => {
    const api = fakeApi({ apps: [shop] });
    const { user } = await openRoutes(api);
    await user.click(screen.getByRole('button', { name: 'Edit the route of shop-staging' }));
    const f = within(screen.getByRole('dialog'));
    await user.clear(f.getByLabelText('Grace period'));
    await user.type(f.getByLabelText('Grace period'), 'soon');
    await user.click(f.getByRole('button', { name: 'Save the route' }));
    expect(f.getByText('Grace period: “soon” is not a number.')).toBeTruthy();
    await user.clear(f.getByLabelText('Grace period'));
    await user.type(f.getByLabelText('Grace period'), '800');
    await user.click(f.getByRole('button', { name: 'Save the route' }));
    expect(f.getByText('Grace period: 800 hours is too long; the most is 720 hours.')).toBeTruthy();
  });

  it('warns on a second route for an app and says which grace period wins', async () => {
    const api = fakeApi({ apps: [shop], routes: [routeOf(shop, { gracePeriodMs: 2 * HOUR })] });
    const { user } = await openRoutes(api);
    await user.click(screen.getByRole('button', { name: 'New route' }));
    const f = within(screen.getByRole('dialog', { name: 'New route' }));
    await waitFor(() => expect(f.getByRole('option', { name: /shop-staging/ })).toBeTruthy());
    expect(f.queryByTestId('second-route')).toBeNull();
    await user.selectOptions(f.getByLabelText('App'), 'app_shop-staging');
    const warning = f.getByTestId('second-route');
    expect(warning.textContent).toMatch(
      /^This app already has a route \(shop-staging\)\. .*the longest grace period wins\./,
    );
    expect(warning.textContent).toMatch(/the grace period is 2 hours: the one of shop-staging\.$/);
    await user.clear(f.getByLabelText('Grace period'));
    await user.type(f.getByLabelText('Grace period'), '3');
    expect(f.getByTestId('second-route').textContent).toMatch(/the grace period is 3 hours: this route’s\.$/);
    await user.selectOptions(f.getByRole('combobox', { name: 'Unit of the grace period' }), 'min');
    expect(f.getByTestId('second-route').textContent).toMatch(/the grace period is 120 minutes: the one of/);
  });
});

describe('the editors in French', () => {
  it('opens, says a bad range and a second route in French, and closes on Escape', async () => {
    const api = fakeApi({ apps: [shop], routes: [routeOf(shop, { gracePeriodMs: 2 * HOUR })] });
    const { user } = await openRoutes(api, 'fr');
    const open = screen.getByRole('button', { name: 'Nouvelle route' });
    await user.click(open);
    const dialog = screen.getByRole('dialog', { name: 'Nouvelle route' });
    expect(dialog.contains(document.activeElement)).toBe(true);
    const f = within(dialog);
    await waitFor(() => expect(f.getByRole('option', { name: /shop-staging .* déjà routée/ })).toBeTruthy());
    await user.selectOptions(f.getByLabelText('Application'), 'app_shop-staging');
    expect(f.getByTestId('second-route').textContent).toMatch(
      /^Cette application a déjà une route \(shop-staging\)\. .*le délai de grâce est de 2\sheures : celui de shop-staging\.$/,
    );
    await user.clear(f.getByLabelText('Délai de grâce'));
    await user.type(f.getByLabelText('Délai de grâce'), '0,5');
    await user.selectOptions(f.getByRole('combobox', { name: 'Unité du délai de grâce' }), 'min');
    await user.click(f.getByRole('button', { name: 'Ajouter une plage' }));
    await user.clear(f.getByRole('textbox', { name: 'Plage 1, jours' }));
    // Weekdays are typed in French (issue 26): "Lun-Ven" is a range, shown "lun-ven"; a word that
    // is no weekday is said, in French.
    await user.type(f.getByRole('textbox', { name: 'Plage 1, jours' }), 'Lun-Ven');
    expect(f.getByRole('textbox', { name: 'Plage 1, jours' })).toHaveProperty('value', 'lun-ven');
    expect(f.queryByText(/n’est pas un jour/)).toBeNull();
    await user.type(f.getByRole('textbox', { name: 'Plage 1, jours' }), ',Noël');
    expect(
      f.getAllByText(
        'Plage 1, jours : « Noël » n’est pas un jour ni une suite de jours (lun, mar … dim, par exemple lun-ven).',
      ),
    ).toHaveLength(1);
    await user.click(f.getByRole('button', { name: 'Créer la route' }));
    expect(
      f.getByText('Délai de grâce : 0,5 minute, c’est trop court ; le minimum est 1 minute.'),
    ).toBeTruthy();
    await user.keyboard('{Escape}');
    expect(await answerDiscard(user, 'Abandonner', 'Abandonner les modifications ?')).toBe(
      'Quitter cette route sans enregistrer vos modifications ?',
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.activeElement).toBe(open);
  });

  it('shows the routes table and the rule editor in French', async () => {
    const api = fakeApi({ apps: [shop] });
    const { user } = await openRoutes(api, 'fr');
    expect(screen.getByRole('columnheader', { name: 'Délai de grâce' })).toBeTruthy();
    expect(screen.getByRole('row', { name: /shop-staging/ }).textContent).toMatch(/1\sheure/);
    const open = screen.getByRole('button', { name: 'Nouvelle règle' });
    await user.click(open);
    const f = within(screen.getByRole('dialog', { name: 'Nouvelle règle' }));
    await user.type(f.getByLabelText('Motif de nom'), '*-pr-*');
    await user.type(f.getByLabelText('Groupe'), 'pr-{{3}');
    await user.click(f.getByRole('button', { name: 'Créer la règle' }));
    expect(
      f.getByText('Groupe : {3} ne peut pas être rempli, le motif a 2 jokers ; utilisez {name}, {1}…{2}.'),
    ).toBeTruthy();
    await user.keyboard('{Escape}');
    await answerDiscard(user, 'Abandonner', 'Abandonner les modifications ?');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.activeElement).toBe(open);
  });
});

describe('the rule editor dialog', () => {
  it('opens with focus inside and closes on Escape without asking when nothing changed', async () => {
    const confirm = vi.spyOn(window, 'confirm');
    const api = fakeApi({ apps: [shop] });
    const { user } = await openRoutes(api);
    const open = screen.getByRole('button', { name: 'New rule' });
    await user.click(open);
    const dialog = screen.getByRole('dialog', { name: 'New rule' });
    expect(dialog.contains(document.activeElement)).toBe(true);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(confirm).not.toHaveBeenCalled();
    // The close is answered after the question (none here): focus comes back with the unmount's effects.
    await waitFor(() => expect(document.activeElement).toBe(open));
  });
});

describe('Back with unsaved changes', () => {
  it('asks, puts the address back while asked and when refused, and goes Back once Discard is answered', async () => {
    const api = fakeApi({ apps: [shop] });
    const { user } = await openRoutes(api);
    await user.click(screen.getByRole('button', { name: 'Edit the route of shop-staging' }));
    expect(window.location.hash).toBe('#/routes/route_shop-staging');
    await user.type(within(screen.getByRole('dialog')).getByLabelText('Label'), 'x');
    window.history.replaceState(null, '', '#/routes');
    window.dispatchEvent(new PopStateEvent('popstate'));
    await screen.findByRole('alertdialog', { name: 'Discard changes?' });
    expect(window.location.hash).toBe('#/routes/route_shop-staging');
    expect(await answerDiscard(user, 'Keep editing')).toBe('Leave this route without saving your changes?');
    expect(screen.getByRole('dialog')).toBeTruthy();
    expect(window.location.hash).toBe('#/routes/route_shop-staging');
    window.history.replaceState(null, '', '#/routes');
    window.dispatchEvent(new PopStateEvent('popstate'));
    await answerDiscard(user, 'Discard');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(window.location.hash).toBe('#/routes');
  });
});
