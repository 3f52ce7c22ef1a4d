/** The dashboard: picks its API (IPC bridge or HTTP), builds the store, and shows the shell. */
import { useEffect, useLayoutEffect, useMemo, useState } from 'react';
import type { DashboardApi } from './api/dashboard-api.ts';
import { createHttpClient } from './api/http-client.ts';
import { forgetToken, saveToken } from './api/token.ts';
import './i18n.ts';
import { Shell } from './components/shell/Shell.tsx';
import { TokenScreen } from './components/shell/TokenScreen.tsx';
import { bindUrl } from './lib/url-binding.ts';
import { DashboardProvider } from './store/context.tsx';
import { createDashboardStore } from './store/dashboard-store.ts';

export function App({ api, onUnauthorized }: { api: DashboardApi; onUnauthorized?: () => void }) {
  const store = useMemo(() => createDashboardStore(api), [api]);
  // A layout effect: the snapshot and the event stream are asked for as soon as the shell is
  // committed, not after its first paint (bench/dashboard.ts: first render).
  useLayoutEffect(() => store.getState().start(), [store]);
  // The view, the open app and the filters live in the URL fragment (reload, Back, a pasted link).
  useLayoutEffect(() => bindUrl(store, window), [store]);
  useEffect(() => {
    if (!onUnauthorized) return;
    return store.subscribe((s) => {
      if (s.connection === 'unauthorized') onUnauthorized();
    });
  }, [store, onUnauthorized]);
  return (
    <DashboardProvider api={api} store={store}>
      <Shell />
    </DashboardProvider>
  );
}

/** The browser dashboard of the headless server: asks for the token when it has none (or a refused one). */
export function BrowserApp({ initial }: { initial: { api: DashboardApi } | { needsToken: true } }) {
  const [api, setApi] = useState<DashboardApi | null>('api' in initial ? initial.api : null);
  const [refused, setRefused] = useState(false);
  if (!api) {
    return (
      <TokenScreen
        refused={refused}
        onToken={(token) => {
          saveToken(window.sessionStorage, token);
          setRefused(false);
          setApi(createHttpClient({ baseUrl: '', token }));
        }}
      />
    );
  }
  // The desktop (a console of a team server) says a refused token in its banner and its Settings.
  if (api.console) return <App api={api} />;
  return (
    <App
      api={api}
      onUnauthorized={() => {
        forgetToken(window.sessionStorage);
        setRefused(true);
        setApi(null);
      }}
    />
  );
}
