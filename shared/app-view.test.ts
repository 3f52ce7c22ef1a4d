import { describe, expect, it } from 'vitest';
import { matchesFilter, toAppView } from './app-view.ts';
import { newRecord } from './domain.ts';
import { HOUR, MINUTE } from './durations.ts';
import { type AppRouting, effectiveRouting, type Route } from './routes.ts';
import { Schedule } from './schedule.ts';
import { DEFAULT_SETTINGS } from './settings.ts';

const NOW = Date.UTC(2026, 0, 5, 9, 0, 0); // a Monday, 10:00 in Paris

function route(fields: Partial<Route> = {}): Route {
  return {
    id: 'route_1',
    appId: 'app_1',
    ownerId: 'orga_1',
    label: '',
    enabled: true,
    gracePeriodMs: HOUR,
    ranges: [],
    hosts: [],
    filters: { pathPrefixes: [], sources: [] },
    createdAt: 0,
    updatedAt: 0,
    ...fields,
  };
}

function context(routes: Route[], overrides: Partial<Parameters<typeof toAppView>[1]> = {}) {
  const routing: AppRouting | undefined = effectiveRouting(routes).get('app_1');
  return {
    now: NOW,
    settings: DEFAULT_SETTINGS,
    routing,
    schedule: new Schedule(routing?.ranges ?? []),
    ownerName: 'Acme',
    sleepDueAt: NOW + 20 * MINUTE,
    ...overrides,
  };
}

const up = { ...newRecord('app_1', 'orga_1', 'staging', NOW - HOUR), state: 'Up' as const };

describe('the view of an app', () => {
  it('shows an idle Up app with the time it sleeps at, its console label and its owner', () => {
    const view = toAppView(up, context([route()]));
    expect(view).toMatchObject({
      label: 'Up',
      ownerName: 'Acme',
      sleepsAt: NOW + 20 * MINUTE,
      sleepNote: null,
      handedOver: null,
      managed: true,
      gracePeriodMs: HOUR,
      routeIds: ['route_1'],
    });
  });

  it('has no sleep time while the kill switch is on, and says why', () => {
    const view = toAppView(up, context([route()], { settings: { ...DEFAULT_SETTINGS, killSwitch: true } }));
    expect(view.sleepsAt).toBeNull();
    expect(view.sleepNote).toBe('kill switch on');
  });

  it('keeps the sleep time in dry-run, marked as such', () => {
    const view = toAppView(up, context([route()], { settings: { ...DEFAULT_SETTINGS, dryRun: true } }));
    expect(view.sleepsAt).toBe(NOW + 20 * MINUTE);
    expect(view.sleepNote).toBe('dry-run');
  });

  it('shows the cause of an app in Error, and no sleep time', () => {
    const record = { ...up, state: 'Error' as const, cause: 'the app failed to start on clever cloud' };
    const view = toAppView(record, context([route()]));
    expect(view.label).toBe('Error');
    expect(view.cause).toBe('the app failed to start on clever cloud');
    expect(view.sleepsAt).toBeNull();
  });

  it('shows when an app no route manages any more is released', () => {
    const record = { ...up, releaseNoticedAt: NOW - MINUTE };
    const view = toAppView(record, context([route({ enabled: false })]));
    expect(view.managed).toBe(false);
    expect(view.releaseAt).toBe(NOW - MINUTE + DEFAULT_SETTINGS.releaseDelayMs);
  });

  it('shows the end of the must-be-up range the app is in', () => {
    const ranges = [{ days: 'Mon-Fri', start: '09:00', end: '18:00', timeZone: 'Europe/Paris' }];
    const view = toAppView(up, context([route({ ranges })]));
    expect(view.hasRanges).toBe(true);
    expect(view.mustBeUpUntil).toBe(Date.UTC(2026, 0, 5, 17, 0, 0));
    expect(view.nextMustBeUpAt).toBe(Date.UTC(2026, 0, 6, 8, 0, 0));
  });

  it('forgets a keep-awake that has expired', () => {
    expect(toAppView({ ...up, keepAwakeUntil: NOW - 1 }, context([route()])).keepAwakeUntil).toBeNull();
    expect(toAppView({ ...up, keepAwakeUntil: NOW + HOUR }, context([route()])).keepAwakeUntil).toBe(
      NOW + HOUR,
    );
  });
});

describe('the filters of the apps table', () => {
  const view = toAppView(up, context([route()]));
  it('match the name, the id or the owner, whatever the case', () => {
    expect(matchesFilter(view, { search: 'STAG' })).toBe(true);
    expect(matchesFilter(view, { search: 'app_1' })).toBe(true);
    expect(matchesFilter(view, { search: 'acme' })).toBe(true);
    expect(matchesFilter(view, { search: 'billing' })).toBe(false);
  });
  it('match the state, the owner and errors only', () => {
    expect(matchesFilter(view, { state: 'Up', ownerId: 'orga_1' })).toBe(true);
    expect(matchesFilter(view, { state: 'Down' })).toBe(false);
    expect(matchesFilter(view, { ownerId: 'orga_2' })).toBe(false);
    expect(matchesFilter(view, { errorsOnly: true })).toBe(false);
  });
});
