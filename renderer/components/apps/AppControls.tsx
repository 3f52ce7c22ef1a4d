/** The app's controls that ask before acting: disable the reaper, keep awake until. */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AppView } from '../../../shared/app-view.ts';
import { HOUR } from '../../../shared/durations.ts';
import { actionLabels } from '../../lib/explain.ts';
import { clockTime } from '../../lib/format.ts';
import { useDashboard } from '../../store/context.tsx';
import { errorText } from '../../store/dashboard-store.ts';
import { useActionsBlocked } from '../common/ActionButton.tsx';
import { ConfirmDialog } from '../common/ConfirmDialog.tsx';

export function DisableReaper({ app }: { app: AppView }) {
  const { t } = useTranslation(['apps', 'common']);
  const act = useDashboard((s) => s.act);
  const perform = useDashboard((s) => s.perform);
  const busy = useDashboard((s) => s.busy[app.appId] ?? null);
  const blocked = useActionsBlocked('admin');
  const [confirming, setConfirming] = useState(false);
  const labels = actionLabels('release');
  return (
    <>
      <button
        type="button"
        className="danger-outline"
        aria-haspopup="dialog"
        disabled={blocked !== null}
        title={blocked ?? undefined}
        onClick={() => setConfirming(true)}
      >
        {t('controls.disable')}
      </button>
      {confirming && (
        <ConfirmDialog
          title={t('controls.confirmTitle', { name: app.name })}
          body={app.state === 'Down' ? t('controls.confirmBodyAsleep') : t('controls.confirmBody')}
          confirmLabel={busy === 'release' ? labels.busy : labels.idle}
          cancelLabel={t('common:buttons.cancel')}
          busy={busy !== null || blocked !== null}
          onConfirm={() => perform(() => act(app.appId, 'release').finally(() => setConfirming(false)))}
          onCancel={() => setConfirming(false)}
          // Released, the app leaves the table and its panel closes: the view's heading then.
          fallback={() => document.getElementById('apps-heading')}
        />
      )}
    </>
  );
}

/** Keep awake for this many hours from now. */
const PRESETS = [1, 3, 8];

/** "Keep awake until ...": a preset or a date and time; no sleep before it (a sleeping app is woken). */
export function KeepAwake({ app, now }: { app: AppView; now: number }) {
  const { t } = useTranslation(['apps', 'common']);
  const keepAwake = useDashboard((s) => s.keepAwake);
  const perform = useDashboard((s) => s.perform);
  const busy = useDashboard((s) => s.busy[app.appId] === 'keep-awake');
  const blocked = useActionsBlocked();
  const [custom, setCustom] = useState('');
  const [error, setError] = useState<string | null>(null);
  const run = async (until: number | null) => {
    setError(null);
    try {
      await keepAwake(app.appId, until);
    } catch (e) {
      setError(errorText(e));
    }
  };
  return (
    <section aria-labelledby="keep-heading" className="keep-awake">
      <h3 id="keep-heading">{t('controls.keepAwake')}</h3>
      {app.keepAwakeUntil !== null ? (
        <p>
          {t('controls.keptUntil')} <strong>{clockTime(app.keepAwakeUntil, now)}</strong>{' '}
          <button type="button" className="link" disabled={busy} onClick={() => perform(() => run(null))}>
            {t('common:buttons.cancel')}
          </button>
        </p>
      ) : (
        <p className="muted">
          {app.state === 'Down' ? t('controls.noSleepBeforeAsleep') : t('controls.noSleepBefore')}
        </p>
      )}
      <div className="row-of-buttons">
        {PRESETS.map((hours) => (
          <button
            key={hours}
            type="button"
            disabled={busy || blocked !== null}
            aria-busy={busy || undefined}
            title={blocked ?? undefined}
            onClick={() => perform(() => run(now + hours * HOUR))}
          >
            {t('controls.hours', { count: hours })}
          </button>
        ))}
        <form
          className="inline-form"
          onSubmit={(e) => {
            e.preventDefault();
            const at = new Date(custom).getTime();
            if (!custom || Number.isNaN(at)) setError(t('controls.chooseTime'));
            else perform(() => run(at));
          }}
        >
          <label>
            <span className="visually-hidden">{t('controls.keepUntil')}</span>
            <input type="datetime-local" value={custom} onChange={(e) => setCustom(e.target.value)} />
          </label>
          <button type="submit" disabled={busy || blocked !== null} title={blocked ?? undefined}>
            {t('controls.keepUntil')}
          </button>
        </form>
      </div>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
