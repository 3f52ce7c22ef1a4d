/** One row of the apps table: the app, its states, last request, sleep time, notes and actions. */
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import type { AppView } from '../../../shared/app-view.ts';
import { formatRoute } from '../../../shared/nav-route.ts';
import type { MustBeUpRange } from '../../../shared/schedule.ts';
import { noteCell, sleepCell } from '../../lib/app-cells.ts';
import { ago, fullTime, ownerLabel, shortDuration, sourceLabel } from '../../lib/format.ts';
import { plainClick } from '../../lib/url-binding.ts';
import { type Filters, routeOf, type Sort } from '../../lib/url-state.ts';
import { CleverStateLabel } from '../common/CleverStateLabel.tsx';
import { ConsoleLink } from '../common/ConsoleLink.tsx';
import { StateBadge } from '../common/StateBadge.tsx';

/** The table's columns, in order. */
export type Column = 'pick' | 'app' | 'state' | 'clever' | 'lastRequest' | 'sleepsAt' | 'notes' | 'actions';

interface RowProps {
  app: AppView;
  /** The must-be-up ranges that apply to it (their zones are said with their times). */
  ranges: readonly MustBeUpRange[];
  index: number;
  now: number;
  tabbable: boolean;
  selected: boolean;
  /** Picked for a bulk action. */
  picked: boolean;
  busy: string | null;
  /** Why actions are unavailable now (the dashboard is disconnected), or null. */
  blocked: string | null;
  onOpen: (appId: string) => void;
  /** The address of an app's details (its name's link). */
  linkOf: (appId: string) => string;
  onAct: (appId: string, action: 'reset' | 'wake') => void;
  onFocusRow: (index: number) => void;
  /** Its box clicked: picked or not; with Shift, the range from the last one clicked. */
  onPick: (appId: string, range: boolean) => void;
  /** The columns shown (fewer beside the details panel). */
  columns: ReadonlySet<Column>;
}

/** The address of an app's details, the table as it is now (its filters and order) around them. */
export function appLink(appId: string, filters: Filters, sort: Sort): string {
  return formatRoute(
    routeOf({
      view: 'apps',
      selectedAppId: appId,
      filters,
      sort,
      editingRoute: null,
      historyParams: {},
      auditParams: {},
      routesSearch: '',
      savingsZone: '',
    }),
  );
}

export const AppRow = memo(function AppRow({
  app,
  ranges,
  index,
  now,
  tabbable,
  selected,
  picked,
  busy,
  blocked,
  onOpen,
  linkOf,
  onAct,
  onFocusRow,
  onPick,
  columns,
}: RowProps) {
  const { t } = useTranslation(['apps', 'common']);
  const sleep = sleepCell(app, now, ranges);
  const note = noteCell(app, now);
  const tab = tabbable ? 0 : -1;
  const inError = app.state === 'Error';
  const canWake = app.state === 'Down' || app.state === 'WaitingForShutdown';
  const waking = busy === 'wake' || app.wakeRequestedAt !== null;
  return (
    <tr
      aria-rowindex={index + 2}
      aria-current={selected ? 'true' : undefined}
      data-index={index}
      data-app={app.name}
      data-app-id={app.appId}
      className={`${selected ? 'selected' : ''} ${picked ? 'picked' : ''} ${app.state === 'Error' ? 'error' : ''}`}
      onFocus={() => onFocusRow(index)}
    >
      <td className="pick">
        <input
          type="checkbox"
          tabIndex={-1}
          checked={picked}
          aria-label={t('row.pick', { name: app.name })}
          // A click (with Shift or not) picks; the change itself is the store's.
          onChange={() => {}}
          onClick={(e) => onPick(app.appId, e.shiftKey)}
        />
      </td>
      <td>
        <div className="cell app">
          <a
            className="open"
            href={linkOf(app.appId)}
            tabIndex={tab}
            title={t('row.open', { appId: app.appId })}
            onClick={(e) => {
              // A plain click opens the details here; with a modifier, the browser's (a new tab).
              if (!plainClick(e)) return;
              e.preventDefault();
              onOpen(app.appId);
            }}
          >
            {app.name}
          </a>
          <span className="sub owner-line">
            <span className="owner" title={ownerLabel(app)}>
              {ownerLabel(app)}
            </span>
            <span aria-hidden="true">·</span>
            <ConsoleLink app={app} tabIndex={tab} compact />
          </span>
          {app.group && <span className="sub group-tag">{t('row.group', { group: app.group })}</span>}
        </div>
      </td>
      <td>
        <div className="cell">
          <StateBadge state={app.state} />
          <span className="sub" title={t('row.since', { time: fullTime(app.stateSince) })}>
            {t('row.for', { duration: shortDuration(now - app.stateSince) })}
          </span>
          {app.handedOver && (
            <span className="sub pending" title={app.handedOver}>
              {t('row.handedOver')}
            </span>
          )}
        </div>
      </td>
      {columns.has('clever') && (
        <td>
          <div className="cell">
            <CleverStateLabel app={app} />
          </div>
        </td>
      )}
      {columns.has('lastRequest') && (
        <td>
          <div className="cell">
            {app.lastRequestAt === null ? (
              <span className="muted">{t('row.noRequest')}</span>
            ) : (
              <>
                <span title={fullTime(app.lastRequestAt)}>{ago(app.lastRequestAt, now)}</span>
                <span className="sub">{app.lastRequestSource ? sourceLabel(app.lastRequestSource) : ''}</span>
              </>
            )}
          </div>
        </td>
      )}
      {columns.has('sleepsAt') && (
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
      )}
      {columns.has('notes') && (
        <td>
          <div className="cell notes">
            {note && (
              <span className={`note ${note.tone}`} title={note.title ?? note.text}>
                {note.text}
              </span>
            )}
          </div>
        </td>
      )}
      <td>
        <div className="cell actions">
          {inError && (
            <button
              type="button"
              tabIndex={tab}
              disabled={busy !== null || blocked !== null}
              aria-busy={busy === 'reset' || undefined}
              title={blocked ?? undefined}
              onClick={() => onAct(app.appId, 'reset')}
              aria-label={t('row.reset', { name: app.name })}
            >
              {busy === 'reset' ? t('common:actions.resetting') : t('common:actions.reset')}
            </button>
          )}
          {canWake && (
            <button
              type="button"
              tabIndex={tab}
              disabled={busy !== null || app.wakeRequestedAt !== null || blocked !== null}
              aria-busy={waking || undefined}
              title={blocked ?? undefined}
              onClick={() => onAct(app.appId, 'wake')}
              aria-label={t('row.wake', { name: app.name })}
            >
              {waking ? t('common:actions.waking') : t('common:actions.wake')}
            </button>
          )}
        </div>
      </td>
    </tr>
  );
});
