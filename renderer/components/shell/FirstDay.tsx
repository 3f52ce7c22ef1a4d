/**
 * After an account is connected from the first-run screen: a first day in dry-run, proposed with its
 * projected savings. The projection reads the savings report (the `savings` call: every managed app
 * with its hourly price, shared/savings.ts) and supposes the apps asleep FIRST_DAY_HOURS a day; the
 * dry-run itself then measures what the reaper would really have saved (Savings, "would have saved").
 */
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SavingsReport } from '../../../shared/savings.ts';
import { errorText } from '../../lib/errors.ts';
import { eur } from '../../lib/savings-format.ts';
import { useCan } from '../../store/access.tsx';
import { useApi, useDashboard } from '../../store/context.tsx';

/** Hours asleep a day the projection supposes: a night, 20:00 to 08:00. */
export const FIRST_DAY_HOURS = 12;

export interface FirstDayProjection {
  apps: number;
  priced: number;
  hourlyEur: number;
}

/** What the managed apps cost an hour while up, from the savings report. */
export function projectionOf(report: SavingsReport): FirstDayProjection {
  const managed = report.apps.filter((a) => a.managed);
  const priced = managed.filter((a) => a.hourlyEur !== null);
  return {
    apps: managed.length,
    priced: priced.length,
    hourlyEur: priced.reduce((sum, a) => sum + (a.hourlyEur ?? 0), 0),
  };
}

export function FirstDay() {
  const { t } = useTranslation('firstRun');
  const api = useApi();
  const account = useDashboard((s) => s.status?.credentials.account ?? null);
  const setSwitch = useDashboard((s) => s.setSwitch);
  const perform = useDashboard((s) => s.perform);
  const propose = useDashboard((s) => s.proposeFirstDay);
  const id = useId();
  const [projection, setProjection] = useState<FirstDayProjection | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const can = useCan('admin');

  useEffect(() => {
    let live = true;
    api.savings({ timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone }).then(
      (report) => live && setProjection(projectionOf(report)),
      (e: unknown) => live && setError(errorText(e)),
    );
    return () => {
      live = false;
    };
  }, [api]);

  const start = async () => {
    setBusy(true);
    await setSwitch('dryRun', true);
    setBusy(false);
    propose(false);
  };

  let figures: string;
  if (error) figures = t('firstDay.failed', { error });
  else if (!projection) figures = t('firstDay.loading');
  else if (projection.apps === 0) figures = t('firstDay.noApps');
  else if (projection.priced === 0) figures = t('firstDay.unpriced');
  else {
    const day = projection.hourlyEur * FIRST_DAY_HOURS;
    figures = t('firstDay.projection', {
      count: projection.apps,
      hourly: eur(projection.hourlyEur),
      hours: FIRST_DAY_HOURS,
      day: eur(day),
      month: eur(day * 30),
    });
  }

  return (
    <section className="card first-day" aria-labelledby={`${id}-title`} data-testid="first-day">
      <h2 id={`${id}-title`}>{t('firstDay.title')}</h2>
      {account && <p>{t('firstDay.connected', { account })}</p>}
      <p>{t('firstDay.text')}</p>
      <p aria-live="polite" aria-busy={!projection && !error}>
        {figures}
      </p>
      <div className="form-actions">
        <button type="button" onClick={() => propose(false)}>
          {t('firstDay.notNow')}
        </button>
        <button
          type="button"
          className="primary"
          disabled={busy || !can.allowed}
          title={can.reason}
          onClick={() => perform(start)}
        >
          {t('firstDay.start')}
        </button>
      </div>
    </section>
  );
}
