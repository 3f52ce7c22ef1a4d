/** The states of an app over the last hours or days: a bar of coloured segments on a time axis. */
import { useMemo, useState } from 'react';
import { CONSOLE_LABELS, type HistoryEntry, REAPER_STATES, type ReaperState } from '../../shared/domain.ts';
import { DAY, HOUR } from '../../shared/durations.ts';
import { clockTime, fullTime, shortDuration } from '../lib/format.ts';

const hourFormat = new Intl.DateTimeFormat(undefined, {
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});
const dayFormat = new Intl.DateTimeFormat(undefined, { weekday: 'short', day: 'numeric' });
const hourLabel = (t: number) => hourFormat.format(t);
const dayLabel = (t: number) => dayFormat.format(t);

import { timelineSegments, timeTicks } from '../lib/timeline.ts';

const WINDOWS = [
  { label: '1 h', ms: HOUR },
  { label: '24 h', ms: DAY },
  { label: '7 d', ms: 7 * DAY },
];

export function Timeline(props: { history: readonly HistoryEntry[]; state: ReaperState; now: number }) {
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
        <figcaption>States over the last {WINDOWS.find((w) => w.ms === windowMs)?.label}</figcaption>
        <fieldset className="segmented">
          <legend className="visually-hidden">Time window</legend>
          {WINDOWS.map((w) => (
            <label key={w.label}>
              <input
                type="radio"
                name="timeline-window"
                checked={w.ms === windowMs}
                onChange={() => setWindowMs(w.ms)}
              />
              {w.label}
            </label>
          ))}
        </fieldset>
      </div>
      <svg
        className="timeline-bar"
        viewBox="0 0 100 10"
        preserveAspectRatio="none"
        role="img"
        aria-label={`Timeline: ${segments
          .map(
            (s) =>
              `${CONSOLE_LABELS[s.state]} from ${fullTime(s.start)} for ${shortDuration(s.end - s.start)}`,
          )
          .join('; ')}`}
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
            <title>{`${CONSOLE_LABELS[s.state]}: ${fullTime(s.start)} – ${fullTime(s.end)}`}</title>
          </rect>
        ))}
      </svg>
      <div className="timeline-axis" aria-hidden="true">
        {ticks.map((t) => (
          <span key={t} style={{ left: `${x(t)}%` }}>
            {windowMs > DAY ? dayLabel(t) : hourLabel(t)}
          </span>
        ))}
      </div>
      <ul className="timeline-legend">
        {REAPER_STATES.filter((s) => (totals.get(s) ?? 0) >= 1000).map((s) => (
          <li key={s}>
            <span className={`swatch fill-${s}`} aria-hidden="true" />
            {CONSOLE_LABELS[s]} {shortDuration(totals.get(s)!)}
          </li>
        ))}
        {known > from && <li className="muted">no history before {clockTime(known, props.now)}</li>}
      </ul>
    </figure>
  );
}
