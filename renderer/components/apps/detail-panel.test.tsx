/**
 * The details panel's markup: a non-modal dialog named by its heading (a div, not an aside: an aside
 * may not be a dialog), no second banner landmark inside it, the focus on its heading when it opens
 * and back on the app's row when Escape closes it; axe (run in jsdom, colour contrast left to the
 * browser checks) finds nothing on the page with the panel open, in English and in French.
 */
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { afterEach, describe, expect, it } from 'vitest';
import { CAUSES } from '../../../shared/domain.ts';
import { App } from '../../App.tsx';
import { i18n } from '../../i18n.ts';
import { appView, fakeApi } from '../../test/fake-api.ts';

afterEach(async () => {
  await i18n.changeLanguage('en');
});

async function openPanel(name: string, table: string) {
  const user = userEvent.setup();
  const apps = [appView('shop', 'Up'), appView('billing', 'Error', { cause: CAUSES.neverDeployed })];
  render(<App api={fakeApi({ apps })} />);
  await screen.findByRole('table', { name: table });
  const row = document.querySelector<HTMLElement>(`tr[data-app="${name}"]`)!;
  await user.click(within(row).getByRole('link', { name }));
  const panel = await screen.findByRole('dialog', { name });
  return { user, row, panel };
}

async function violations(): Promise<string[]> {
  const result = await axe.run(document.body, {
    rules: { 'color-contrast': { enabled: false } },
    resultTypes: ['violations'],
  });
  return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

describe('the details panel', () => {
  it('is a dialog on a div, named by its heading, with no banner of its own', async () => {
    const { panel } = await openPanel('billing', 'Managed apps');
    expect(panel.tagName).toBe('DIV');
    expect(panel.getAttribute('aria-modal')).toBe('false');
    expect(document.querySelector('aside[role="dialog"]')).toBeNull();
    expect(panel.querySelector('header')).toBeNull();
    expect(within(panel).queryByRole('banner')).toBeNull();
    // The page's own header stays the one banner.
    expect(screen.getAllByRole('banner')).toHaveLength(1);
    expect(document.activeElement).toBe(within(panel).getByRole('heading', { level: 2, name: 'billing' }));
  });

  it('Escape closes it and gives the focus back to the app’s row', async () => {
    const { user, row } = await openPanel('shop', 'Managed apps');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(within(row).getByRole('link', { name: 'shop' })));
  });

  it('axe finds no violation with the panel open on an app in Error', async () => {
    await openPanel('billing', 'Managed apps');
    expect(await violations()).toEqual([]);
  });

  it('nor in French', async () => {
    await i18n.changeLanguage('fr');
    const { panel } = await openPanel('billing', 'Applications gérées');
    expect(within(panel).getByRole('heading', { name: 'Jamais déployée' })).toBeTruthy();
    expect(await violations()).toEqual([]);
  });
});
