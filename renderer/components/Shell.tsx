/**
 * The frame of the dashboard: header with navigation and the state summary, the banners that stay
 * while the kill switch or dry-run is on (or the connection is lost), the current view, the app
 * details, and the notifications.
 */
import { lazy, Suspense, useMemo } from 'react';
import { countByState } from '../../shared/app-view.ts';
import { CONSOLE_LABELS, STATES_BY_URGENCY } from '../../shared/domain.ts';
import { useDashboard } from '../store/context.tsx';
import type { View } from '../store/dashboard-store.ts';
import { AppsView } from './AppsView.tsx';
import { CloseIcon, Logo, StateIcon } from './icons.tsx';
import { ModeLabel, useConsoleState } from './TeamServer.tsx';

// The first screen is the apps table: every other view, the details panel and the first-run screen
// are chunks of their own, fetched when first shown (bench/dashboard.ts: first render).
const AppDetailPanel = lazy(() => import('./AppDetail.tsx').then((m) => ({ default: m.AppDetailPanel })));
const FirstRun = lazy(() => import('./FirstRun.tsx').then((m) => ({ default: m.FirstRun })));
const HistoryView = lazy(() => import('./HistoryView.tsx').then((m) => ({ default: m.HistoryView })));
const RoutesView = lazy(() => import('./RoutesView.tsx').then((m) => ({ default: m.RoutesView })));
const SavingsView = lazy(() => import('./SavingsView.tsx').then((m) => ({ default: m.SavingsView })));
const SettingsView = lazy(() => import('./SettingsView.tsx').then((m) => ({ default: m.SettingsView })));

/** While a view's chunk arrives (a few milliseconds from this server; longer on a slow link). */
function Pending() {
  return (
    <p className="pending" aria-busy="true">
      Loading…
    </p>
  );
}

export function Shell() {
  const phase = useDashboard((s) => s.phase);
  const loadError = useDashboard((s) => s.loadError);
  const mode = useDashboard((s) => s.status?.mode);
  const view = useDashboard((s) => s.view);
  const selected = useDashboard((s) => s.selectedAppId);
  const reload = useDashboard((s) => s.reload);

  if (phase === 'loading') {
    return (
      <main className="centered" aria-busy="true">
        <p>Loading the reaper…</p>
      </main>
    );
  }
  if (phase === 'failed') {
    return (
      <main className="centered">
        <div className="card">
          <h1>The reaper cannot be reached</h1>
          <p className="danger">{loadError}</p>
          <button type="button" className="primary" onClick={() => void reload()}>
            Try again
          </button>
        </div>
        <Toasts />
      </main>
    );
  }
  if (mode === 'disconnected') {
    return (
      <Suspense fallback={<Pending />}>
        <FirstRun />
      </Suspense>
    );
  }

  return (
    <div className="shell">
      <a className="skip" href="#main">
        Skip to the content
      </a>
      <Header />
      <Banners />
      <main
        id="main"
        tabIndex={-1}
        className={`main view-${view}${view === 'apps' && selected ? ' with-drawer' : ''}`}
      >
        {view === 'apps' && <AppsView />}
        <Suspense fallback={<Pending />}>
          {view === 'history' && <HistoryView />}
          {view === 'savings' && <SavingsView />}
          {view === 'routes' && <RoutesView />}
          {view === 'settings' && <SettingsView />}
        </Suspense>
      </main>
      {view === 'apps' && selected && (
        <Suspense fallback={null}>
          <AppDetailPanel key={selected} appId={selected} />
        </Suspense>
      )}
      <Toasts />
    </div>
  );
}

const NAV: { view: View; label: string }[] = [
  { view: 'apps', label: 'Apps' },
  { view: 'history', label: 'History' },
  { view: 'savings', label: 'Savings' },
  { view: 'routes', label: 'Routes' },
  { view: 'settings', label: 'Settings' },
];

function Header() {
  const view = useDashboard((s) => s.view);
  const setView = useDashboard((s) => s.setView);
  const setFilters = useDashboard((s) => s.setFilters);
  const apps = useDashboard((s) => s.apps);
  const routes = useDashboard((s) => s.routes.length);
  const status = useDashboard((s) => s.status);
  const connection = useDashboard((s) => s.connection);
  const counts = useMemo(() => countByState(Object.values(apps)), [apps]);
  return (
    <header className="header">
      <div className="brand">
        <Logo />
        <span>Clever Reaper</span>
      </div>
      <nav aria-label="Views">
        {NAV.map((n) => (
          <button
            key={n.view}
            type="button"
            className={`tab ${view === n.view ? 'current' : ''}`}
            aria-current={view === n.view ? 'page' : undefined}
            onClick={() => setView(n.view)}
          >
            {n.label}
            {n.view === 'apps' && <span className="pill">{Object.keys(apps).length}</span>}
            {n.view === 'routes' && <span className="pill">{routes}</span>}
          </button>
        ))}
      </nav>
      <ul className="summary" aria-label="Apps by state">
        {STATES_BY_URGENCY.filter((s) => counts[s] > 0).map((s) => (
          <li key={s}>
            <button
              type="button"
              className={`chip state-${s}`}
              title={`Show the apps ${CONSOLE_LABELS[s]}`}
              onClick={() => {
                setView('apps');
                setFilters({ state: s, errorsOnly: false });
              }}
            >
              <StateIcon state={s} size={12} />
              <span className="visually-hidden">{CONSOLE_LABELS[s]}:</span>
              {counts[s]}
            </button>
          </li>
        ))}
      </ul>
      <div className="status">
        <ModeLabel />
        {status?.mode === 'demo' && (
          <span className="mode" title="The embedded simulator stands in for Clever Cloud">
            Demo{status.timeScale !== 1 ? ` · time ×${status.timeScale}` : ''}
          </span>
        )}
        <span className={`connection ${connection}`} role="status">
          <span className="dot" aria-hidden="true" />
          {connection === 'live' ? 'Live' : connection === 'unauthorized' ? 'Token refused' : 'Reconnecting…'}
        </span>
      </div>
    </header>
  );
}

function Banners() {
  const settings = useDashboard((s) => s.settings);
  const setSwitch = useDashboard((s) => s.setSwitch);
  const connection = useDashboard((s) => s.connection);
  const unreachable = useDashboard((s) => s.unreachable);
  const problems = useDashboard((s) => s.status?.problems ?? []);
  const apps = useDashboard((s) => s.apps);
  const team = useConsoleState();
  const server = team?.mode === 'team' ? team.host : null;
  const ownerName = (ownerId: string) =>
    Object.values(apps).find((a) => a.ownerId === ownerId)?.ownerName ?? ownerId;
  return (
    <div className="banners">
      {problems.map((problem) => (
        <div key={problem} className="banner danger" role="alert">
          {problem}
        </div>
      ))}
      {settings?.killSwitch && (
        <div className="banner danger" role="status">
          <strong>Kill switch on:</strong> no app is put to sleep. Wakes still happen.
          <button type="button" onClick={() => void setSwitch('killSwitch', false)}>
            Turn the kill switch off
          </button>
        </div>
      )}
      {settings?.dryRun && (
        <div className="banner warn" role="status">
          <strong>Dry-run:</strong> each sleep the reaper would do is recorded in the history; nothing is
          stopped.
          <button type="button" onClick={() => void setSwitch('dryRun', false)}>
            Turn dry-run off
          </button>
        </div>
      )}
      {(connection === 'reconnecting' || connection === 'unauthorized') && (
        <div className="banner warn" role="alert">
          {server
            ? connection === 'unauthorized'
              ? `The team server ${server} refused the admin token: connect again with a valid one (Settings, Team server).`
              : `Disconnected from the team server ${server}: reconnecting… (what you see may be out of date)`
            : connection === 'unauthorized'
              ? 'The admin token was refused: open the URL the server printed, or paste the token again.'
              : 'The connection to the reaper is lost: reconnecting… (what you see may be out of date)'}
        </div>
      )}
      {Object.entries(unreachable).map(([ownerId, u]) => (
        <div key={ownerId} className="banner warn" role="status">
          Clever Cloud could not be read for {ownerName(ownerId)}: {u.message}
        </div>
      ))}
    </div>
  );
}

function Toasts() {
  const toasts = useDashboard((s) => s.toasts);
  const dismiss = useDashboard((s) => s.dismissToast);
  return (
    <section className="toasts" aria-label="Notifications" aria-live="polite">
      {toasts.map((t) => (
        <div key={t.id} className={`toast ${t.kind}`} role={t.kind === 'info' ? 'status' : 'alert'}>
          <span>{t.text}</span>
          <button type="button" className="icon" onClick={() => dismiss(t.id)} aria-label="Dismiss">
            <CloseIcon size={14} />
          </button>
        </div>
      ))}
    </section>
  );
}
