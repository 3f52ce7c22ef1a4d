/**
 * The apps view: every managed app with its console state, Clever Cloud state, last request, sleep
 * time and cause, with search, filters and sorting (AppsToolbar.tsx, AppsTable.tsx, AppRow.tsx),
 * the causes of the apps in Error, and bulk actions on the apps picked (BulkBar.tsx).
 */
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { matchesFilter } from '../../../shared/app-view.ts';
import { pickedIn } from '../../lib/selection.ts';
import { sortApps } from '../../lib/sort.ts';
import { useCan } from '../../store/access.tsx';
import { useDashboard } from '../../store/context.tsx';
import { INITIAL_FILTERS } from '../../store/dashboard-store.ts';
import { AppsTable } from './AppsTable.tsx';
import { Toolbar } from './AppsToolbar.tsx';
import { BulkBar, BulkResultPanel } from './BulkBar.tsx';
import { ErrorCauses } from './ErrorCauses.tsx';

export function AppsView() {
  const { t } = useTranslation('apps');
  const apps = useDashboard((s) => s.apps);
  const filters = useDashboard((s) => s.filters);
  const sort = useDashboard((s) => s.sort);
  const picked = useDashboard((s) => s.picked);
  const pickAll = useDashboard((s) => s.pickAll);
  const all = useMemo(() => Object.values(apps), [apps]);
  const visible = useMemo(
    () =>
      sortApps(
        all.filter((a) =>
          matchesFilter(a, {
            search: filters.search,
            ...(filters.state ? { state: filters.state } : {}),
            ...(filters.ownerId ? { ownerId: filters.ownerId } : {}),
            errorsOnly: filters.errorsOnly,
          }),
        ),
        sort.key,
        sort.dir,
      ),
    [all, filters, sort],
  );
  const order = useMemo(() => visible.map((a) => a.appId), [visible]);
  const shownPicked = useMemo(() => pickedIn(picked, order), [picked, order]);
  const hiddenPicked = [...picked.ids].filter((id) => apps[id]).length - shownPicked.length;

  // Ctrl/Cmd+A outside a text field: every app the filters show (again: none).
  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      const target = e.target as HTMLElement | null;
      const typing = target && /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName) && !isCheckbox(target);
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'a' && !typing && !e.defaultPrevented) {
        if (target?.closest('[role="dialog"]')) return;
        e.preventDefault();
        pickAll(order);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [order, pickAll]);

  return (
    <section className="apps-view" aria-labelledby="apps-heading">
      <h1 id="apps-heading" className="visually-hidden" tabIndex={-1}>
        {t('view.heading')}
      </h1>
      <Toolbar all={all} shown={visible.length} />
      <ErrorCauses all={all} />
      <BulkBar shown={shownPicked} hidden={hiddenPicked} />
      <BulkResultPanel />
      {all.length === 0 ? (
        <EmptyApps />
      ) : visible.length === 0 ? (
        <div className="empty">
          <p>{t('view.noMatch')}</p>
          <ClearFilters />
        </div>
      ) : (
        <AppsTable apps={visible} />
      )}
    </section>
  );
}

function isCheckbox(el: HTMLElement): boolean {
  return el instanceof HTMLInputElement && el.type === 'checkbox';
}

function EmptyApps() {
  const { t } = useTranslation('apps');
  const editRoute = useDashboard((s) => s.editRoute);
  const can = useCan('admin');
  return (
    <div className="empty">
      <p>{t('view.empty')}</p>
      <p className="muted">{t('view.emptyHint')}</p>
      <button
        type="button"
        className="primary"
        disabled={!can.allowed}
        title={can.reason}
        onClick={() => editRoute('new')}
      >
        {t('view.newRoute')}
      </button>
    </div>
  );
}

export function ClearFilters() {
  const { t } = useTranslation('apps');
  const setFilters = useDashboard((s) => s.setFilters);
  return (
    <button type="button" onClick={() => setFilters(INITIAL_FILTERS)}>
      {t('view.clearFilters')}
    </button>
  );
}
