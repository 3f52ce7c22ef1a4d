/**
 * The history across apps (released ones too): every transition and action with when, why and who
 * acted; filters (app, state, cause, actor, kind, time range) that apply as they change, pages newest
 * first, and the filtered history as a CSV or JSON file: the download holds what the screen shows.
 */
import { useCallback, useEffect, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ACTORS, HISTORY_KINDS, REAPER_STATES } from '../../../shared/domain.ts';
import { CAUSE_FILTERS, type ExportFormat, type HistoryPage } from '../../../shared/history.ts';
import { fullTime } from '../../lib/format.ts';
import { type Form, formOf, isEmpty, paramsOf, rangeProblem, toFilter } from '../../lib/history-filters.ts';
import { reasonText } from '../../lib/reasons.ts';
import { useApi, useDashboard } from '../../store/context.tsx';
import { errorText } from '../../store/dashboard-store.ts';
import { AppCombobox } from '../common/AppCombobox.tsx';

const PAGE_SIZE = 50;

/** The catalogue key of each CAUSE_FILTERS entry, in its order (history.test.tsx checks they agree). */
export const CAUSE_KEYS = [
  'stopTimeout',
  'startTimeout',
  'startFailed',
  'unsafeLastDeployment',
  'neverDeployed',
  'unexpectedState',
] as const;

export function HistoryView() {
  const { t } = useTranslation(['history', 'common']);
  const api = useApi();
  const apps = useDashboard((s) => s.apps);
  const pushed = useDashboard((s) => s.historyEvents);
  const toast = useDashboard((s) => s.toast);
  const perform = useDashboard((s) => s.perform);
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
  const problem = rangeProblem(form);

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
    perform(load);
  }, [load, seen, perform]);

  const appOptions = useMemo(
    () =>
      Object.values(apps)
        .map((a) => ({ id: a.appId, name: a.name }))
        .sort((a, b) => a.name.localeCompare(b.name)),
    [apps],
  );
  // An app filtered on from a row may be released: still offered by its name.
  const filteredName = page?.entries.find((e) => e.appId === form.appId)?.appName;

  /** A filter changed: applied at once, unless its time range is backwards (said at the field). */
  const change = (next: Form) => {
    setForm(next);
    if (rangeProblem(next)) return;
    setParams(paramsOf(next));
    setCursors([undefined]);
    setSeen(pushed);
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
      toast('error', t('exportFailed', { error: errorText(e) }));
    } finally {
      setExporting(null);
    }
  };

  const fresh = pushed - seen;
  const field = (key: keyof Form) => ({
    id: `${id}-${key}`,
    value: form[key],
    onChange: (e: { target: { value: string } }) => change({ ...form, [key]: e.target.value }),
  });
  const filtered = !isEmpty(formOf(params));
  const clear = () => change(formOf({}));

  return (
    <section className="history-view" aria-labelledby={`${id}-title`}>
      <div className="view-head">
        <h1 id={`${id}-title`}>{t('title')}</h1>
        <p className="muted">{t('intro', { days: retention })}</p>
        {api.exportHistory && (
          <div className="row-of-buttons" title={t('downloadHint')}>
            <button
              type="button"
              disabled={exporting !== null}
              onClick={() => perform(() => download('csv'))}
            >
              {exporting === 'csv' ? t('exporting') : t('downloadCsv')}
            </button>
            <button
              type="button"
              disabled={exporting !== null}
              onClick={() => perform(() => download('json'))}
            >
              {exporting === 'json' ? t('exporting') : t('downloadJson')}
            </button>
          </div>
        )}
      </div>

      <form
        className="card history-filters"
        onSubmit={(e) => e.preventDefault()}
        aria-label={t('filters.label')}
        noValidate
      >
        <div className="filter">
          <label htmlFor={`${id}-appId`}>{t('filters.app')}</label>
          <AppCombobox
            id={`${id}-appId`}
            options={appOptions}
            value={form.appId}
            onChange={(appId) => change({ ...form, appId })}
            allLabel={t('filters.allApps')}
            {...(filteredName ? { valueName: filteredName } : {})}
          />
        </div>
        <div className="filter">
          <label htmlFor={`${id}-state`}>{t('filters.state')}</label>
          <select {...field('state')}>
            <option value="">{t('filters.any')}</option>
            {REAPER_STATES.map((s) => (
              <option key={s} value={s}>
                {t(`common:states.${s}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="filter">
          <label htmlFor={`${id}-cause`}>{t('filters.cause')}</label>
          <select {...field('cause')}>
            <option value="">{t('filters.any')}</option>
            {CAUSE_FILTERS.map((c, i) => (
              <option key={c.prefix} value={c.prefix}>
                {CAUSE_KEYS[i] ? t(`cause.${CAUSE_KEYS[i]}`) : c.label}
              </option>
            ))}
          </select>
        </div>
        <div className="filter">
          <label htmlFor={`${id}-actor`}>{t('filters.actor')}</label>
          <select {...field('actor')}>
            <option value="">{t('filters.anyone')}</option>
            {ACTORS.map((a) => (
              <option key={a} value={a}>
                {t(`common:actors.${a}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="filter">
          <label htmlFor={`${id}-kind`}>{t('filters.kind')}</label>
          <select {...field('kind')}>
            <option value="">{t('filters.any')}</option>
            {HISTORY_KINDS.map((k) => (
              <option key={k} value={k}>
                {t(`common:historyKinds.${k}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="filter">
          <label htmlFor={`${id}-from`}>{t('filters.from')}</label>
          <input
            type="datetime-local"
            {...field('from')}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? `${id}-range` : undefined}
          />
          {problem && (
            <span className="field-error" id={`${id}-range`} role="alert">
              {t('filters.fromAfterTo', { from: fullTime(problem.from), to: fullTime(problem.to) })}
            </span>
          )}
        </div>
        <div className="filter">
          <label htmlFor={`${id}-to`}>{t('filters.to')}</label>
          <input
            type="datetime-local"
            {...field('to')}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? `${id}-range` : undefined}
          />
        </div>
        <div className="filter-actions">
          <button type="button" disabled={!filtered && isEmpty(form)} onClick={clear}>
            {t('filters.clear')}
          </button>
        </div>
      </form>

      {fresh > 0 && cursors.length === 1 && (
        <p className="new-entries" role="status">
          {t('fresh', { count: fresh })}{' '}
          <button type="button" className="link" onClick={() => setSeen(pushed)}>
            {t('showThem')}
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
          <caption className="visually-hidden">{t('table.caption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('table.time')}</th>
              <th scope="col">{t('table.app')}</th>
              <th scope="col">{t('table.what')}</th>
              <th scope="col">{t('table.who')}</th>
              <th scope="col">{t('table.why')}</th>
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
                    title={t('table.onlyThisApp')}
                    onClick={() => change({ ...form, appId: h.appId })}
                  >
                    {h.appName}
                  </button>
                  {!apps[h.appId] && <span className="muted">{t('table.released')}</span>}
                </td>
                <td className="what">
                  {h.kind !== 'transition' && (
                    <span className="kind">{t(`common:historyKinds.${h.kind}`)}</span>
                  )}
                  {(h.from !== null || h.to !== null) && (
                    <span>
                      {h.kind !== 'transition' ? ': ' : ''}
                      {h.from ? `${t(`common:states.${h.from}`)} → ` : '→ '}
                      {h.to ? t(`common:states.${h.to}`) : t('table.releasedTo')}
                    </span>
                  )}
                </td>
                <td>
                  <span className={`actor actor-${h.actor}`}>{t(`common:actors.${h.actor}`)}</span>
                  {h.by && (
                    <span className="by">
                      {' '}
                      {t('common:byPerson', { name: h.by.name, via: t(`common:vias.${h.by.via}`) })}
                    </span>
                  )}
                </td>
                <td className="reason" title={h.reason}>
                  {reasonText(h.reason)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {page && page.entries.length === 0 && cursors.length === 1 && (
          <div className="empty" role="status">
            {filtered ? (
              <p>
                {t('empty.noMatch')}{' '}
                <button type="button" className="link" onClick={clear}>
                  {t('filters.clear')}
                </button>
              </p>
            ) : (
              <p>{t('empty.nothingYet')}</p>
            )}
          </div>
        )}
      </div>

      <nav className="pager" aria-label={t('pager.label')}>
        <button
          type="button"
          disabled={cursors.length === 1 || loading}
          onClick={() => setCursors(cursors.slice(0, -1))}
        >
          {t('pager.newer')}
        </button>
        <span className="muted">{t('pager.page', { page: cursors.length })}</span>
        <button
          type="button"
          disabled={!page?.nextCursor || loading}
          onClick={() => page?.nextCursor && setCursors([...cursors, page.nextCursor])}
        >
          {t('pager.older')}
        </button>
      </nav>
    </section>
  );
}
