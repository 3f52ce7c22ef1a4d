/** The dashboard: picks its API (IPC bridge or HTTP), builds the store, and shows the shell. */
import { type ReactNode, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { Snapshot } from '../shared/api.ts';
import type { SessionInfo } from '../shared/people.ts';
import type { DashboardApi } from './api/dashboard-api.ts';
import type { Picked } from './api/pick-api.ts';
import { markSignedIn, type SessionAnswer, type SignInFailure } from './api/session.ts';
import './i18n.ts';
import { useConsoleState } from './components/settings/TeamServer.tsx';
import { Shell } from './components/shell/Shell.tsx';
import { TokenScreen } from './components/shell/TokenScreen.tsx';
import { bindUrl } from './lib/url-binding.ts';
import { type Access, AccessProvider, accessOfConsole } from './store/access.tsx';
import { DashboardProvider } from './store/context.tsx';
import { createDashboardStore } from './store/dashboard-store.ts';

export function App({
  api,
  onUnauthorized,
  first,
}: {
  api: DashboardApi;
  onUnauthorized?: () => void;
  /** The snapshot of the page's server-rendered first screen (renderer/ssr.tsx), to hydrate with. */
  first?: Snapshot | undefined;
}) {
  const store = useMemo(() => createDashboardStore(api, first), [api, first]);
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
      {api.console ? (
        <TeamAccess>
          <Shell />
        </TeamAccess>
      ) : (
        <Shell />
      )}
    </DashboardProvider>
  );
}

/**
 * The desktop app: on a team server, the person its token names (the header says who, a viewer's
 * controls are disabled with the reason, as in the browser); on its own engine, everything.
 */
function TeamAccess({ children }: { children: ReactNode }) {
  const state = useConsoleState();
  const access = useMemo(() => accessOfConsole(state), [state]);
  return <AccessProvider value={access}>{children}</AccessProvider>;
}

/** What the server rendered the first screen with (renderer/ssr.tsx): the page hydrates with it. */
export interface FirstScreen {
  snapshot: Snapshot;
  session: SessionInfo;
}

/**
 * The dashboard of the desktop (its bridge) or of the headless server (HTTP, signed in). `first`:
 * the server rendered it signed in, with that snapshot; `onHydrated` is called once it is committed.
 */
export function BrowserApp({
  initial,
  first,
  onHydrated,
}: {
  initial: Picked;
  first?: FirstScreen | undefined;
  onHydrated?: () => void;
}) {
  useEffect(() => onHydrated?.(), [onHydrated]);
  if ('api' in initial) return <App api={initial.api} />;
  return <SignedIn http={initial.http} session={initial.session} first={first} />;
}

type SignInState =
  | { kind: 'checking' }
  | { kind: 'in'; info: SessionInfo }
  /** `kept`: the dashboard stays under the token screen (the session ended while in use). */
  | { kind: 'out'; failure: SignInFailure; kept: boolean };

/**
 * The browser dashboard: shown at once while "who am I" is on its way (its answer usually comes
 * before the snapshot's); the token screen when the browser is not signed in. A session that ends
 * while in use (expired, revoked, signed out in another tab) brings the token screen over the
 * dashboard, which stays as it was: once signed in again, what was typed is still there.
 */
function SignedIn({
  http,
  session,
  first,
}: {
  http: DashboardApi;
  session: Promise<SessionAnswer>;
  first?: FirstScreen | undefined;
}) {
  const control = http.session;
  if (!control) throw new Error('the HTTP client has no session');
  const [state, setState] = useState<SignInState>(() =>
    first ? { kind: 'in', info: first.session } : { kind: 'checking' },
  );
  const [generation, setGeneration] = useState(0);
  const current = useRef(state);
  current.current = state;
  useEffect(() => {
    let live = true;
    const take = (answer: SessionAnswer) => {
      if (!live) return;
      if (answer.ok) {
        control.adopt(answer.info);
        setState({ kind: 'in', info: answer.info });
      } else setState({ kind: 'out', failure: answer.failure, kept: false });
    };
    session.then(take, (error: unknown) =>
      take({ ok: false, failure: { kind: 'unavailable', message: String(error) } }),
    );
    return () => {
      live = false;
    };
  }, [session, control]);
  const onUnauthorized = useCallback(() => {
    if (current.current.kind !== 'in') return;
    markSignedIn(false);
    setState({ kind: 'out', failure: { kind: 'ended' }, kept: true });
  }, []);
  const signOut = useCallback(async () => {
    await control.signOut();
    markSignedIn(false);
    setState({ kind: 'out', failure: { kind: 'none' }, kept: false });
  }, [control]);
  const access: Access = useMemo(
    () => (state.kind === 'in' ? { kind: 'person', info: state.info, signOut } : { kind: 'checking' }),
    [state, signOut],
  );
  const screen = (failure: SignInFailure, kept: boolean) => (
    <TokenScreen
      failure={failure}
      signIn={(token) => control.signIn(token)}
      onSignedIn={(info) => {
        if (!kept) setGeneration((g) => g + 1);
        setState({ kind: 'in', info });
      }}
    />
  );
  if (state.kind === 'out' && !state.kept) return screen(state.failure, false);
  const dashboard = (
    <AccessProvider value={access}>
      <App
        key={generation}
        api={http}
        onUnauthorized={onUnauthorized}
        first={generation === 0 ? first?.snapshot : undefined}
      />
    </AccessProvider>
  );
  if (state.kind !== 'out') return dashboard;
  return (
    <>
      <div inert aria-hidden="true">
        {dashboard}
      </div>
      <div className="session-overlay">{screen(state.failure, true)}</div>
    </>
  );
}
