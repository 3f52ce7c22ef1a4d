/**
 * The history across apps (released ones too): every transition and action with when, why and who
 * acted; filters (app, state, cause, actor, kind, time range), pages newest first, and the filtered
 * history as a CSV or JSON file.
 */
import { type FormEvent, useCallback, useEffect, useId, useMemo, useState } from 'react';
import { ACTORS, CONSOLE_LABELS, HISTORY_KINDS, REAPER_STATES } from '../../shared/domain.ts';
import {
  CAUSE_FILTERS,
  type ExportFormat,
  type HistoryFilter,
  type HistoryPage,
} from '../../shared/history.ts';
import { fullTime, KIND_LABELS } from '../lib/format.ts';
import type { HistoryParams } from '../lib/url-state.ts';
import { useApi, useDashboard } from '../store/context.tsx';
import { errorText } from '../store/dashboard-store.ts';
import { AppCombobox } from './AppCombobox.tsx';

interface Form {
  appId: string;
  state: string;
  cause: string;
  actor: string;
  kind: string;
  from: string;
  to: string;
}

const EMPTY: Form = { appId: '', state: '', cause: '', actor: '', kind: '', from: '', to: '' };
const PAGE_SIZE = 50;

/** The form of the filters the URL holds (#/history?app=...&cause=...). */
function formOf(params: HistoryParams): Form {
  const { app, ...rest } = params;
  return { ...EMPTY, ...rest, appId: app ?? '' };
}

function paramsOf(form: Form): HistoryParams {
  const { appId, ...rest } = form;
  const params: HistoryParams = { app: appId, ...rest };
  for (const key of Object.keys(params) as (keyof HistoryParams)[]) if (!params[key]) delete params[key];
  return params;
}

/** The form as the API's filter: empty fields left out, local date-times as instants. */
function toFilter(form: Form): HistoryFilter {
  const filter: Record<string, unknown> = {};
  for (const key of ['appId', 'state', 'cause', 'actor', 'kind'] as const)
    if (form[key]) filter[key] = form[key];
  for (const key of ['from', 'to'] as const) {
    const t = form[key] ? new Date(form[key]).getTime() : Number.NaN;
    if (!Number.isNaN(t)) filter[key] = t;
  }
  return filter as HistoryFilter;
}

export function HistoryView() {
  const api = useApi();
  const apps = useDashboard((s) => s.apps);
  const pushed = useDashboard((s) => s.historyEvents);
  const toast = useDashboard((s) => s.toast);
  const retention = useDashboard((s) => s.settings?.historyRetentionDays ?? 180);
  const params = useDashboard((s) => s.historyParams);
  const setParams = useDashboard((s) => s.setHistoryParams);
  const id = useId();
  const [form, setForm] = useState<Form>(() => formOf(params));
  const filter = useMemo(() => toFilter(formOf(params)), [params]);
  /** Cursors of the pages before the current one; the current page's cursor is the last. */
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const [page, setPage] = useState<HistoryPage | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [seen, setSeen] = useState(pushed);
  const [exporting, setExporting] = useState<ExportFormat | null>(null);
  const cursor = cursors.at(-1);

  // The filters changed in the URL (Back, Forward, a link): the form shows them, from the first page.
  useEffect(() => {
    setForm(formOf(params));
    setCursors([undefined]);
  }, [params]);

  const load = useCallback(async () => {
    setLoading(true);
    setError(null);
    try {
      const next = await api.historyQuery({ ...filter, limit: PAGE_SIZE, ...(cursor ? { cursor } : {}) });
      setPage(next);
    } catch (e) {
      setError(errorText(e));
    } finally {
      setLoading(false);
    }
  }, [api, filter, cursor]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `seen` moves when "show the new entries" is used
  useEffect(() => {
    void load();
  }, [load, seen]);

  const appOptions = useMemo(
    () =>
      Object.values(apps)
        .map((a) => ({ id: a.appId, name: a.name }))
        .sort((a, b) => a.name.localeCompare(b.name)),
    [apps],
  );
  // An app filtered on from a row may be released: still offered by its name.
  const filteredName = page?.entries.find((e) => e.appId === form.appId)?.appName;

  const apply = (next: Form) => {
    setForm(next);
    setParams(paramsOf(next));
    setCursors([undefined]);
    setSeen(pushed);
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    apply(form);
  };

  const download = async (format: ExportFormat) => {
    if (!api.exportHistory) return;
    setExporting(format);
    try {
      const { blob, filename } = await api.exportHistory(format, filter);
      const url = URL.createObjectURL(blob);
      const a = document.createElement('a');
      a.href = url;
      a.download = filename;
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (e) {
      toast('error', `the export failed: ${errorText(e)}`);
    } finally {
      setExporting(null);
    }
  };

  const fresh = pushed - seen;
  const field = (key: keyof Form) => ({
    id: `${id}-${key}`,
    value: form[key],
    onChange: (e: { target: { value: string } }) => setForm({ ...form, [key]: e.target.value }),
  });

  return (
    <section className="history-view" aria-labelledby={`${id}-title`}>
      <div className="view-head">
        <h1 id={`${id}-title`}>History</h1>
        <p className="muted">
          Every transition and action of every app, released ones included: when, why and who acted. Kept{' '}
          {retention} days (see Settings).
        </p>
        {api.exportHistory && (
          <div className="row-of-buttons">
            <button type="button" disabled={exporting !== null} onClick={() => void download('csv')}>
              {exporting === 'csv' ? 'Exporting…' : 'Download CSV'}
            </button>
            <button type="button" disabled={exporting !== null} onClick={() => void download('json')}>
              {exporting === 'json' ? 'Exporting…' : 'Download JSON'}
            </button>
          </div>
        )}
      </div>

      <form className="card history-filters" onSubmit={submit} aria-label="Filters">
        <div className="filter">
          <label htmlFor={`${id}-appId`}>App</label>
          <AppCombobox
            id={`${id}-appId`}
            options={appOptions}
            value={form.appId}
            onChange={(appId) => setForm({ ...form, appId })}
            allLabel="All apps"
            {...(filteredName ? { valueName: filteredName } : {})}
          />
        </div>
        <div className="filter">
          <label htmlFor={`${id}-state`}>State</label>
          <select {...field('state')}>
            <option value="">Any</option>
            {REAPER_STATES.map((s) => (
              <option key={s} value={s}>
                {CONSOLE_LABELS[s]}
              </option>
            ))}
          </select>
        </div>
        <div className="filter">
          <label htmlFor={`${id}-cause`}>Error cause</label>
          <select {...field('cause')}>
            <option value="">Any</option>
            {CAUSE_FILTERS.map((c) => (
              <option key={c.prefix} value={c.prefix}>
                {c.label}
              </option>
            ))}
          </select>
        </div>
        <div className="filter">
          <label htmlFor={`${id}-actor`}>Who acted</label>
          <select {...field('actor')}>
            <option value="">Anyone</option>
            {ACTORS.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </select>
        </div>
        <div className="filter">
          <label htmlFor={`${id}-kind`}>Kind</label>
          <select {...field('kind')}>
            <option value="">Any</option>
            {HISTORY_KINDS.map((k) => (
              <option key={k} value={k}>
                {k === 'transition' ? 'transition' : KIND_LABELS[k]}
              </option>
            ))}
          </select>
        </div>
        <div className="filter">
          <label htmlFor={`${id}-from`}>From</label>
          <input type="datetime-local" {...field('from')} />
        </div>
        <div className="filter">
          <label htmlFor={`${id}-to`}>To</label>
          <input type="datetime-local" {...field('to')} />
        </div>
        <div className="filter-actions">
          <button type="submit" className="primary">
            Filter
          </button>
          <button type="button" onClick={() => apply(EMPTY)}>
            Clear
          </button>
        </div>
      </form>

      {fresh > 0 && cursors.length === 1 && (
        <p className="new-entries" role="status">
          {fresh} new {fresh === 1 ? 'entry' : 'entries'} since this page was loaded.{' '}
          <button type="button" className="link" onClick={() => setSeen(pushed)}>
            Show them
          </button>
        </p>
      )}
      {error && (
        <p className="callout danger" role="alert">
          {error}
        </p>
      )}

      <div className="table-wrap">
        <table className="history-table" aria-busy={loading}>
          <caption className="visually-hidden">History, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Time</th>
              <th scope="col">App</th>
              <th scope="col">What</th>
              <th scope="col">Who</th>
              <th scope="col">Why</th>
            </tr>
          </thead>
          <tbody>
            {page?.entries.map((h) => (
              <tr key={h.id} className={`kind-${h.kind}${h.to === 'Error' ? ' into-error' : ''}`}>
                <td className="time">
                  <time dateTime={new Date(h.at).toISOString()}>{fullTime(h.at)}</time>
                </td>
                <td>
                  <button
                    type="button"
                    className="link"
                    title="Show this app only"
                    onClick={() => apply({ ...form, appId: h.appId })}
                  >
                    {h.appName}
                  </button>
                  {!apps[h.appId] && <span className="muted"> (released)</span>}
                </td>
                <td className="what">
                  {h.kind !== 'transition' && <span className="kind">{KIND_LABELS[h.kind]}</span>}
                  {(h.from !== null || h.to !== null) && (
                    <span>
                      {h.kind !== 'transition' ? ': ' : ''}
                      {h.from ? `${CONSOLE_LABELS[h.from]} → ` : '→ '}
                      {h.to ? CONSOLE_LABELS[h.to] : 'released'}
                    </span>
                  )}
                </td>
                <td>
                  <span className={`actor actor-${h.actor}`}>{h.actor}</span>
                </td>
                <td className="reason">{h.reason}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {page && page.entries.length === 0 && <p className="empty">No entry matches these filters.</p>}
      </div>

      <nav className="pager" aria-label="Pages">
        <button
          type="button"
          disabled={cursors.length === 1 || loading}
          onClick={() => setCursors(cursors.slice(0, -1))}
        >
          ← Newer
        </button>
        <span className="muted">Page {cursors.length}</span>
        <button
          type="button"
          disabled={!page?.nextCursor || loading}
          onClick={() => page?.nextCursor && setCursors([...cursors, page.nextCursor])}
        >
          Older →
        </button>
      </nav>
    </section>
  );
}
