/**
 * The header of every view: the navigation, the apps by state, which account and which reaper the
 * dashboard shows (always visible), the kill switch, and the connection.
 */

import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { countByState } from '../../../shared/app-view.ts';
import { STATES_BY_URGENCY } from '../../../shared/domain.ts';
import { formatRoute } from '../../../shared/nav-route.ts';
import { credentialsUnchecked } from '../../lib/credentials.ts';
import { formatNumber } from '../../lib/format.ts';
import { plainClick } from '../../lib/url-binding.ts';
import { useDashboard } from '../../store/context.tsx';
import type { View } from '../../store/dashboard-store.ts';
import { Logo, StateIcon } from '../common/icons.tsx';
import { ModeLabel } from '../settings/TeamServer.tsx';
import { KillSwitchButton } from './KillSwitch.tsx';
import { SignedInAs } from './SignedInAs.tsx';

const NAV: readonly View[] = ['apps', 'history', 'savings', 'routes', 'audit', 'settings'];

export function Header() {
  const { t } = useTranslation(['shell', 'common']);
  const view = useDashboard((s) => s.view);
  const setView = useDashboard((s) => s.setView);
  const setFilters = useDashboard((s) => s.setFilters);
  const apps = useDashboard((s) => s.apps);
  const routes = useDashboard((s) => s.routes.length);
  const counts = useMemo(() => countByState(Object.values(apps)), [apps]);
  return (
    <header className="header">
      <div className="brand">
        <Logo />
        <span>Clever Reaper</span>
      </div>
      <nav aria-label={t('nav.label')}>
        {NAV.map((n) => (
          // A link to the view's place (middle-click or Ctrl-click opens it in a new tab); a plain
          // click stays in the page.
          <a
            key={n}
            href={formatRoute({ view: n, id: null, params: {} })}
            className={`tab ${view === n ? 'current' : ''}`}
            aria-current={view === n ? 'page' : undefined}
            onClick={(e) => {
              if (!plainClick(e)) return;
              e.preventDefault();
              setView(n);
            }}
          >
            {t(`nav.${n}`)}
            {n === 'apps' && <span className="pill">{formatNumber(Object.keys(apps).length)}</span>}
            {n === 'routes' && <span className="pill">{formatNumber(routes)}</span>}
          </a>
        ))}
      </nav>
      <ul className="summary" aria-label={t('summary.label')}>
        {STATES_BY_URGENCY.filter((s) => counts[s] > 0).map((s) => (
          <li key={s}>
            <button
              type="button"
              className={`chip state-${s}`}
              title={t('summary.show', { state: t(`common:states.${s}`) })}
              onClick={() => {
                setView('apps');
                setFilters({ state: s, errorsOnly: false });
              }}
            >
              <StateIcon state={s} size={12} />
              <span className="visually-hidden">
                {t('summary.state', { state: t(`common:states.${s}`) })}
              </span>
              {formatNumber(counts[s])}
            </button>
          </li>
        ))}
      </ul>
      <div className="status">
        <Where />
        <SignedInAs />
        <KillSwitchButton />
        <Connection />
      </div>
    </header>
  );
}

/** The account the reaper acts as, and where it runs (this computer, a server, a team server, the demo). */
function Where() {
  const { t } = useTranslation(['shell', 'common']);
  const status = useDashboard((s) => s.status);
  if (!status) return null;
  const account = status.credentials.account;
  const unchecked = credentialsUnchecked(status);
  const shown = unchecked
    ? t('where.unchecked')
    : (account ?? (status.credentials.state === 'connected' ? t('where.unnamed') : t('where.noAccount')));
  return (
    <span className="where-group" data-testid="where">
      {status.mode === 'demo' && (
        <span className="mode demo-label" title={t('where.demoTitle')}>
          {status.timeScale !== 1 ? t('where.demoScaled', { scale: status.timeScale }) : t('where.demo')}
        </span>
      )}
      <ModeLabel />
      {(status.mode !== 'demo' || account) && (
        <span
          className={`account${unchecked ? ' warn' : ''}`}
          title={t('where.accountTitle', { account: shown })}
          data-testid="account-label"
        >
          {shown}
        </span>
      )}
    </span>
  );
}

/** Live, reconnecting, refused; never "Live" while the credentials are not checked yet. */
function Connection() {
  const { t } = useTranslation(['shell', 'common']);
  const connection = useDashboard((s) => s.connection);
  const unchecked = useDashboard((s) => credentialsUnchecked(s.status));
  const shown = connection === 'live' && unchecked ? 'unchecked' : connection;
  const text =
    shown === 'live'
      ? t('common:connection.live')
      : shown === 'unchecked'
        ? t('connection.unchecked')
        : shown === 'unauthorized'
          ? t('common:connection.unauthorized')
          : t('common:connection.reconnecting');
  return (
    <span className={`connection ${shown}`} role="status">
      <span className="dot" aria-hidden="true" />
      {text}
    </span>
  );
}
