/**
 * The details of one app, beside the table: its state and cause, Reset / Wake / Keep awake / Disable
 * the reaper, its routes and must-be-up ranges with the next transitions, and its history as a
 * timeline and a list of transitions with who acted and why. Escape closes it.
 *
 * A non-modal dialog (the table stays usable beside it): a div with role="dialog" named by its
 * heading, which takes the focus when it opens; Escape or the close button closes it and gives the
 * focus back to the app's row. Its head is a plain div, not a <header>: a header outside a sectioning
 * element would be a second banner landmark.
 */

import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AppDetail as Detail } from '../../../shared/api.ts';
import type { AppView } from '../../../shared/app-view.ts';
import { noteCell, rangesOf, rangeZoneAt, sleepCell } from '../../lib/app-cells.ts';
import { resetOutcome, wakeOutcome } from '../../lib/explain.ts';
import {
  ago,
  dateTimeIn,
  formatDuration,
  fullTime,
  ownerLabel,
  shortDuration,
  sourceLabel,
  stateLabel,
} from '../../lib/format.ts';
import { weekdaysShown } from '../../lib/weekdays.ts';
import { useCan } from '../../store/access.tsx';
import { useApi, useDashboard, useServerNow } from '../../store/context.tsx';
import { errorText } from '../../store/dashboard-store.ts';
import { ActionButton } from '../common/ActionButton.tsx';
import { CleverStateLabel } from '../common/CleverStateLabel.tsx';
import { ConsoleLink } from '../common/ConsoleLink.tsx';
import { CloseIcon } from '../common/icons.tsx';
import { StateBadge } from '../common/StateBadge.tsx';
import { DisableReaper, KeepAwake } from './AppControls.tsx';
import { Durations, HistoryList, TrafficSection } from './AppFacts.tsx';
import { AppGroup } from './AppGroup.tsx';
import { ErrorExplanation } from './ErrorExplanation.tsx';
import { Timeline } from './Timeline.tsx';
import { WakeSourcesSection } from './WakeSources.tsx';

export function AppDetailPanel({ appId }: { appId: string }) {
  const { t } = useTranslation('apps');
  const app = useDashboard((s) => s.apps[appId]);
  const select = useDashboard((s) => s.select);
  const headingRef = useRef<HTMLHeadingElement>(null);
  // What had the focus when the panel opened (a row's name, a link of another view); the page's body
  // when it opened from the address (a link opened in a new tab, a reload).
  const [opener] = useState(() =>
    document.activeElement instanceof HTMLElement ? document.activeElement : null,
  );

  useEffect(() => {
    headingRef.current?.focus();
  }, []);

  const close = useCallback(() => {
    select(null);
    // Back to what opened the panel; else the app's row (its name), else the view's heading.
    requestAnimationFrame(() => {
      const row = [...document.querySelectorAll<HTMLElement>('tr[data-app-id]')].find(
        (r) => r.dataset.appId === appId,
      );
      const usable = (el: HTMLElement | null | undefined) =>
        el?.isConnected && el !== document.body && !el.closest('[inert]') ? el : null;
      const target =
        usable(opener) ??
        usable(row?.querySelector<HTMLElement>('.open')) ??
        document.getElementById('apps-heading');
      target?.focus();
    });
  }, [select, appId, opener]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && !e.defaultPrevented) close();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [close]);

  if (!app) return null;
  return (
    <div className="drawer" role="dialog" aria-modal="false" aria-labelledby="detail-heading">
      <div className="drawer-head">
        <div>
          <h2 id="detail-heading" ref={headingRef} tabIndex={-1}>
            {app.name}
          </h2>
          <p className="sub">
            {ownerLabel(app)} · <span className="mono">{app.appId}</span>
          </p>
          <p className="sub">
            <ConsoleLink app={app} />
          </p>
        </div>
        <StateBadge state={app.state} />
        <button type="button" className="icon" onClick={close} aria-label={t('detail.close')}>
          <CloseIcon />
        </button>
      </div>
      <div className="drawer-body">
        <Body app={app} />
      </div>
    </div>
  );
}

function Body({ app }: { app: AppView }) {
  const { t } = useTranslation(['apps', 'common']);
  const api = useApi();
  const routes = useDashboard((s) => s.routes);
  const rules = useDashboard((s) => s.rules);
  const history = useDashboard((s) => s.history);
  const editRoute = useDashboard((s) => s.editRoute);
  const canEdit = useCan('admin');
  const now = useServerNow();
  const [detail, setDetail] = useState<Detail | null>(null);
  const [detailError, setDetailError] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<{ appId: string; text: string } | null>(null);
  /** The outcome of Reset or Wake, from its answer (a failure is told in a toast). */
  const tell = (action: 'reset' | 'wake', answer: AppView | null) => {
    if (!answer) return setOutcome(null);
    const text =
      action === 'reset'
        ? resetOutcome(answer)
        : wakeOutcome(answer, detail?.durations.start.medianMs ?? null);
    setOutcome({ appId: answer.appId, text });
  };

  // Routes, ranges and group come with the detail; fetched again when the routes or rules change.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `routes` and `rules` are the triggers
  useEffect(() => {
    let live = true;
    api.getApp({ appId: app.appId }).then(
      (d) => {
        if (!live) return;
        setDetail(d);
        setDetailError(null);
      },
      (e: unknown) => {
        if (live) setDetailError(errorText(e));
      },
    );
    return () => {
      live = false;
    };
  }, [api, app.appId, routes, rules]);

  const sleep = sleepCell(app, now, rangesOf(app, routes, rules));
  const note = noteCell(app, now);
  const entries = history?.appId === app.appId ? history.entries : [];
  const inError = app.state === 'Error';
  const canWake = app.state === 'Down' || app.state === 'WaitingForShutdown';

  return (
    <>
      <ErrorExplanation app={app} history={entries} onOutcome={(answer) => tell('reset', answer)} />

      <section className="actions-bar" aria-label={t('detail.actions')}>
        {canWake && (
          <ActionButton
            app={app}
            action="wake"
            primary
            pending={app.wakeRequestedAt !== null}
            onDone={(answer) => tell('wake', answer)}
          />
        )}
        {!inError && <ActionButton app={app} action="reset" onDone={(answer) => tell('reset', answer)} />}
        <DisableReaper app={app} />
      </section>

      {/* Always there, so that screen readers announce the outcome as it appears. */}
      <p className="outcome" role="status">
        {outcome?.appId === app.appId ? outcome.text : ''}
      </p>

      <dl className="facts">
        <dt>{t('detail.state')}</dt>
        <dd>
          {t('detail.stateFor', {
            state: stateLabel(app.state),
            duration: shortDuration(now - app.stateSince),
          })}{' '}
          <span className="muted">{t('detail.since', { time: fullTime(app.stateSince) })}</span>
        </dd>
        <dt>Clever Cloud</dt>
        <dd>
          <CleverStateLabel app={app} />
        </dd>
        <dt>{t('detail.lastRequest')}</dt>
        <dd>
          {app.lastRequestAt === null
            ? t('row.noRequest')
            : app.lastRequestSource
              ? t('detail.requestFrom', {
                  ago: ago(app.lastRequestAt, now),
                  source: sourceLabel(app.lastRequestSource),
                })
              : ago(app.lastRequestAt, now)}
        </dd>
        <dt>{t('detail.gracePeriod')}</dt>
        <dd>{app.gracePeriodMs === null ? t('detail.noRoute') : formatDuration(app.gracePeriodMs)}</dd>
        {sleep && (
          <>
            <dt>{t('detail.sleep')}</dt>
            <dd>
              {sleep.main}
              {sleep.sub ? ` (${sleep.sub})` : ''}
            </dd>
          </>
        )}
        {detail && <Durations durations={detail.durations} />}
        {note && !app.cause && (
          <>
            <dt>{t('detail.note')}</dt>
            <dd className={note.tone}>{note.text}</dd>
          </>
        )}
      </dl>

      {detail?.group && <AppGroup group={detail.group} appId={app.appId} />}

      {!inError && <KeepAwake app={app} now={now} />}

      <section aria-labelledby="ranges-heading">
        <h3 id="ranges-heading">{t('detail.ranges')}</h3>
        {detailError && <p className="danger">{detailError}</p>}
        {detail && detail.ranges.length === 0 && <p className="muted">{t('detail.noRanges')}</p>}
        {detail && detail.ranges.length > 0 && (
          <>
            <ul className="plain">
              {detail.ranges.map((r) => (
                <li key={`${r.days}${r.start}${r.end}${r.timeZone}`}>
                  {weekdaysShown(r.days)} {r.start}–{r.end} <span className="muted">{r.timeZone}</span>
                </li>
              ))}
            </ul>
            <p className="muted">{t('detail.next')}</p>
            {detail.nextTransitions.length === 0 && <p className="muted">{t('detail.alwaysUp')}</p>}
            <ul className="plain transitions">
              {detail.nextTransitions.map((next) => {
                const time = dateTimeIn(next.at, rangeZoneAt(detail.ranges, next.at, next.up));
                return (
                  <li key={next.at}>
                    {next.up ? t('detail.upFrom', { time }) : t('detail.maySleepFrom', { time })}
                  </li>
                );
              })}
            </ul>
          </>
        )}
      </section>

      {detail && <TrafficSection traffic={detail.traffic} />}
      {detail && <WakeSourcesSection sources={detail.wakeSources} />}

      <section aria-labelledby="routes-heading">
        <h3 id="routes-heading">{t('detail.routes')}</h3>
        <ul className="plain">
          {(detail?.routes ?? routes.filter((r) => r.appId === app.appId)).map((r) => (
            <li key={r.id} className="route-line">
              <span className={r.enabled ? '' : 'muted'}>
                {r.label ? t('detail.routeLabel', { label: r.label }) : ''}
                {r.enabled ? t('detail.enabled') : t('detail.disabled')}
                {t('detail.routeGrace', { duration: formatDuration(r.gracePeriodMs) })}
                {r.hosts.length ? ` · ${r.hosts.join(', ')}` : ''}
              </span>
              <button
                type="button"
                className="link"
                disabled={!canEdit.allowed}
                title={canEdit.reason}
                onClick={() => editRoute(r.id)}
              >
                {t('detail.edit')}
                <span className="visually-hidden">{t('detail.editRoute', { label: r.label })}</span>
              </button>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="history-heading">
        <h3 id="history-heading">{t('detail.history')}</h3>
        {history?.loading && <p className="muted">{t('detail.loadingHistory')}</p>}
        {history?.error && <p className="danger">{history.error}</p>}
        <Timeline history={entries} state={app.state} now={now} />
        <HistoryList entries={entries} />
      </section>
    </>
  );
}
