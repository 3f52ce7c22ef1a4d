/**
 * Savings: hours asleep and what they are worth, today and over 7 and 30 days, per app and in total,
 * a chart of the last 30 days, and in dry-run what the reaper would have saved. The price unit and its
 * source are stated beside the figures: Clever Cloud does not state the unit of a flavor's price.
 */
import { useCallback, useEffect, useId, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { assertNever } from '../../../shared/domain.ts';
import {
  type AppSavings,
  PRICE_FACTS,
  SAVINGS_WINDOWS,
  type SavingsDay,
  type SavingsFigures,
  type SavingsPricing,
  type SavingsReport,
} from '../../../shared/savings.ts';
import { i18n } from '../../i18n.ts';
import { eur, hours, plainNumber, shortDay } from '../../lib/savings-format.ts';
import { useApi, useDashboard } from '../../store/context.tsx';
import { errorText } from '../../store/dashboard-store.ts';

/** The report reads 30 days of history (about 0.5 s for a thousand apps): refreshed once a minute, while seen. */
const REFRESH_MS = 60_000;

/** How the fallback reads the flavor price, for the screen. */
export function priceNote(pricing: SavingsPricing): string {
  const reading =
    pricing.unit === 'drops-per-10-min'
      ? i18n.t('savings:price.readingDrops', { eurPerDrop: plainNumber(pricing.eurPerDrop) })
      : i18n.t('savings:price.readingEuros');
  return i18n.t('savings:price.note', { reading });
}

/** One line: where the report's prices come from. */
export function priceSourceText(pricing: SavingsPricing): string {
  const fallback = i18n.t('savings:price.fallback', { eurPerDrop: plainNumber(pricing.eurPerDrop) });
  const problem = pricing.priceSystemProblem
    ? i18n.t('savings:price.priceSystemProblem', { problem: pricing.priceSystemProblem })
    : '';
  const source = pricing.source ?? 'flavor-price';
  switch (source) {
    case 'price-system':
      return i18n.t('savings:price.sourcePriceSystem');
    case 'mixed':
      return i18n.t('savings:price.sourceMixed', { fallback, problem });
    case 'flavor-price':
      return i18n.t('savings:price.sourceFallback', { fallback, problem });
    case 'none':
      return i18n.t('savings:price.sourceNone');
    default:
      return assertNever(source);
  }
}

export function SavingsView() {
  const { t } = useTranslation('savings');
  const api = useApi();
  const setView = useDashboard((s) => s.setView);
  const perform = useDashboard((s) => s.perform);
  const dryRun = useDashboard((s) => s.settings?.dryRun ?? false);
  const id = useId();
  const [report, setReport] = useState<SavingsReport | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      setReport(await api.savings({ timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone }));
      setError(null);
    } catch (e) {
      setError(errorText(e));
    }
  }, [api]);

  useEffect(() => {
    perform(load);
    const timer = setInterval(() => {
      if (document.visibilityState !== 'hidden') perform(load);
    }, REFRESH_MS);
    return () => clearInterval(timer);
  }, [load, perform]);

  return (
    <section className="savings-view" aria-labelledby={`${id}-title`}>
      <div className="view-head">
        <h1 id={`${id}-title`}>{t('title')}</h1>
        <p className="muted">{t('intro')}</p>
        <button type="button" onClick={() => perform(load)}>
          {t('refresh')}
        </button>
      </div>
      {error && (
        <p className="callout danger" role="alert">
          {error}
        </p>
      )}
      {!report && !error && <p className="muted">{t('loading')}</p>}
      {report && (
        <>
          <ul className="savings-totals" aria-label={t('totals')}>
            {SAVINGS_WINDOWS.map((w) => (
              <li key={w} className="card">
                <h2>{t(`window.${w}`)}</h2>
                <Totals figures={report.totals[w]} dryRun={dryRun} />
              </li>
            ))}
          </ul>
          <section className="card" aria-labelledby={`${id}-chart`}>
            <h2 id={`${id}-chart`}>{t('chartTitle')}</h2>
            <DailyChart days={report.daily} />
          </section>
          <section className="card price-facts" aria-labelledby={`${id}-price`}>
            <h2 id={`${id}-price`}>{t('price.title')}</h2>
            <p className="price-source">{priceSourceText(report.pricing)}</p>
            <p>{priceNote(report.pricing)}</p>
            <p className={report.pricing.confirmed ? 'muted' : 'warn'}>
              {report.pricing.confirmed ? t('price.confirmed') : t('price.unconfirmed')}
              <button type="button" className="link" onClick={() => setView('settings')}>
                {t('price.changeUnit')}
              </button>
            </p>
            <details>
              <summary>{t('price.sources')}</summary>
              <ul className="plain">
                {PRICE_FACTS.sources.map((s) => (
                  <li key={s}>{s}</li>
                ))}
                <li>{t('price.against', { against: PRICE_FACTS.against })}</li>
              </ul>
            </details>
            {report.unpriced > 0 && (
              <p className="muted">{t('price.unpriced', { count: report.unpriced })}</p>
            )}
          </section>
          <section className="card" aria-labelledby={`${id}-apps`}>
            <h2 id={`${id}-apps`}>{t('perApp.title')}</h2>
            <AppsTable apps={report.apps} />
          </section>
        </>
      )}
    </section>
  );
}

function Totals({ figures, dryRun }: { figures: SavingsFigures; dryRun: boolean }) {
  const { t } = useTranslation('savings');
  return (
    <>
      <p className="big-number">{hours(figures.hoursAsleep)}</p>
      <p>
        <Trans
          t={t}
          i18nKey="asleep"
          values={{ saved: eur(figures.savedEur) }}
          components={[<strong key="s" />]}
        />
      </p>
      {(dryRun || figures.projectedHours > 0) && (
        <p className="projected">
          <Trans
            t={t}
            i18nKey="wouldHaveSaved"
            values={{ saved: eur(figures.projectedEur), hours: hours(figures.projectedHours) }}
            components={[<strong key="s" />]}
          />
        </p>
      )}
    </>
  );
}

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

function AppsTable({ apps }: { apps: readonly AppSavings[] }) {
  const { t } = useTranslation('savings');
  if (apps.length === 0) return <p className="muted">{t('perApp.none')}</p>;
  const anyProjected = apps.some((a) => a.windows.days30.projectedHours > 0);
  return (
    <div className="table-wrap">
      <table className="savings-table">
        <thead>
          <tr>
            <th scope="col">{t('perApp.app')}</th>
            <th scope="col">{t('perApp.flavor')}</th>
            <th scope="col" className="num">
              {t('perApp.hourly')}
            </th>
            <th scope="col" className="num">
              {t('perApp.today')}
            </th>
            <th scope="col" className="num">
              {t('perApp.days7')}
            </th>
            <th scope="col" className="num">
              {t('perApp.days30')}
            </th>
            <th scope="col" className="num">
              {t('perApp.saved30')}
            </th>
            {anyProjected && (
              <th scope="col" className="num">
                {t('perApp.wouldHaveSaved')}
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {apps.map((a) => (
            <tr key={a.appId}>
              <th scope="row">
                {a.name}
                {!a.managed && <span className="muted">{t('perApp.released')}</span>}
              </th>
              <td>
                {a.flavorName ? (
                  `${a.flavorName} × ${a.instances ?? '?'}`
                ) : (
                  <span className="muted">{t('perApp.notRead')}</span>
                )}
              </td>
              <td className="num">{eur(a.hourlyEur)}</td>
              <td className="num">{hours(a.windows.today.hoursAsleep)}</td>
              <td className="num">{hours(a.windows.days7.hoursAsleep)}</td>
              <td className="num">{hours(a.windows.days30.hoursAsleep)}</td>
              <td className="num">
                <strong>{eur(a.windows.days30.savedEur)}</strong>
              </td>
              {anyProjected && (
                <td className="num">
                  {a.windows.days30.projectedHours > 0
                    ? `${eur(a.windows.days30.projectedEur)} (${hours(a.windows.days30.projectedHours)})`
                    : '—'}
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
