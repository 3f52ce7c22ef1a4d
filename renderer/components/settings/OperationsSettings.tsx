/**
 * Settings for operators: how long the history is kept and how the savings are priced, and the team
 * alert webhooks (generic JSON or Slack-compatible) with "Send a test" and their delivery status.
 */
import { type FormEvent, useCallback, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PRICE_FACTS } from '../../../shared/savings.ts';
import { FLAVOR_PRICE_UNITS, type FlavorPriceUnit, type Settings } from '../../../shared/settings.ts';
import {
  MAX_WEBHOOKS,
  WEBHOOK_EVENTS,
  WEBHOOK_FORMATS,
  type WebhookConfig,
  type WebhookEvent,
  type WebhookStatus,
  type WebhookTestResult,
} from '../../../shared/webhooks.ts';
import { parseDecimal } from '../../lib/decimal.ts';
import { fullTime } from '../../lib/format.ts';
import { useUnsavedChanges } from '../../lib/unsaved-changes.ts';
import { useApi, useDashboard } from '../../store/context.tsx';
import { errorText } from '../../store/dashboard-store.ts';
import { FormProblem, NumberField, problemsByField, SaveRow } from '../common/form.tsx';

const STATUS_REFRESH_MS = 10_000;

const UNIT_KEYS = {
  'drops-per-10-min': 'historySavings.unitDrops',
  'eur-per-hour': 'historySavings.unitEuros',
} as const satisfies Record<FlavorPriceUnit, string>;

/** The formats by their names (the same in every language). */
const FORMAT_NAMES = { json: 'JSON', slack: 'Slack' } as const satisfies Record<
  WebhookConfig['format'],
  string
>;

/** A webhook URL's form (the same in every language). */
const EXAMPLE_WEBHOOK = 'https://hooks.slack.com/services/…';

export function HistorySavingsSettings({ settings }: { settings: Settings }) {
  const { t } = useTranslation('settings');
  const saveSettings = useDashboard((s) => s.saveSettings);
  const perform = useDashboard((s) => s.perform);
  const id = useId();
  const initial = () => ({
    retention: String(settings.historyRetentionDays),
    unit: settings.flavorPriceUnit,
    eurPerDrop: String(settings.eurPerDrop),
  });
  const [values, setValues] = useState(initial);
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [saved, setSaved] = useState(false);
  const stored = initial();
  useUnsavedChanges(
    values.retention !== stored.retention ||
      values.unit !== stored.unit ||
      values.eurPerDrop !== stored.eurPerDrop,
    t('unsaved', { form: t('historySavings.title') }),
  );

  // biome-ignore lint/correctness/useExhaustiveDependencies: only when the settings change elsewhere
  useEffect(() => {
    setValues(initial());
  }, [settings.historyRetentionDays, settings.flavorPriceUnit, settings.eurPerDrop]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setSaved(false);
    const retention = parseDecimal(values.retention);
    const eurPerDrop = parseDecimal(values.eurPerDrop);
    const local: Record<string, string> = {};
    if (!Number.isFinite(retention)) local.historyRetentionDays = t('historySavings.retentionNotNumber');
    if (!Number.isFinite(eurPerDrop)) local.eurPerDrop = t('historySavings.dropNotNumber');
    if (Object.keys(local).length) return setProblems(local);
    try {
      await saveSettings({
        historyRetentionDays: retention,
        flavorPriceUnit: values.unit,
        eurPerDrop,
      });
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
      <h2 id={`${id}-title`}>{t('historySavings.title')}</h2>
      <FormProblem problem={problems.form} />
      <div className="grid">
        <NumberField
          id={`${id}-retention`}
          label={t('historySavings.retention')}
          inputMode="numeric"
          value={values.retention}
          onChange={(retention) => setValues({ ...values, retention })}
          unit={t('units.days')}
          hint={t('historySavings.retentionHint')}
          problem={problems.historyRetentionDays}
        />
        <div className="pace">
          <label htmlFor={`${id}-unit`}>{t('historySavings.unit')}</label>
          <select
            id={`${id}-unit`}
            value={values.unit}
            onChange={(e) => setValues({ ...values, unit: e.target.value as FlavorPriceUnit })}
            aria-describedby={`${id}-unit-hint`}
          >
            {FLAVOR_PRICE_UNITS.map((u) => (
              <option key={u} value={u}>
                {t(UNIT_KEYS[u])}
              </option>
            ))}
          </select>
          <span className="hint" id={`${id}-unit-hint`}>
            {t('historySavings.unitHint')}
          </span>
        </div>
        <NumberField
          id={`${id}-drop`}
          label={t('historySavings.drop')}
          value={values.eurPerDrop}
          disabled={values.unit !== 'drops-per-10-min'}
          onChange={(eurPerDrop) => setValues({ ...values, eurPerDrop })}
          unit={t('units.eur')}
          hint={t('historySavings.dropHint')}
          problem={problems.eurPerDrop}
        />
      </div>
      <details className="sources">
        <summary>{t('historySavings.sources')}</summary>
        <p className="muted">
          {t('historySavings.field', { field: PRICE_FACTS.field, reading: PRICE_FACTS.defaultReading })}
        </p>
        <ul className="plain muted">
          {PRICE_FACTS.sources.map((s) => (
            <li key={s}>{s}</li>
          ))}
          <li>{t('historySavings.against', { against: PRICE_FACTS.against })}</li>
        </ul>
      </details>
      <SaveRow label={t('historySavings.save')} saved={saved} />
    </form>
  );
}

interface Row extends WebhookConfig {
  key: number;
}

let rowKey = 0;

/** Whether the rows differ from the saved webhooks (a row added, removed or edited). */
function webhooksChanged(rows: readonly Row[], saved: readonly WebhookConfig[]): boolean {
  if (rows.length !== saved.length) return true;
  return rows.some((r, i) => {
    const s = saved[i]!;
    return r.url !== s.url || r.format !== s.format || r.events.join() !== s.events.join();
  });
}
const toRows = (list: readonly WebhookConfig[]): Row[] =>
  list.map((w) => ({ ...w, events: [...w.events], key: ++rowKey }));

export function TeamAlerts({ settings }: { settings: Settings }) {
  const { t } = useTranslation('settings');
  const api = useApi();
  const saveSettings = useDashboard((s) => s.saveSettings);
  const perform = useDashboard((s) => s.perform);
  const id = useId();
  const [rows, setRows] = useState<Row[]>(() => toRows(settings.webhooks));
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [saved, setSaved] = useState(false);
  const [status, setStatus] = useState<WebhookStatus[]>([]);
  const [tests, setTests] = useState<Record<number, WebhookTestResult | 'sending'>>({});
  useUnsavedChanges(webhooksChanged(rows, settings.webhooks), t('unsaved', { form: t('alerts.title') }));

  // Changed elsewhere (another window, the admin API): the saved list again.
  useEffect(() => {
    setRows(toRows(settings.webhooks));
  }, [settings.webhooks]);

  const refresh = useCallback(async () => {
    try {
      setStatus(await api.webhookStatus());
    } catch {
      // Shown as "no delivery yet"; the next refresh tries again.
    }
  }, [api]);

  useEffect(() => {
    perform(refresh);
    const timer = setInterval(() => perform(refresh), STATUS_REFRESH_MS);
    return () => clearInterval(timer);
  }, [refresh, perform]);

  const change = (key: number, patch: Partial<WebhookConfig>) =>
    setRows(rows.map((r) => (r.key === key ? { ...r, ...patch } : r)));

  const toggle = (row: Row, event: WebhookEvent, on: boolean) =>
    change(row.key, {
      events: on
        ? WEBHOOK_EVENTS.filter((e) => e === event || row.events.includes(e))
        : row.events.filter((e) => e !== event),
    });

  const save = async (e: FormEvent) => {
    e.preventDefault();
    setSaved(false);
    try {
      await saveSettings({
        webhooks: rows.map(({ url, format, events }) => ({ url: url.trim(), format, events })),
      });
      setProblems({});
      setSaved(true);
      await refresh();
    } catch (error) {
      setProblems(problemsByField(error));
    }
  };

  const test = async (row: Row) => {
    setTests({ ...tests, [row.key]: 'sending' });
    try {
      const result = await api.testWebhook({ url: row.url.trim(), format: row.format });
      setTests((t) => ({ ...t, [row.key]: result }));
    } catch (error) {
      setTests((t) => ({
        ...t,
        [row.key]: { ok: false, status: null, error: errorText(error), durationMs: 0 },
      }));
    }
    await refresh();
  };

  return (
    <form
      className="card team-alerts"
      onSubmit={(e) => perform(() => save(e))}
      aria-labelledby={`${id}-title`}
      noValidate
    >
      <h2 id={`${id}-title`}>{t('alerts.title')}</h2>
      <p className="muted">{t('alerts.intro')}</p>
      {problems.form && (
        <p className="callout danger" role="alert">
          {problems.form}
        </p>
      )}
      {problems.webhooks && (
        <p className="field-error" role="alert">
          {problems.webhooks}
        </p>
      )}
      {rows.length === 0 && <p className="muted">{t('alerts.none')}</p>}
      <ul className="webhooks">
        {rows.map((row, i) => {
          const s = status.find((x) => x.url === row.url.trim());
          const sent = tests[row.key];
          const urlProblem = problems[`webhooks.${i}.url`];
          const eventsProblem = problems[`webhooks.${i}.events`];
          return (
            <li key={row.key}>
              <div className="webhook-line">
                <label className="visually-hidden" htmlFor={`${id}-url-${row.key}`}>
                  {t('alerts.url', { n: i + 1 })}
                </label>
                <input
                  id={`${id}-url-${row.key}`}
                  className="webhook-url"
                  type="url"
                  placeholder={EXAMPLE_WEBHOOK}
                  value={row.url}
                  onChange={(e) => change(row.key, { url: e.target.value })}
                  aria-invalid={urlProblem ? true : undefined}
                />
                <label className="visually-hidden" htmlFor={`${id}-format-${row.key}`}>
                  {t('alerts.format', { n: i + 1 })}
                </label>
                <select
                  id={`${id}-format-${row.key}`}
                  value={row.format}
                  onChange={(e) => change(row.key, { format: e.target.value as WebhookConfig['format'] })}
                >
                  {WEBHOOK_FORMATS.map((f) => (
                    <option key={f} value={f}>
                      {FORMAT_NAMES[f]}
                    </option>
                  ))}
                </select>
                <fieldset className="events">
                  <legend className="visually-hidden">{t('alerts.events', { n: i + 1 })}</legend>
                  {WEBHOOK_EVENTS.map((ev) => (
                    <label key={ev} className="check">
                      <input
                        type="checkbox"
                        checked={row.events.includes(ev)}
                        onChange={(e) => toggle(row, ev, e.target.checked)}
                      />
                      {t(`alerts.event.${ev}`)}
                    </label>
                  ))}
                </fieldset>
                <button
                  type="button"
                  disabled={sent === 'sending' || !row.url.trim()}
                  onClick={() => perform(() => test(row))}
                >
                  {sent === 'sending' ? t('alerts.sending') : t('alerts.test')}
                </button>
                <button
                  type="button"
                  className="danger-outline"
                  onClick={() => setRows(rows.filter((r) => r.key !== row.key))}
                >
                  {t('alerts.remove')}
                  <span className="visually-hidden">{t('alerts.removeWhich', { n: i + 1 })}</span>
                </button>
              </div>
              {(urlProblem || eventsProblem) && <p className="field-error">{urlProblem ?? eventsProblem}</p>}
              <p className="hint" aria-live="polite">
                {sent && sent !== 'sending' && (
                  <span className={sent.ok ? 'ok' : 'danger'}>
                    {sent.ok
                      ? t('alerts.testDelivered', { status: sent.status ?? '' })
                      : t('alerts.testFailed', { error: sent.error ?? '' })}{' '}
                  </span>
                )}
                {s ? <DeliveryStatus status={s} /> : t('alerts.noDelivery')}
              </p>
            </li>
          );
        })}
      </ul>
      <SaveRow label={t('alerts.save')} saved={saved}>
        <button
          type="button"
          disabled={rows.length >= MAX_WEBHOOKS}
          onClick={() => setRows([...rows, { url: '', format: 'json', events: ['error'], key: ++rowKey }])}
        >
          {t('alerts.add')}
        </button>
      </SaveRow>
    </form>
  );
}

function DeliveryStatus({ status }: { status: WebhookStatus }) {
  const { t } = useTranslation('settings');
  const parts: string[] = [];
  if (status.delivered || status.failed)
    parts.push(t('alerts.counts', { delivered: status.delivered, failed: status.failed }));
  if (status.pending) parts.push(t('alerts.waiting', { count: status.pending }));
  if (status.lastSuccessAt !== null)
    parts.push(t('alerts.lastSuccess', { at: fullTime(status.lastSuccessAt) }));
  if (status.lastFailureAt !== null) {
    const at = fullTime(status.lastFailureAt);
    parts.push(
      status.lastError
        ? t('alerts.lastFailureWhy', { at, error: status.lastError })
        : t('alerts.lastFailure', { at }),
    );
  }
  return <>{parts.length ? `${parts.join(' · ')}.` : t('alerts.noDelivery')}</>;
}
