/**
 * The buttons that act on an app (Reset, Wake): busy while the call runs (aria-busy, a spinner and
 * "Resetting…"), and disabled with the reason while the dashboard is disconnected from the reaper or
 * the role signed in does not allow them.
 */
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { AppView } from '../../../shared/app-view.ts';
import type { Role } from '../../../shared/people.ts';
import { actionLabels, actionsBlockedReason } from '../../lib/explain.ts';
import { useCan } from '../../store/access.tsx';
import type { AppAction } from '../../store/change-actions.ts';
import { useDashboard } from '../../store/context.tsx';

/**
 * Why the app's actions are unavailable now, or null: the role signed in does not allow them (wake,
 * reset, keep awake, bulk need an operator; disabling the reaper for an app, an admin), or the
 * dashboard is disconnected.
 */
export function useActionsBlocked(need: Role = 'operator'): string | null {
  useTranslation();
  const role = useCan(need).reason;
  const connection = actionsBlockedReason(useDashboard((s) => s.connection));
  return role ?? connection;
}

interface Props {
  app: AppView;
  action: Exclude<AppAction, 'release'>;
  primary?: boolean;
  /** Busy for another reason too (a wake asked by a request, not started yet). */
  pending?: boolean;
  /** Told the answer of the action (null after a failure, which a toast tells). */
  onDone?: (answer: AppView | null) => void;
}

export function ActionButton({ app, action, primary = false, pending = false, onDone }: Props) {
  const act = useDashboard((s) => s.act);
  const perform = useDashboard((s) => s.perform);
  const busy = useDashboard((s) => s.busy[app.appId] ?? null);
  const blocked = useActionsBlocked();
  const reasonId = useId();
  const running = busy === action || pending;
  const labels = actionLabels(action);
  return (
    <>
      <button
        type="button"
        className={primary ? 'primary' : undefined}
        disabled={busy !== null || pending || blocked !== null}
        aria-busy={running || undefined}
        aria-describedby={blocked ? reasonId : undefined}
        title={blocked ?? undefined}
        onClick={() => perform(() => act(app.appId, action).then((answer) => onDone?.(answer)))}
      >
        {running && <span className="spinner" aria-hidden="true" />}
        {running ? labels.busy : labels.idle}
      </button>
      {blocked && (
        <span id={reasonId} className="visually-hidden">
          {blocked}
        </span>
      )}
    </>
  );
}
