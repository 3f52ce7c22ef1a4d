/**
 * Savings: hours asleep and what they are worth, today and over 7 and 30 days, per app and in total,
 * a chart of the last 30 days, and in dry-run what the reaper would have saved. The price unit and its
 * source are stated beside the figures: Clever Cloud does not state the unit of a flavor's price.
 */
import { useCallback, useEffect, useId, useState } from 'react';
import {
  type AppSavings,
  PRICE_FACTS,
  priceSourceNote,
  SAVINGS_WINDOWS,
  type SavingsDay,
  type SavingsFigures,
  type SavingsPricing,
  type SavingsReport,
  WINDOW_LABELS,
} from '../../shared/savings.ts';
import { useApi, useDashboard } from '../store/context.tsx';
import { errorText } from '../store/dashboard-store.ts';

/** The report reads 30 days of history (about 0.5 s for a thousand apps): refreshed once a minute, while seen. */
const REFRESH_MS = 60_000;

const euros = new Intl.NumberFormat(undefined, {
  style: 'currency',
  currency: 'EUR',
  maximumFractionDigits: 2,
});
const smallEuros = new Intl.NumberFormat(undefined, {
  style: 'currency',
  currency: 'EUR',
  maximumFractionDigits: 4,
});

export function eur(value: number | null): string {
  if (value === null) return '—';
  return Math.abs(value) > 0 && Math.abs(value) < 0.1 ? smallEuros.format(value) : euros.format(value);
}

export function hours(value: number): string {
  if (value === 0) return '0 h';
  if (value < 1) return `${Math.round(value * 60)} min`;
  return `${value < 10 ? value.toFixed(1) : Math.round(value).toLocaleString()} h`;
}

export function priceNote(pricing: SavingsPricing): string {
  const reading =
    pricing.unit === 'drops-per-10-min'
      ? `read as drops per 10 minutes × ${pricing.eurPerDrop} € per drop`
      : 'read as euros per hour';
  return `Fallback, for an app the price system does not price: its flavor price from the Clever Cloud API (instance.minFlavor.price), ${reading}, × its minimum instance count × the hours it was asleep.`;
}

export function SavingsView() {
  const api = useApi();
  const setView = useDashboard((s) => s.setView);
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
    void load();
    const timer = setInterval(() => {
      if (document.visibilityState !== 'hidden') void load();
    }, REFRESH_MS);
    return () => clearInterval(timer);
  }, [load]);

  return (
    <section className="savings-view" aria-labelledby={`${id}-title`}>
      <div className="view-head">
        <h1 id={`${id}-title`}>Savings</h1>
        <p className="muted">
          Hours the managed apps spent Asleep, and what that is worth. Going to sleep and Waking up count as
          awake.
        </p>
        <button type="button" onClick={() => void load()}>
          Refresh
        </button>
      </div>
      {error && (
        <p className="callout danger" role="alert">
          {error}
        </p>
      )}
      {!report && !error && <p className="muted">Loading the savings…</p>}
      {report && (
        <>
          <ul className="savings-totals" aria-label="Totals">
            {SAVINGS_WINDOWS.map((w) => (
              <li key={w} className="card">
                <h2>{WINDOW_LABELS[w]}</h2>
                <Totals figures={report.totals[w]} dryRun={dryRun} />
              </li>
            ))}
          </ul>
          <section className="card" aria-labelledby={`${id}-chart`}>
            <h2 id={`${id}-chart`}>Hours asleep per day, all apps together, last 30 days</h2>
            <DailyChart days={report.daily} />
          </section>
          <section className="card price-facts" aria-labelledby={`${id}-price`}>
            <h2 id={`${id}-price`}>How the money is estimated</h2>
            <p className="price-source">{priceSourceNote(report.pricing)}</p>
            <p>{priceNote(report.pricing)}</p>
            <p className={report.pricing.confirmed ? 'muted' : 'warn'}>
              {report.pricing.confirmed
                ? 'Clever Cloud states this unit.'
                : 'Unconfirmed: Clever Cloud does not state the unit of this price. Public sources read it so; the Terraform provider says "per hour". '}
              <button type="button" className="link" onClick={() => setView('settings')}>
                Change the unit in Settings
              </button>
            </p>
            <details>
              <summary>Sources</summary>
              <ul className="plain">
                {PRICE_FACTS.sources.map((s) => (
                  <li key={s}>{s}</li>
                ))}
                <li>Against: {PRICE_FACTS.against}</li>
              </ul>
            </details>
            {report.unpriced > 0 && (
              <p className="muted">
                {report.unpriced} app{report.unpriced === 1 ? '' : 's'} without a known flavor price yet (read
                at the next sweep): counted in hours, not in money.
              </p>
            )}
          </section>
          <section className="card" aria-labelledby={`${id}-apps`}>
            <h2 id={`${id}-apps`}>Per app</h2>
            <AppsTable apps={report.apps} />
          </section>
        </>
      )}
    </section>
  );
}

function Totals({ figures, dryRun }: { figures: SavingsFigures; dryRun: boolean }) {
  return (
    <>
      <p className="big-number">{hours(figures.hoursAsleep)}</p>
      <p>
        asleep · <strong>{eur(figures.savedEur)}</strong> saved
      </p>
      {(dryRun || figures.projectedHours > 0) && (
        <p className="projected">
          Dry-run: would have saved <strong>{eur(figures.projectedEur)}</strong> (
          {hours(figures.projectedHours)})
        </p>
      )}
    </>
  );
}

const CHART = { width: 960, height: 210, left: 40, bottom: 22, top: 8 };

/** Bars of hours asleep per day (and, hatched, the dry-run hours), drawn in SVG. */
export function DailyChart({ days }: { days: readonly SavingsDay[] }) {
  const max = Math.max(1, ...days.map((d) => d.figures.hoursAsleep + d.figures.projectedHours));
  const step = max <= 6 ? 1 : max <= 24 ? 4 : max <= 72 ? 12 : Math.ceil(max / 6 / 24) * 24;
  const top = Math.ceil(max / step) * step;
  const plotW = CHART.width - CHART.left;
  const plotH = CHART.height - CHART.bottom - CHART.top;
  const slot = plotW / days.length;
  const y = (h: number) => CHART.top + plotH - (h / top) * plotH;
  const ticks = Array.from({ length: Math.floor(top / step) + 1 }, (_, i) => i * step);
  const projected = days.some((d) => d.figures.projectedHours > 0);
  const label = (d: SavingsDay) =>
    new Date(`${d.day}T12:00:00Z`).toLocaleDateString(undefined, {
      day: 'numeric',
      month: 'short',
      timeZone: 'UTC',
    });
  return (
    <figure className="chart">
      <svg
        viewBox={`0 0 ${CHART.width} ${CHART.height}`}
        role="img"
        aria-label={`Hours asleep per day over the last ${days.length} days, at most ${hours(max)} a day`}
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
        {ticks.map((t) => (
          <g key={t}>
            <line className="grid-line" x1={CHART.left} x2={CHART.width} y1={y(t)} y2={y(t)} />
            <text className="axis" x={CHART.left - 6} y={y(t) + 4} textAnchor="end">
              {t}h
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
              <title>{`${label(d)}: ${hours(asleep)} asleep${proj ? `, ${hours(proj)} in dry-run` : ''}`}</title>
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
                <text className="axis" x={x + w / 2} y={CHART.height - 6} textAnchor="middle">
                  {i === days.length - 1 ? 'today' : label(d)}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <figcaption className="chart-legend">
        <span>
          <span className="swatch bar-swatch" aria-hidden="true" /> asleep
        </span>
        {projected && (
          <span>
            <span className="swatch projected-swatch" aria-hidden="true" /> would have slept (dry-run)
          </span>
        )}
      </figcaption>
    </figure>
  );
}

function AppsTable({ apps }: { apps: readonly AppSavings[] }) {
  if (apps.length === 0) return <p className="muted">No app under the reaper yet.</p>;
  const anyProjected = apps.some((a) => a.windows.days30.projectedHours > 0);
  return (
    <div className="table-wrap">
      <table className="savings-table">
        <thead>
          <tr>
            <th scope="col">App</th>
            <th scope="col">Flavor</th>
            <th scope="col" className="num">
              € / hour
            </th>
            <th scope="col" className="num">
              Today
            </th>
            <th scope="col" className="num">
              7 days
            </th>
            <th scope="col" className="num">
              30 days
            </th>
            <th scope="col" className="num">
              Saved, 30 days
            </th>
            {anyProjected && (
              <th scope="col" className="num">
                Would have saved
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {apps.map((a) => (
            <tr key={a.appId}>
              <th scope="row">
                {a.name}
                {!a.managed && <span className="muted"> (released)</span>}
              </th>
              <td>
                {a.flavorName ? (
                  `${a.flavorName} × ${a.instances ?? '?'}`
                ) : (
                  <span className="muted">not read yet</span>
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
