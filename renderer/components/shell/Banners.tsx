/**
 * The banners under the header: what stays true until the operator acts (Clever Cloud's problems,
 * the kill switch, dry-run, credentials not yet checked, a lost connection, an owner Clever Cloud
 * could not be read for), and after connecting an account, the proposal of a first day in dry-run.
 */

import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { credentialsUnchecked } from '../../lib/credentials.ts';
import { clockTime, ownerLabel } from '../../lib/format.ts';
import { useDashboard } from '../../store/context.tsx';
import { useConsoleState } from '../settings/TeamServer.tsx';

const FirstDay = lazy(() => import('./FirstDay.tsx').then((m) => ({ default: m.FirstDay })));

export function Banners() {
  const { t } = useTranslation(['shell', 'common']);
  const settings = useDashboard((s) => s.settings);
  const setSwitch = useDashboard((s) => s.setSwitch);
  const perform = useDashboard((s) => s.perform);
  const setView = useDashboard((s) => s.setView);
  const connection = useDashboard((s) => s.connection);
  const unreachable = useDashboard((s) => s.unreachable);
  const status = useDashboard((s) => s.status);
  const firstDay = useDashboard((s) => s.firstDay);
  const apps = useDashboard((s) => s.apps);
  const team = useConsoleState();
  const server = team?.mode === 'team' ? team.host : null;
  const problems = status?.problems ?? [];
  const ownerName = (ownerId: string) =>
    ownerLabel({ ownerId, ownerName: Object.values(apps).find((a) => a.ownerId === ownerId)?.ownerName });
  const lost =
    connection === 'reconnecting' || connection === 'unauthorized'
      ? server
        ? connection === 'unauthorized'
          ? t('banner.teamRefused', { server })
          : t('banner.teamLost', { server })
        : connection === 'unauthorized'
          ? t('banner.refused')
          : t('banner.lost')
      : null;
  return (
    <div className="banners">
      {problems.map((problem) => (
        <div key={problem} className="banner danger" role="alert">
          {problem}
        </div>
      ))}
      {credentialsUnchecked(status) && (
        <div className="banner warn" role="alert" data-testid="unchecked-banner">
          <span>
            <strong>{t('banner.unchecked')}</strong>{' '}
            {t('banner.uncheckedText', {
              problem: status?.credentials.problem ?? t('banner.uncheckedNoProblem'),
            })}
          </span>
          <button type="button" onClick={() => setView('settings')}>
            {t('banner.openSettings')}
          </button>
        </div>
      )}
      {settings?.killSwitch && (
        <div className="banner danger" role="status">
          <span>
            <strong>{t('banner.killSwitch')}</strong> {t('banner.killSwitchText')}{' '}
            {settings.killSwitchOn && (
              <span data-testid="kill-switch-by">
                {settings.killSwitchOn.by
                  ? t('banner.killSwitchBy', {
                      time: clockTime(settings.killSwitchOn.at, Date.now()),
                      name: settings.killSwitchOn.by.name,
                      via: t(`common:vias.${settings.killSwitchOn.by.via}`),
                    })
                  : t('banner.killSwitchSince', { time: clockTime(settings.killSwitchOn.at, Date.now()) })}
              </span>
            )}
          </span>
          <button type="button" onClick={() => perform(() => setSwitch('killSwitch', false))}>
            {t('banner.killSwitchOff')}
          </button>
        </div>
      )}
      {settings?.dryRun && (
        <div className="banner warn" role="status">
          <span>
            <strong>{t('banner.dryRun')}</strong> {t('banner.dryRunText')}
          </span>
          <button type="button" onClick={() => perform(() => setSwitch('dryRun', false))}>
            {t('banner.dryRunOff')}
          </button>
        </div>
      )}
      {lost && (
        <div className="banner warn" role="alert">
          {lost}
        </div>
      )}
      {Object.entries(unreachable).map(([ownerId, u]) => (
        <div key={ownerId} className="banner warn" role="status">
          {t('banner.unreachable', { owner: ownerName(ownerId), message: u.message })}
        </div>
      ))}
      {firstDay && status?.mode === 'account' && settings && !settings.dryRun && (
        <Suspense fallback={null}>
          <FirstDay />
        </Suspense>
      )}
    </div>
  );
}
