/**
 * The route editor ("the route designer" of the lifecycle spec). Every field is checked with the
 * shared schema before sending, and the engine's answer (400 with field problems) lands on the same
 * fields: one set of messages, wherever the problem was found.
 */
import { useState } from 'react';
import { type Route, routeCreateSchema, routeUpdateSchema } from '../../shared/routes.ts';
import { type Draft, draftOf, fieldsOf, type Unit } from '../lib/route-draft.ts';
import { useDashboard } from '../store/context.tsx';
import { Switch } from './form.tsx';
import { RouteRanges } from './RouteRanges.tsx';
import { RouteTarget, usePickable } from './RouteTarget.tsx';
import { useEditorForm } from './use-editor-form.tsx';

export function RouteEditor({ route, onDone }: { route: Route | null; onDone: () => void }) {
  const createRoute = useDashboard((s) => s.createRoute);
  const updateRoute = useDashboard((s) => s.updateRoute);
  const forApp = useDashboard((s) => s.newRouteFor);
  const [draft, setDraft] = useState(() => draftOf(route, forApp));
  const { owners, ownersError, apps } = usePickable(draft.ownerId, setDraft);
  const { id, problems, saving, submit, err, described } = useEditorForm({
    fields: () => fieldsOf(draft),
    schema: route ? routeUpdateSchema : routeCreateSchema,
    save: (fields) => (route ? updateRoute(route.id, fields) : createRoute(fields)),
    onDone,
  });

  const set = (patch: Partial<Draft>) => setDraft((d) => ({ ...d, ...patch }));
  const picked = apps?.find((a) => a.id === draft.appId);

  return (
    <form className="editor" onSubmit={(e) => void submit(e)} aria-labelledby={`${id}-title`} noValidate>
      <h2 id={`${id}-title`}>
        {route ? `Edit the route of ${route.label || picked?.name || route.appId}` : 'New route'}
      </h2>
      {problems.form && (
        <p className="callout danger" role="alert">
          {problems.form.join('; ')}
        </p>
      )}
      {Object.keys(problems).length > 0 && !problems.form && (
        <p className="field-error" role="alert">
          Some fields need a change: see below.
        </p>
      )}
      <div className="grid">
        <RouteTarget
          id={id}
          route={route}
          draft={draft}
          set={set}
          owners={owners}
          ownersError={ownersError}
          apps={apps}
          err={err}
          described={described}
        />

        <label htmlFor={`${id}-label`}>Label</label>
        <div>
          <input
            id={`${id}-label`}
            value={draft.label}
            placeholder={picked?.name ?? 'optional: the app name is shown when empty'}
            onChange={(e) => set({ label: e.target.value })}
            {...described('label')}
          />
          {err('label')}
        </div>

        <span>Enabled</span>
        <div>
          <Switch checked={draft.enabled} onChange={(enabled) => set({ enabled })}>
            <span>{draft.enabled ? 'The reaper manages this app' : 'Disabled: the app is released'}</span>
          </Switch>
        </div>

        <label htmlFor={`${id}-grace`}>Grace period</label>
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
              aria-label="Unit of the grace period"
              value={draft.graceUnit}
              onChange={(e) => set({ graceUnit: e.target.value as Unit })}
            >
              <option value="min">minutes</option>
              <option value="h">hours</option>
            </select>
          </span>
          <span className="hint">Put to sleep after this long without traffic (1 minute to 30 days).</span>
          {err('gracePeriodMs')}
        </div>

        <RouteRanges
          id={id}
          ranges={draft.ranges}
          problems={problems}
          update={(change) => setDraft((d) => ({ ...d, ranges: change(d.ranges) }))}
        />

        <label htmlFor={`${id}-hosts`}>Wake-proxy hosts</label>
        <div>
          <input
            id={`${id}-hosts`}
            value={draft.hosts}
            placeholder="staging.example.com, ..."
            onChange={(e) => set({ hosts: e.target.value })}
            {...described('hosts')}
          />
          {err('hosts')}
        </div>

        <label htmlFor={`${id}-group`}>Group</label>
        <div>
          <input
            id={`${id}-group`}
            value={draft.group}
            placeholder="optional: pr-123"
            onChange={(e) => set({ group: e.target.value })}
            {...described('group')}
          />
          <span className="hint">Apps with the same group wake together and sleep when all may.</span>
          {err('group')}
        </div>

        <label htmlFor={`${id}-paths`}>Ignore paths</label>
        <div>
          <input
            id={`${id}-paths`}
            value={draft.pathPrefixes}
            placeholder="/health, /metrics"
            onChange={(e) => set({ pathPrefixes: e.target.value })}
            {...described('filters.pathPrefixes')}
          />
          <span className="hint">Requests whose path starts with one of these do not count as traffic.</span>
          {err('filters.pathPrefixes')}
        </div>

        <label htmlFor={`${id}-sources`}>Ignore sources</label>
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
      </div>
      <div className="form-actions">
        <button type="submit" className="primary" disabled={saving}>
          {saving ? 'Saving…' : route ? 'Save the route' : 'Create the route'}
        </button>
        <button type="button" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}
