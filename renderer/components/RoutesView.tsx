/**
 * Routes: the rules that put apps under the reaper. A list with enable switches, and the editor (app
 * picker from the account's apps, grace period, must-be-up ranges with a preview of the next
 * transitions, host names, traffic filters), validated with the same schema as the engine's side.
 */
import { useMemo, useState } from 'react';
import { formatDuration } from '../../shared/durations.ts';
import type { Route } from '../../shared/routes.ts';
import { useDashboard } from '../store/context.tsx';
import { errorText } from '../store/dashboard-store.ts';
import { Switch } from './form.tsx';
import { RouteEditor } from './RouteEditor.tsx';
import { RulesSection } from './RulesSection.tsx';

export function RoutesView() {
  const routes = useDashboard((s) => s.routes);
  const editing = useDashboard((s) => s.editingRoute);
  const editRoute = useDashboard((s) => s.editRoute);
  const apps = useDashboard((s) => s.apps);
  const sorted = useMemo(() => {
    const name = (r: Route) => r.label || apps[r.appId]?.name || r.appId;
    return [...routes].sort((a, b) => name(a).localeCompare(name(b)));
  }, [routes, apps]);

  return (
    <section className="routes-view" aria-labelledby="routes-title">
      <div className="view-head">
        <h1 id="routes-title">Routes</h1>
        <p className="muted">
          A route puts a Clever Cloud app under the reaper. An app is managed while at least one enabled route
          points at it; a disabled route releases its app after the release delay.
        </p>
        <button
          type="button"
          className="primary"
          onClick={() => editRoute('new')}
          disabled={editing === 'new'}
        >
          New route
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
        <p className="empty">No route yet.</p>
      ) : (
        <table className="routes">
          <thead>
            <tr>
              <th scope="col">App</th>
              <th scope="col">Owner</th>
              <th scope="col">Enabled</th>
              <th scope="col">Grace period</th>
              <th scope="col">Must-be-up ranges</th>
              <th scope="col">Hosts</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {sorted.map((r) => (
              <RouteRow key={r.id} route={r} />
            ))}
          </tbody>
        </table>
      )}
      <RulesSection />
    </section>
  );
}

function RouteRow({ route }: { route: Route }) {
  const app = useDashboard((s) => s.apps[route.appId]);
  const updateRoute = useDashboard((s) => s.updateRoute);
  const deleteRoute = useDashboard((s) => s.deleteRoute);
  const editRoute = useDashboard((s) => s.editRoute);
  const toast = useDashboard((s) => s.toast);
  const [pending, setPending] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const name = app?.name ?? route.appId;
  const title = route.label || name;

  const setEnabled = async (enabled: boolean) => {
    setPending(true);
    try {
      await updateRoute(route.id, { enabled });
    } catch (error) {
      toast('error', `${title}: ${errorText(error)}`);
    } finally {
      setPending(false);
    }
  };
  const remove = async () => {
    setPending(true);
    try {
      await deleteRoute(route.id);
    } catch (error) {
      toast('error', `${title}: ${errorText(error)}`);
      setPending(false);
    }
  };

  return (
    <tr data-route={title}>
      <th scope="row">
        {title}
        {route.label && <span className="sub">{name}</span>}
      </th>
      <td>{app?.ownerName ?? route.ownerId}</td>
      <td>
        <Switch checked={route.enabled} disabled={pending} onChange={(on) => void setEnabled(on)}>
          <span className="visually-hidden">Route of {title} enabled</span>
        </Switch>
      </td>
      <td>{formatDuration(route.gracePeriodMs)}</td>
      <td>
        {route.ranges.length === 0
          ? '—'
          : route.ranges.map((r) => (
              <span key={`${r.days}${r.start}${r.end}${r.timeZone}`} className="range-chip">
                {r.days} {r.start}–{r.end} <span className="muted">{r.timeZone}</span>
              </span>
            ))}
      </td>
      <td className="hosts">{route.hosts.join(', ') || '—'}</td>
      <td className="actions">
        {confirmDelete ? (
          <>
            <button type="button" className="danger" disabled={pending} onClick={() => void remove()}>
              Delete
            </button>
            <button type="button" onClick={() => setConfirmDelete(false)}>
              Keep
            </button>
          </>
        ) : (
          <>
            <button
              type="button"
              onClick={() => editRoute(route.id)}
              aria-label={`Edit the route of ${title}`}
            >
              Edit
            </button>
            <button
              type="button"
              className="danger-outline"
              onClick={() => setConfirmDelete(true)}
              aria-label={`Delete the route of ${title}`}
            >
              Delete
            </button>
          </>
        )}
      </td>
    </tr>
  );
}
