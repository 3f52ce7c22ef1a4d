/**
 * Above the apps table: the search, the filters by state and owner, grouping by owner, the density
 * of the rows, the count of apps shown.
 */
import { useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { type AppView, countByState } from '../../../shared/app-view.ts';
import { REAPER_STATES, type ReaperState } from '../../../shared/domain.ts';
import { compareNames, ownerLabel } from '../../lib/format.ts';
import { useDashboard } from '../../store/context.tsx';
import { SearchIcon } from '../common/icons.tsx';

export function Toolbar({ all, shown }: { all: AppView[]; shown: number }) {
  const { t } = useTranslation(['apps', 'common']);
  const filters = useDashboard((s) => s.filters);
  const setFilters = useDashboard((s) => s.setFilters);
  const density = useDashboard((s) => s.density);
  const setDensity = useDashboard((s) => s.setDensity);
  const byOwner = useDashboard((s) => s.groupByOwner);
  const setGroupByOwner = useDashboard((s) => s.setGroupByOwner);
  const counts = useMemo(() => countByState(all), [all]);
  const owners = useMemo(() => {
    const map = new Map<string, string>();
    for (const a of all) map.set(a.ownerId, ownerLabel(a));
    return [...map].sort((a, b) => compareNames(a[1], b[1]));
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
        <span className="visually-hidden">{t('toolbar.search')}</span>
        <input
          ref={searchRef}
          type="search"
          placeholder={t('toolbar.searchPlaceholder')}
          value={filters.search}
          onChange={(e) => setFilters({ search: e.target.value })}
        />
      </label>
      <label>
        <span className="visually-hidden">{t('toolbar.state')}</span>
        <select
          value={filters.state}
          onChange={(e) => setFilters({ state: e.target.value as ReaperState | '' })}
          aria-label={t('toolbar.byState')}
        >
          <option value="">{t('toolbar.allStates')}</option>
          {REAPER_STATES.map((s) => (
            <option key={s} value={s}>
              {t('toolbar.stateOption', { state: t(`common:states.${s}`), count: counts[s] })}
            </option>
          ))}
        </select>
      </label>
      <label>
        <span className="visually-hidden">{t('toolbar.owner')}</span>
        <select
          value={filters.ownerId}
          onChange={(e) => setFilters({ ownerId: e.target.value })}
          aria-label={t('toolbar.byOwner')}
        >
          <option value="">{t('toolbar.allOwners')}</option>
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
        {t('toolbar.errorsOnly', { count: counts.Error })}
      </label>
      <label className="check">
        <input type="checkbox" checked={byOwner} onChange={(e) => setGroupByOwner(e.target.checked)} />
        {t('toolbar.groupByOwner')}
      </label>
      <label className="check">
        <input
          type="checkbox"
          checked={density === 'compact'}
          onChange={(e) => setDensity(e.target.checked ? 'compact' : 'comfortable')}
        />
        {t('toolbar.compact')}
      </label>
      <span className="count" aria-live="polite">
        {shown === all.length
          ? t('toolbar.count', { count: all.length })
          : t('toolbar.countOf', { shown, count: all.length })}
      </span>
    </search>
  );
}
