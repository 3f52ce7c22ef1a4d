/**
 * The frame of the dashboard: header (navigation, state summary, account and mode, kill switch), the
 * banners that stay while something needs the operator (kill switch, dry-run, unchecked credentials,
 * a lost connection), the current view, the app details, and the notifications.
 */
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { shownToasts } from '../../lib/toasts.ts';
import { useDashboard } from '../../store/context.tsx';
import { AppsView } from '../apps/AppsView.tsx';
import { DiscardDialog } from '../common/DiscardDialog.tsx';
import { CloseIcon } from '../common/icons.tsx';
import { Banners } from './Banners.tsx';
import { Header } from './ShellHeader.tsx';

// The first screen is the apps table: every other view, the details panel and the first-run screen
// are chunks of their own, fetched when first shown (bench/dashboard.ts: first render).
const AppDetailPanel = lazy(() =>
  import('../apps/AppDetail.tsx').then((m) => ({ default: m.AppDetailPanel })),
);
const FirstRun = lazy(() => import('./FirstRun.tsx').then((m) => ({ default: m.FirstRun })));
const HistoryView = lazy(() =>
  import('../history/HistoryView.tsx').then((m) => ({ default: m.HistoryView })),
);
const RoutesView = lazy(() => import('../routes/RoutesView.tsx').then((m) => ({ default: m.RoutesView })));
const SavingsView = lazy(() =>
  import('../savings/SavingsView.tsx').then((m) => ({ default: m.SavingsView })),
);
const AuditView = lazy(() => import('../audit/AuditView.tsx').then((m) => ({ default: m.AuditView })));
const SettingsView = lazy(() =>
  import('../settings/SettingsView.tsx').then((m) => ({ default: m.SettingsView })),
);

/** While a view's chunk arrives (a few milliseconds from this server; longer on a slow link). */
function Pending() {
  const { t } = useTranslation('shell');
  return (
    <p className="pending" aria-busy="true">
      {t('loading')}
    </p>
  );
}

export function Shell() {
  const { t } = useTranslation('shell');
  const phase = useDashboard((s) => s.phase);
  const loadError = useDashboard((s) => s.loadError);
  const mode = useDashboard((s) => s.status?.mode);
  const view = useDashboard((s) => s.view);
  const selected = useDashboard((s) => s.selectedAppId);
  const reload = useDashboard((s) => s.reload);
  const perform = useDashboard((s) => s.perform);

  if (phase === 'loading') {
    return (
      <main className="centered" aria-busy="true">
        <p>{t('loadingReaper')}</p>
      </main>
    );
  }
  if (phase === 'failed') {
    return (
      <main className="centered">
        <div className="card">
          <h1>{t('failed.title')}</h1>
          <p className="danger">{loadError}</p>
          <button type="button" className="primary" onClick={() => perform(reload)}>
            {t('failed.retry')}
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
        {t('skip')}
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
          {view === 'audit' && <AuditView />}
          {view === 'settings' && <SettingsView />}
        </Suspense>
      </main>
      {view === 'apps' && selected && (
        <Suspense fallback={null}>
          <AppDetailPanel key={selected} appId={selected} />
        </Suspense>
      )}
      <Toasts />
      <DiscardDialog />
    </div>
  );
}

function Toasts() {
  const { t } = useTranslation('shell');
  const toasts = useDashboard((s) => s.toasts);
  const dismiss = useDashboard((s) => s.dismissToast);
  const { shown, more } = shownToasts(toasts);
  return (
    <section className="toasts" aria-label={t('toasts.label')} aria-live="polite">
      {shown.map((toast) => (
        <div
          key={toast.id}
          className={`toast ${toast.kind}`}
          role={toast.kind === 'info' ? 'status' : 'alert'}
        >
          <span>{toast.text}</span>
          <button
            type="button"
            className="icon"
            onClick={() => dismiss(toast.id)}
            aria-label={t('toasts.dismiss')}
          >
            <CloseIcon size={14} />
          </button>
        </div>
      ))}
      {more > 0 && (
        <div className="toast more">
          <span>{t('toasts.more', { count: more })}</span>
          <button
            type="button"
            className="link"
            onClick={() => {
              for (const toast of toasts) dismiss(toast.id);
            }}
          >
            {t('toasts.dismissAll')}
          </button>
        </div>
      )}
    </section>
  );
}
