/**
 * Routes: the rules that put apps under the reaper. A list with enable switches, and the editor (app
 * picker from the account's apps, grace period, must-be-up ranges with a preview of the next
 * transitions, host names, traffic filters), validated with the same schema as the engine's side.
 * The list is searchable (app, label, owner, host, id) and virtualised (RoutesTable.tsx).
 */
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { Route } from '../../../shared/routes.ts';
import { useCan } from '../../store/access.tsx';
import { useDashboard } from '../../store/context.tsx';
import { SearchIcon } from '../common/icons.tsx';
import { RulesSection } from '../rules/RulesSection.tsx';
import { RouteEditor } from './RouteEditor.tsx';
import { RoutesTable } from './RoutesTable.tsx';

export function RoutesView() {
  const { t } = useTranslation('routes');
  const routes = useDashboard((s) => s.routes);
  const editing = useDashboard((s) => s.editingRoute);
  const editRoute = useDashboard((s) => s.editRoute);
  const apps = useDashboard((s) => s.apps);
  const search = useDashboard((s) => s.routesSearch);
  const setSearch = useDashboard((s) => s.setRoutesSearch);
  const can = useCan('admin');
  const sorted = useMemo(() => {
    const name = (r: Route) => r.label || apps[r.appId]?.name || r.appId;
    return [...routes].sort((a, b) => name(a).localeCompare(name(b)));
  }, [routes, apps]);
  const shown = useMemo(() => {
    const q = search.trim().toLowerCase();
    if (!q) return sorted;
    return sorted.filter((r) =>
      [r.label, apps[r.appId]?.name, apps[r.appId]?.ownerName, r.appId, r.ownerId, r.id, ...r.hosts].some(
        (text) => text?.toLowerCase().includes(q),
      ),
    );
  }, [sorted, search, apps]);

  return (
    <section className="routes-view" aria-labelledby="routes-title">
      <div className="view-head">
        <h1 id="routes-title" tabIndex={-1}>
          {t('view.title')}
        </h1>
        <p className="muted">{t('view.intro')}</p>
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
      {editing && (
        <RouteEditor
          key={editing}
          route={editing === 'new' ? null : (routes.find((r) => r.id === editing) ?? null)}
          onDone={() => editRoute(null)}
        />
      )}
      {sorted.length === 0 ? (
        <p className="empty">{t('view.empty')}</p>
      ) : (
        <>
          <search className="toolbar">
            <label className="search">
              <SearchIcon />
              <span className="visually-hidden">{t('view.search')}</span>
              <input
                type="search"
                placeholder={t('view.searchPlaceholder')}
                value={search}
                onChange={(e) => setSearch(e.target.value)}
              />
            </label>
            <span className="count" aria-live="polite">
              {shown.length === sorted.length
                ? t('view.count', { count: sorted.length })
                : t('view.countOf', { shown: shown.length, count: sorted.length })}
            </span>
          </search>
          {shown.length === 0 ? <p className="empty">{t('view.noMatch')}</p> : <RoutesTable routes={shown} />}
        </>
      )}
      <RulesSection />
    </section>
  );
}
