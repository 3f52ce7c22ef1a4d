/**
 * The route editor ("the route designer" of the lifecycle spec). Every field is checked with the
 * shared schema before sending, and the engine's answer (400 with field problems) lands on the same
 * fields: one set of messages, wherever the problem was found.
 */
import { type FormEvent, memo, useEffect, useId, useMemo, useState } from 'react';
import type { Owner, PickableApp } from '../../shared/api.ts';
import { ApiError } from '../../shared/api-errors.ts';
import { HOUR, MINUTE } from '../../shared/durations.ts';
import { InputError } from '../../shared/errors.ts';
import {
  DEFAULT_GRACE_PERIOD_MS,
  type Route,
  routeCreateSchema,
  routeUpdateSchema,
} from '../../shared/routes.ts';
import {
  ALWAYS_UP_TEXT,
  formatZoned,
  type MustBeUpRange,
  nextTransitions,
  rangeProblems,
} from '../../shared/schedule.ts';
import { msTo } from '../lib/format.ts';
import { useApi, useDashboard, useServerNow } from '../store/context.tsx';
import { errorText } from '../store/dashboard-store.ts';
import { Switch } from './form.tsx';

type Unit = 'min' | 'h';
const UNITS: Record<Unit, number> = { min: MINUTE, h: HOUR };

interface Draft {
  ownerId: string;
  appId: string;
  label: string;
  enabled: boolean;
  grace: string;
  graceUnit: Unit;
  ranges: MustBeUpRange[];
  hosts: string;
  pathPrefixes: string;
  sources: string;
}

const localZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
const list = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);

function draftOf(route: Route | null, forApp: { appId: string; ownerId: string } | null): Draft {
  const grace = route?.gracePeriodMs ?? DEFAULT_GRACE_PERIOD_MS;
  const unit: Unit = grace % HOUR === 0 ? 'h' : 'min';
  return {
    ownerId: route?.ownerId ?? forApp?.ownerId ?? '',
    appId: route?.appId ?? forApp?.appId ?? '',
    label: route?.label ?? '',
    enabled: route?.enabled ?? true,
    grace: msTo(grace, UNITS[unit]),
    graceUnit: unit,
    ranges: route?.ranges.map((r) => ({ ...r })) ?? [],
    hosts: route?.hosts.join(', ') ?? '',
    pathPrefixes: route?.filters.pathPrefixes.join(', ') ?? '',
    sources: route?.filters.sources.join(', ') ?? '',
  };
}

type Problems = Record<string, string[]>;

function problemsFrom(error: unknown): Problems | null {
  const problems = error instanceof ApiError || error instanceof InputError ? error.problems : null;
  if (!problems || problems.length === 0) return null;
  const out: Problems = {};
  for (const p of problems) {
    const field = p.field || 'form';
    out[field] = [...(out[field] ?? []), p.message];
  }
  return out;
}

export function RouteEditor({ route, onDone }: { route: Route | null; onDone: () => void }) {
  const api = useApi();
  const applyRoute = useDashboard((s) => s.applyRoute);
  const forApp = useDashboard((s) => s.newRouteFor);
  const now = useServerNow();
  const [draft, setDraft] = useState(() => draftOf(route, forApp));
  const [problems, setProblems] = useState<Problems>({});
  const [saving, setSaving] = useState(false);
  const [owners, setOwners] = useState<Owner[] | null>(null);
  const [ownersError, setOwnersError] = useState<string | null>(null);
  const [apps, setApps] = useState<PickableApp[] | null>(null);
  const id = useId();

  useEffect(() => {
    api.listOwners().then(
      (o) => {
        setOwners(o);
        setDraft((d) => (d.ownerId || !o[0] ? d : { ...d, ownerId: o[0].id }));
      },
      (e: unknown) => setOwnersError(errorText(e)),
    );
  }, [api]);

  useEffect(() => {
    if (!draft.ownerId) return;
    let live = true;
    setApps(null);
    api.listOwnerApps({ ownerId: draft.ownerId }).then(
      (a) => live && setApps(a),
      (e: unknown) => live && setOwnersError(errorText(e)),
    );
    return () => {
      live = false;
    };
  }, [api, draft.ownerId]);

  const set = (patch: Partial<Draft>) => setDraft((d) => ({ ...d, ...patch }));
  const setRange = (i: number, patch: Partial<MustBeUpRange>) =>
    setDraft((d) => ({ ...d, ranges: d.ranges.map((r, j) => (j === i ? { ...r, ...patch } : r)) }));

  const validRanges = useMemo(
    () => draft.ranges.filter((r) => rangeProblems(r).length === 0),
    [draft.ranges],
  );
  // The preview moves with the minute, not with every second.
  const minute = Math.floor(now / MINUTE) * MINUTE;
  const preview = useMemo(
    () => (validRanges.length ? nextTransitions(validRanges, minute, 6) : []),
    [validRanges, minute],
  );

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const graceNumber = Number(draft.grace);
    const fields = {
      appId: draft.appId,
      ownerId: draft.ownerId,
      label: draft.label,
      enabled: draft.enabled,
      gracePeriodMs:
        draft.grace.trim() === '' ? Number.NaN : Math.round(graceNumber * UNITS[draft.graceUnit]),
      ranges: draft.ranges,
      hosts: list(draft.hosts),
      filters: { pathPrefixes: list(draft.pathPrefixes), sources: list(draft.sources) },
    };
    const check = (route ? routeUpdateSchema : routeCreateSchema).safeParse(fields);
    if (!check.success) {
      setProblems(problemsFrom(InputError.fromZod(check.error)) ?? {});
      return;
    }
    setProblems({});
    setSaving(true);
    try {
      const saved = route
        ? await api.updateRoute({ routeId: route.id, changes: fields })
        : await api.createRoute(fields);
      applyRoute(saved);
      onDone();
    } catch (error) {
      setProblems(problemsFrom(error) ?? { form: [errorText(error)] });
    } finally {
      setSaving(false);
    }
  };

  const err = (field: string) => {
    const messages = Object.entries(problems)
      .filter(([f]) => f === field || f.startsWith(`${field}.`))
      .flatMap(([, m]) => m);
    return messages.length ? (
      <span className="field-error" id={`${id}-${field}-err`}>
        {messages.join('; ')}
      </span>
    ) : null;
  };
  const described = (field: string) =>
    Object.keys(problems).some((f) => f === field || f.startsWith(`${field}.`))
      ? { 'aria-describedby': `${id}-${field}-err`, 'aria-invalid': true }
      : {};
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
        <label htmlFor={`${id}-owner`}>Owner</label>
        <div>
          {owners ? (
            <select
              id={`${id}-owner`}
              value={draft.ownerId}
              onChange={(e) => set({ ownerId: e.target.value, appId: '' })}
              {...described('ownerId')}
            >
              {!draft.ownerId && <option value="">Choose an owner</option>}
              {owners.map((o) => (
                <option key={o.id} value={o.id}>
                  {o.name}
                </option>
              ))}
              {draft.ownerId && !owners.some((o) => o.id === draft.ownerId) && (
                <option value={draft.ownerId}>{draft.ownerId}</option>
              )}
            </select>
          ) : (
            <input
              id={`${id}-owner`}
              value={draft.ownerId}
              placeholder="orga_... or user_..."
              onChange={(e) => set({ ownerId: e.target.value })}
              {...described('ownerId')}
            />
          )}
          {ownersError && <span className="muted"> The account's apps cannot be listed: {ownersError}</span>}
          {err('ownerId')}
        </div>

        <label htmlFor={`${id}-app`}>App</label>
        <div>
          {apps ? (
            <select
              id={`${id}-app`}
              value={draft.appId}
              onChange={(e) => set({ appId: e.target.value })}
              {...described('appId')}
            >
              <option value="">Choose an app</option>
              {apps.map((a) => (
                <option key={a.id} value={a.id}>
                  {a.name} · {a.cleverState}
                  {a.routeIds.length && a.routeIds[0] !== route?.id ? ' · already routed' : ''}
                </option>
              ))}
              {draft.appId && !apps.some((a) => a.id === draft.appId) && (
                <option value={draft.appId}>{draft.appId}</option>
              )}
            </select>
          ) : (
            <input
              id={`${id}-app`}
              value={draft.appId}
              placeholder="app_..."
              onChange={(e) => set({ appId: e.target.value })}
              {...described('appId')}
            />
          )}
          {err('appId')}
        </div>

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

        <span id={`${id}-ranges`}>Must-be-up ranges</span>
        <div>
          {draft.ranges.length === 0 && <p className="muted">None: the grace period alone decides.</p>}
          <ul className="ranges" aria-labelledby={`${id}-ranges`}>
            {draft.ranges.map((r, i) => {
              const live = rangeProblems(r);
              const server = Object.entries(problems)
                .filter(([f]) => f.startsWith(`ranges.${i}`))
                .flatMap(([, m]) => m);
              const n = i + 1;
              return (
                // biome-ignore lint/suspicious/noArrayIndexKey: ranges have no identity but their place
                <li key={i}>
                  <input
                    aria-label={`Range ${n} weekdays`}
                    value={r.days}
                    placeholder="Mon-Fri"
                    size={9}
                    onChange={(e) => setRange(i, { days: e.target.value })}
                  />
                  <input
                    aria-label={`Range ${n} start`}
                    value={r.start}
                    placeholder="08:00"
                    size={5}
                    onChange={(e) => setRange(i, { start: e.target.value })}
                  />
                  <span aria-hidden="true">–</span>
                  <input
                    aria-label={`Range ${n} end`}
                    value={r.end}
                    placeholder="19:00"
                    size={5}
                    onChange={(e) => setRange(i, { end: e.target.value })}
                  />
                  <input
                    aria-label={`Range ${n} time zone`}
                    value={r.timeZone}
                    list={`${id}-zones`}
                    size={16}
                    onChange={(e) => setRange(i, { timeZone: e.target.value })}
                  />
                  <button
                    type="button"
                    className="link"
                    onClick={() => set({ ranges: draft.ranges.filter((_, j) => j !== i) })}
                  >
                    Remove<span className="visually-hidden"> range {n}</span>
                  </button>
                  {(live.length > 0 || server.length > 0) && (
                    <span className="field-error">{[...new Set([...live, ...server])].join('; ')}</span>
                  )}
                </li>
              );
            })}
          </ul>
          <ZoneList id={`${id}-zones`} />
          <button
            type="button"
            onClick={() =>
              set({
                ranges: [
                  ...draft.ranges,
                  { days: 'Mon-Fri', start: '08:00', end: '19:00', timeZone: localZone() },
                ],
              })
            }
          >
            Add a range
          </button>
          <span className="hint">
            Weekdays like Mon-Fri or Sun-Thu; an end before the start crosses midnight. The app is started
            when a range begins and never put to sleep inside one.
          </span>
          {validRanges.length > 0 && (
            <div className="preview" aria-live="polite">
              <strong>Next transitions</strong>
              {preview.length === 0 && <p className="muted">{ALWAYS_UP_TEXT}</p>}
              <ul className="plain transitions">
                {preview.map((t) => (
                  <li key={t.at}>
                    {t.up ? 'up from' : 'may sleep from'} {formatZoned(t.at, validRanges[0]!.timeZone)}
                  </li>
                ))}
              </ul>
            </div>
          )}
        </div>

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

/** The IANA time zones, offered while typing a range's zone (rendered once). */
const ZoneList = memo(function ZoneList({ id }: { id: string }) {
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return (
    <datalist id={id}>
      {zones.map((z) => (
        <option key={z} value={z} />
      ))}
    </datalist>
  );
});
