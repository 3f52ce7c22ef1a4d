/** What the app's details list: start and stop durations, traffic, and the history as a list. */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AppTrafficView, AppDetail as Detail } from '../../../shared/api.ts';
import type { HistoryEntry, TrafficSource } from '../../../shared/domain.ts';
import { formatDuration, fullTime, kindLabel, sourceLabel, stateLabel } from '../../lib/format.ts';
import { reasonText } from '../../lib/reasons.ts';

/** The median and worst of the last 20 starts and stops: what a visitor of the waking page is told. */
export function Durations({ durations }: { durations: Detail['durations'] }) {
  const { t } = useTranslation('apps');
  const line = (s: Detail['durations']['start']) =>
    s.count === 0 || s.medianMs === null || s.worstMs === null
      ? t('facts.noneYet')
      : t('facts.durations', {
          median: formatDuration(s.medianMs),
          worst: formatDuration(s.worstMs),
          count: s.count,
        });
  return (
    <>
      <dt>{t('facts.starts')}</dt>
      <dd>{line(durations.start)}</dd>
      <dt>{t('facts.stops')}</dt>
      <dd>{line(durations.stop)}</dd>
    </>
  );
}

/** What counted as traffic, and what the route's filters ignored, and why. */
export function TrafficSection({ traffic }: { traffic: AppTrafficView }) {
  const { t } = useTranslation('apps');
  const ignored = Object.entries(traffic.ignored).sort((a, b) => b[1] - a[1]);
  const sources = Object.entries(traffic.bySource) as [TrafficSource, number][];
  return (
    <section aria-labelledby="traffic-heading">
      <h3 id="traffic-heading">{t('facts.traffic')}</h3>
      <p>
        {traffic.counted === 0
          ? t('facts.noRequest')
          : t('facts.counted', {
              count: traffic.counted,
              sources: sources
                .map(([source, n]) => t('facts.fromSource', { count: n, source: sourceLabel(source) }))
                .join(', '),
            })}
        {traffic.accessLog && (
          <span className="muted">
            {' '}
            {traffic.accessLog.connected ? t('facts.accessLogFollowed') : t('facts.accessLogReconnecting')}
          </span>
        )}
        {traffic.connections.open > 0 && (
          <span className="muted">
            {' '}
            {t('facts.openConnections', {
              count: traffic.connections.open,
              inUse: traffic.connections.inUse,
            })}
          </span>
        )}
      </p>
      {ignored.length > 0 && (
        <>
          <p className="muted">{t('facts.ignored')}</p>
          <ul className="plain">
            {ignored.map(([reason, n]) => (
              <li key={reason}>{t('facts.ignoredLine', { count: n, reason })}</li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

export function HistoryList({ entries }: { entries: readonly HistoryEntry[] }) {
  const { t } = useTranslation(['apps', 'common']);
  const [shown, setShown] = useState(100);
  if (entries.length === 0) return <p className="muted">{t('facts.noHistory')}</p>;
  return (
    <>
      <ol className="history" aria-label={t('facts.historyLabel')}>
        {entries.slice(0, shown).map((h, i) => (
          <li key={h.id ?? `${h.at}-${i}`} className={`kind-${h.kind}`}>
            <time dateTime={new Date(h.at).toISOString()}>{fullTime(h.at)}</time>
            <span className="what">
              {h.from !== null || h.to !== null ? (
                <>
                  {h.kind !== 'transition' && (
                    <span className="kind">{t('facts.kind', { kind: kindLabel(h.kind) })}</span>
                  )}
                  {h.from ? `${stateLabel(h.from)} → ` : '→ '}
                  {h.to ? stateLabel(h.to) : t('facts.released')}
                </>
              ) : (
                <span className="kind">{kindLabel(h.kind)}</span>
              )}
            </span>
            <span className={`actor actor-${h.actor}`}>{t(`common:actors.${h.actor}`)}</span>
            {h.by && (
              <span className="by">
                {' '}
                {t('common:byPerson', { name: h.by.name, via: t(`common:vias.${h.by.via}`) })}
              </span>
            )}
            <span className="reason">{reasonText(h.reason)}</span>
          </li>
        ))}
      </ol>
      {entries.length > shown && (
        <button type="button" className="link" onClick={() => setShown(shown + 200)}>
          {t('facts.older', { count: entries.length - shown })}
        </button>
      )}
    </>
  );
}
