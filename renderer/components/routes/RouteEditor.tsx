/**
 * The route editor ("the route designer" of the lifecycle spec), a modal dialog. Every field is
 * checked with the shared schema before sending, and the engine's answer (400 with field problems)
 * lands on the same fields: one set of messages, wherever the problem was found. Closing it with
 * unsaved changes (Cancel, Close, Escape, another view, leaving the page) asks first. A route for an
 * app that already has one says how the routes combine, and which grace period wins.
 */
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Route, routeCreateSchema, routeUpdateSchema } from '../../../shared/routes.ts';
import { formatDurationIn } from '../../../shared/validation.ts';
import {
  combinedGrace,
  type Draft,
  draftOf,
  fieldsOf,
  graceMs,
  typedDraftProblems,
} from '../../lib/route-draft.ts';
import { useUnsavedChanges } from '../../lib/unsaved-changes.ts';
import { useDashboard } from '../../store/context.tsx';
import { EditorForm } from '../common/EditorForm.tsx';
import { Switch } from '../common/form.tsx';
import { useEditorForm } from '../common/use-editor-form.tsx';
import { RouteFrontDoor } from './RouteFrontDoor.tsx';
import { RouteTarget, usePickable } from './RouteTarget.tsx';
import { RouteTemplateFields } from './RouteTemplateFields.tsx';

/** A draft as compared for unsaved changes: an owner picked for a new route before any app is not a change. */
const comparable = (d: Draft) => JSON.stringify({ ...d, ownerId: d.appId ? d.ownerId : '' });

export function RouteEditor({ route, onDone }: { route: Route | null; onDone: () => void }) {
  const { t } = useTranslation(['routes', 'validation']);
  const createRoute = useDashboard((s) => s.createRoute);
  const perform = useDashboard((s) => s.perform);
  const updateRoute = useDashboard((s) => s.updateRoute);
  const forApp = useDashboard((s) => s.newRouteFor);
  const routes = useDashboard((s) => s.routes);
  const [initial] = useState(() => draftOf(route, forApp));
  const [draft, setDraft] = useState(initial);
  const { owners, ownersError, apps } = usePickable(draft.ownerId, setDraft);
  const dirty = comparable(draft) !== comparable(initial);
  const { confirmLeave } = useUnsavedChanges(dirty, t('editor.unsaved'));
  const form = useEditorForm({
    fields: () => fieldsOf(draft),
    precheck: () => typedDraftProblems(draft),
    units: { gracePeriodMs: draft.graceUnit, readyDelayMs: 's', connectionIdleLimitMs: 'min' },
    schema: route ? routeUpdateSchema : routeCreateSchema,
    save: (fields) => (route ? updateRoute(route.id, fields) : createRoute(fields)),
    onDone,
  });
  const { id, problems, err, described, text } = form;
  const close = () =>
    perform(async () => {
      if (await confirmLeave()) onDone();
    });

  const set = (patch: Partial<Draft>) => setDraft((d) => ({ ...d, ...patch }));
  const picked = apps?.find((a) => a.id === draft.appId);
  const others = useMemo(
    () => routes.filter((r) => r.appId === draft.appId && r.id !== route?.id && draft.appId !== ''),
    [routes, draft.appId, route],
  );

  return (
    <EditorForm
      form={form}
      title={
        route
          ? t('editor.editTitle', { name: route.label || picked?.name || route.appId })
          : t('editor.newTitle')
      }
      submitLabel={route ? t('editor.save') : t('editor.create')}
      onClose={close}
      fallbackId="routes-title"
    >
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
      {others.length > 0 && (
        <>
          <span aria-hidden="true" />
          <SecondRoute draft={draft} others={others} appName={picked?.name} />
        </>
      )}

      <label htmlFor={`${id}-label`}>{t('editor.label')}</label>
      <div>
        <input
          id={`${id}-label`}
          value={draft.label}
          placeholder={picked?.name ?? t('editor.labelPlaceholder')}
          onChange={(e) => set({ label: e.target.value })}
          {...described('label')}
        />
        {err('label')}
      </div>

      <span>{t('editor.enabled')}</span>
      <div>
        <Switch checked={draft.enabled} onChange={(enabled) => set({ enabled })}>
          <span>{draft.enabled ? t('editor.enabledOn') : t('editor.enabledOff')}</span>
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
        text={text}
        examples={{ hosts: t('editor.hostsExample'), group: t('editor.groupExample') }}
      />
      <RouteFrontDoor id={id} draft={draft} set={set} err={err} described={described} />
    </EditorForm>
  );
}

/** The app has other routes: how they combine (see effectiveRouting), and the grace period that wins. */
function SecondRoute({
  draft,
  others,
  appName,
}: {
  draft: Draft;
  others: Route[];
  appName?: string | undefined;
}) {
  const { t, i18n } = useTranslation('routes');
  const name = (r: Route) => r.label || appName || r.appId;
  const grace = combinedGrace(draft.enabled ? graceMs(draft) : null, others);
  const say = (ms: number) => formatDurationIn(ms, draft.graceUnit, i18n.language, true);
  return (
    <p className="callout warn" role="status" data-testid="second-route">
      {t('editor.secondRoute', { count: others.length, others: others.map(name).join(', ') })}{' '}
      {grace === null
        ? t('editor.noneEnabled')
        : grace.from === null
          ? t('editor.winsThis', { grace: say(grace.ms) })
          : draft.enabled
            ? t('editor.winsOther', { grace: say(grace.ms), other: name(grace.from) })
            : t('editor.winsOtherDisabled', { grace: say(grace.ms), other: name(grace.from) })}
    </p>
  );
}
