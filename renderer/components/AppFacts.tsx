/** What the app's details list: start and stop durations, traffic, and the history as a list. */
import { useState } from 'react';
import type { AppTrafficView, AppDetail as Detail } from '../../shared/api.ts';
import { CONSOLE_LABELS, type HistoryEntry, type TrafficSource } from '../../shared/domain.ts';
import { formatDuration } from '../../shared/durations.ts';
import { fullTime, KIND_LABELS, SOURCE_LABELS } from '../lib/format.ts';

/** The median and worst of the last 20 starts and stops: what a visitor of the waking page is told. */
export function Durations({ durations }: { durations: Detail['durations'] }) {
  const line = (s: Detail['durations']['start']) =>
    s.count === 0 || s.medianMs === null || s.worstMs === null
      ? 'none yet'
      : `usually ${formatDuration(s.medianMs)}, at worst ${formatDuration(s.worstMs)} (last ${s.count})`;
  return (
    <>
      <dt>Starts</dt>
      <dd>{line(durations.start)}</dd>
      <dt>Stops</dt>
      <dd>{line(durations.stop)}</dd>
    </>
  );
}

/** What counted as traffic, and what the route's filters ignored, and why. */
export function TrafficSection({ traffic }: { traffic: AppTrafficView }) {
  const ignored = Object.entries(traffic.ignored).sort((a, b) => b[1] - a[1]);
  const sources = Object.entries(traffic.bySource) as [TrafficSource, number][];
  return (
    <section aria-labelledby="traffic-heading">
      <h3 id="traffic-heading">Traffic since the reaper started</h3>
      <p>
        {traffic.counted === 0
          ? 'No request counted yet.'
          : `${traffic.counted} request${traffic.counted === 1 ? '' : 's'} counted (${sources
              .map(([source, n]) => `${n} from ${SOURCE_LABELS[source]}`)
              .join(', ')}).`}
        {traffic.accessLog && (
          <span className="muted">
            {' '}
            Access log {traffic.accessLog.connected ? 'followed' : 'reconnecting'}.
          </span>
        )}
      </p>
      {ignored.length > 0 && (
        <>
          <p className="muted">
            Ignored by the route's filters (monitors and health checks do not keep it awake):
          </p>
          <ul className="plain">
            {ignored.map(([reason, n]) => (
              <li key={reason}>
                {n} × {reason}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

export function HistoryList({ entries }: { entries: readonly HistoryEntry[] }) {
  const [shown, setShown] = useState(100);
  if (entries.length === 0) return <p className="muted">No history yet.</p>;
  return (
    <>
      <ol className="history" aria-label="Transitions and actions, newest first">
        {entries.slice(0, shown).map((h, i) => (
          <li key={h.id ?? `${h.at}-${i}`} className={`kind-${h.kind}`}>
            <time dateTime={new Date(h.at).toISOString()}>{fullTime(h.at)}</time>
            <span className="what">
              {h.from !== null || h.to !== null ? (
                <>
                  {h.kind !== 'transition' && <span className="kind">{KIND_LABELS[h.kind]}: </span>}
                  {h.from ? `${CONSOLE_LABELS[h.from]} → ` : '→ '}
                  {h.to ? CONSOLE_LABELS[h.to] : 'released'}
                </>
              ) : (
                <span className="kind">{KIND_LABELS[h.kind]}</span>
              )}
            </span>
            <span className={`actor actor-${h.actor}`}>{h.actor}</span>
            <span className="reason">{h.reason}</span>
          </li>
        ))}
      </ol>
      {entries.length > shown && (
        <button type="button" className="link" onClick={() => setShown(shown + 200)}>
          Show older entries ({entries.length - shown} more)
        </button>
      )}
    </>
  );
}
