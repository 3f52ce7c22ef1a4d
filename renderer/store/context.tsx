/** The store and the API, given to the components (tests give a fake API and a fresh store). */
import { createContext, type ReactNode, useContext, useSyncExternalStore } from 'react';
import { useStore } from 'zustand';
import type { StoreApi } from 'zustand/vanilla';
import type { DashboardApi } from '../api/dashboard-api.ts';
import { type DashboardState, serverNow } from './dashboard-store.ts';

const StoreContext = createContext<StoreApi<DashboardState> | null>(null);
const ApiContext = createContext<DashboardApi | null>(null);

export function DashboardProvider(props: {
  api: DashboardApi;
  store: StoreApi<DashboardState>;
  children: ReactNode;
}) {
  return (
    <ApiContext.Provider value={props.api}>
      <StoreContext.Provider value={props.store}>{props.children}</StoreContext.Provider>
    </ApiContext.Provider>
  );
}

export function useDashboard<T>(selector: (state: DashboardState) => T): T {
  const store = useContext(StoreContext);
  if (!store) throw new Error('useDashboard outside a DashboardProvider');
  return useStore(store, selector);
}

export function useApi(): DashboardApi {
  const api = useContext(ApiContext);
  if (!api) throw new Error('useApi outside a DashboardProvider');
  return api;
}

// One ticker for the whole page: countdowns and "time in state" move every second.
const tickListeners = new Set<() => void>();
let tickTimer: ReturnType<typeof setInterval> | undefined;
let tick = Date.now();

const noTick = () => 0;

function subscribeTick(listener: () => void): () => void {
  tickListeners.add(listener);
  tickTimer ??= setInterval(() => {
    tick = Date.now();
    for (const l of tickListeners) l();
  }, 1000);
  return () => {
    tickListeners.delete(listener);
    if (tickListeners.size === 0 && tickTimer !== undefined) {
      clearInterval(tickTimer);
      tickTimer = undefined;
    }
  };
}

/**
 * The engine's clock now, updated every second. Rendered on the server, and hydrated, at the clock's
 * own time (the page's snapshot's `now`, as the server wrote it): the local tick counts from then on.
 */
export function useServerNow(): number {
  const local = useSyncExternalStore(subscribeTick, () => tick, noTick);
  const clock = useDashboard((s) => s.clock);
  return serverNow(clock, Math.max(local, clock.localNow));
}
