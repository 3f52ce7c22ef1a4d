/**
 * Settings: the language, the kill switch and dry-run (applied at once), the paces and timeouts
 * (validated, applied together or not at all), and the credentials status (never the secret itself).
 */
import { type FormEvent, useEffect, useId, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { MINUTE, SECOND } from '../../../shared/durations.ts';
import type { Settings } from '../../../shared/settings.ts';
import { parseDecimal } from '../../lib/decimal.ts';
import { msTo } from '../../lib/format.ts';
import { useUnsavedChanges } from '../../lib/unsaved-changes.ts';
import { RoleGate } from '../../store/access.tsx';
import { useDashboard } from '../../store/context.tsx';
import { FormProblem, NumberField, problemsByField, SaveRow, Switch } from '../common/form.tsx';
import { CredentialsCard } from './CredentialsCard.tsx';
import { LanguageSettings } from './LanguageSettings.tsx';
import { HistorySavingsSettings, TeamAlerts } from './OperationsSettings.tsx';
import { TeamServerPanel } from './TeamServer.tsx';
import { TokensSettings } from './TokensSettings.tsx';

type PaceKey =
  | 'intervalMs'
  | 'fastIntervalMs'
  | 'failTimeoutMs'
  | 'restartAfterMs'
  | 'releaseDelayMs'
  | 'holdDeadlineMs';

const PACES: { key: PaceKey; unit: number; unitLabel: 's' | 'min' }[] = [
  { key: 'intervalMs', unit: SECOND, unitLabel: 's' },
  { key: 'fastIntervalMs', unit: SECOND, unitLabel: 's' },
  { key: 'failTimeoutMs', unit: MINUTE, unitLabel: 'min' },
  { key: 'restartAfterMs', unit: SECOND, unitLabel: 's' },
  { key: 'releaseDelayMs', unit: MINUTE, unitLabel: 'min' },
  { key: 'holdDeadlineMs', unit: SECOND, unitLabel: 's' },
];

export function SettingsView() {
  const { t } = useTranslation('settings');
  const settings = useDashboard((s) => s.settings);
  const status = useDashboard((s) => s.status);
  if (!settings) return null;
  return (
    <section className="settings-view" aria-labelledby="settings-title">
      <div className="view-head">
        <h1 id="settings-title">{t('title')}</h1>
      </div>
      <LanguageSettings />
      <TeamServerPanel />
      {/* The settings are an admin's (the language is the reader's own). */}
      <RoleGate need="admin">
        <Switches settings={settings} />
        <Paces settings={settings} />
        <WakeProxySettings settings={settings} />
        <HistorySavingsSettings settings={settings} />
        <TeamAlerts settings={settings} />
        <CredentialsCard />
      </RoleGate>
      <TokensSettings />
      <section className="card" aria-labelledby="about-title">
        <h2 id="about-title">{t('about.title')}</h2>
        <p>
          Clever Reaper {status?.version}
          {status?.mode === 'demo' &&
            (status.timeScale !== 1
              ? t('about.demoScaled', { scenario: status.scenario ?? '', scale: status.timeScale })
              : t('about.demo', { scenario: status.scenario ?? '' }))}
        </p>
      </section>
    </section>
  );
}

function Switches({ settings }: { settings: Settings }) {
  const { t } = useTranslation('settings');
  const setSwitch = useDashboard((s) => s.setSwitch);
  const perform = useDashboard((s) => s.perform);
  return (
    <section className="card" aria-labelledby="switches-title">
      <h2 id="switches-title">{t('switches.title')}</h2>
      <Switch big checked={settings.killSwitch} onChange={(on) => perform(() => setSwitch('killSwitch', on))}>
        <span>
          <strong>{t('switches.killSwitch')}</strong>
          <span className="hint">{t('switches.killSwitchHint')}</span>
        </span>
      </Switch>
      <Switch big checked={settings.dryRun} onChange={(on) => perform(() => setSwitch('dryRun', on))}>
        <span>
          <strong>{t('switches.dryRun')}</strong>
          <span className="hint">{t('switches.dryRunHint')}</span>
        </span>
      </Switch>
    </section>
  );
}

function Paces({ settings }: { settings: Settings }) {
  const { t } = useTranslation('settings');
  const saveSettings = useDashboard((s) => s.saveSettings);
  const perform = useDashboard((s) => s.perform);
  const id = useId();
  const initial = () =>
    Object.fromEntries(PACES.map((p) => [p.key, msTo(settings[p.key], p.unit)])) as Record<PaceKey, string>;
  const [values, setValues] = useState(initial);
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [saved, setSaved] = useState(false);
  const [saving, setSaving] = useState(false);
  const saved0 = initial();
  useUnsavedChanges(
    PACES.some((p) => values[p.key] !== saved0[p.key]),
    t('unsaved', { form: t('paces.title') }),
  );

  // Changed elsewhere (another window, the admin API): show the new values unless being edited.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only when the settings change
  useEffect(() => {
    setValues(initial());
  }, [settings]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setSaved(false);
    const patch: Partial<Record<PaceKey, number>> = {};
    const local: Record<string, string> = {};
    for (const p of PACES) {
      const n = parseDecimal(values[p.key]);
      if (!Number.isFinite(n))
        local[p.key] = t('paces.notNumber', { field: t(`paces.${p.key}`), unit: t(`units.${p.unitLabel}`) });
      else patch[p.key] = Math.round(n * p.unit);
    }
    if (Object.keys(local).length) {
      setProblems(local);
      return;
    }
    setSaving(true);
    try {
      await saveSettings(patch);
      setProblems({});
      setSaved(true);
    } catch (error) {
      setProblems(problemsByField(error));
    } finally {
      setSaving(false);
    }
  };

  return (
    <form
      className="card"
      onSubmit={(e) => perform(() => submit(e))}
      aria-labelledby={`${id}-title`}
      noValidate
    >
      <h2 id={`${id}-title`}>{t('paces.title')}</h2>
      <FormProblem problem={problems.form} />
      <div className="grid">
        {PACES.map((p) => (
          <NumberField
            key={p.key}
            id={`${id}-${p.key}`}
            label={t(`paces.${p.key}`)}
            value={values[p.key]}
            onChange={(value) => setValues({ ...values, [p.key]: value })}
            unit={t(`units.${p.unitLabel}`)}
            hint={t(`paces.${p.key}Hint`)}
            problem={problems[p.key]}
          />
        ))}
      </div>
      <SaveRow label={t('paces.save')} saving={saving} saved={saved} />
    </form>
  );
}

/** Where the wake proxy listens; it runs while a route has host names. */
function WakeProxySettings({ settings }: { settings: Settings }) {
  const { t } = useTranslation('settings');
  const saveSettings = useDashboard((s) => s.saveSettings);
  const perform = useDashboard((s) => s.perform);
  const url = useDashboard((s) => s.status?.wakeProxy.url ?? null);
  const hasHosts = useDashboard((s) => s.routes.some((r) => r.enabled && r.hosts.length > 0));
  const id = useId();
  const [port, setPort] = useState(String(settings.wakeProxyPort));
  const [address, setAddress] = useState(settings.wakeProxyAddress);
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [saved, setSaved] = useState(false);
  useUnsavedChanges(
    port !== String(settings.wakeProxyPort) || address !== settings.wakeProxyAddress,
    t('unsaved', { form: t('proxy.title') }),
  );
  useEffect(() => {
    setPort(String(settings.wakeProxyPort));
    setAddress(settings.wakeProxyAddress);
  }, [settings.wakeProxyPort, settings.wakeProxyAddress]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setSaved(false);
    const n = Number(port.trim());
    if (port.trim() === '' || !Number.isInteger(n)) {
      setProblems({ wakeProxyPort: t('proxy.portNotWhole') });
      return;
    }
    try {
      await saveSettings({ wakeProxyPort: n, wakeProxyAddress: address.trim() });
      setProblems({});
      setSaved(true);
    } catch (error) {
      setProblems(problemsByField(error));
    }
  };

  return (
    <form
      className="card"
      onSubmit={(e) => perform(() => submit(e))}
      aria-labelledby={`${id}-title`}
      noValidate
    >
      <h2 id={`${id}-title`}>{t('proxy.title')}</h2>
      <p>
        {url ? (
          <Trans t={t} i18nKey="proxy.listening" values={{ url }} components={[<code key="url" />]} />
        ) : hasHosts ? (
          t('proxy.notListening')
        ) : (
          t('proxy.off')
        )}
      </p>
      <FormProblem problem={problems.form} />
      <div className="grid">
        <NumberField
          id={`${id}-port`}
          label={t('proxy.port')}
          inputMode="numeric"
          value={port}
          onChange={setPort}
          hint={t('proxy.portHint')}
          problem={problems.wakeProxyPort}
        />
        <NumberField
          id={`${id}-address`}
          label={t('proxy.address')}
          inputMode="text"
          value={address}
          onChange={setAddress}
          hint={t('proxy.addressHint')}
          problem={problems.wakeProxyAddress}
        />
      </div>
      <SaveRow label={t('proxy.save')} saved={saved} />
    </form>
  );
}
