/**
 * Savings, as finance reads them: what the reaper saves per hour right now, hours asleep because of
 * the reaper and what they are worth today, this month, this year and all time (days cut in a chosen
 * time zone, kept in the URL), per app and in total, a chart of the last 30 days, and in dry-run what
 * the reaper would have saved. Only the sleeps the reaper caused count: an app stopped outside it is
 * shown apart. The price unit and its source are stated beside the figures: Clever Cloud does not
 * state the unit of a flavor's price.
 */
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { assertNever } from '../../../shared/domain.ts';
import { PRICE_FACTS, type SavingsPricing, type SavingsReport } from '../../../shared/savings.ts';
import { i18n } from '../../i18n.ts';
import { plainNumber } from '../../lib/savings-format.ts';
import { offeredTimeZones, viewerTimeZone } from '../../lib/time-zones.ts';
import { useApi, useDashboard } from '../../store/context.tsx';
import { errorText } from '../../store/dashboard-store.ts';
import { DailyChart } from './DailyChart.tsx';
import { SavingsTable } from './SavingsTable.tsx';
import { SavingsTotals } from './SavingsTotals.tsx';

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
  const chosenZone = useDashboard((s) => s.savingsZone);
  const setZone = useDashboard((s) => s.setSavingsZone);
  const timeZone = chosenZone || viewerTimeZone();
  const id = useId();
  const [report, setReport] = useState<SavingsReport | null>(null);
  const [error, setError] = useState<string | null>(null);

  // Only the last report asked for is shown: one for a zone left meanwhile may answer later.
  const asked = useRef(0);
  const load = useCallback(async () => {
    const mine = ++asked.current;
    try {
      const answer = await api.savings({ timeZone });
      if (mine !== asked.current) return;
      setReport(answer);
      setError(null);
    } catch (e) {
      if (mine === asked.current) setError(errorText(e));
    }
  }, [api, timeZone]);

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
        <div className="savings-controls">
          <label htmlFor={`${id}-zone`}>{t('zone.label')}</label>
          <select
            id={`${id}-zone`}
            value={timeZone}
            aria-describedby={`${id}-zone-hint`}
            onChange={(e) => setZone(e.target.value === viewerTimeZone() ? '' : e.target.value)}
          >
            {offeredTimeZones().map((zone) => (
              <option key={zone} value={zone}>
                {zone === viewerTimeZone() ? t('zone.yours', { zone }) : zone}
              </option>
            ))}
          </select>
          <button type="button" onClick={() => perform(load)}>
            {t('refresh')}
          </button>
        </div>
        <p id={`${id}-zone-hint`} className="muted hint">
          {t('zone.hint')}
        </p>
      </div>
      {error && (
        <p className="callout danger" role="alert">
          {error}
        </p>
      )}
      {!report && !error && <p className="muted">{t('loading')}</p>}
      {report && (
        <>
          <SavingsTotals report={report} dryRun={dryRun} />
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
            <SavingsTable apps={report.apps} />
          </section>
        </>
      )}
    </section>
  );
}
