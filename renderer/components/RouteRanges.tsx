/**
 * The route editor's must-be-up ranges: one line per range (weekdays, start, end, time zone) with its
 * problems as typed and as the engine found them, and the next transitions they make.
 */
import { memo, useMemo } from 'react';
import { MINUTE } from '../../shared/durations.ts';
import {
  ALWAYS_UP_TEXT,
  formatZoned,
  type MustBeUpRange,
  nextTransitions,
  rangeProblems,
} from '../../shared/schedule.ts';
import { localZone, type Problems } from '../lib/route-draft.ts';
import { useServerNow } from '../store/context.tsx';

export function RouteRanges({
  id,
  ranges,
  problems,
  update,
}: {
  id: string;
  ranges: MustBeUpRange[];
  problems: Problems;
  /** Change the draft's ranges from their latest value. */
  update: (change: (ranges: MustBeUpRange[]) => MustBeUpRange[]) => void;
}) {
  const now = useServerNow();
  const setRange = (i: number, patch: Partial<MustBeUpRange>) =>
    update((rs) => rs.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  const validRanges = useMemo(() => ranges.filter((r) => rangeProblems(r).length === 0), [ranges]);
  // The preview moves with the minute, not with every second.
  const minute = Math.floor(now / MINUTE) * MINUTE;
  const preview = useMemo(
    () => (validRanges.length ? nextTransitions(validRanges, minute, 6) : []),
    [validRanges, minute],
  );

  return (
    <>
      <span id={`${id}-ranges`}>Must-be-up ranges</span>
      <div>
        {ranges.length === 0 && <p className="muted">None: the grace period alone decides.</p>}
        <ul className="ranges" aria-labelledby={`${id}-ranges`}>
          {ranges.map((r, i) => {
            const live = rangeProblems(r);
            const server = Object.entries(problems)
              .filter(([f]) => f.startsWith(`ranges.${i}`))
              .flatMap(([, m]) => m);
            const n = i + 1;
            return (
              // biome-ignore lint/suspicious/noArrayIndexKey: ranges have no identity but their place
              <li key={i}>
                <input
                  aria-label={`Range ${n} weekdays`}
                  value={r.days}
                  placeholder="Mon-Fri"
                  size={9}
                  onChange={(e) => setRange(i, { days: e.target.value })}
                />
                <input
                  aria-label={`Range ${n} start`}
                  value={r.start}
                  placeholder="08:00"
                  size={5}
                  onChange={(e) => setRange(i, { start: e.target.value })}
                />
                <span aria-hidden="true">–</span>
                <input
                  aria-label={`Range ${n} end`}
                  value={r.end}
                  placeholder="19:00"
                  size={5}
                  onChange={(e) => setRange(i, { end: e.target.value })}
                />
                <input
                  aria-label={`Range ${n} time zone`}
                  value={r.timeZone}
                  list={`${id}-zones`}
                  size={16}
                  onChange={(e) => setRange(i, { timeZone: e.target.value })}
                />
                <button
                  type="button"
                  className="link"
                  onClick={() => update((rs) => rs.filter((_, j) => j !== i))}
                >
                  Remove<span className="visually-hidden"> range {n}</span>
                </button>
                {(live.length > 0 || server.length > 0) && (
                  <span className="field-error">{[...new Set([...live, ...server])].join('; ')}</span>
                )}
              </li>
            );
          })}
        </ul>
        <ZoneList id={`${id}-zones`} />
        <button
          type="button"
          onClick={() =>
            update((rs) => [...rs, { days: 'Mon-Fri', start: '08:00', end: '19:00', timeZone: localZone() }])
          }
        >
          Add a range
        </button>
        <span className="hint">
          Weekdays like Mon-Fri or Sun-Thu; an end before the start crosses midnight. The app is started when
          a range begins and never put to sleep inside one.
        </span>
        {validRanges.length > 0 && (
          <div className="preview" aria-live="polite">
            <strong>Next transitions</strong>
            {preview.length === 0 && <p className="muted">{ALWAYS_UP_TEXT}</p>}
            <ul className="plain transitions">
              {preview.map((t) => (
                <li key={t.at}>
                  {t.up ? 'up from' : 'may sleep from'} {formatZoned(t.at, validRanges[0]!.timeZone)}
                </li>
              ))}
            </ul>
          </div>
        )}
      </div>
    </>
  );
}

/** The IANA time zones, offered while typing a range's zone (rendered once). */
const ZoneList = memo(function ZoneList({ id }: { id: string }) {
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return (
    <datalist id={id}>
      {zones.map((z) => (
        <option key={z} value={z} />
      ))}
    </datalist>
  );
});
