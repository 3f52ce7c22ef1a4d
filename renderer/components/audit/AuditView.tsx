/**
 * The audit (issue 25): each configuration change (routes, rules, settings, the kill switch,
 * dry-run, tokens) with who made it, through what, when (the viewer's time), and what changed, field
 * by field, before → after (shared/audit-diff.ts: secrets never shown). Filtered by what and by
 * whom; a page of PAGE_SIZE at a time, older ones on demand (a page is all the table ever holds).
 * Its own chunk (Shell.tsx), never in the first screen's.
 */
import { useCallback, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { auditChanges } from '../../../shared/audit-diff.ts';
import { AUDIT_WHATS, type AuditEntry } from '../../../shared/people.ts';
import { fullTime } from '../../lib/format.ts';
import { useApi, useDashboard } from '../../store/context.tsx';
import { errorText } from '../../store/dashboard-store.ts';

export const AUDIT_PAGE_SIZE = 50;

export function AuditView() {
  const { t } = useTranslation(['history', 'common']);
  const api = useApi();
  const perform = useDashboard((s) => s.perform);
  const id = useId();
  const [what, setWhat] = useState('');
  const [by, setBy] = useState('');
  /** The `before` of each page shown so far; the current page's is the last. */
  const [pages, setPages] = useState<(number | undefined)[]>([undefined]);
  const [entries, setEntries] = useState<AuditEntry[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const before = pages.at(-1);

  const load = useCallback(async () => {
    if (!api.audit) return;
    setLoading(true);
    setError(null);
    try {
      const got = await api.audit({
        limit: AUDIT_PAGE_SIZE,
        ...(what ? { what } : {}),
        ...(by.trim() ? { by: by.trim() } : {}),
        ...(before !== undefined ? { before } : {}),
      });
      setEntries(got);
    } catch (e) {
      setError(errorText(e));
    } finally {
      setLoading(false);
    }
  }, [api, what, by, before]);

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

  const filtersChanged = () => setPages([undefined]);
  const oldest = entries?.at(-1)?.id;
  return (
    <section className="audit-view" aria-labelledby={`${id}-title`}>
      <h1 id={`${id}-title`}>{t('audit.title')}</h1>
      <p className="muted">{t('audit.intro')}</p>
      <div className="filters">
        <label htmlFor={`${id}-what`}>{t('audit.what')}</label>
        <select
          id={`${id}-what`}
          value={what}
          onChange={(e) => {
            setWhat(e.target.value);
            filtersChanged();
          }}
        >
          <option value="">{t('audit.everything')}</option>
          {AUDIT_WHATS.map((w) => (
            <option key={w} value={w}>
              {t(`audit.whats.${w}`)}
            </option>
          ))}
        </select>
        <label htmlFor={`${id}-by`}>{t('audit.by')}</label>
        <input
          id={`${id}-by`}
          type="search"
          value={by}
          placeholder={t('audit.byPlaceholder')}
          onChange={(e) => {
            setBy(e.target.value);
            filtersChanged();
          }}
        />
      </div>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <table className="audit-table" aria-busy={loading}>
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
              <td>
                <time dateTime={new Date(e.at).toISOString()}>{fullTime(e.at)}</time>
              </td>
              <td>{t('common:byPerson', { name: e.by, via: t(`common:vias.${e.via}`) })}</td>
              <td>
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
      {entries && entries.length === 0 && (
        <p className="empty" role="status">
          {t('audit.empty')}
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
