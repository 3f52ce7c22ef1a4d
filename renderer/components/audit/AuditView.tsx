/**
 * The audit (issue 25): each configuration change (routes, rules, settings, the kill switch,
 * dry-run, tokens) with who made it, through what, when (the viewer's time), and what changed, field
 * by field, before → after (shared/audit-diff.ts: secrets never shown). Filtered by what, which one,
 * by whom, through what and between which days, in the server's datastore (a page is full whatever
 * the filter); the filters live in the URL (#/audit?who=alice&what=route: a link, a reload, Back).
 * A page of AUDIT_PAGE_SIZE at a time, older ones by the cursor (a page is all the table ever holds).
 * Its own chunk (Shell.tsx), never in the first screen's.
 */
import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { auditChanges } from '../../../shared/audit-diff.ts';
import { AUDIT_WHATS, type AuditEntry, type AuditFilter, VIAS } from '../../../shared/people.ts';
import {
  type AuditForm,
  auditFilterOf,
  auditFormOf,
  auditParamsOf,
  auditProblems,
} from '../../lib/audit-filters.ts';
import { fullTime } from '../../lib/format.ts';
import type { AuditParams } from '../../lib/url-state.ts';
import { useApi, useDashboard } from '../../store/context.tsx';
import { errorText } from '../../store/dashboard-store.ts';

export const AUDIT_PAGE_SIZE = 50;

export function AuditView() {
  const { t } = useTranslation(['history', 'common']);
  const api = useApi();
  const perform = useDashboard((s) => s.perform);
  const params = useDashboard((s) => s.auditParams);
  const setParams = useDashboard((s) => s.setAuditParams);
  const id = useId();
  const [form, setForm] = useState<AuditForm>(() => auditFormOf(params));
  // The same filter (a space typed after a name) asks nothing again.
  const filterKey = JSON.stringify(auditFilterOf(auditFormOf(params)));
  const filter = useMemo(() => JSON.parse(filterKey) as AuditFilter, [filterKey]);
  /** The `before` of each page shown so far; the current page's is the last. */
  const [pages, setPages] = useState<(number | undefined)[]>([undefined]);
  const [entries, setEntries] = useState<AuditEntry[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const before = pages.at(-1);
  const problems = auditProblems(form);

  /** The filters this form wrote last: those come back as params, the form keeps what is typed. */
  const written = useRef<AuditParams | null>(null);
  // The filters changed in the URL (Back, Forward, a link): the form shows them, from the first page.
  useEffect(() => {
    setPages([undefined]);
    if (params !== written.current) setForm(auditFormOf(params));
  }, [params]);

  const load = useCallback(async () => {
    if (!api.audit) return;
    setLoading(true);
    setError(null);
    try {
      setEntries(
        await api.audit({ limit: AUDIT_PAGE_SIZE, ...filter, ...(before !== undefined ? { before } : {}) }),
      );
    } catch (e) {
      setError(errorText(e));
    } finally {
      setLoading(false);
    }
  }, [api, filter, before]);

  useEffect(() => {
    perform(load);
  }, [load, perform]);

  if (!api.audit) {
    return (
      <section className="audit-view" aria-labelledby={`${id}-title`}>
        <h1 id={`${id}-title`}>{t('audit.title')}</h1>
        <p className="muted">{t('audit.notKept')}</p>
      </section>
    );
  }

  /** A filter changed: applied at once (into the URL), unless the form says what is wrong with it. */
  const change = (next: AuditForm) => {
    setForm(next);
    if (Object.keys(auditProblems(next)).length > 0) return;
    written.current = auditParamsOf(next);
    setParams(written.current);
    setPages([undefined]);
  };
  const field = (key: keyof AuditForm) => ({
    id: `${id}-${key}`,
    value: form[key],
    onChange: (e: { target: { value: string } }) => change({ ...form, [key]: e.target.value }),
  });
  const problem = (key: keyof typeof problems, text: string | null) =>
    text === null ? {} : { 'aria-invalid': true as const, 'aria-describedby': `${id}-${key}-problem` };
  const whoProblem = problems.who ? t('audit.problems.who') : null;
  const fromProblem =
    problems.from === 'reversed'
      ? t('audit.problems.reversed')
      : problems.from
        ? t('audit.problems.day')
        : null;
  const toProblem = problems.to ? t('audit.problems.day') : null;
  const filtered = Object.keys(params).length > 0;
  const oldest = entries?.at(-1)?.id;
  return (
    <section className="audit-view" aria-labelledby={`${id}-title`}>
      <h1 id={`${id}-title`}>{t('audit.title')}</h1>
      <p className="muted">{t('audit.intro')}</p>
      <form
        className="card history-filters audit-filters"
        onSubmit={(e) => e.preventDefault()}
        aria-label={t('audit.filtersLabel')}
        noValidate
      >
        <div className="filter">
          <label htmlFor={`${id}-what`}>{t('audit.what')}</label>
          <select {...field('what')}>
            <option value="">{t('audit.everything')}</option>
            {AUDIT_WHATS.map((w) => (
              <option key={w} value={w}>
                {t(`audit.whats.${w}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="filter">
          <label htmlFor={`${id}-target`}>{t('audit.target')}</label>
          <input type="search" placeholder={t('audit.targetPlaceholder')} {...field('target')} />
        </div>
        <div className="filter">
          <label htmlFor={`${id}-who`}>{t('audit.by')}</label>
          <input
            type="search"
            placeholder={t('audit.byPlaceholder')}
            autoCapitalize="none"
            spellCheck={false}
            {...field('who')}
            {...problem('who', whoProblem)}
          />
          {whoProblem && (
            <span className="field-error" id={`${id}-who-problem`}>
              {whoProblem}
            </span>
          )}
        </div>
        <div className="filter">
          <label htmlFor={`${id}-via`}>{t('audit.via')}</label>
          <select {...field('via')}>
            <option value="">{t('audit.anyWay')}</option>
            {VIAS.map((v) => (
              <option key={v} value={v}>
                {t(`common:vias.${v}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="filter">
          <label htmlFor={`${id}-from`}>{t('audit.from')}</label>
          <input type="date" {...field('from')} {...problem('from', fromProblem)} />
          {fromProblem && (
            <span className="field-error" id={`${id}-from-problem`}>
              {fromProblem}
            </span>
          )}
        </div>
        <div className="filter">
          <label htmlFor={`${id}-to`}>{t('audit.to')}</label>
          <input type="date" {...field('to')} {...problem('to', toProblem)} />
          {toProblem && (
            <span className="field-error" id={`${id}-to-problem`}>
              {toProblem}
            </span>
          )}
        </div>
        {filtered && (
          <button type="button" className="link" onClick={() => change(auditFormOf({}))}>
            {t('audit.clear')}
          </button>
        )}
      </form>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <div className="table-wrap">
        <table className="history-table audit-table" aria-busy={loading}>
          <thead>
            <tr>
              <th scope="col">{t('audit.when')}</th>
              <th scope="col">{t('audit.who')}</th>
              <th scope="col">{t('audit.what')}</th>
              <th scope="col">{t('audit.changed')}</th>
            </tr>
          </thead>
          <tbody>
            {(entries ?? []).map((e) => (
              <tr key={e.id} data-testid="audit-row">
                <td className="time">
                  <time dateTime={new Date(e.at).toISOString()}>{fullTime(e.at)}</time>
                </td>
                <td>{t('common:byPerson', { name: e.by, via: t(`common:vias.${e.via}`) })}</td>
                <td className="what">
                  {t(`audit.whats.${e.what as (typeof AUDIT_WHATS)[number]}`, { defaultValue: e.what })}
                  {e.target && <span className="muted"> {e.target}</span>}
                </td>
                <td>
                  <Changes entry={e} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {entries && entries.length === 0 && (
        <p className="empty" role="status">
          {filtered ? t('audit.emptyFiltered') : t('audit.empty')}
        </p>
      )}
      <div className="pager">
        <button type="button" disabled={pages.length === 1} onClick={() => setPages(pages.slice(0, -1))}>
          {t('audit.newer')}
        </button>
        <button
          type="button"
          disabled={!entries || entries.length < AUDIT_PAGE_SIZE || oldest === undefined}
          onClick={() => setPages([...pages, oldest])}
        >
          {t('audit.older')}
        </button>
      </div>
    </section>
  );
}

function Changes({ entry }: { entry: AuditEntry }) {
  const { t } = useTranslation('history');
  const changes = auditChanges(entry.before, entry.after);
  if (changes.length === 0) return <span className="muted">{t('audit.noChange')}</span>;
  const shown = (v: string | null) => v ?? t('audit.none');
  return (
    <ul className="audit-changes">
      {changes.slice(0, 20).map((c) => (
        <li key={c.field}>
          {c.field && <code>{c.field}</code>} {shown(c.before)} → {shown(c.after)}
        </li>
      ))}
      {changes.length > 20 && <li className="muted">{t('audit.more', { count: changes.length - 20 })}</li>}
    </ul>
  );
}
