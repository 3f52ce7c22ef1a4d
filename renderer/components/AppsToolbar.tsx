/**
 * Above the apps table: the search, the filters by state and owner, grouping by owner, the density
 * of the rows, the count of apps shown.
 */
import { useEffect, useMemo, useRef } from 'react';
import { type AppView, countByState } from '../../shared/app-view.ts';
import { CONSOLE_LABELS, REAPER_STATES, type ReaperState } from '../../shared/domain.ts';
import { useDashboard } from '../store/context.tsx';
import { SearchIcon } from './icons.tsx';

export function Toolbar({ all, shown }: { all: AppView[]; shown: number }) {
  const filters = useDashboard((s) => s.filters);
  const setFilters = useDashboard((s) => s.setFilters);
  const density = useDashboard((s) => s.density);
  const setDensity = useDashboard((s) => s.setDensity);
  const byOwner = useDashboard((s) => s.groupByOwner);
  const setGroupByOwner = useDashboard((s) => s.setGroupByOwner);
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
      <label className="check">
        <input type="checkbox" checked={byOwner} onChange={(e) => setGroupByOwner(e.target.checked)} />
        Group by owner
      </label>
      <label className="check">
        <input
          type="checkbox"
          checked={density === 'compact'}
          onChange={(e) => setDensity(e.target.checked ? 'compact' : 'comfortable')}
        />
        Compact rows
      </label>
      <span className="count" aria-live="polite">
        {shown === all.length ? `${all.length} apps` : `${shown} of ${all.length} apps`}
      </span>
    </search>
  );
}
