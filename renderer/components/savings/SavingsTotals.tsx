/**
 * The Savings view's totals, as finance reads them: what the reaper saves per hour right now (the
 * apps it keeps asleep at this moment), then today, this month, this year and all time in the
 * report's zone, each with the hours an app was asleep after a stop outside the reaper, apart and
 * not counted.
 */
import { Trans, useTranslation } from 'react-i18next';
import {
  SAVINGS_WINDOWS,
  type SavingsFigures,
  type SavingsReport,
  type SavingsWindow,
} from '../../../shared/savings.ts';
import { currentLanguage } from '../../i18n.ts';
import { eur, hours } from '../../lib/savings-format.ts';

export function SavingsTotals({ report, dryRun }: { report: SavingsReport; dryRun: boolean }) {
  const { t } = useTranslation('savings');
  const now = report.savingNow;
  return (
    <ul className="savings-totals" aria-label={t('totals')}>
      <li className="card saving-now">
        <h2>{t('now.title')}</h2>
        <p className="big-number">
          {/* A space before the unit: on a narrow card it goes to the next line, never past the edge. */}
          {eur(now.eurPerHour)} <span className="unit">{t('now.perHour')}</span>
        </p>
        <p>
          {t('now.apps', { count: now.apps })}
          {now.unpriced > 0 && (
            <span className="muted">{`, ${t('now.unpriced', { count: now.unpriced })}`}</span>
          )}
        </p>
        {now.outsideApps > 0 && (
          <p className="outside" title={t('outsideTitle')}>
            {t('now.outside', { count: now.outsideApps })}
          </p>
        )}
      </li>
      {SAVINGS_WINDOWS.map((w) => (
        <li key={w} className="card">
          <h2>{t(`window.${w}`)}</h2>
          {w === 'all' && <p className="since muted">{t('since', { date: sinceDate(report, w) })}</p>}
          <Totals figures={report.totals[w]} dryRun={dryRun} />
        </li>
      ))}
    </ul>
  );
}

/** The day a window starts, in the report's zone and the dashboard's language ("5 Nov 2026"). */
function sinceDate(report: SavingsReport, w: SavingsWindow): string {
  return new Intl.DateTimeFormat(currentLanguage(), {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: report.timeZone,
  }).format(report.windows[w].start);
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
      {figures.outsideHours > 0 && (
        <p className="outside" title={t('outsideTitle')}>
          {t('outside', { hours: hours(figures.outsideHours) })}
        </p>
      )}
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
