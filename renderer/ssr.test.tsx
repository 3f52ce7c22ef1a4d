/**
 * The first screen rendered by the server (renderer/ssr.tsx) and hydrated by the page
 * (renderer/boot.tsx), in development React, which says every mismatch (text and attributes): none,
 * in English and in French, and the hydrated rows answer a click.
 */
import { act, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MINUTE } from '../shared/durations.ts';
import type { FirstScreenData } from '../shared/first-screen.ts';
import type { SessionInfo } from '../shared/people.ts';
import { snapshotByApp } from '../shared/snapshot-form.ts';
import type { DashboardApi, SessionControl } from './api/dashboard-api.ts';
import { hydrateFirstScreen } from './boot.tsx';
import { i18n } from './i18n.ts';
import { LANGUAGE_KEY } from './lib/language-choice.ts';
import { renderFirstScreen } from './ssr.tsx';
import { appView, fakeApi, NOW } from './test/fake-api.ts';

const SESSION: SessionInfo = { name: 'alice', role: 'operator', by: 'session', csrf: 'c', expiresAt: null };

function withSession(api: DashboardApi): DashboardApi & { session: SessionControl } {
  const session: SessionControl = {
    signIn: async () => ({ ok: true, info: SESSION }),
    adopt: () => undefined,
    signOut: async () => undefined,
    listTokens: async () => [],
    createToken: async () => {
      throw new Error('not in this test');
    },
    revokeToken: async () => {
      throw new Error('not in this test');
    },
  };
  // As the HTTP client: the server named by the page's own address, an event stream whose state the
  // dashboard follows (connecting at first: the server renders that; live once the store starts).
  return {
    ...api,
    session,
    serverHost: location.host,
    onConnection: (listener) => {
      listener('live');
      return () => undefined;
    },
  };
}

const fleet = () => [
  appView('shop-staging', 'Up', { lastRequestAt: NOW - 2 * MINUTE, sleepsAt: NOW + 28 * MINUTE }),
  appView('api-sandbox', 'Down'),
  appView('billing-preview', 'Error', { cause: 'the app failed to start on clever cloud' }),
  appView('docs-preview', 'WaitingForUp', { ownerId: 'user_me', ownerName: 'Personal space' }),
];

afterEach(async () => {
  await i18n.changeLanguage('en');
  document.body.innerHTML = '';
});

describe('the first screen, rendered by the server then hydrated', () => {
  for (const [language, locale, zone, reset] of [
    ['en', 'en-GB', 'Europe/Paris', 'Reset billing-preview'],
    ['fr', 'fr-FR', 'America/New_York', 'Réinitialiser billing-preview'],
  ] as const) {
    it(`hydrates without a mismatch, and a click works (${language})`, async () => {
      // French as chosen in Settings (its cookie is what the server read): the page's own language too.
      if (language === 'fr') localStorage.setItem(LANGUAGE_KEY, 'fr');
      const fake = fakeApi({ apps: fleet() });
      const api = withSession(fake);
      const data: FirstScreenData = {
        snapshot: snapshotByApp(await api.snapshot()),
        session: SESSION,
        language,
        locale,
        zone,
        viewHeight: 800,
        host: location.host,
      };
      const html = await renderFirstScreen(data);
      expect(html).toContain('data-app="shop-staging"');
      expect(html).toContain(reset);
      // The page as the server sends it (the rows), and its data as the page fetches it (JSON).
      document.body.innerHTML = `<div id="root">${html}</div>`;
      const root = document.getElementById('root')!;
      const read = JSON.parse(JSON.stringify(data)) as FirstScreenData;
      const said = vi.spyOn(console, 'error');
      const warned = vi.spyOn(console, 'warn');
      const before = root.querySelector('tr[data-app="billing-preview"]');
      const { hydrated } = await act(() =>
        hydrateFirstScreen(root, { http: api, session: new Promise(() => undefined) }, read),
      );
      await hydrated;
      // jsdom does not know HTML's <search> element (the toolbar's): its own gap, not a mismatch.
      expect(said.mock.calls.filter((c) => !String(c[1]).startsWith('search'))).toEqual([]);
      expect(warned.mock.calls).toEqual([]);
      // Hydrated, not rendered anew: the server's elements are React's.
      expect(root.querySelector('tr[data-app="billing-preview"]')).toBe(before);
      expect(fake.calls.filter((c) => c.name === 'snapshot')).toHaveLength(1);
      await userEvent.click(root.querySelector<HTMLButtonElement>(`button[aria-label="${reset}"]`)!);
      await waitFor(() => expect(fake.calls.some((c) => c.name === 'reset')).toBe(true));
      said.mockRestore();
      warned.mockRestore();
    });
  }
});

describe('the rows the server renders', () => {
  it('fill the height the page last told of, and no more (each costs a new browser its first paint)', async () => {
    const apps = Array.from({ length: 200 }, (_, i) => appView(`app-${String(i).padStart(3, '0')}`, 'Up'));
    const api = withSession(fakeApi({ apps }));
    const snapshot = snapshotByApp(await api.snapshot());
    const rowsFor = async (viewHeight: number) => {
      const html = await renderFirstScreen({
        snapshot,
        session: SESSION,
        language: 'en',
        locale: 'en-GB',
        zone: 'UTC',
        viewHeight,
        host: location.host,
      });
      return (html.match(/<tr [^>]*data-app=/g) ?? []).length;
    };
    const [small, large] = [await rowsFor(400), await rowsFor(1600)];
    // A row is 56 px high: the height told is filled.
    expect(small).toBeGreaterThanOrEqual(Math.ceil(400 / 56));
    expect(large).toBeGreaterThanOrEqual(Math.ceil(1600 / 56));
    expect(small).toBeLessThan(large);
    expect(large).toBeLessThan(200);
  });
});
