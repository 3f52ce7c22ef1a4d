/**
 * The desktop app on a team server (issue 25, item 5): through the preload's bridge shape
 * (`window.reaper` with its `console`, shared/ipc.ts and shared/team-console.ts), the header says who
 * the app is signed in as and with which role, in English and French; a viewer's write controls are
 * disabled with the reason, as in the browser; on its own engine, nobody is named and nothing is
 * disabled.
 */
import { act, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { CallName } from '../../../shared/api.ts';
import { envelope } from '../../../shared/api-errors.ts';
import { bridgeFromInvoke } from '../../../shared/ipc.ts';
import type { ConsoleBridge, ConsoleState } from '../../../shared/team-console.ts';
import { App } from '../../App.tsx';
import { pickApi } from '../../api/pick-api.ts';
import { i18n } from '../../i18n.ts';
import { appView, fakeApi } from '../../test/fake-api.ts';

afterEach(async () => {
  await i18n.changeLanguage('en');
});

/** What the preload exposes, over a fake engine: every call answered as an envelope, and a console. */
function desktopWindow(first: ConsoleState) {
  const engine = fakeApi({ apps: [appView('shop-staging', 'Up')] });
  const calls = engine as unknown as Record<CallName, (input: unknown) => Promise<unknown>>;
  let state = first;
  const listeners = new Set<(s: ConsoleState) => void>();
  const console: ConsoleBridge = {
    get: async () => ({ ok: true, value: state }),
    connect: async () => ({ ok: false, error: { code: 'invalid-input', message: 'not in this test' } }),
    switchToLocal: async () => {
      state = { mode: 'local' };
      for (const l of listeners) l(state);
      return { ok: true, value: state };
    },
    onState(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  const reaper = {
    ...bridgeFromInvoke(
      (name, input) => envelope(() => calls[name](input)),
      (listener) => engine.subscribe(listener),
    ),
    console,
  };
  /** The main process pushes a new state (CONSOLE_STATE_CHANNEL). */
  const push = (next: ConsoleState) => {
    state = next;
    act(() => {
      for (const l of listeners) l(next);
    });
  };
  return { win: { reaper } as unknown as Window, push };
}

const team = (who: NonNullable<Extract<ConsoleState, { mode: 'team' }>['who']>): ConsoleState => ({
  mode: 'team',
  url: 'https://reaper.example.com',
  host: 'reaper.example.com',
  connection: 'live',
  who,
});

async function show(win: Window) {
  const picked = pickApi(win);
  if (!('api' in picked)) throw new Error('the bridge was not picked');
  render(<App api={picked.api} />);
  await screen.findByRole('table');
  return screen.getByRole('banner');
}

describe('the desktop app signed in to a team server', () => {
  it('says who and with which role in the header, and a viewer’s controls are disabled with the reason', async () => {
    const { win, push } = desktopWindow(team({ name: 'vera', role: 'viewer' }));
    const header = await show(win);
    const who = await within(header).findByTestId('signed-in');
    expect(who.textContent).toBe('Signed in asvera · viewer');
    expect(who.title).toBe(
      'This app is signed in to the team server reaper.example.com as vera, with the viewer role',
    );
    // No Sign out on the desktop: going back to this computer is in Settings.
    expect(within(who).queryByRole('button')).toBeNull();
    const kill = within(header).getByRole('button', { name: /^Kill switch/ });
    expect((kill as HTMLButtonElement).disabled).toBe(true);
    expect(kill.title).toBe('Needs the admin role: you are signed in as viewer');

    // The token's role changed on the server, the main process says so: the header follows.
    push(team({ name: 'vera', role: 'admin' }));
    await waitFor(() =>
      expect(within(header).getByTestId('signed-in').textContent).toBe('Signed in asvera · admin'),
    );
    expect((within(header).getByRole('button', { name: /^Kill switch/ }) as HTMLButtonElement).disabled).toBe(
      false,
    );

    // Back to this computer's engine: nobody named, nothing disabled.
    push({ mode: 'local' });
    await waitFor(() => expect(within(header).queryByTestId('signed-in')).toBeNull());
    expect((within(header).getByRole('button', { name: /^Kill switch/ }) as HTMLButtonElement).disabled).toBe(
      false,
    );
  });

  it('speaks French', async () => {
    await i18n.changeLanguage('fr');
    const { win } = desktopWindow(team({ name: 'alice', role: 'operator' }));
    const header = await show(win);
    const who = await within(header).findByTestId('signed-in');
    expect(who.textContent).toBe('Connecté :alice · opérateur');
    expect(who.title).toBe(
      'Cette application est connectée au serveur d’équipe reaper.example.com en tant que alice, avec le rôle opérateur',
    );
    const kill = within(header).getByRole('button', { name: /^Arrêt d’urgence/ });
    expect(kill.title).toBe('Demande le rôle admin : vous êtes connecté en tant que opérateur');
  });

  it('names nobody before the server said who the token is, and disables nothing', async () => {
    const { win } = desktopWindow({
      mode: 'team',
      url: 'https://reaper.example.com',
      host: 'reaper.example.com',
      connection: 'live',
      who: null,
    });
    const header = await show(win);
    await within(header).findByTestId('mode-label');
    expect(within(header).queryByTestId('signed-in')).toBeNull();
    expect((within(header).getByRole('button', { name: /^Kill switch/ }) as HTMLButtonElement).disabled).toBe(
      false,
    );
  });
});
