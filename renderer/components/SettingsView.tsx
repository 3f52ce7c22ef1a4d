/**
 * Settings: the kill switch and dry-run (applied at once), the paces and timeouts (validated, applied
 * together or not at all), and the credentials status (never the secret itself).
 */
import { type FormEvent, useEffect, useId, useState } from 'react';
import { ApiError } from '../../shared/api-errors.ts';
import { MINUTE, SECOND } from '../../shared/durations.ts';
import { InputError } from '../../shared/errors.ts';
import type { Settings } from '../../shared/settings.ts';
import { msTo } from '../lib/format.ts';
import { useDashboard } from '../store/context.tsx';
import { errorText } from '../store/dashboard-store.ts';
import { ConnectAccount } from './FirstRun.tsx';
import { FormProblem, NumberField, problemsByField, SaveRow, Switch } from './form.tsx';
import { HistorySavingsSettings, TeamAlerts } from './OperationsSettings.tsx';
import { TeamServerPanel } from './TeamServer.tsx';

type PaceKey =
  | 'intervalMs'
  | 'fastIntervalMs'
  | 'failTimeoutMs'
  | 'restartAfterMs'
  | 'releaseDelayMs'
  | 'holdDeadlineMs';

const PACES: { key: PaceKey; label: string; unit: number; unitLabel: string; hint: string }[] = [
  {
    key: 'intervalMs',
    label: 'Job interval',
    unit: SECOND,
    unitLabel: 's',
    hint: 'every app is looked at this often',
  },
  {
    key: 'fastIntervalMs',
    label: 'Fast interval',
    unit: SECOND,
    unitLabel: 's',
    hint: 'apps in transit and apps a request asked for',
  },
  {
    key: 'failTimeoutMs',
    label: 'Fail timeout',
    unit: MINUTE,
    unitLabel: 'min',
    hint: 'a stop or a start not completed by then puts the app in Error',
  },
  {
    key: 'restartAfterMs',
    label: 'Restart a vanished start after',
    unit: SECOND,
    unitLabel: 's',
    hint: 'the clock of the first start is kept',
  },
  {
    key: 'releaseDelayMs',
    label: 'Release delay',
    unit: MINUTE,
    unitLabel: 'min',
    hint: 'after a route change made elsewhere',
  },
  {
    key: 'holdDeadlineMs',
    label: 'Wake-proxy hold deadline',
    unit: SECOND,
    unitLabel: 's',
    hint: 'API clients get 503 after this',
  },
];

export function SettingsView() {
  const settings = useDashboard((s) => s.settings);
  const status = useDashboard((s) => s.status);
  if (!settings) return null;
  return (
    <section className="settings-view" aria-labelledby="settings-title">
      <div className="view-head">
        <h1 id="settings-title">Settings</h1>
      </div>
      <TeamServerPanel />
      <Switches settings={settings} />
      <Paces settings={settings} />
      <WakeProxySettings settings={settings} />
      <HistorySavingsSettings settings={settings} />
      <TeamAlerts settings={settings} />
      <section className="card" aria-labelledby="credentials-title">
        <h2 id="credentials-title">Clever Cloud account</h2>
        <Credentials />
      </section>
      <section className="card" aria-labelledby="about-title">
        <h2 id="about-title">About</h2>
        <p>
          Clever Reaper {status?.version}
          {status?.mode === 'demo' &&
            ` · demo, scenario ${status.scenario}${status.timeScale !== 1 ? `, time runs ${status.timeScale}× faster` : ''}`}
        </p>
      </section>
    </section>
  );
}

function Switches({ settings }: { settings: Settings }) {
  const setSwitch = useDashboard((s) => s.setSwitch);
  return (
    <section className="card" aria-labelledby="switches-title">
      <h2 id="switches-title">Sleeping</h2>
      <Switch big checked={settings.killSwitch} onChange={(on) => void setSwitch('killSwitch', on)}>
        <span>
          <strong>Kill switch</strong>
          <span className="hint">No app is put to sleep while it is on. Wakes still happen.</span>
        </span>
      </Switch>
      <Switch big checked={settings.dryRun} onChange={(on) => void setSwitch('dryRun', on)}>
        <span>
          <strong>Dry-run</strong>
          <span className="hint">
            Each sleep the reaper would do is recorded in the history, and nothing is stopped.
          </span>
        </span>
      </Switch>
    </section>
  );
}

function Paces({ settings }: { settings: Settings }) {
  const saveSettings = useDashboard((s) => s.saveSettings);
  const id = useId();
  const initial = () =>
    Object.fromEntries(PACES.map((p) => [p.key, msTo(settings[p.key], p.unit)])) as Record<PaceKey, string>;
  const [values, setValues] = useState(initial);
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [saved, setSaved] = useState(false);
  const [saving, setSaving] = useState(false);

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
      const n = Number(values[p.key]);
      if (values[p.key].trim() === '' || !Number.isFinite(n)) local[p.key] = 'a number';
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
    <form className="card" onSubmit={(e) => void submit(e)} aria-labelledby={`${id}-title`} noValidate>
      <h2 id={`${id}-title`}>Paces and timeouts</h2>
      <FormProblem problem={problems.form} />
      <div className="grid">
        {PACES.map((p) => (
          <NumberField
            key={p.key}
            id={`${id}-${p.key}`}
            label={p.label}
            value={values[p.key]}
            onChange={(value) => setValues({ ...values, [p.key]: value })}
            unit={p.unitLabel}
            hint={p.hint}
            problem={problems[p.key]}
          />
        ))}
      </div>
      <SaveRow label="Save the paces" saving={saving} saved={saved} />
    </form>
  );
}

/** Where the wake proxy listens; it runs while a route has host names. */
function WakeProxySettings({ settings }: { settings: Settings }) {
  const saveSettings = useDashboard((s) => s.saveSettings);
  const url = useDashboard((s) => s.status?.wakeProxy.url ?? null);
  const hasHosts = useDashboard((s) => s.routes.some((r) => r.enabled && r.hosts.length > 0));
  const id = useId();
  const [port, setPort] = useState(String(settings.wakeProxyPort));
  const [address, setAddress] = useState(settings.wakeProxyAddress);
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    setPort(String(settings.wakeProxyPort));
    setAddress(settings.wakeProxyAddress);
  }, [settings.wakeProxyPort, settings.wakeProxyAddress]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setSaved(false);
    const n = Number(port);
    if (port.trim() === '' || !Number.isInteger(n)) {
      setProblems({ wakeProxyPort: 'a whole number' });
      return;
    }
    try {
      await saveSettings({ wakeProxyPort: n, wakeProxyAddress: address.trim() });
      setProblems({});
      setSaved(true);
    } catch (error) {
      const list = error instanceof ApiError || error instanceof InputError ? error.problems : [];
      setProblems(
        list.length
          ? Object.fromEntries(list.map((p) => [p.field || 'form', p.message]))
          : { form: errorText(error) },
      );
    }
  };

  return (
    <form className="card" onSubmit={(e) => void submit(e)} aria-labelledby={`${id}-title`} noValidate>
      <h2 id={`${id}-title`}>Wake proxy</h2>
      <p>
        {url ? (
          <>
            Listening on <code>{url}</code>: point the host names of your routes at it.
          </>
        ) : hasHosts ? (
          'Not listening (see the problem above).'
        ) : (
          'Off: it starts when a route has host names.'
        )}
      </p>
      <FormProblem problem={problems.form} />
      <div className="grid">
        <NumberField
          id={`${id}-port`}
          label="Port"
          inputMode="numeric"
          value={port}
          onChange={setPort}
          hint="0 picks a free port"
          problem={problems.wakeProxyPort}
        />
        <NumberField
          id={`${id}-address`}
          label="Address"
          inputMode="text"
          value={address}
          onChange={setAddress}
          hint="127.0.0.1: this machine only"
          problem={problems.wakeProxyAddress}
        />
      </div>
      <SaveRow label="Save the wake proxy" saved={saved} />
    </form>
  );
}

function Credentials() {
  const status = useDashboard((s) => s.status);
  const startDemo = useDashboard((s) => s.startDemo);
  const toast = useDashboard((s) => s.toast);
  if (!status) return null;
  const c = status.credentials;
  return (
    <>
      <dl className="facts">
        <dt>Mode</dt>
        <dd>
          {status.mode === 'demo'
            ? 'Demo: the embedded simulator stands in for Clever Cloud'
            : status.mode === 'account'
              ? 'Your Clever Cloud account'
              : 'No account connected'}
        </dd>
        <dt>Credentials</dt>
        <dd>
          {c.state === 'connected'
            ? `connected${c.account ? ` as ${c.account}` : ''}${c.source ? `, from ${SOURCE_NAMES[c.source]}` : ''}`
            : c.state === 'invalid'
              ? 'refused by Clever Cloud'
              : 'none'}
        </dd>
        {c.storage && (
          <>
            <dt>Kept in</dt>
            <dd>{c.storage}</dd>
          </>
        )}
        {c.problem && (
          <>
            <dt>Note</dt>
            <dd className="warn">{c.problem}</dd>
          </>
        )}
      </dl>
      {c.canConnect && <ConnectAccount />}
      {status.mode !== 'demo' && (
        <button type="button" onClick={() => startDemo().catch((e: unknown) => toast('error', errorText(e)))}>
          Switch to the demo
        </button>
      )}
    </>
  );
}

const SOURCE_NAMES = {
  environment: 'CLEVER_TOKEN / CLEVER_SECRET',
  'clever-tools': 'the clever-tools login',
  pasted: 'a pasted token',
} as const;
