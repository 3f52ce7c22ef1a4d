/**
 * The kill switch, one click from the header of every view: its state always shown, and a
 * confirmation that says what it does. While on, the engine puts no app to sleep (main/engine/
 * decide-sleep.ts `sleepBlocker`, and an unanswered stop is not sent again); wakes still happen.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../store/access.tsx';
import { useApi, useDashboard } from '../../store/context.tsx';
import { ConfirmDialog } from '../common/ConfirmDialog.tsx';
import { useConsoleState } from '../settings/TeamServer.tsx';

export function KillSwitchButton() {
  const { t } = useTranslation('shell');
  const on = useDashboard((s) => s.settings?.killSwitch ?? false);
  const known = useDashboard((s) => s.settings !== null);
  const [asking, setAsking] = useState(false);
  const can = useCan('admin');
  if (!known) return null;
  const state = on ? t('kill.stateOn') : t('kill.stateOff');
  return (
    <>
      <button
        type="button"
        className={`kill-switch ${on ? 'on' : 'off'}`}
        title={can.reason ?? (on ? t('kill.titleOn') : t('kill.titleOff'))}
        disabled={!can.allowed}
        aria-haspopup="dialog"
        // Its state read out whole wherever the header is narrow enough to show it by the dot's colour.
        aria-label={`${t('kill.name')}${state}`}
        onClick={() => setAsking(true)}
      >
        <span className="kill-dot" aria-hidden="true" />
        {t('kill.name')}
        <span className="kill-state">{state}</span>
      </button>
      {asking && <Confirm on={on} close={() => setAsking(false)} />}
    </>
  );
}

function Confirm({ on, close }: { on: boolean; close: () => void }) {
  const { t } = useTranslation('shell');
  const setSwitch = useDashboard((s) => s.setSwitch);
  const perform = useDashboard((s) => s.perform);
  const dryRun = useDashboard((s) => s.settings?.dryRun ?? false);
  const api = useApi();
  const team = useConsoleState();
  const shared = team?.mode === 'team' ? team.host : (api.serverHost ?? null);
  const [busy, setBusy] = useState(false);
  const act = async () => {
    setBusy(true);
    await setSwitch('killSwitch', !on);
    setBusy(false);
    close();
  };
  return (
    <ConfirmDialog
      title={on ? t('kill.confirmOffTitle') : t('kill.confirmOnTitle')}
      body={
        <>
          <p>{on ? t('kill.confirmOffBody') : t('kill.confirmOnBody')}</p>
          {on && dryRun && <p>{t('kill.confirmOffDryRun')}</p>}
          {shared && <p className="warn">{t('kill.shared', { host: shared })}</p>}
        </>
      }
      confirmLabel={on ? t('kill.turnOff') : t('kill.turnOn')}
      cancelLabel={t('kill.cancel')}
      tone={on ? 'primary' : 'danger'}
      focus="confirm"
      busy={busy}
      onConfirm={() => perform(act)}
      onCancel={close}
    />
  );
}
