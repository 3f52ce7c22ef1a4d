/**
 * The apps table, virtualised (a thousand apps render the rows on screen) and keyboard usable:
 * arrows, Home/End, Page Up/Down move; Enter opens the details; Space picks the focused app for a
 * bulk action, Shift+arrows extend the pick, Ctrl/Cmd+A picks what the filters show, Escape picks
 * none. A click on a row's box picks it, Shift+click the range from the last one clicked. Two
 * densities (compact shows about twice as many apps), and grouping by owner under collapsible
 * headers with counts.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import {
  type KeyboardEvent,
  type MouseEvent,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { useTranslation } from 'react-i18next';
import type { AppView } from '../../../shared/app-view.ts';
import { FIRST_VIEW_HEIGHT } from '../../../shared/first-screen.ts';
import type { MustBeUpRange } from '../../../shared/schedule.ts';
import { rangesOf } from '../../lib/app-cells.ts';
import type { SortKey } from '../../lib/sort.ts';
import { shownIds, tableRows } from '../../lib/table-rows.ts';
import { useDashboard, useServerNow } from '../../store/context.tsx';
import { useActionsBlocked } from '../common/ActionButton.tsx';
import { SpacerRow } from '../common/SpacerRow.tsx';
import { appLink, type Column, AppRow as Row } from './AppRow.tsx';

export const ROW_HEIGHT = 56;
export const COMPACT_ROW_HEIGHT = 28;

/**
 * The height the table's first render fills with rows, before it is measured: its scrolled area's,
 * as the page last told the server (issue 26: each row the server renders costs the first paint of a
 * new browser some 4 ms), and the page's hydration renders the same rows. The rows beyond it, and the
 * overscan, come once the table is mounted and measured.
 */
let firstHeight = FIRST_VIEW_HEIGHT;

/** The height of the next first render (null: FIRST_VIEW_HEIGHT), set by the server's render and the page's hydration. */
export function setFirstTableHeight(height: number | null): void {
  firstHeight = height ?? FIRST_VIEW_HEIGHT;
}

/** The columns, each with its header's words (`apps:table.columns.*`; Clever Cloud is a name). */
const COLUMNS: { id: Column; key: SortKey | null; className: string }[] = [
  { id: 'pick', key: null, className: 'c-pick' },
  { id: 'app', key: 'name', className: 'c-app' },
  { id: 'state', key: 'state', className: 'c-state' },
  { id: 'clever', key: null, className: 'c-clever' },
  { id: 'lastRequest', key: 'lastRequest', className: 'c-request' },
  { id: 'sleepsAt', key: 'sleepsAt', className: 'c-sleep' },
  { id: 'notes', key: null, className: 'c-notes' },
  { id: 'actions', key: null, className: 'c-actions' },
];
/**
 * With the details panel open beside it, the table keeps the columns that fit without cutting a
 * word at 1280 px in every language (name, state, the actions: a name such as metrics-dashboard
 * whole); the panel says the rest, when the app sleeps included.
 */
const BESIDE_PANEL: ReadonlySet<Column> = new Set(['pick', 'app', 'state', 'actions']);
const ALL_COLUMNS: ReadonlySet<Column> = new Set(COLUMNS.map((c) => c.id));
const NO_RANGES: readonly MustBeUpRange[] = [];

const HEADER_HEIGHT = 34;
const FOCUSABLE = '.open, .group-toggle';

/**
 * A real <table> (its semantics for assistive technologies), virtualised with spacer rows: only the
 * rows on screen (and a few around) are in the DOM. The app's name is the row's link (a click opens the
 * details in place; a middle click or Ctrl+click, in a new tab); one row at a time is in the tab
 * order, arrows move between rows.
 */
export function AppsTable({ apps }: { apps: AppView[] }) {
  const { t } = useTranslation('apps');
  const routes = useDashboard((s) => s.routes);
  const rules = useDashboard((s) => s.rules);
  /** Each app's must-be-up ranges (for the zones of the times they set), kept while the routes are. */
  const rangesByApp = useMemo(() => {
    const out = new Map<string, readonly MustBeUpRange[]>();
    for (const app of apps) {
      if (!app.hasRanges) continue;
      const ranges = rangesOf(app, routes, rules);
      if (ranges.length) out.set(app.appId, ranges);
    }
    return out;
  }, [apps, routes, rules]);
  const label = (id: Column) => (id === 'clever' ? 'Clever Cloud' : t(`table.columns.${id}`));
  const sort = useDashboard((s) => s.sort);
  const setSort = useDashboard((s) => s.setSort);
  const select = useDashboard((s) => s.select);
  const selectedAppId = useDashboard((s) => s.selectedAppId);
  const busy = useDashboard((s) => s.busy);
  const act = useDashboard((s) => s.act);
  const perform = useDashboard((s) => s.perform);
  const onAct = useCallback(
    (appId: string, action: 'reset' | 'wake') => perform(() => act(appId, action)),
    [act, perform],
  );
  const picked = useDashboard((s) => s.picked);
  const pick = useDashboard((s) => s.pick);
  const pickAlong = useDashboard((s) => s.pickAlong);
  const pickAll = useDashboard((s) => s.pickAll);
  const clearPicked = useDashboard((s) => s.clearPicked);
  const compact = useDashboard((s) => s.density === 'compact');
  const blocked = useActionsBlocked();
  const byOwner = useDashboard((s) => s.groupByOwner);
  const now = useServerNow();
  const scrollRef = useRef<HTMLDivElement>(null);
  const [active, setActive] = useState(0);
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  const rows = useMemo(() => tableRows(apps, byOwner, collapsed), [apps, byOwner, collapsed]);
  const order = useMemo(() => shownIds(rows), [rows]);
  const activeIndex = Math.min(active, rows.length - 1);
  const rowHeight = compact ? COMPACT_ROW_HEIGHT : ROW_HEIGHT;
  const shown = selectedAppId === null ? ALL_COLUMNS : BESIDE_PANEL;
  const columns = COLUMNS.filter((c) => shown.has(c.id));
  const allPicked = order.length > 0 && order.every((id) => picked.ids.has(id));
  const somePicked = !allPicked && order.some((id) => picked.ids.has(id));

  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    getItemKey: (index) => `${rows[index]?.key}:${rowHeight}`,
    overscan: mounted ? 6 : 0,
    scrollPaddingStart: HEADER_HEIGHT,
    initialRect: { width: 1200, height: firstHeight },
  });
  const items = virtualizer.getVirtualItems();
  const padTop = items[0]?.start ?? 0;
  const padBottom = items.length ? virtualizer.getTotalSize() - items.at(-1)!.end : 0;

  const focusRow = useCallback(
    (index: number) => {
      const i = Math.max(0, Math.min(rows.length - 1, index));
      setActive(i);
      virtualizer.scrollToIndex(i, { align: 'auto' });
      requestAnimationFrame(() => {
        scrollRef.current?.querySelector<HTMLElement>(`tr[data-index="${i}"] :is(${FOCUSABLE})`)?.focus();
      });
    },
    [rows.length, virtualizer],
  );

  // Each name is a link to its details, with the table's order and filters (a new tab opens there).
  const filters = useDashboard((s) => s.filters);
  const linkOf = useCallback((appId: string) => appLink(appId, filters, sort), [filters, sort]);

  const rowOf = (target: EventTarget) => (target as HTMLElement).closest<HTMLElement>('tr[data-index]');
  const appAt = (index: number) => {
    const row = rows[index];
    return row?.kind === 'app' ? row.app : null;
  };
  const onPick = useCallback((appId: string, range: boolean) => pick(appId, order, range), [pick, order]);

  const onKeyDown = (e: KeyboardEvent<HTMLTableSectionElement>) => {
    const row = rowOf(e.target);
    if (!row) return;
    const index = Number(row.dataset.index);
    const app = appAt(index);
    if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'a') {
      e.preventDefault();
      pickAll(order);
      return;
    }
    if (e.key === ' ' && app) {
      e.preventDefault();
      pick(app.appId, order, e.shiftKey);
      return;
    }
    if (e.key === 'Escape' && picked.ids.size > 0) {
      e.preventDefault();
      clearPicked();
      return;
    }
    const page = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? 400) / rowHeight) - 1);
    const moves: Record<string, number> = {
      ArrowDown: index + 1,
      ArrowUp: index - 1,
      Home: 0,
      End: rows.length - 1,
      PageDown: index + page,
      PageUp: index - page,
    };
    if (e.key in moves) {
      e.preventDefault();
      const to = Math.max(0, Math.min(rows.length - 1, moves[e.key]!));
      const target = appAt(to);
      if (e.shiftKey && app && target && (e.key === 'ArrowDown' || e.key === 'ArrowUp')) {
        pickAlong(order, app.appId, target.appId);
      }
      focusRow(to);
    }
  };
  // Space on the name's button picks the app, it does not open the details.
  const onKeyUp = (e: KeyboardEvent<HTMLTableSectionElement>) => {
    if (e.key === ' ' && rowOf(e.target)) e.preventDefault();
  };

  // A click anywhere on a row opens its details (its buttons and its box do their own thing).
  const onClick = (e: MouseEvent<HTMLTableSectionElement>) => {
    const row = rowOf(e.target);
    if (!row || (e.target as HTMLElement).closest('button, input, label, a')) return;
    const app = appAt(Number(row.dataset.index));
    if (app) select(app.appId);
  };

  const toggleGroup = (ownerId: string) => {
    const next = new Set(collapsed);
    if (next.has(ownerId)) next.delete(ownerId);
    else next.add(ownerId);
    setCollapsed(next);
  };

  return (
    <div ref={scrollRef} className="table-scroll">
      <table
        className={`apps ${compact ? 'compact' : ''} ${shown === BESIDE_PANEL ? 'beside-panel' : ''}`}
        aria-label={t('table.label')}
        aria-rowcount={rows.length + 1}
      >
        <colgroup>
          {columns.map((c) => (
            <col key={c.id} className={c.className} />
          ))}
        </colgroup>
        <thead>
          <tr aria-rowindex={1}>
            {columns.map((c) => (
              <th
                key={c.id}
                scope="col"
                aria-sort={
                  c.key && sort.key === c.key ? (sort.dir === 'asc' ? 'ascending' : 'descending') : undefined
                }
              >
                {c.key ? (
                  <button type="button" className="sort" onClick={() => setSort(c.key!)}>
                    {label(c.id)}
                    <span aria-hidden="true" className="arrow">
                      {sort.key === c.key ? (sort.dir === 'asc' ? '▲' : '▼') : ''}
                    </span>
                  </button>
                ) : c.id === 'pick' ? (
                  <input
                    type="checkbox"
                    aria-label={t('table.pickAll')}
                    title={t('table.pickAllHint')}
                    checked={allPicked}
                    ref={(el) => {
                      if (el) el.indeterminate = somePicked;
                    }}
                    onChange={() => pickAll(order)}
                  />
                ) : (
                  <span className={c.id === 'actions' ? 'visually-hidden' : ''}>{label(c.id)}</span>
                )}
              </th>
            ))}
          </tr>
        </thead>
        <tbody onKeyDown={onKeyDown} onKeyUp={onKeyUp} onClick={onClick}>
          <SpacerRow height={padTop} columns={columns.length} />
          {items.map((item) => {
            const row = rows[item.index]!;
            if (row.kind === 'group') {
              return (
                <tr
                  key={row.key}
                  className="group"
                  data-index={item.index}
                  aria-rowindex={item.index + 2}
                  onFocus={() => setActive(item.index)}
                >
                  <th scope="colgroup" colSpan={columns.length}>
                    <button
                      type="button"
                      className="group-toggle"
                      tabIndex={item.index === activeIndex ? 0 : -1}
                      aria-expanded={!row.collapsed}
                      onClick={() => toggleGroup(row.ownerId)}
                    >
                      <span aria-hidden="true" className="chevron">
                        {row.collapsed ? '▸' : '▾'}
                      </span>
                      {row.name} <span className="pill">{row.count}</span>
                    </button>
                  </th>
                </tr>
              );
            }
            const app = row.app;
            return (
              <Row
                key={app.appId}
                app={app}
                ranges={rangesByApp.get(app.appId) ?? NO_RANGES}
                index={item.index}
                now={now}
                tabbable={item.index === activeIndex}
                selected={app.appId === selectedAppId}
                picked={picked.ids.has(app.appId)}
                busy={busy[app.appId] ?? null}
                blocked={blocked}
                onOpen={select}
                linkOf={linkOf}
                onAct={onAct}
                onFocusRow={setActive}
                onPick={onPick}
                columns={shown}
              />
            );
          })}
          <SpacerRow height={padBottom} columns={columns.length} />
        </tbody>
      </table>
    </div>
  );
}
