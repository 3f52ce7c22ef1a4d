/**
 * An app's name is a link to its details (the table's filters and order in it): a plain click opens
 * them in place, a click with a modifier is left to the browser (a new tab). Opened from the address
 * (a link opened in a new tab, a reload), closing the details or an editor gives the focus to what
 * stands for the opener: the app's name in the table, or the view's heading when it is not there.
 */
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { App } from '../../App.tsx';
import { appView, fakeApi } from '../../test/fake-api.ts';

const apps = () => [appView('shop', 'Up'), appView('billing', 'Error'), appView('blog', 'Down')];
const nameLink = (name: string) =>
  within(document.querySelector<HTMLElement>(`tr[data-app="${name}"]`)!).getByRole('link', { name });

describe('an app’s name', () => {
  it('links to its details with the table’s filters and order; a plain click opens them here', async () => {
    const user = userEvent.setup();
    render(<App api={fakeApi({ apps: apps() })} />);
    await screen.findByRole('table', { name: 'Managed apps' });
    expect(nameLink('shop').getAttribute('href')).toBe('#/apps/app_shop');
    await user.click(screen.getByRole('button', { name: /^State/ }));
    await user.click(screen.getByRole('checkbox', { name: /^Errors only/ }));
    expect(nameLink('billing').getAttribute('href')).toBe('#/apps/app_billing?errors=1&sort=state');

    // With Ctrl (or Cmd, Shift, the middle button): the browser's, nothing opens here.
    const ctrl = fireEvent.click(nameLink('billing'), { ctrlKey: true });
    expect(ctrl).toBe(true); // not prevented: the browser opens its new tab
    expect(screen.queryByRole('dialog')).toBeNull();

    const plain = fireEvent.click(nameLink('billing'));
    expect(plain).toBe(false); // prevented: the details open in place
    expect(await screen.findByRole('dialog', { name: 'billing' })).toBeTruthy();
    expect(window.location.hash).toBe('#/apps/app_billing?errors=1&sort=state');
  });

  it('keeps the keyboard: arrows move between names, Enter opens, Space picks', async () => {
    const user = userEvent.setup();
    render(<App api={fakeApi({ apps: apps() })} />);
    await screen.findByRole('table', { name: 'Managed apps' });
    nameLink('billing').focus();
    await user.keyboard('{ArrowDown}');
    await waitFor(() => expect(document.activeElement).toBe(nameLink('blog')));
    await user.keyboard(' ');
    expect((screen.getByRole('checkbox', { name: 'Select blog' }) as HTMLInputElement).checked).toBe(true);
    expect(screen.queryByRole('dialog')).toBeNull();
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('dialog', { name: 'blog' })).toBeTruthy();
  });
});

describe('the focus, once what an address opened is closed', () => {
  it('the details opened from the address: Close gives the focus to the app’s name', async () => {
    window.history.replaceState(null, '', '/#/apps/app_blog');
    const user = userEvent.setup();
    render(<App api={fakeApi({ apps: apps() })} />);
    const panel = await screen.findByRole('dialog', { name: 'blog' });
    await user.click(within(panel).getByRole('button', { name: 'Close the details' }));
    await waitFor(() => expect(document.activeElement).toBe(nameLink('blog')));
  });

  it('the details of an app the filters hide: Escape gives the focus to the view’s heading', async () => {
    window.history.replaceState(null, '', '/#/apps/app_blog?errors=1');
    const user = userEvent.setup();
    render(<App api={fakeApi({ apps: apps() })} />);
    await screen.findByRole('dialog', { name: 'blog' });
    expect(document.querySelector('tr[data-app="blog"]')).toBeNull();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(document.getElementById('apps-heading')));
  });

  it('the route editor opened from the address: Escape gives the focus to the Routes heading', async () => {
    window.history.replaceState(null, '', '/#/routes/route_shop');
    const user = userEvent.setup();
    render(<App api={fakeApi({ apps: apps() })} />);
    await screen.findByRole('dialog', { name: 'Edit the route of shop' });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1, name: 'Routes' }));
  });
});
