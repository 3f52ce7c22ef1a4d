/**
 * The fields a route and a rule's route template share: grace period, must-be-up ranges, wake-proxy
 * hosts, group and traffic filters. The editors differ only in the examples they show.
 */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { MustBeUpRange } from '../../../shared/schedule.ts';
import type { FieldProblem } from '../../../shared/validation.ts';
import type { Problems, Unit } from '../../lib/route-draft.ts';
import { RouteRanges } from './RouteRanges.tsx';

export interface TemplateDraft {
  grace: string;
  graceUnit: Unit;
  ranges: MustBeUpRange[];
  hosts: string;
  group: string;
  pathPrefixes: string;
  sources: string;
}

/** The number typed in a field ("1", "0,5"), for the plural of its unit; 2 (a plural) when unreadable. */
function unitCount(text: string): number {
  const n = Number(text.trim().replace(',', '.'));
  return text.trim() === '' || Number.isNaN(n) ? 2 : n;
}

export function RouteTemplateFields<D extends TemplateDraft>(props: {
  id: string;
  draft: D;
  set: (patch: Partial<TemplateDraft>) => void;
  setRanges: (change: (ranges: MustBeUpRange[]) => MustBeUpRange[]) => void;
  problems: Problems;
  err: (field: string) => ReactNode;
  described: (field: string) => object;
  /** A problem in the language shown. */
  text: (problem: FieldProblem) => string;
  examples: { hosts: string; group: string; hostsHint?: ReactNode };
}) {
  const { t } = useTranslation('routes');
  const { id, draft, set, err, described, examples } = props;
  return (
    <>
      <label htmlFor={`${id}-grace`}>{t('template.grace')}</label>
      <div>
        <span className="with-unit">
          <input
            id={`${id}-grace`}
            inputMode="decimal"
            value={draft.grace}
            onChange={(e) => set({ grace: e.target.value })}
            {...described('gracePeriodMs')}
          />
          <select
            aria-label={t('template.graceUnit')}
            value={draft.graceUnit}
            onChange={(e) => set({ graceUnit: e.target.value as Unit })}
          >
            {/* "1 hour", "2 hours": the unit agrees with the number typed (plural rules of the language). */}
            <option value="min">{t('template.minutes', { count: unitCount(draft.grace) })}</option>
            <option value="h">{t('template.hours', { count: unitCount(draft.grace) })}</option>
          </select>
        </span>
        <span className="hint">{t('template.graceHint')}</span>
        {err('gracePeriodMs')}
      </div>

      <RouteRanges
        id={id}
        ranges={draft.ranges}
        problems={props.problems}
        text={props.text}
        update={props.setRanges}
      />

      <label htmlFor={`${id}-hosts`}>{t('template.hosts')}</label>
      <div>
        <input
          id={`${id}-hosts`}
          value={draft.hosts}
          placeholder={examples.hosts}
          onChange={(e) => set({ hosts: e.target.value })}
          {...described('hosts')}
        />
        {examples.hostsHint && <span className="hint">{examples.hostsHint}</span>}
        {err('hosts')}
      </div>

      <label htmlFor={`${id}-group`}>{t('template.group')}</label>
      <div>
        <input
          id={`${id}-group`}
          value={draft.group}
          placeholder={examples.group}
          onChange={(e) => set({ group: e.target.value })}
          {...described('group')}
        />
        <span className="hint">{t('template.groupHint')}</span>
        {err('group')}
      </div>

      <label htmlFor={`${id}-paths`}>{t('template.paths')}</label>
      <div>
        <input
          id={`${id}-paths`}
          value={draft.pathPrefixes}
          placeholder={t('template.pathsExample')}
          onChange={(e) => set({ pathPrefixes: e.target.value })}
          {...described('filters.pathPrefixes')}
        />
        <span className="hint">{t('template.pathsHint')}</span>
        {err('filters.pathPrefixes')}
      </div>

      <label htmlFor={`${id}-sources`}>{t('template.sources')}</label>
      <div>
        <input
          id={`${id}-sources`}
          value={draft.sources}
          placeholder="10.0.0.0/8, 203.0.113.7"
          onChange={(e) => set({ sources: e.target.value })}
          {...described('filters.sources')}
        />
        {err('filters.sources')}
      </div>
    </>
  );
}
