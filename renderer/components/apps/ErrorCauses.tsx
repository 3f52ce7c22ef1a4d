/**
 * Over the apps table while apps are in Error: how many per cause, each with "Reset all N with this
 * cause" (one bulk Reset, its result per app below).
 */

import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { AppView } from '../../../shared/app-view.ts';
import { errorCauses } from '../../lib/error-causes.ts';
import { formatNumber } from '../../lib/format.ts';
import { useDashboard } from '../../store/context.tsx';

export function ErrorCauses({ all }: { all: AppView[] }) {
  const { t, i18n } = useTranslation('apps');
  // The causes' short names are in the current language: counted again when it changes.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the language is the trigger
  const causes = useMemo(() => errorCauses(all), [all, i18n.language]);
  const runBulk = useDashboard((s) => s.runBulk);
  const perform = useDashboard((s) => s.perform);
  const running = useDashboard((s) => s.bulkRun?.running ?? false);
  if (causes.length === 0) return null;
  return (
    <section className="error-causes" aria-label={t('toolbarCauses.heading')}>
      <h2>{t('toolbarCauses.heading')}</h2>
      <ul>
        {causes.map((c) => (
          <li key={c.label}>
            <span className="cause">{c.label}</span>
            <span className="pill">{formatNumber(c.appIds.length)}</span>
            <button
              type="button"
              disabled={running}
              onClick={() => perform(() => runBulk('reset', c.appIds))}
            >
              {t('toolbarCauses.resetAll', { count: c.appIds.length })}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
