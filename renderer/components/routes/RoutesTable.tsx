/**
 * The list of routes, virtualised like the apps table (a thousand routes render the rows on
 * screen): each row with its enable switch, grace period, ranges, hosts, Edit and Delete.
 */

import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { HOUR } from '../../../shared/durations.ts';
import type { Route } from '../../../shared/routes.ts';
import { formatDurationIn } from '../../../shared/validation.ts';
import { errorText } from '../../lib/errors.ts';
import { ownerLabel } from '../../lib/format.ts';
import { weekdaysShown } from '../../lib/weekdays.ts';
import { useCan } from '../../store/access.tsx';
import { useDashboard } from '../../store/context.tsx';
import { ConfirmDialog } from '../common/ConfirmDialog.tsx';
import { Switch } from '../common/form.tsx';
import { SpacerRow } from '../common/SpacerRow.tsx';

export const ROUTE_ROW_HEIGHT = 52;
const COLUMNS = 7;

/** A grace period as the editor would show it: in hours when whole hours, else in minutes, in the language shown. */
export function useGraceText(): (ms: number) => string {
  const { i18n } = useTranslation();
  return (ms) => formatDurationIn(ms, ms % HOUR === 0 ? 'h' : 'min', i18n.language, true);
}

export function RoutesTable({ routes }: { routes: Route[] }) {
  const { t } = useTranslation('routes');
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
            <th scope="col" className="c-app">
              {t('table.app')}
            </th>
            <th scope="col" className="c-owner">
              {t('table.owner')}
            </th>
            <th scope="col" className="c-enabled">
              {t('table.enabled')}
            </th>
            <th scope="col" className="c-grace">
              {t('table.grace')}
            </th>
            <th scope="col" className="c-ranges">
              {t('table.ranges')}
            </th>
            <th scope="col" className="c-hosts">
              {t('table.hosts')}
            </th>
            <th scope="col">
              <span className="visually-hidden">{t('table.actions')}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          <SpacerRow height={padTop} columns={COLUMNS} />
          {items.map((item) => (
            <RouteRow key={item.key} route={routes[item.index]!} index={item.index} />
          ))}
          <SpacerRow height={padBottom} columns={COLUMNS} />
        </tbody>
      </table>
    </div>
  );
}

function RouteRow({ route, index }: { route: Route; index: number }) {
  const { t } = useTranslation('routes');
  const grace = useGraceText();
  const app = useDashboard((s) => s.apps[route.appId]);
  const updateRoute = useDashboard((s) => s.updateRoute);
  const deleteRoute = useDashboard((s) => s.deleteRoute);
  const editRoute = useDashboard((s) => s.editRoute);
  const toast = useDashboard((s) => s.toast);
  const perform = useDashboard((s) => s.perform);
  const [pending, setPending] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const can = useCan('admin');
  const name = app?.name ?? route.appId;
  const title = route.label || name;

  const setEnabled = async (enabled: boolean) => {
    setPending(true);
    try {
      await updateRoute(route.id, { enabled });
    } catch (error) {
      toast('error', t('table.failed', { title, error: errorText(error) }));
    } finally {
      setPending(false);
    }
  };
  const remove = async () => {
    setPending(true);
    try {
      await deleteRoute(route.id);
    } catch (error) {
      toast('error', t('table.failed', { title, error: errorText(error) }));
      setPending(false);
      setConfirmDelete(false);
    }
    // Deleted: the dialog stays (busy) until the engine's word takes the row away with it, and focus
    // goes to the view's heading, the button that asked being gone.
  };

  return (
    <tr data-route={title} aria-rowindex={index + 2}>
      <th scope="row">
        {title}
        {route.label && <span className="sub">{name}</span>}
      </th>
      <td>{app ? ownerLabel(app) : route.ownerId}</td>
      <td>
        <Switch
          checked={route.enabled}
          disabled={pending || !can.allowed}
          title={can.reason}
          onChange={(on) => perform(() => setEnabled(on))}
        >
          <span className="visually-hidden">{t('table.enabledOf', { title })}</span>
        </Switch>
      </td>
      <td>{grace(route.gracePeriodMs)}</td>
      <td
        className="ranges"
        title={route.ranges
          .map((r) => `${weekdaysShown(r.days)} ${r.start}–${r.end} ${r.timeZone}`)
          .join(', ')}
      >
        {route.ranges.length === 0
          ? '—'
          : route.ranges.map((r) => (
              <span key={`${r.days}${r.start}${r.end}${r.timeZone}`} className="range-chip">
                {weekdaysShown(r.days)} {r.start}–{r.end} <span className="muted">{r.timeZone}</span>
              </span>
            ))}
      </td>
      <td className="hosts" title={route.hosts.join(', ')}>
        {route.hosts.join(', ') || '—'}
      </td>
      <td className="actions">
        <button
          type="button"
          disabled={!can.allowed}
          title={can.reason}
          onClick={() => editRoute(route.id)}
          aria-label={t('table.editOf', { title })}
        >
          {t('table.edit')}
        </button>
        <button
          type="button"
          className="danger-outline"
          disabled={!can.allowed}
          title={can.reason}
          aria-haspopup="dialog"
          onClick={() => setConfirmDelete(true)}
          aria-label={t('table.deleteOf', { title })}
        >
          {t('table.delete')}
        </button>
        {confirmDelete && (
          <ConfirmDialog
            title={t('table.deleteTitle', { title })}
            body={t('table.deleteBody', { name })}
            confirmLabel={t('table.delete')}
            cancelLabel={t('table.keep')}
            busy={pending}
            onConfirm={() => perform(remove)}
            onCancel={() => setConfirmDelete(false)}
            fallback={() => document.getElementById('routes-title')}
          />
        )}
      </td>
    </tr>
  );
}
