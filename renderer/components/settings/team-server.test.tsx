/**
 * Which reaper the dashboard talks to, and the desktop's switch to a team server and back, through
 * the same path as the app: the preload's bridge (envelopes) picked by pickApi, with a console side
 * that behaves as the main process does (it checks the token, pushes each change of its state).
 */
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { CallName } from '../../../shared/api.ts';
import { envelope } from '../../../shared/api-errors.ts';
import { bridgeFromInvoke } from '../../../shared/ipc.ts';
import type {
  ConnectInput,
  ConsoleBridge,
  ConsoleEnvelope,
  ConsoleState,
} from '../../../shared/team-console.ts';
import { App } from '../../App.tsx';
import { createHttpClient } from '../../api/http-client.ts';
import { pickApi } from '../../api/pick-api.ts';
import { appView, fakeApi } from '../../test/fake-api.ts';

const GOOD_TOKEN = 'the-team-token-0123456789';

/** The console side of the preload, as the main process answers it. */
function fakeConsole(initial: ConsoleState = { mode: 'local' }) {
  let state = initial;
  const listeners = new Set<(s: ConsoleState) => void>();
  const asked: { op: string; input?: ConnectInput }[] = [];
  const set = (next: ConsoleState) => {
    state = next;
    for (const l of listeners) l(next);
  };
  const ok = (value: ConsoleState): ConsoleEnvelope => ({ ok: true, value });
  const bridge: ConsoleBridge = {
    get: async () => ok(state),
    connect: async (input) => {
      asked.push({ op: 'connect', input });
      if (input.token !== GOOD_TOKEN) {
        const message = 'The team server refused this admin token';
        return {
          ok: false,
          error: { code: 'invalid-input', message, problems: [{ field: 'token', message }] } as never,
        };
      }
      const host = new URL(input.url).host;
      set({ mode: 'team', url: new URL(input.url).origin, host, connection: 'live' });
      return ok(state);
    },
    switchToLocal: async () => {
      asked.push({ op: 'local' });
      set({ mode: 'local' });
      return ok(state);
    },
    onState: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return { bridge, asked, set };
}

function desktopApi(console: ConsoleBridge) {
  const fake = fakeApi({ apps: [appView('shop-staging', 'Up'), appView('api-sandbox', 'Down')] });
  const bridge = bridgeFromInvoke(
    (name: CallName, input) =>
      envelope(async () => (fake[name] as (input: unknown) => Promise<unknown>)(input)),
    (listener) => fake.subscribe(listener),
  );
  const picked = pickApi({ reaper: { ...bridge, console } } as unknown as Window);
  if (!('api' in picked)) throw new Error('the bridge was not picked');
  return { api: picked.api, fake };
}

const header = () => screen.getByRole('banner');

describe("the dashboard's header says which reaper it talks to", () => {
  it('Local on the desktop, then the team server once connected', async () => {
    const c = fakeConsole();
    render(<App api={desktopApi(c.bridge).api} />);
    await screen.findByRole('table', { name: 'Managed apps' });
    expect(within(header()).getByTestId('mode-label').textContent).toBe('Local');
    act(() =>
      c.set({
        mode: 'team',
        url: 'https://reaper.example.com',
        host: 'reaper.example.com',
        connection: 'live',
      }),
    );
    expect(within(header()).getByTestId('mode-label').textContent).toBe('Team server · reaper.example.com');
  });

  it("the headless server's HTTP client knows its server: the base URL's, or the page's", () => {
    expect(createHttpClient({ baseUrl: 'https://reaper.example.com:8443', token: 't' }).serverHost).toBe(
      'reaper.example.com:8443',
    );
    expect(createHttpClient({ baseUrl: '', token: 't' }).serverHost).toBe(window.location.host);
  });

  it("the headless server's dashboard names its server", async () => {
    const api = { ...fakeApi({ apps: [appView('shop-staging', 'Up')] }), serverHost: '127.0.0.1:7410' };
    render(<App api={api} />);
    await screen.findByRole('table', { name: 'Managed apps' });
    expect(within(header()).getByTestId('mode-label').textContent).toBe('Server · 127.0.0.1:7410');
  });

  it('shows "disconnected" while the team server is lost, and live again after', async () => {
    const c = fakeConsole({
      mode: 'team',
      url: 'https://reaper.example.com',
      host: 'reaper.example.com',
      connection: 'live',
    });
    render(<App api={desktopApi(c.bridge).api} />);
    await screen.findByRole('table', { name: 'Managed apps' });
    expect(within(header()).getByText('Live')).toBeTruthy();
    act(() =>
      c.set({
        mode: 'team',
        url: 'https://reaper.example.com',
        host: 'reaper.example.com',
        connection: 'reconnecting',
      }),
    );
    expect(
      (
        await screen.findByText(/^Disconnected from the team server reaper\.example\.com: reconnecting…/)
      ).closest('[role="alert"]'),
    ).toBeTruthy();
    expect(within(header()).getByText('Reconnecting…')).toBeTruthy();
    act(() =>
      c.set({
        mode: 'team',
        url: 'https://reaper.example.com',
        host: 'reaper.example.com',
        connection: 'live',
      }),
    );
    await waitFor(() => expect(screen.queryByText(/^Disconnected from the team server/)).toBeNull());
    expect(within(header()).getByText('Live')).toBeTruthy();
  });
});

describe('connecting the desktop to a team server', () => {
  async function openSettings() {
    const c = fakeConsole();
    const user = userEvent.setup();
    render(<App api={desktopApi(c.bridge).api} />);
    await screen.findByRole('table', { name: 'Managed apps' });
    await user.click(within(header()).getByRole('link', { name: 'Settings' }));
    const form = await screen.findByRole('form', { name: 'Connect to a team server' });
    return { c, user, form };
  }

  it('refuses an address that is not https (but loopback) and an empty token without asking the server', async () => {
    const { c, user, form } = await openSettings();
    await user.type(within(form).getByLabelText('Address'), 'http://reaper.example.com');
    await user.click(within(form).getByRole('button', { name: 'Connect to the team server' }));
    expect(within(form).getByText(/^The address must be https:\/\//)).toBeTruthy();
    expect(within(form).getByText("Enter the team server's admin token")).toBeTruthy();
    expect(within(form).getByLabelText('Address').getAttribute('aria-invalid')).toBe('true');
    expect(c.asked).toEqual([]);
  });

  it("shows the server's refusal on the token, connects with a good one, and goes back to local in one click", async () => {
    const { c, user, form } = await openSettings();
    await user.type(within(form).getByLabelText('Address'), 'https://reaper.example.com');
    await user.type(within(form).getByLabelText('Admin token'), 'wrong-token');
    await user.click(within(form).getByRole('button', { name: 'Connect to the team server' }));
    expect(await within(form).findByText('The team server refused this admin token')).toBeTruthy();
    expect(within(form).getByLabelText('Admin token').getAttribute('aria-invalid')).toBe('true');

    await user.clear(within(form).getByLabelText('Admin token'));
    await user.type(within(form).getByLabelText('Admin token'), GOOD_TOKEN);
    await user.click(within(form).getByRole('button', { name: 'Connect to the team server' }));
    const panel = await screen.findByRole('region', { name: 'Team server' });
    expect(await within(panel).findByText(/This app shows the team server/)).toBeTruthy();
    expect(within(header()).getByTestId('mode-label').textContent).toBe('Team server · reaper.example.com');
    expect(c.asked.map((a) => a.input?.url)).toEqual([
      'https://reaper.example.com',
      'https://reaper.example.com',
    ]);

    await user.click(within(panel).getByRole('button', { name: "Use this computer's engine" }));
    await waitFor(() => expect(within(header()).getByTestId('mode-label').textContent).toBe('Local'));
    expect(c.asked.at(-1)).toEqual({ op: 'local' });
    expect(await screen.findByRole('form', { name: 'Connect to a team server' })).toBeTruthy();
  });
});
