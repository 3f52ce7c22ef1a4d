import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { AppView } from '../../../shared/api.ts';
import { CAUSES, type HistoryEntry } from '../../../shared/domain.ts';
import { MINUTE } from '../../../shared/durations.ts';
import { App } from '../../App.tsx';
import type { ConnectionState } from '../../api/dashboard-api.ts';
import { cleverStatus } from '../../lib/clever-status.ts';
import { appView, type FakeApi, fakeApi, NOW } from '../../test/fake-api.ts';

async function openApp(api: FakeApi, name: string) {
  const user = userEvent.setup();
  render(<App api={api} />);
  await screen.findByRole('table', { name: 'Managed apps' });
  const row = document.querySelector<HTMLElement>(`tr[data-app="${name}"]`)!;
  await user.click(within(row).getByRole('link', { name }));
  const dialog = await screen.findByRole('dialog', { name });
  return { user, row, d: within(dialog) };
}

const inError = (name: string, cause: string, fields: Partial<AppView> = {}) =>
  appView(name, 'Error', { cause, ...fields });

const ORG_CONSOLE = 'https://console.clever-cloud.com/organisations/orga_acme/applications';

describe('an app in Error explains itself in the details', () => {
  it('MODERATED: what it means, who can lift it, the cause word for word, the console link', async () => {
    const app = inError('partner-portal', CAUSES.unexpectedState('MODERATED'), { cleverState: 'MODERATED' });
    const { d } = await openApp(fakeApi({ apps: [app] }), 'partner-portal');
    const alert = d.getByRole('alert');
    expect(alert.textContent).toContain("unexpected clever cloud state 'MODERATED'");
    expect(within(alert).getByRole('heading', { name: 'Moderated by Clever Cloud' })).toBeTruthy();
    expect(alert.textContent).toContain(
      'Only Clever Cloud can lift a moderation: contact Clever Cloud support',
    );
    const link = within(alert).getByRole('link', { name: /Open in the Clever Cloud console/ });
    expect(link.getAttribute('href')).toBe(`${ORG_CONSOLE}/app_partner-portal`);
  });

  it('DEFAULT_OF_PAYMENT: unpaid invoices, paid by an administrator or accountant of the organisation', async () => {
    const app = inError('billing', CAUSES.unexpectedState('DEFAULT_OF_PAYMENT'), {
      cleverState: 'DEFAULT_OF_PAYMENT',
    });
    const { d } = await openApp(fakeApi({ apps: [app] }), 'billing');
    const alert = d.getByRole('alert');
    expect(within(alert).getByRole('heading', { name: 'Unpaid invoices (default of payment)' })).toBeTruthy();
    expect(alert.textContent).toContain(
      'An administrator or an accountant of Acme Staging can pay the unpaid invoices',
    );
  });

  it('DEFAULT_OF_PAYMENT in a personal space: its owner pays', async () => {
    const app = inError('mine', CAUSES.unexpectedState('DEFAULT_OF_PAYMENT'), {
      cleverState: 'DEFAULT_OF_PAYMENT',
      ownerId: 'user_me',
      ownerName: 'Demo User',
    });
    const { d } = await openApp(fakeApi({ apps: [app] }), 'mine');
    expect(d.getByRole('alert').textContent).toContain('The owner of this personal space can pay');
  });

  it('a failed start links to the app and its logs in the console', async () => {
    const app = inError('billing-preview', CAUSES.startFailed, { cleverState: 'WANTS_TO_BE_UP' });
    const { d } = await openApp(fakeApi({ apps: [app] }), 'billing-preview');
    const alert = within(d.getByRole('alert'));
    expect(alert.getByRole('heading', { name: 'The start failed on Clever Cloud' })).toBeTruthy();
    expect(alert.getByRole('link', { name: /Logs in the Clever Cloud console/ }).getAttribute('href')).toBe(
      `${ORG_CONSOLE}/app_billing-preview/logs`,
    );
    expect(alert.getByRole('link', { name: /Open in the Clever Cloud console/ })).toBeTruthy();
    // The console's own words for WANTS_TO_BE_UP with a failed deployment.
    expect(d.getByText('Start failed').getAttribute('title')).toBe('WANTS_TO_BE_UP, last deployment FAIL');
  });

  it('a failed last deployment says why the reaper does not sleep it, with the deployments and logs', async () => {
    const app = inError('shop', CAUSES.unsafeLastDeployment('FAIL'));
    const { d } = await openApp(fakeApi({ apps: [app] }), 'shop');
    const alert = within(d.getByRole('alert'));
    expect(alert.getByRole('heading', { name: 'The last deployment failed' })).toBeTruthy();
    expect(alert.getByText(/a stop now and a start later would redeploy what failed/)).toBeTruthy();
    expect(alert.getAllByRole('link')).toHaveLength(2);
    expect(d.getByText('Running, last deployment failed').getAttribute('title')).toBe(
      'SHOULD_BE_UP, last deployment FAIL',
    );
  });

  it('a start fail timeout tells what the reaper saw last, from the record and the history', async () => {
    const app = inError('slow', CAUSES.startTimeout, {
      cleverState: 'WANTS_TO_BE_UP',
      stateSince: NOW - MINUTE,
    });
    const entry = (at: number, fields: Partial<HistoryEntry>): HistoryEntry => ({
      appId: 'app_slow',
      at,
      kind: 'transition',
      from: null,
      to: null,
      actor: 'reaper',
      reason: '',
      ...fields,
    });
    const history = [
      entry(NOW - MINUTE, { from: 'WaitingForUp', to: 'Error', reason: CAUSES.startTimeout }),
      entry(NOW - 5 * MINUTE, { kind: 'call-failed', reason: 'get app failed: 503 Service Unavailable' }),
      entry(NOW - 16 * MINUTE, { from: 'Down', to: 'WaitingForUp', actor: 'request', reason: 'asked for' }),
    ];
    const { d } = await openApp(
      fakeApi({ apps: [app], history, settings: { failTimeoutMs: 15 * MINUTE } }),
      'slow',
    );
    const seen = await d.findByRole('list', { name: 'What the reaper saw last' });
    await waitFor(() => expect(within(seen).getAllByRole('listitem').length).toBeGreaterThanOrEqual(4));
    const lines = within(seen)
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(lines[0]).toBe('Last Clever Cloud state read: Starting (WANTS_TO_BE_UP)');
    expect(lines[1]).toMatch(/^Start asked .+, 15 min before the Error$/);
    expect(lines).toContain('Fail timeout: 15 min');
    expect(lines).toContain(
      '1 call to Clever Cloud failed meanwhile, the last: get app failed: 503 Service Unavailable',
    );
  });

  it('a stop fail timeout says so, with the last state read', async () => {
    const app = inError('stuck', CAUSES.stopTimeout, { cleverState: 'SHOULD_BE_UP' });
    const { d } = await openApp(fakeApi({ apps: [app] }), 'stuck');
    expect(d.getByRole('heading', { name: 'Not stopped within the fail timeout' })).toBeTruthy();
    const seen = d.getByRole('list', { name: 'What the reaper saw last' });
    expect(seen.textContent).toContain('Last Clever Cloud state read: Running (SHOULD_BE_UP)');
  });

  it('never deployed: how to deploy', async () => {
    const app = inError('legacy-admin', CAUSES.neverDeployed, { cleverState: 'SHOULD_BE_DOWN' });
    const { d } = await openApp(fakeApi({ apps: [app] }), 'legacy-admin');
    const alert = within(d.getByRole('alert'));
    expect(alert.getByRole('heading', { name: 'Never deployed' })).toBeTruthy();
    expect(alert.getByText('clever link app_legacy-admin && clever deploy').tagName).toBe('CODE');
    expect(alert.getByText(/push its code to its Clever Cloud git remote/)).toBeTruthy();
  });

  it('a Clever Cloud state the reaper does not know', async () => {
    const app = inError('odd', CAUSES.unexpectedState('FROZEN'), { cleverState: 'FROZEN' });
    const { d } = await openApp(fakeApi({ apps: [app] }), 'odd');
    expect(d.getByRole('heading', { name: 'A state the reaper does not know' })).toBeTruthy();
    expect(d.getByText('Unknown state').getAttribute('title')).toBe('FROZEN');
  });
});

describe('every app links to its page in the Clever Cloud console', () => {
  it('for an organisation and for the personal space, in the table and in the details', async () => {
    const apps = [
      appView('shop', 'Up'),
      appView('mine', 'Down', { ownerId: 'user_me', ownerName: 'Demo User' }),
    ];
    const { row } = await openApp(fakeApi({ apps }), 'shop');
    const rowLink = within(row).getByRole('link', { name: 'Console: shop (opens in your browser)' });
    expect(rowLink.getAttribute('href')).toBe(`${ORG_CONSOLE}/app_shop`);
    expect(rowLink.getAttribute('target')).toBe('_blank');
    expect(rowLink.getAttribute('rel')).toBe('noopener noreferrer');
    const mine = document.querySelector<HTMLElement>('tr[data-app="mine"]')!;
    expect(
      within(mine)
        .getByRole('link', { name: /^Console/ })
        .getAttribute('href'),
    ).toBe('https://console.clever-cloud.com/users/me/applications/app_mine');
    const dialog = within(screen.getByRole('dialog', { name: 'shop' }));
    const detailLink = dialog.getByRole('link', { name: /Open in the Clever Cloud console/ });
    expect(detailLink.getAttribute('href')).toBe(`${ORG_CONSOLE}/app_shop`);
    expect(detailLink.getAttribute('rel')).toBe('noopener noreferrer');
  });
});

describe('Clever Cloud states as the console words them', () => {
  it("follows clever-client's app-status reading", () => {
    expect(cleverStatus('SHOULD_BE_DOWN', null)).toBe('stopped');
    expect(cleverStatus('WANTS_TO_BE_UP', 'WIP')).toBe('starting');
    expect(cleverStatus('WANTS_TO_BE_UP', 'FAIL')).toBe('startFailed');
    expect(cleverStatus('SHOULD_BE_UP', 'WIP')).toBe('restarting');
    expect(cleverStatus('SHOULD_BE_UP', 'FAIL')).toBe('restartFailed');
    expect(cleverStatus('SHOULD_BE_UP', 'OK')).toBe('running');
    expect(cleverStatus('MODERATED', null)).toBe('moderated');
    expect(cleverStatus('DEFAULT_OF_PAYMENT', null)).toBe('defaultOfPayment');
    expect(cleverStatus('SOMETHING_NEW', null)).toBe('unknown');
    expect(cleverStatus(null, null)).toBe('notRead');
  });

  it('shows the words in the table with the raw value on hover', async () => {
    const apps = [
      appView('a', 'Down'),
      appView('b', 'Up'),
      appView('c', 'WaitingForInit', { cleverState: null }),
    ];
    render(<App api={fakeApi({ apps })} />);
    await screen.findByRole('table', { name: 'Managed apps' });
    const cell = (name: string) => document.querySelector(`tr[data-app="${name}"] .clever-state`)!;
    expect(cell('a').firstChild?.textContent).toBe('Stopped');
    expect(cell('a').getAttribute('title')).toBe('SHOULD_BE_DOWN');
    expect(cell('b').firstChild?.textContent).toBe('Running');
    expect(cell('c').firstChild?.textContent).toBe('Not read yet');
  });
});

/** A promise the test settles. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe('Reset and Wake tell their outcome and show they are busy', () => {
  it('Reset: read again, still MODERATED; busy meanwhile', async () => {
    const app = inError('partner-portal', CAUSES.unexpectedState('MODERATED'), { cleverState: 'MODERATED' });
    const api = fakeApi({ apps: [app] });
    const answer = deferred<AppView>();
    api.answer('reset', () => answer.promise);
    const { user, d } = await openApp(api, 'partner-portal');
    await user.click(d.getByRole('button', { name: 'Reset' }));
    const busy = d.getByRole('button', { name: 'Resetting…' });
    expect(busy.getAttribute('aria-busy')).toBe('true');
    expect((busy as HTMLButtonElement).disabled).toBe(true);
    await act(async () => answer.resolve(app));
    expect((await d.findByRole('status')).textContent).toBe(
      'Reset: read again from Clever Cloud, still MODERATED',
    );
    expect(d.getByRole('button', { name: 'Reset' }).getAttribute('aria-busy')).toBeNull();
  });

  it('Reset: read again, now Up', async () => {
    const app = inError('shop', CAUSES.unsafeLastDeployment('FAIL'));
    const api = fakeApi({ apps: [app] });
    api.answer('reset', () => appView('shop', 'Up'));
    const { user, d } = await openApp(api, 'shop');
    await user.click(d.getByRole('button', { name: 'Reset' }));
    await waitFor(() =>
      expect(d.getByRole('status').textContent).toBe('Reset: read again from Clever Cloud, now Up'),
    );
  });

  it('Wake: expected up in about the usual start duration', async () => {
    const app = appView('api-sandbox', 'Down');
    const api = fakeApi({ apps: [app] });
    api.answer('wake', () => ({ ...app, wakeRequestedAt: NOW }));
    const { user, d } = await openApp(api, 'api-sandbox');
    await d.findByText(/usually 45 s/);
    await user.click(d.getByRole('button', { name: 'Wake' }));
    await waitFor(() =>
      expect(d.getByRole('status').textContent).toBe('Wake asked: expected up in about 45 s'),
    );
    // The wake is asked for and not started yet: the button stays busy.
    const waking = d.getByRole('button', { name: 'Waking…' });
    expect(waking.getAttribute('aria-busy')).toBe('true');
  });

  it('a failed Reset tells no outcome (the toast tells the failure)', async () => {
    const app = inError('shop', CAUSES.stopTimeout);
    const api = fakeApi({ apps: [app] });
    api.answer('reset', () => Promise.reject(new Error('the reaper is stopping')));
    const { user, d } = await openApp(api, 'shop');
    await user.click(d.getByRole('button', { name: 'Reset' }));
    expect(await screen.findByText(/shop: the reaper is stopping/)).toBeTruthy();
    expect(d.getByRole('status').textContent).toBe('');
  });
});

describe('while the dashboard is disconnected', () => {
  it('the action buttons are disabled and say why', async () => {
    let tell: (state: ConnectionState) => void = () => {};
    const api: FakeApi = {
      ...fakeApi({ apps: [appView('api-sandbox', 'Down')] }),
      onConnection(listener) {
        tell = listener;
        listener('live');
        return () => {};
      },
    };
    const { d } = await openApp(api, 'api-sandbox');
    const wake = () => d.getByRole('button', { name: 'Wake' }) as HTMLButtonElement;
    expect(wake().disabled).toBe(false);
    act(() => tell('reconnecting'));
    expect(wake().disabled).toBe(true);
    const reasonId = wake().getAttribute('aria-describedby')!;
    expect(document.getElementById(reasonId)?.textContent).toBe(
      'Unavailable while the dashboard is disconnected from the reaper: reconnecting…',
    );
    expect(wake().title).toBe(
      'Unavailable while the dashboard is disconnected from the reaper: reconnecting…',
    );
    expect((d.getByRole('button', { name: 'Reset' }) as HTMLButtonElement).disabled).toBe(true);
    expect((d.getByRole('button', { name: 'Disable the reaper' }) as HTMLButtonElement).disabled).toBe(true);
    act(() => tell('live'));
    expect(wake().disabled).toBe(false);
    expect(wake().getAttribute('aria-describedby')).toBeNull();
  });

  it('so are the buttons of the table’s rows, with the reason on hover', async () => {
    let tell: (state: ConnectionState) => void = () => {};
    const api: FakeApi = {
      ...fakeApi({ apps: [appView('api-sandbox', 'Down'), appView('shop', 'Error', { cause: 'x' })] }),
      onConnection(listener) {
        tell = listener;
        listener('live');
        return () => {};
      },
    };
    render(<App api={api} />);
    await screen.findByRole('table', { name: 'Managed apps' });
    const wake = () => screen.getByRole('button', { name: 'Wake api-sandbox' }) as HTMLButtonElement;
    const reset = () => screen.getByRole('button', { name: 'Reset shop' }) as HTMLButtonElement;
    expect(wake().disabled).toBe(false);
    act(() => tell('unauthorized'));
    expect(wake().disabled).toBe(true);
    expect(reset().disabled).toBe(true);
    expect(reset().title).toBe("Unavailable: the reaper refused this dashboard's token");
    act(() => tell('live'));
    expect(wake().disabled).toBe(false);
    expect(wake().title).toBe('');
  });
});
