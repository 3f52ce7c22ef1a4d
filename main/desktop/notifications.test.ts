import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AppView, ReaperEvent } from '../../shared/api.ts';
import type { ReaperState } from '../../shared/domain.ts';
import { BURST_MAX, BURST_WINDOW_MS, type NotificationSpec, Notifier } from './notifications.ts';

function view(appId: string, state: ReaperState, name = appId.replace('app_', '')): AppView {
  return { appId, name, state } as AppView;
}

let shown: NotificationSpec[];
let opened: string[];
let sleepWake: boolean;
let notifier: Notifier;

beforeEach(() => {
  vi.useFakeTimers();
  shown = [];
  opened = [];
  sleepWake = false;
  notifier = new Notifier({
    port: { show: (n) => shown.push(n) },
    showApp: (appId) => opened.push(appId),
    openDashboard: () => opened.push('dashboard'),
    notifySleepWake: () => sleepWake,
  });
});
afterEach(() => {
  notifier.dispose();
  vi.useRealTimers();
});

const alert = (appId: string, cause = 'the app failed to start on clever cloud'): ReaperEvent => ({
  type: 'alert',
  appId,
  name: appId.replace('app_', ''),
  cause,
});
const moved = (appId: string, state: ReaperState): ReaperEvent => ({ type: 'app', app: view(appId, state) });

describe('Error notifications', () => {
  it('name the app and the cause, stay on screen, and open the app in the dashboard when clicked', () => {
    notifier.handle(alert('app_billing'));
    expect(shown).toHaveLength(1);
    expect(shown[0]).toMatchObject({
      title: 'billing is in Error',
      body: 'the app failed to start on clever cloud',
      urgent: true,
    });
    shown[0]!.onClick();
    expect(opened).toEqual(['app_billing']);
  });

  it('are shown once per stay in Error: the same alert again is not shown', () => {
    notifier.handle(moved('app_a', 'Error'));
    notifier.handle(alert('app_a'));
    notifier.handle(moved('app_a', 'Error'));
    notifier.handle(alert('app_a'));
    expect(shown).toHaveLength(1);
  });

  it('are shown again when the app left Error and came back, or when its cause changed', () => {
    notifier.handle(alert('app_a'));
    notifier.handle(moved('app_a', 'WaitingForInit'));
    notifier.handle(alert('app_a'));
    notifier.handle(alert('app_a', 'the app did not start within the fail timeout'));
    expect(shown.map((n) => n.body)).toEqual([
      'the app failed to start on clever cloud',
      'the app failed to start on clever cloud',
      'the app did not start within the fail timeout',
    ]);
  });

  it('are sent again for the apps of a new session (another account, the demo)', () => {
    notifier.handle(alert('app_a'));
    notifier.handle({ type: 'session', status: {} as never });
    notifier.handle(alert('app_a'));
    expect(shown).toHaveLength(2);
  });

  it('come one by one for the first few of a burst, then in one summary at its end', () => {
    for (let i = 0; i < BURST_MAX + 4; i++) notifier.handle(alert(`app_${i}`));
    expect(shown).toHaveLength(BURST_MAX);
    vi.advanceTimersByTime(BURST_WINDOW_MS);
    expect(shown).toHaveLength(BURST_MAX + 1);
    const summary = shown.at(-1)!;
    expect(summary.title).toBe('4 more apps are in Error');
    expect(summary.body).toBe('3, 4, 5, 6');
    summary.onClick();
    expect(opened).toEqual(['dashboard']);
  });

  it('leave out of the summary an app that left Error meanwhile', () => {
    for (let i = 0; i < BURST_MAX + 2; i++) notifier.handle(alert(`app_${i}`));
    notifier.handle(moved(`app_${BURST_MAX}`, 'Down'));
    vi.advanceTimersByTime(BURST_WINDOW_MS);
    // One left to announce: it is announced as itself, not as a summary of one.
    expect(shown.at(-1)).toMatchObject({ title: `${BURST_MAX + 1} is in Error` });
  });

  it('are one by one again once the burst window is over', () => {
    for (let i = 0; i < BURST_MAX; i++) notifier.handle(alert(`app_${i}`));
    vi.advanceTimersByTime(BURST_WINDOW_MS);
    notifier.handle(alert('app_later'));
    expect(shown.at(-1)?.title).toBe('later is in Error');
  });
});

describe('sleep and wake notifications', () => {
  it('are off unless the operator asked for them', () => {
    notifier.handle(moved('app_a', 'WaitingForShutdown'));
    notifier.handle(moved('app_a', 'Down'));
    expect(shown).toEqual([]);
  });

  it('say when an app went to sleep or woke up, quietly, and open it when clicked', () => {
    sleepWake = true;
    notifier.handle(moved('app_a', 'WaitingForShutdown'));
    notifier.handle(moved('app_a', 'Down'));
    notifier.handle(moved('app_b', 'WaitingForUp'));
    notifier.handle(moved('app_b', 'Up'));
    expect(shown.map((n) => [n.title, n.urgent])).toEqual([
      ['a is asleep', false],
      ['b is awake', false],
    ]);
    shown[1]!.onClick();
    expect(opened).toEqual(['app_b']);
  });

  it('are not sent for an app first seen in a state, nor for a state heard twice', () => {
    sleepWake = true;
    notifier.handle(moved('app_a', 'Down'));
    notifier.handle(moved('app_a', 'Down'));
    notifier.handle({ type: 'apps', apps: [view('app_b', 'WaitingForUp')] });
    notifier.handle({ type: 'apps', apps: [view('app_b', 'Up')] });
    expect(shown).toEqual([]);
  });

  it('are forgotten for a released app', () => {
    sleepWake = true;
    notifier.handle(moved('app_a', 'WaitingForShutdown'));
    notifier.handle({ type: 'removed', appId: 'app_a' });
    notifier.handle(moved('app_a', 'Down'));
    expect(shown).toEqual([]);
  });
});
