import { afterEach, describe, expect, it } from 'vitest';
import { createStore } from 'zustand/vanilla';
import { bindUrl } from './url-binding.ts';
import { INITIAL_FILTERS, INITIAL_SORT, type UrlState } from './url-state.ts';

type S = UrlState & { navigate(place: Partial<UrlState>): void };

function storeAt(hash: string) {
  window.history.replaceState(null, '', `/${hash}`);
  const store = createStore<S>()((set) => ({
    view: 'apps',
    selectedAppId: null,
    filters: INITIAL_FILTERS,
    editingRoute: null,
    historyParams: {},
    savingsZone: '',
    auditParams: {},
    routesSearch: '',
    sort: INITIAL_SORT,
    navigate: (place) => set(place),
  }));
  const unbind = bindUrl(store, window);
  unbinds.push(unbind);
  return store;
}

const unbinds: (() => void)[] = [];
afterEach(() => {
  for (const u of unbinds.splice(0)) u();
});

const popped = () => new Promise((resolve) => window.addEventListener('popstate', resolve, { once: true }));

describe('the URL bound to the dashboard state', () => {
  it('applies the route of the fragment at start, and writes the state back', () => {
    const store = storeAt('#/apps/app_1?state=Error');
    expect(store.getState()).toMatchObject({ selectedAppId: 'app_1', filters: { state: 'Error' } });
    store.setState({ filters: { ...INITIAL_FILTERS, search: 'shop' } });
    expect(window.location.hash).toBe('#/apps/app_1?q=shop');
  });

  it('replaces a fragment that is not a route (the token, once taken) with the route', () => {
    storeAt('#main');
    expect(window.location.hash).toBe('#/apps');
  });

  it('pushes an entry for a new place, replaces it for a filter; Back and Forward apply the URL', async () => {
    const store = storeAt('#/apps');
    const length = window.history.length;
    store.setState({ filters: { ...INITIAL_FILTERS, search: 's' } });
    store.setState({ filters: { ...INITIAL_FILTERS, search: 'sh' } });
    expect(window.history.length).toBe(length);
    store.setState({ selectedAppId: 'app_2' });
    expect(window.location.hash).toBe('#/apps/app_2?q=sh');
    expect(window.history.length).toBe(length + 1);

    const back = popped();
    window.history.back();
    await back;
    expect(store.getState().selectedAppId).toBeNull();
    expect(window.location.hash).toBe('#/apps?q=sh');
    const forward = popped();
    window.history.forward();
    await forward;
    expect(store.getState().selectedAppId).toBe('app_2');
  });

  it('pushes an entry for a new order of the table: Back restores the order before', async () => {
    const store = storeAt('#/apps');
    const length = window.history.length;
    store.setState({ sort: { key: 'lastRequest', dir: 'desc' } });
    expect(window.location.hash).toBe('#/apps?sort=-lastRequest');
    expect(window.history.length).toBe(length + 1);
    store.setState({ sort: { key: 'state', dir: 'asc' } });
    expect(window.history.length).toBe(length + 2);

    const back = popped();
    window.history.back();
    await back;
    expect(store.getState().sort).toEqual({ key: 'lastRequest', dir: 'desc' });
    const back2 = popped();
    window.history.back();
    await back2;
    expect(store.getState().sort).toEqual(INITIAL_SORT);
  });
});
