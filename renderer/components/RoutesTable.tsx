/**
 * The list of routes, virtualised like the apps table (a thousand routes render the rows on
 * screen): each row with its enable switch, grace period, ranges, hosts, Edit and Delete.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef, useState } from 'react';
import { formatDuration } from '../../shared/durations.ts';
import type { Route } from '../../shared/routes.ts';
import { useDashboard } from '../store/context.tsx';
import { errorText } from '../store/dashboard-store.ts';
import { Switch } from './form.tsx';

export const ROUTE_ROW_HEIGHT = 52;
const COLUMNS = 7;

export function RoutesTable({ routes }: { routes: Route[] }) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: routes.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROUTE_ROW_HEIGHT,
    getItemKey: (index) => routes[index]!.id,
    overscan: 6,
    initialRect: { width: 1200, height: 800 },
  });
  const items = virtualizer.getVirtualItems();
  const padTop = items[0]?.start ?? 0;
  const padBottom = items.length ? virtualizer.getTotalSize() - items.at(-1)!.end : 0;
  return (
    <div ref={scrollRef} className="table-scroll routes-scroll">
      <table className="routes" aria-rowcount={routes.length + 1}>
        <thead>
          <tr aria-rowindex={1}>
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
          {padTop > 0 && (
            // biome-ignore lint/a11y/noAriaHiddenOnFocusable: a spacer of the virtualised table, never focused
            <tr aria-hidden="true" className="spacer">
              <td colSpan={COLUMNS} style={{ height: padTop, padding: 0, border: 0 }} />
            </tr>
          )}
          {items.map((item) => (
            <RouteRow key={item.key} route={routes[item.index]!} index={item.index} />
          ))}
          {padBottom > 0 && (
            // biome-ignore lint/a11y/noAriaHiddenOnFocusable: a spacer of the virtualised table, never focused
            <tr aria-hidden="true" className="spacer">
              <td colSpan={COLUMNS} style={{ height: padBottom, padding: 0, border: 0 }} />
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}

function RouteRow({ route, index }: { route: Route; index: number }) {
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
    <tr data-route={title} aria-rowindex={index + 2}>
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
      <td
        className="ranges"
        title={route.ranges.map((r) => `${r.days} ${r.start}–${r.end} ${r.timeZone}`).join(', ')}
      >
        {route.ranges.length === 0
          ? '—'
          : route.ranges.map((r) => (
              <span key={`${r.days}${r.start}${r.end}${r.timeZone}`} className="range-chip">
                {r.days} {r.start}–{r.end} <span className="muted">{r.timeZone}</span>
              </span>
            ))}
      </td>
      <td className="hosts" title={route.hosts.join(', ')}>
        {route.hosts.join(', ') || '—'}
      </td>
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
