/**
 * The apps table: every managed app with its console state, Clever Cloud state, last request, sleep
 * time and cause, with search, filters and sorting. Virtualised (a thousand apps render the twenty
 * rows on screen), keyboard usable (arrows, Home/End, Page Up/Down, Enter opens the details).
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import {
  type KeyboardEvent,
  type MouseEvent,
  memo,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { type AppView, countByState, matchesFilter } from '../../shared/app-view.ts';
import { CONSOLE_LABELS, REAPER_STATES, type ReaperState } from '../../shared/domain.ts';
import { ago, clockTime, fullTime, SOURCE_LABELS, shortDuration, until } from '../lib/format.ts';
import { type SortKey, sortApps } from '../lib/sort.ts';
import { useDashboard, useServerNow } from '../store/context.tsx';
import { INITIAL_FILTERS } from '../store/dashboard-store.ts';
import { SearchIcon } from './icons.tsx';
import { StateBadge } from './StateBadge.tsx';

export const ROW_HEIGHT = 56;

export function AppsView() {
  const apps = useDashboard((s) => s.apps);
  const filters = useDashboard((s) => s.filters);
  const sort = useDashboard((s) => s.sort);
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
  return (
    <section className="apps-view" aria-labelledby="apps-heading">
      <h1 id="apps-heading" className="visually-hidden">
        Managed apps
      </h1>
      <Toolbar all={all} shown={visible.length} />
      {all.length === 0 ? (
        <EmptyApps />
      ) : visible.length === 0 ? (
        <div className="empty">
          <p>No app matches these filters.</p>
          <ClearFilters />
        </div>
      ) : (
        <AppsTable apps={visible} />
      )}
    </section>
  );
}

function EmptyApps() {
  const editRoute = useDashboard((s) => s.editRoute);
  return (
    <div className="empty">
      <p>No app is under the reaper yet.</p>
      <p className="muted">
        A route puts a Clever Cloud app under the reaper: pick an app, set its grace period.
      </p>
      <button type="button" className="primary" onClick={() => editRoute('new')}>
        New route
      </button>
    </div>
  );
}

function ClearFilters() {
  const setFilters = useDashboard((s) => s.setFilters);
  return (
    <button type="button" onClick={() => setFilters(INITIAL_FILTERS)}>
      Clear the filters
    </button>
  );
}

function Toolbar({ all, shown }: { all: AppView[]; shown: number }) {
  const filters = useDashboard((s) => s.filters);
  const setFilters = useDashboard((s) => s.setFilters);
  const counts = useMemo(() => countByState(all), [all]);
  const owners = useMemo(() => {
    const map = new Map<string, string>();
    for (const a of all) map.set(a.ownerId, a.ownerName);
    return [...map].sort((a, b) => a[1].localeCompare(b[1]));
  }, [all]);
  const searchRef = useRef<HTMLInputElement>(null);

  // "/" jumps to the search box, as in most consoles.
  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      const target = e.target as HTMLElement | null;
      const typing = target && /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName);
      if (e.key === '/' && !typing && !e.ctrlKey && !e.metaKey && !e.altKey) {
        e.preventDefault();
        searchRef.current?.focus();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  return (
    <search className="toolbar">
      <label className="search">
        <SearchIcon />
        <span className="visually-hidden">Search apps</span>
        <input
          ref={searchRef}
          type="search"
          placeholder="Search name, id or owner   /"
          value={filters.search}
          onChange={(e) => setFilters({ search: e.target.value })}
        />
      </label>
      <label>
        <span className="visually-hidden">State</span>
        <select
          value={filters.state}
          onChange={(e) => setFilters({ state: e.target.value as ReaperState | '' })}
          aria-label="Filter by state"
        >
          <option value="">All states</option>
          {REAPER_STATES.map((s) => (
            <option key={s} value={s}>
              {CONSOLE_LABELS[s]} ({counts[s]})
            </option>
          ))}
        </select>
      </label>
      <label>
        <span className="visually-hidden">Owner</span>
        <select
          value={filters.ownerId}
          onChange={(e) => setFilters({ ownerId: e.target.value })}
          aria-label="Filter by owner"
        >
          <option value="">All owners</option>
          {owners.map(([id, name]) => (
            <option key={id} value={id}>
              {name}
            </option>
          ))}
        </select>
      </label>
      <label className={`check ${counts.Error ? 'has-errors' : ''}`}>
        <input
          type="checkbox"
          checked={filters.errorsOnly}
          onChange={(e) => setFilters({ errorsOnly: e.target.checked })}
        />
        Errors only ({counts.Error})
      </label>
      <span className="count" aria-live="polite">
        {shown === all.length ? `${all.length} apps` : `${shown} of ${all.length} apps`}
      </span>
    </search>
  );
}

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
function AppsTable({ apps }: { apps: AppView[] }) {
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

interface RowProps {
  app: AppView;
  index: number;
  now: number;
  tabbable: boolean;
  selected: boolean;
  busy: string | null;
  onOpen: (appId: string) => void;
  onAct: (appId: string, action: 'reset' | 'wake') => Promise<void>;
  onFocusRow: (index: number) => void;
}

const Row = memo(function Row({
  app,
  index,
  now,
  tabbable,
  selected,
  busy,
  onOpen,
  onAct,
  onFocusRow,
}: RowProps) {
  const sleep = sleepCell(app, now);
  const note = noteCell(app, now);
  const tab = tabbable ? 0 : -1;
  return (
    <tr
      aria-rowindex={index + 2}
      aria-current={selected ? 'true' : undefined}
      data-index={index}
      data-app={app.name}
      data-app-id={app.appId}
      className={`${selected ? 'selected' : ''} ${app.state === 'Error' ? 'error' : ''}`}
      onFocus={() => onFocusRow(index)}
    >
      <td>
        <div className="cell app">
          <button
            type="button"
            className="open"
            tabIndex={tab}
            title={`${app.appId}: open the details`}
            onClick={() => onOpen(app.appId)}
          >
            {app.name}
          </button>
          <span className="sub">{app.ownerName}</span>
        </div>
      </td>
      <td>
        <div className="cell">
          <StateBadge state={app.state} />
          <span className="sub" title={`since ${fullTime(app.stateSince)}`}>
            for {shortDuration(now - app.stateSince)}
          </span>
        </div>
      </td>
      <td>
        <div className="cell">
          <span className="mono">{app.cleverState ?? '—'}</span>
        </div>
      </td>
      <td>
        <div className="cell">
          {app.lastRequestAt === null ? (
            <span className="muted">none seen</span>
          ) : (
            <>
              <span title={fullTime(app.lastRequestAt)}>{ago(app.lastRequestAt, now)}</span>
              <span className="sub">{app.lastRequestSource ? SOURCE_LABELS[app.lastRequestSource] : ''}</span>
            </>
          )}
        </div>
      </td>
      <td>
        <div className="cell">
          {sleep && (
            <>
              <span className={sleep.tone} title={sleep.title}>
                {sleep.main}
              </span>
              {sleep.sub && <span className="sub">{sleep.sub}</span>}
            </>
          )}
        </div>
      </td>
      <td>
        <div className="cell notes">
          {note && (
            <span className={`note ${note.tone}`} title={note.text}>
              {note.text}
            </span>
          )}
        </div>
      </td>
      <td>
        <div className="cell actions">
          {app.state === 'Error' && (
            <button
              type="button"
              tabIndex={tab}
              disabled={busy !== null}
              onClick={() => void onAct(app.appId, 'reset')}
              aria-label={`Reset ${app.name}`}
            >
              {busy === 'reset' ? 'Resetting…' : 'Reset'}
            </button>
          )}
          {(app.state === 'Down' || app.state === 'WaitingForShutdown') && (
            <button
              type="button"
              tabIndex={tab}
              disabled={busy !== null || app.wakeRequestedAt !== null}
              onClick={() => void onAct(app.appId, 'wake')}
              aria-label={`Wake ${app.name}`}
            >
              {busy === 'wake' || app.wakeRequestedAt !== null ? 'Waking…' : 'Wake'}
            </button>
          )}
        </div>
      </td>
    </tr>
  );
});

/** "sleeps at 14:32 / in 3 min unless traffic", and what holds a sleep back. */
export function sleepCell(
  app: AppView,
  now: number,
): { main: string; sub: string | null; tone: string; title: string } | null {
  if (app.state === 'Up') {
    if (app.sleepNote === 'kill switch on') {
      return { main: 'no sleep', sub: 'kill switch on', tone: 'warn', title: 'the kill switch is on' };
    }
    if (app.sleepsAt === null) return null;
    const verb = app.sleepNote === 'dry-run' ? 'would sleep' : 'sleeps';
    const main = `${verb} at ${clockTime(app.sleepsAt, now)}`;
    const title = `${main} unless traffic (${fullTime(app.sleepsAt)})`;
    if (app.mustBeUpUntil !== null && app.mustBeUpUntil > now) {
      return { main, sub: `must be up until ${clockTime(app.mustBeUpUntil, now)}`, tone: '', title };
    }
    if (app.keepAwakeUntil !== null) {
      return { main, sub: `kept awake until ${clockTime(app.keepAwakeUntil, now)}`, tone: '', title };
    }
    return { main, sub: app.sleepsAt <= now ? 'due now' : until(app.sleepsAt, now), tone: '', title };
  }
  if (app.state === 'Down' && app.nextMustBeUpAt !== null) {
    const main = `wakes at ${clockTime(app.nextMustBeUpAt, now)}`;
    return { main, sub: 'must-be-up range', tone: '', title: `${main}: a must-be-up range begins` };
  }
  return null;
}

/** The cause of an Error, or what else the operator should know about the app. */
export function noteCell(app: AppView, now: number): { text: string; tone: string } | null {
  if (app.cause) return { text: app.cause, tone: 'danger' };
  if (app.releaseAt !== null) {
    return { text: `no enabled route: released ${until(app.releaseAt, now)}`, tone: 'warn' };
  }
  if (app.notice) return { text: app.notice, tone: 'warn' };
  if (app.wakeRequestedAt !== null && app.state !== 'Up') return { text: 'asked for: starting', tone: '' };
  if (app.pendingCall) return { text: `${app.pendingCall} sent, waiting for Clever Cloud`, tone: '' };
  return null;
}
