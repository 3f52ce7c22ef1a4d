/**
 * What can wake the app, in its details: the wake proxy's host names, access logs, must-be-up ranges
 * and manual wakes, with a warning when access logs are the only automatic one (that a request to a
 * stopped app appears in its access logs is unconfirmed), and the access-log wakes seen so far.
 */
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { WakeSources } from '../../../shared/api.ts';

type T = TFunction<['apps', 'common']>;

function proxyLine(t: T, proxy: WakeSources['proxy']): string {
  if (proxy.hosts.length === 0) return t('wakeSources.noHost');
  const hosts = proxy.hosts.join(', ');
  return proxy.listening ? t('wakeSources.throughProxy', { hosts }) : t('wakeSources.proxyDown', { hosts });
}

/**
 * The warning in the current language: the server sets it (shared/wake-sources.ts) when access logs
 * are the only automatic wake source, with the hosts the proxy does not listen for, if any.
 */
function warningText(t: T, sources: WakeSources): string {
  const only = t('wakeSources.onlyAccessLogs');
  const { hosts, listening } = sources.proxy;
  if (hosts.length === 0 || listening) return only;
  return `${t('wakeSources.proxyNotListening', { hosts: hosts.join(', ') })} ${only}`;
}

export function WakeSourcesSection({ sources }: { sources: WakeSources }) {
  const { t } = useTranslation(['apps', 'common']);
  const wakes = sources.accessLogWakes;
  return (
    <section aria-labelledby="wake-sources-heading">
      <h3 id="wake-sources-heading">{t('wakeSources.heading')}</h3>
      {sources.warning && (
        <p className="callout warn" role="note" aria-label={t('wakeSources.warningLabel')}>
          {warningText(t, sources)}
        </p>
      )}
      <dl className="facts">
        <dt>{t('wakeSources.proxy')}</dt>
        <dd>{proxyLine(t, sources.proxy)}</dd>
        <dt>{t('wakeSources.accessLogs')}</dt>
        <dd>
          {sources.accessLogs ? t('wakeSources.followed') : t('wakeSources.notFollowed')}
          {sources.accessLogs && (
            <span className="muted">
              {' '}
              · {wakes === 0 ? t('wakeSources.noWakes') : t('wakeSources.wakes', { count: wakes })}
            </span>
          )}
        </dd>
        <dt>{t('wakeSources.ranges')}</dt>
        <dd>{sources.ranges ? t('wakeSources.rangesWake') : t('wakeSources.noRanges')}</dd>
        <dt>{t('wakeSources.manual')}</dt>
        <dd>{t('wakeSources.manualHow')}</dd>
      </dl>
    </section>
  );
}
