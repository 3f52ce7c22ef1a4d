import { describe, expect, it } from 'vitest';
import { formatRoute, parseRoute } from '../../shared/nav-route.ts';
import { INITIAL_FILTERS, INITIAL_SORT, routeOf, stateOfRoute, type UrlState } from './url-state.ts';

const BASE: UrlState = {
  view: 'apps',
  selectedAppId: null,
  filters: INITIAL_FILTERS,
  editingRoute: null,
  historyParams: {},
  auditParams: {},
  routesSearch: '',
  savingsZone: '',
  sort: INITIAL_SORT,
};

const hashOf = (s: Partial<UrlState>) => formatRoute(routeOf({ ...BASE, ...s }));
const stateOf = (hash: string) => stateOfRoute(parseRoute(hash));

describe('the dashboard state in the URL', () => {
  it('writes the view, the open app, the filters', () => {
    expect(hashOf({})).toBe('#/apps');
    expect(hashOf({ selectedAppId: 'app_1' })).toBe('#/apps/app_1');
    expect(hashOf({ filters: { search: 'shop', state: 'Error', ownerId: 'orga_x', errorsOnly: true } })).toBe(
      '#/apps?errors=1&owner=orga_x&q=shop&state=Error',
    );
    expect(hashOf({ view: 'history', historyParams: { app: 'app_1', kind: 'action' } })).toBe(
      '#/history?app=app_1&kind=action',
    );
    expect(hashOf({ view: 'routes', editingRoute: 'route_9', routesSearch: 'api' })).toBe(
      '#/routes/route_9?q=api',
    );
    expect(hashOf({ view: 'settings', selectedAppId: 'app_1' })).toBe('#/settings');
  });

  it('writes the apps table order, and reads it back, the default saying nothing', () => {
    expect(hashOf({ sort: { key: 'lastRequest', dir: 'desc' } })).toBe('#/apps?sort=-lastRequest');
    expect(hashOf({ sort: { key: 'state', dir: 'asc' } })).toBe('#/apps?sort=state');
    expect(hashOf({ sort: { key: 'name', dir: 'desc' } })).toBe('#/apps?sort=-name');
    expect(hashOf({ sort: INITIAL_SORT })).toBe('#/apps');
    expect(stateOf('#/apps?sort=-sleepsAt')?.sort).toEqual({ key: 'sleepsAt', dir: 'desc' });
    expect(stateOf('#/apps?sort=owner&state=Error')?.sort).toEqual({ key: 'owner', dir: 'asc' });
    // No order, or one naming no column: by name, ascending (a link shows what it says).
    expect(stateOf('#/apps')?.sort).toEqual(INITIAL_SORT);
    for (const bad of ['-', '--name', 'cost', '-Name', 'name-']) {
      expect(stateOf(`#/apps?sort=${bad}`)?.sort).toEqual(INITIAL_SORT);
    }
    // Only the apps view holds it.
    expect(hashOf({ view: 'history', sort: { key: 'state', dir: 'desc' } })).toBe('#/history');
  });

  it('reads back what it wrote (round trip)', () => {
    const states: Partial<UrlState>[] = [
      { selectedAppId: 'app_1', filters: { search: 'a b', state: 'Down', ownerId: '', errorsOnly: false } },
      { view: 'history', historyParams: { cause: 'did not stop', from: '2026-01-05T09:00' } },
      { view: 'routes', editingRoute: 'new' },
      { view: 'savings' },
      { sort: { key: 'owner', dir: 'desc' }, filters: { ...INITIAL_FILTERS, errorsOnly: true } },
    ];
    for (const s of states) {
      const back = stateOf(hashOf(s));
      expect(back).not.toBeNull();
      expect(hashOf(back!)).toBe(hashOf(s));
    }
  });

  it('takes only what the dashboard accepts from a pasted link', () => {
    expect(stateOf('#/apps/not-an-app?state=Sleeping&owner=bob')).toMatchObject({
      view: 'apps',
      selectedAppId: null,
      filters: INITIAL_FILTERS,
    });
    expect(stateOf('#/nowhere')).toBeNull();
    expect(stateOf('#token=abc')).toBeNull();
    expect(stateOf('#/history?app=app_1&token=abc&other=1')).toEqual({
      view: 'history',
      selectedAppId: null,
      editingRoute: null,
      historyParams: { app: 'app_1' },
    });
  });

  it("keeps the Savings' time zone, and drops one the browser does not know", () => {
    expect(hashOf({ view: 'savings', savingsZone: 'Asia/Tokyo' })).toBe('#/savings?tz=Asia%2FTokyo');
    expect(hashOf({ view: 'savings' })).toBe('#/savings');
    expect(stateOf('#/savings?tz=Asia%2FTokyo')).toMatchObject({
      view: 'savings',
      savingsZone: 'Asia/Tokyo',
    });
    expect(stateOf('#/savings?tz=Mars%2FOlympus')).toMatchObject({ view: 'savings', savingsZone: '' });
  });
});
