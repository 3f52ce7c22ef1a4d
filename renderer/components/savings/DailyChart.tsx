/**
 * The chart of the Savings view: hours asleep because of the reaper per day, the last 30 days in the
 * report's zone (and, hatched, the dry-run hours), drawn in SVG.
 */
import { useTranslation } from 'react-i18next';
import type { SavingsDay } from '../../../shared/savings.ts';
import { hours, plainNumber, shortDay } from '../../lib/savings-format.ts';

const CHART = { width: 960, height: 210, left: 40, bottom: 22, top: 8 };

/** Bars of hours asleep per day (and, hatched, the dry-run hours), drawn in SVG. */
export function DailyChart({ days }: { days: readonly SavingsDay[] }) {
  const { t } = useTranslation('savings');
  const max = Math.max(1, ...days.map((d) => d.figures.hoursAsleep + d.figures.projectedHours));
  const step = max <= 6 ? 1 : max <= 24 ? 4 : max <= 72 ? 12 : Math.ceil(max / 6 / 24) * 24;
  const top = Math.ceil(max / step) * step;
  const plotW = CHART.width - CHART.left;
  const plotH = CHART.height - CHART.bottom - CHART.top;
  const slot = plotW / days.length;
  const y = (h: number) => CHART.top + plotH - (h / top) * plotH;
  const ticks = Array.from({ length: Math.floor(top / step) + 1 }, (_, i) => i * step);
  const projected = days.some((d) => d.figures.projectedHours > 0);
  const label = (d: SavingsDay) => shortDay(d.day);
  return (
    <figure className="chart">
      <svg
        viewBox={`0 0 ${CHART.width} ${CHART.height}`}
        role="img"
        aria-label={t('chartLabel', { days: days.length, max: hours(max) })}
      >
        <defs>
          <pattern
            id="hatch"
            width="6"
            height="6"
            patternUnits="userSpaceOnUse"
            patternTransform="rotate(45)"
          >
            <rect width="6" height="6" className="bar-projected-bg" />
            <line x1="0" y1="0" x2="0" y2="6" className="bar-projected-line" />
          </pattern>
        </defs>
        {ticks.map((tick) => (
          <g key={tick}>
            <line className="grid-line" x1={CHART.left} x2={CHART.width} y1={y(tick)} y2={y(tick)} />
            <text className="axis" x={CHART.left - 6} y={y(tick) + 4} textAnchor="end">
              {t('axisHours', { hours: plainNumber(tick) })}
            </text>
          </g>
        ))}
        {days.map((d, i) => {
          const x = CHART.left + i * slot + slot * 0.15;
          const w = slot * 0.7;
          const asleep = d.figures.hoursAsleep;
          const proj = d.figures.projectedHours;
          return (
            <g key={d.day}>
              <title>
                {proj
                  ? t('chartDayProjected', { day: label(d), asleep: hours(asleep), projected: hours(proj) })
                  : t('chartDay', { day: label(d), asleep: hours(asleep) })}
              </title>
              {asleep > 0 && (
                <rect className="bar" x={x} width={w} y={y(asleep)} height={y(0) - y(asleep)} rx="1.5" />
              )}
              {proj > 0 && (
                <rect
                  className="bar-projected"
                  x={x}
                  width={w}
                  y={y(asleep + proj)}
                  height={y(asleep) - y(asleep + proj)}
                  rx="1.5"
                />
              )}
              {(i % 5 === 4 || i === days.length - 1) && (
                // Today's label ends at its bar's right edge: it never runs past the chart.
                <text
                  className="axis"
                  x={i === days.length - 1 ? x + w : x + w / 2}
                  y={CHART.height - 6}
                  textAnchor={i === days.length - 1 ? 'end' : 'middle'}
                >
                  {i === days.length - 1 ? t('today') : label(d)}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <figcaption className="chart-legend">
        <span>
          <span className="swatch bar-swatch" aria-hidden="true" /> {t('legendAsleep')}
        </span>
        {projected && (
          <span>
            <span className="swatch projected-swatch" aria-hidden="true" /> {t('legendProjected')}
          </span>
        )}
      </figcaption>
    </figure>
  );
}
