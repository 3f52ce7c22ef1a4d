/** One row of the apps table: the app, its states, last request, sleep time, notes and actions. */
import { memo } from 'react';
import type { AppView } from '../../shared/app-view.ts';
import { noteCell, sleepCell } from '../lib/app-cells.ts';
import { ago, fullTime, SOURCE_LABELS, shortDuration } from '../lib/format.ts';
import { CleverStateLabel } from './CleverStateLabel.tsx';
import { ConsoleLink } from './ConsoleLink.tsx';
import { StateBadge } from './StateBadge.tsx';

interface RowProps {
  app: AppView;
  index: number;
  now: number;
  tabbable: boolean;
  selected: boolean;
  /** Picked for a bulk action. */
  picked: boolean;
  busy: string | null;
  onOpen: (appId: string) => void;
  onAct: (appId: string, action: 'reset' | 'wake') => Promise<unknown>;
  onFocusRow: (index: number) => void;
  /** Its box clicked: picked or not; with Shift, the range from the last one clicked. */
  onPick: (appId: string, range: boolean) => void;
}

export const AppRow = memo(function AppRow({
  app,
  index,
  now,
  tabbable,
  selected,
  picked,
  busy,
  onOpen,
  onAct,
  onFocusRow,
  onPick,
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
      className={`${selected ? 'selected' : ''} ${picked ? 'picked' : ''} ${app.state === 'Error' ? 'error' : ''}`}
      onFocus={() => onFocusRow(index)}
    >
      <td className="pick">
        <input
          type="checkbox"
          tabIndex={-1}
          checked={picked}
          aria-label={`Select ${app.name}`}
          // A click (with Shift or not) picks; the change itself is the store's.
          onChange={() => {}}
          onClick={(e) => onPick(app.appId, e.shiftKey)}
        />
      </td>
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
          <span className="sub">
            <span>{app.ownerName}</span> · <ConsoleLink app={app} tabIndex={tab} compact />
            {app.group && <span className="group-tag"> · group {app.group}</span>}
          </span>
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
          <CleverStateLabel app={app} />
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
