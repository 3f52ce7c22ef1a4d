/**
 * Bulk actions on the apps picked in the table: Reset, Wake, Keep awake until, Disable (after a
 * confirmation), then the result: how many succeeded, and the refusals grouped by reason.
 */
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { BulkAction } from '../../../shared/bulk.ts';
import { HOUR } from '../../../shared/durations.ts';
import { refusalText } from '../../lib/cause-text.ts';
import { fullTime } from '../../lib/format.ts';
import { useDashboard, useServerNow } from '../../store/context.tsx';
import type { BulkRun } from '../../store/pick-actions.ts';
import { useActionsBlocked } from '../common/ActionButton.tsx';
import { ConfirmDialog } from '../common/ConfirmDialog.tsx';

/** A datetime-local value (local time, minutes) of an instant. */
function localInput(t: number): string {
  const d = new Date(t);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** The bar over the table while apps are picked; `shown` are the picked apps the filters show. */
export function BulkBar({ shown, hidden }: { shown: string[]; hidden: number }) {
  const { t } = useTranslation(['apps', 'common']);
  const runBulk = useDashboard((s) => s.runBulk);
  const perform = useDashboard((s) => s.perform);
  const clearPicked = useDashboard((s) => s.clearPicked);
  const running = useDashboard((s) => s.bulkRun?.running ?? false);
  const apps = useDashboard((s) => s.apps);
  const now = useServerNow();
  const id = useId();
  const [confirmDisable, setConfirmDisable] = useState(false);
  const [until, setUntil] = useState('');
  // The role signed in (and the connection): an operator for these, an admin to disable.
  const blocked = useActionsBlocked();
  const blockedRelease = useActionsBlocked('admin');
  const n = shown.length;
  if (n === 0 && hidden === 0) return null;
  const run = (action: BulkAction, at?: number | null, ids: string[] = shown) => {
    setConfirmDisable(false);
    perform(() => runBulk(action, ids, at));
  };
  // Reset is for apps in Error: on a mixed selection it acts on those only, and says how many it leaves.
  const inError = shown.filter((appId) => apps[appId]?.state === 'Error');
  const notInError = n - inError.length;
  const untilAt = until ? new Date(until).getTime() : Number.NaN;
  return (
    <section className="bulk-bar" aria-label={t('bulk.label')}>
      <strong>
        {t('bulk.selected', { count: n })}
        {hidden > 0 ? t('bulk.hidden', { count: hidden }) : ''}
      </strong>
      <div className="row-of-buttons">
        <button
          type="button"
          disabled={running || inError.length === 0 || blocked !== null}
          title={blocked ?? (notInError > 0 ? t('bulk.resetLeavesOut', { count: notInError }) : undefined)}
          onClick={() => run('reset', null, inError)}
        >
          {notInError > 0 ? t('bulk.resetInError', { count: inError.length }) : t('bulk.reset', { count: n })}
        </button>
        <button
          type="button"
          disabled={running || n === 0 || blocked !== null}
          title={blocked ?? undefined}
          onClick={() => run('wake')}
        >
          {t('bulk.wake', { count: n })}
        </button>
        <span className="keep-awake-until">
          <label htmlFor={`${id}-until`}>{t('bulk.keepUntil')}</label>
          <input
            id={`${id}-until`}
            type="datetime-local"
            value={until}
            min={localInput(now)}
            onChange={(e) => setUntil(e.target.value)}
          />
          <button
            type="button"
            disabled={running || n === 0 || Number.isNaN(untilAt) || blocked !== null}
            onClick={() => run('keepAwake', untilAt)}
            title={blocked ?? t('bulk.example', { example: fullTime(now + 2 * HOUR) })}
          >
            {t('bulk.keep', { count: n })}
          </button>
        </span>
        <button
          type="button"
          className="danger-outline"
          disabled={running || n === 0 || blockedRelease !== null}
          title={blockedRelease ?? undefined}
          aria-haspopup="dialog"
          onClick={() => setConfirmDisable(true)}
        >
          {t('bulk.disable', { count: n })}
        </button>
        {confirmDisable && (
          <ConfirmDialog
            title={t('bulk.disableTitle', { count: n })}
            body={t('bulk.disableBody')}
            confirmLabel={t('bulk.disableConfirm', { count: n })}
            cancelLabel={t('common:buttons.cancel')}
            busy={running}
            onConfirm={() => run('release')}
            onCancel={() => setConfirmDisable(false)}
            fallback={() => document.getElementById('apps-heading')}
          />
        )}
        <button type="button" className="link" onClick={clearPicked}>
          {t('bulk.clear')}
        </button>
      </div>
    </section>
  );
}

/** How many names a refusal line shows before "and N more". */
const SHOWN_NAMES = 12;

function refusalsByReason(run: BulkRun): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const o of run.result?.outcomes ?? []) {
    if (o.ok) continue;
    out.set(o.reason, [...(out.get(o.reason) ?? []), run.names[o.appId] ?? o.appId]);
  }
  return out;
}

/** The last bulk action: under way, refused as a whole, or its summary and refusals by reason. */
export function BulkResultPanel() {
  const { t } = useTranslation('apps');
  const run = useDashboard((s) => s.bulkRun);
  const dismiss = useDashboard((s) => s.dismissBulk);
  if (!run) return null;
  const action = t(`bulk.actions.${run.action}`);
  // The summary says how many succeeded; below it only the refusals, one line per reason.
  const refusals = [...refusalsByReason(run)];
  return (
    <section className="bulk-result card" aria-label={t('bulk.result', { action })}>
      <div className="bulk-result-head" role="status">
        {run.running ? (
          <span>{t('bulk.running', { action, count: run.appIds.length })}</span>
        ) : run.error ? (
          <span className="danger">{t('bulk.refused', { action, error: run.error })}</span>
        ) : (
          run.result && <Summary run={run} />
        )}
        {!run.running && (
          <button type="button" className="link" onClick={dismiss}>
            {t('bulk.dismiss')}
          </button>
        )}
      </div>
      {refusals.length > 0 && (
        <ul className="bulk-outcomes" aria-label={t('bulk.perApp')}>
          {refusals.map(([reason, names]) => (
            <li key={reason} className="refused">
              <span className="name">
                {names.slice(0, SHOWN_NAMES).join(', ')}
                {names.length > SHOWN_NAMES ? t('bulk.andMore', { count: names.length - SHOWN_NAMES }) : ''}
              </span>
              <span title={reason}>{t('bulk.refusedBecause', { reason: refusalText(reason).text })}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function Summary({ run }: { run: BulkRun }) {
  const { t } = useTranslation('apps');
  const r = run.result!;
  return (
    <span>
      <strong>{t('bulk.summaryHead', { action: t(`bulk.actions.${run.action}`) })}</strong>{' '}
      {t('bulk.summary', { count: r.succeeded })}
      {r.refused > 0 ? t('bulk.summaryRefused', { count: r.refused }) : ''}
    </span>
  );
}
