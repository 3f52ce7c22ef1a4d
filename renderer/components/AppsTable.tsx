/**
 * The apps table, virtualised (a thousand apps render the twenty rows on screen) and keyboard usable
 * (arrows, Home/End, Page Up/Down, Enter opens the details).
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { type KeyboardEvent, type MouseEvent, useCallback, useRef, useState } from 'react';
import type { AppView } from '../../shared/app-view.ts';
import type { SortKey } from '../lib/sort.ts';
import { useDashboard, useServerNow } from '../store/context.tsx';
import { AppRow as Row } from './AppRow.tsx';

export const ROW_HEIGHT = 56;

const COLUMNS: { key: SortKey | null; label: string; className: string }[] = [
  { key: 'name', label: 'App', className: 'c-app' },
  { key: 'state', label: 'State', className: 'c-state' },
  { key: null, label: 'Clever Cloud', className: 'c-clever' },
  { key: 'lastRequest', label: 'Last request', className: 'c-request' },
  { key: 'sleepsAt', label: 'Sleeps at', className: 'c-sleep' },
  { key: null, label: 'Cause / notes', className: 'c-notes' },
  { key: null, label: 'Actions', className: 'c-actions' },
];

const HEADER_HEIGHT = 34;

/**
 * A real <table> (its semantics for assistive technologies), virtualised with spacer rows: only the
 * rows on screen (and a few around) are in the DOM. The app's name is the row's button (it opens the
 * details); one row at a time is in the tab order, arrows move between rows.
 */
export function AppsTable({ apps }: { apps: AppView[] }) {
  const sort = useDashboard((s) => s.sort);
  const setSort = useDashboard((s) => s.setSort);
  const select = useDashboard((s) => s.select);
  const selectedAppId = useDashboard((s) => s.selectedAppId);
  const busy = useDashboard((s) => s.busy);
  const act = useDashboard((s) => s.act);
  const now = useServerNow();
  const scrollRef = useRef<HTMLDivElement>(null);
  const [active, setActive] = useState(0);
  const activeIndex = Math.min(active, apps.length - 1);

  const virtualizer = useVirtualizer({
    count: apps.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 6,
    scrollPaddingStart: HEADER_HEIGHT,
    initialRect: { width: 1200, height: 800 },
  });
  const items = virtualizer.getVirtualItems();
  const padTop = items[0]?.start ?? 0;
  const padBottom = items.length ? virtualizer.getTotalSize() - items.at(-1)!.end : 0;

  const focusRow = useCallback(
    (index: number) => {
      const i = Math.max(0, Math.min(apps.length - 1, index));
      setActive(i);
      virtualizer.scrollToIndex(i, { align: 'auto' });
      requestAnimationFrame(() => {
        scrollRef.current?.querySelector<HTMLElement>(`tr[data-index="${i}"] .open`)?.focus();
      });
    },
    [apps.length, virtualizer],
  );

  const rowOf = (target: EventTarget) => (target as HTMLElement).closest<HTMLElement>('tr[data-index]');

  const onKeyDown = (e: KeyboardEvent<HTMLTableSectionElement>) => {
    const row = rowOf(e.target);
    if (!row) return;
    const index = Number(row.dataset.index);
    const page = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? 400) / ROW_HEIGHT) - 1);
    const moves: Record<string, number> = {
      ArrowDown: index + 1,
      ArrowUp: index - 1,
      Home: 0,
      End: apps.length - 1,
      PageDown: index + page,
      PageUp: index - page,
    };
    if (e.key in moves) {
      e.preventDefault();
      focusRow(moves[e.key]!);
    }
  };

  // A click anywhere on a row opens its details (its buttons do their own thing).
  const onClick = (e: MouseEvent<HTMLTableSectionElement>) => {
    const row = rowOf(e.target);
    if (!row || (e.target as HTMLElement).closest('button')) return;
    const app = apps[Number(row.dataset.index)];
    if (app) select(app.appId);
  };

  return (
    <div ref={scrollRef} className="table-scroll">
      <table className="apps" aria-label="Managed apps" aria-rowcount={apps.length + 1}>
        <colgroup>
          {COLUMNS.map((c) => (
            <col key={c.label} className={c.className} />
          ))}
        </colgroup>
        <thead>
          <tr aria-rowindex={1}>
            {COLUMNS.map((c) => (
              <th
                key={c.label}
                scope="col"
                aria-sort={
                  c.key && sort.key === c.key ? (sort.dir === 'asc' ? 'ascending' : 'descending') : undefined
                }
              >
                {c.key ? (
                  <button type="button" className="sort" onClick={() => setSort(c.key!)}>
                    {c.label}
                    <span aria-hidden="true" className="arrow">
                      {sort.key === c.key ? (sort.dir === 'asc' ? '▲' : '▼') : ''}
                    </span>
                  </button>
                ) : (
                  <span className={c.key === null && c.label === 'Actions' ? 'visually-hidden' : ''}>
                    {c.label}
                  </span>
                )}
              </th>
            ))}
          </tr>
        </thead>
        <tbody onKeyDown={onKeyDown} onClick={onClick}>
          {padTop > 0 && (
            // biome-ignore lint/a11y/noAriaHiddenOnFocusable: a spacer of the virtualised table, never focused
            <tr aria-hidden="true" className="spacer">
              <td colSpan={COLUMNS.length} style={{ height: padTop, border: 0 }} />
            </tr>
          )}
          {items.map((item) => {
            const app = apps[item.index]!;
            return (
              <Row
                key={app.appId}
                app={app}
                index={item.index}
                now={now}
                tabbable={item.index === activeIndex}
                selected={app.appId === selectedAppId}
                busy={busy[app.appId] ?? null}
                onOpen={select}
                onAct={act}
                onFocusRow={setActive}
              />
            );
          })}
          {padBottom > 0 && (
            // biome-ignore lint/a11y/noAriaHiddenOnFocusable: a spacer of the virtualised table, never focused
            <tr aria-hidden="true" className="spacer">
              <td colSpan={COLUMNS.length} style={{ height: padBottom, border: 0 }} />
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}
