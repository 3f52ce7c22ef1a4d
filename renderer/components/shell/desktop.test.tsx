/** The dashboard inside the desktop app: the preload's bridge, the shell's requests and warnings. */
import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { CallName } from '../../../shared/api.ts';
import { ApiError, envelope, problemsOf } from '../../../shared/api-errors.ts';
import { InputError } from '../../../shared/errors.ts';
import { bridgeFromInvoke } from '../../../shared/ipc.ts';
import { App } from '../../App.tsx';
import { pickApi } from '../../api/pick-api.ts';
import { appView, fakeApi } from '../../test/fake-api.ts';

describe('the dashboard in the desktop app', () => {
  it("runs on the preload's bridge, and gets a refused input back with its fields for the forms", async () => {
    const bridge = bridgeFromInvoke(
      (name: CallName) =>
        envelope(async () => {
          if (name === 'updateSettings') {
            throw new InputError([{ field: 'intervalMs', message: 'the interval is at least 1 s' }]);
          }
          return { asked: name };
        }),
      () => () => undefined,
    );
    const picked = pickApi({ reaper: bridge } as unknown as Window);
    if (!('api' in picked)) throw new Error('the bridge was not picked');
    expect(await picked.api.status()).toEqual({ asked: 'status' });
    const error = await picked.api.updateSettings({ intervalMs: 5 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(problemsOf(error, 'intervalMs')).toEqual(['the interval is at least 1 s']);
  });

  it('opens the details of an app the desktop asks for (a notification or a link was clicked)', async () => {
    const api = fakeApi({ apps: [appView('shop-staging', 'Up'), appView('billing-preview', 'Error')] });
    render(<App api={api} />);
    await screen.findByRole('table', { name: 'Managed apps' });
    act(() => api.emit({ type: 'show-app', appId: 'app_billing-preview' }));
    expect(await screen.findByRole('dialog', { name: 'billing-preview' })).toBeTruthy();
  });

  it('goes to the place a clever-reaper://open/... link names, and shows it in the URL', async () => {
    const api = fakeApi({ apps: [appView('shop-staging', 'Up'), appView('billing-preview', 'Error')] });
    render(<App api={api} />);
    const table = await screen.findByRole('table', { name: 'Managed apps' });
    act(() => api.emit({ type: 'navigate', route: '#/apps?errors=1' }));
    expect(await screen.findByText('1 of 2 apps')).toBeTruthy();
    expect(table.querySelectorAll('tbody tr[data-app]')).toHaveLength(1);
    expect(window.location.hash).toBe('#/apps?errors=1');
    act(() => api.emit({ type: 'navigate', route: '#/history' }));
    expect(await screen.findByRole('heading', { name: 'History' })).toBeTruthy();
    expect(window.location.hash).toBe('#/history');
  });

  it("shows the shell's warnings in a banner (a settings file set aside)", async () => {
    const notice = 'The settings file could not be read (not JSON). It was kept as config.json.corrupt-1.';
    render(<App api={fakeApi({ apps: [appView('shop-staging', 'Up')], status: { problems: [notice] } })} />);
    expect((await screen.findByText(notice)).closest('[role="alert"]')).toBeTruthy();
  });
});
