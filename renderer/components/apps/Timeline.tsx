/** The states of an app over the last hours or days: a bar of coloured segments on a time axis. */
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type HistoryEntry, REAPER_STATES, type ReaperState } from '../../../shared/domain.ts';
import { DAY, HOUR } from '../../../shared/durations.ts';
import { clockTime, dayLabel, fullTime, hourLabel, shortDuration, stateLabel } from '../../lib/format.ts';
import { timelineSegments, timeTicks } from '../../lib/timeline.ts';

/** The windows, each written as a number of hours or days ("24 h", "7 d" / "7 j"). */
const WINDOWS = [
  { unit: 'hours', count: 1, ms: HOUR },
  { unit: 'hours', count: 24, ms: DAY },
  { unit: 'days', count: 7, ms: 7 * DAY },
] as const;

export function Timeline(props: { history: readonly HistoryEntry[]; state: ReaperState; now: number }) {
  const { t } = useTranslation(['apps', 'common']);
  const windowLabel = (w: (typeof WINDOWS)[number]) => t(`common:units.${w.unit}`, { count: w.count });
  // The smallest window that holds the whole known history, at first.
  const oldest = props.history.at(-1)?.at ?? props.now;
  const [chosen, setWindowMs] = useState<number | null>(null);
  const windowMs = chosen ?? (WINDOWS.find((w) => props.now - oldest <= w.ms) ?? WINDOWS.at(-1)!).ms;
  const from = props.now - windowMs;
  const segments = useMemo(
    () => timelineSegments(props.history, props.state, from, props.now),
    [props.history, props.state, from, props.now],
  );
  const ticks = useMemo(() => timeTicks(from, props.now, 6), [from, props.now]);
  const x = (t: number) => ((t - from) / windowMs) * 100;
  const totals = new Map<ReaperState, number>();
  for (const s of segments) totals.set(s.state, (totals.get(s.state) ?? 0) + s.end - s.start);
  const known = segments.length ? segments[0]!.start : props.now;

  return (
    <figure className="timeline">
      <div className="timeline-head">
        <figcaption>
          {t('timeline.caption', {
            window: windowLabel(WINDOWS.find((w) => w.ms === windowMs) ?? WINDOWS[0]),
          })}
        </figcaption>
        <fieldset className="segmented">
          <legend className="visually-hidden">{t('timeline.window')}</legend>
          {WINDOWS.map((w) => (
            <label key={w.ms}>
              <input
                type="radio"
                name="timeline-window"
                checked={w.ms === windowMs}
                onChange={() => setWindowMs(w.ms)}
              />
              {windowLabel(w)}
            </label>
          ))}
        </fieldset>
      </div>
      <svg
        className="timeline-bar"
        viewBox="0 0 100 10"
        preserveAspectRatio="none"
        role="img"
        aria-label={t('timeline.label', {
          segments: segments
            .map((s) =>
              t('timeline.segment', {
                state: stateLabel(s.state),
                start: fullTime(s.start),
                duration: shortDuration(s.end - s.start),
              }),
            )
            .join('; '),
        })}
      >
        <rect x="0" y="0" width="100" height="10" className="timeline-unknown" />
        {segments.map((s) => (
          <rect
            key={`${s.start}-${s.state}`}
            x={x(s.start)}
            y="0"
            width={Math.max(0.15, x(s.end) - x(s.start))}
            height="10"
            className={`fill-${s.state}`}
          >
            <title>
              {t('timeline.segmentTitle', {
                state: stateLabel(s.state),
                start: fullTime(s.start),
                end: fullTime(s.end),
              })}
            </title>
          </rect>
        ))}
      </svg>
      <div className="timeline-axis" aria-hidden="true">
        {ticks.map((tick) => (
          <span key={tick} style={{ left: `${x(tick)}%` }}>
            {windowMs > DAY ? dayLabel(tick) : hourLabel(tick)}
          </span>
        ))}
      </div>
      <ul className="timeline-legend">
        {REAPER_STATES.filter((s) => (totals.get(s) ?? 0) >= 1000).map((s) => (
          <li key={s}>
            <span className={`swatch fill-${s}`} aria-hidden="true" />
            {t('timeline.total', { state: stateLabel(s), duration: shortDuration(totals.get(s)!) })}
          </li>
        ))}
        {known > from && (
          <li className="muted">{t('timeline.noHistoryBefore', { time: clockTime(known, props.now) })}</li>
        )}
      </ul>
    </figure>
  );
}
