/**
 * The route editor ("the route designer" of the lifecycle spec). Every field is checked with the
 * shared schema before sending, and the engine's answer (400 with field problems) lands on the same
 * fields: one set of messages, wherever the problem was found.
 */
import { useState } from 'react';
import { type Route, routeCreateSchema, routeUpdateSchema } from '../../shared/routes.ts';
import { type Draft, draftOf, fieldsOf } from '../lib/route-draft.ts';
import { useDashboard } from '../store/context.tsx';
import { Switch } from './form.tsx';
import { RouteTarget, usePickable } from './RouteTarget.tsx';
import { RouteTemplateFields } from './RouteTemplateFields.tsx';
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

        <RouteTemplateFields
          id={id}
          draft={draft}
          set={set}
          setRanges={(change) => setDraft((d) => ({ ...d, ranges: change(d.ranges) }))}
          problems={problems}
          err={err}
          described={described}
          examples={{ hosts: 'staging.example.com, ...', group: 'optional: pr-123' }}
        />
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
