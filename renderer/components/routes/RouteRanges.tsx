/**
 * The route editor's must-be-up ranges: one line per range (weekdays, start, end, time zone) with its
 * problems, as typed and as the engine found them, said once each, and the next transitions they make.
 */

import { memo, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { MINUTE } from '../../../shared/durations.ts';
import { formatZoned, type MustBeUpRange, nextTransitions, rangeProblems } from '../../../shared/schedule.ts';
import type { FieldProblem } from '../../../shared/validation.ts';
import { localZone, type Problems } from '../../lib/route-draft.ts';
import { weekdaysShown, weekdaysTyped } from '../../lib/weekdays.ts';
import { useServerNow } from '../../store/context.tsx';
import { distinct } from '../common/use-editor-form.tsx';

/** The problems of range `i` as typed, on their fields (`ranges.0.start`). */
function liveProblems(range: MustBeUpRange, i: number): FieldProblem[] {
  return rangeProblems(range).map((p) => ({
    field: `ranges.${i}.${p.field}`,
    code: p.code,
    params: p.params,
    message: '',
  }));
}

export function RouteRanges({
  id,
  ranges,
  problems,
  text,
  update,
}: {
  id: string;
  ranges: MustBeUpRange[];
  problems: Problems;
  /** A problem in the language shown. */
  text: (problem: FieldProblem) => string;
  /** Change the draft's ranges from their latest value. */
  update: (change: (ranges: MustBeUpRange[]) => MustBeUpRange[]) => void;
}) {
  const { t, i18n } = useTranslation('routes');
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
      <span id={`${id}-ranges`}>{t('ranges.title')}</span>
      <div>
        {ranges.length === 0 && <p className="muted">{t('ranges.none')}</p>}
        <ul className="ranges" aria-labelledby={`${id}-ranges`}>
          {ranges.map((r, i) => {
            const server = Object.entries(problems)
              .filter(([f]) => f === `ranges.${i}` || f.startsWith(`ranges.${i}.`))
              .flatMap(([, list]) => list);
            // The same problem found as typed and by the engine is said once.
            const said = [...new Set(distinct([...liveProblems(r, i), ...server]).map(text))];
            const n = i + 1;
            const errId = `${id}-range-${i}-err`;
            const invalid = (part: string) =>
              said.length && [...liveProblems(r, i), ...server].some((p) => p.field === `ranges.${i}.${part}`)
                ? { 'aria-invalid': true, 'aria-describedby': errId }
                : {};
            return (
              // biome-ignore lint/suspicious/noArrayIndexKey: ranges have no identity but their place
              <li key={i}>
                <input
                  aria-label={t('ranges.days', { n })}
                  value={weekdaysShown(r.days)}
                  placeholder={t('ranges.daysExample')}
                  size={9}
                  onChange={(e) => setRange(i, { days: weekdaysTyped(e.target.value) })}
                  {...invalid('days')}
                />
                <input
                  aria-label={t('ranges.start', { n })}
                  value={r.start}
                  placeholder="08:00"
                  size={5}
                  onChange={(e) => setRange(i, { start: e.target.value })}
                  {...invalid('start')}
                />
                <span aria-hidden="true">–</span>
                <input
                  aria-label={t('ranges.end', { n })}
                  value={r.end}
                  placeholder="19:00"
                  size={5}
                  onChange={(e) => setRange(i, { end: e.target.value })}
                  {...invalid('end')}
                />
                <input
                  aria-label={t('ranges.zone', { n })}
                  value={r.timeZone}
                  list={`${id}-zones`}
                  size={16}
                  onChange={(e) => setRange(i, { timeZone: e.target.value })}
                  {...invalid('timeZone')}
                />
                <button
                  type="button"
                  className="link"
                  onClick={() => update((rs) => rs.filter((_, j) => j !== i))}
                >
                  {t('ranges.remove')}
                  <span className="visually-hidden"> {t('ranges.removeOf', { n })}</span>
                </button>
                {said.length > 0 && (
                  <span className="field-error" id={errId}>
                    {said.join(' ')}
                  </span>
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
          {t('ranges.add')}
        </button>
        <span className="hint">{t('ranges.hint')}</span>
        {validRanges.length > 0 && (
          <div className="preview" aria-live="polite">
            <strong>{t('ranges.next')}</strong>
            {preview.length === 0 && <p className="muted">{t('ranges.alwaysUp')}</p>}
            <ul className="plain transitions">
              {preview.map((tr) => {
                const at = formatZoned(tr.at, validRanges[0]!.timeZone, i18n.language);
                return (
                  <li key={tr.at}>{tr.up ? t('ranges.upFrom', { at }) : t('ranges.maySleepFrom', { at })}</li>
                );
              })}
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
