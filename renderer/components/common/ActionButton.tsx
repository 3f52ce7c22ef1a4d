/**
 * The buttons that act on an app (Reset, Wake): busy while the call runs (aria-busy, a spinner and
 * "Resetting…"), and disabled with the reason while the dashboard is disconnected from the reaper.
 */
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { AppView } from '../../../shared/app-view.ts';
import { actionLabels, actionsBlockedReason } from '../../lib/explain.ts';
import type { AppAction } from '../../store/change-actions.ts';
import { useDashboard } from '../../store/context.tsx';

/** Why the app's actions are unavailable now (disconnected), or null. */
export function useActionsBlocked(): string | null {
  useTranslation();
  return actionsBlockedReason(useDashboard((s) => s.connection));
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
